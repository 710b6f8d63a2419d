// Pure parts of the uploader, the picker, the composer and the emoji pages.
import { describe, expect, it } from 'vitest';
import { emojiNameFromFile } from './EmojiAdd.tsx';
import { moveItem } from './EmojiManager.tsx';
import { emojiMarker, gridMove } from './EmojiPicker.tsx';
import { imageLinkProblem, pickFiles } from './ImageUploader.tsx';
import { imageMarkers, insertAt } from './RichCommentInput.tsx';

const file = (name: string, type: string) => new File([new Uint8Array(4)], name, { type });

describe('the image uploader', () => {
  it('takes http and https links only (spec §5)', () => {
    expect(imageLinkProblem('')).toBe('uploader.linkEmpty');
    expect(imageLinkProblem('   ')).toBe('uploader.linkEmpty');
    expect(imageLinkProblem('ftp://a.example/x.png')).toBe('uploader.linkInvalid');
    expect(imageLinkProblem('javascript:alert(1)')).toBe('uploader.linkInvalid');
    expect(imageLinkProblem('//a.example/x.png')).toBe('uploader.linkInvalid');
    expect(imageLinkProblem('https://a.example/x y.png')).toBe('uploader.linkInvalid');
    expect(imageLinkProblem('https://')).toBe('uploader.linkInvalid');
    expect(imageLinkProblem(' https://a.example/x.png ')).toBeNull();
    expect(imageLinkProblem('HTTP://a.example/x.png')).toBeNull();
  });

  it('keeps images only, and no more than there is room for', () => {
    const files = [
      file('a.png', 'image/png'),
      file('b.txt', 'text/plain'),
      file('c.jpg', 'image/jpeg'),
      file('d.gif', 'image/gif'),
    ];
    expect(pickFiles(files, 9).map((f) => f.name)).toEqual(['a.png', 'c.jpg', 'd.gif']);
    expect(pickFiles(files, 2).map((f) => f.name)).toEqual(['a.png', 'c.jpg']);
    expect(pickFiles(files, 0)).toEqual([]);
    expect(pickFiles(files, -3)).toEqual([]);
  });
});

describe('the emoji picker', () => {
  it('moves through the grid with arrows, Home and End, never out of it', () => {
    expect(gridMove('ArrowRight', 0, 10, 8)).toBe(1);
    expect(gridMove('ArrowRight', 9, 10, 8)).toBe(9);
    expect(gridMove('ArrowLeft', 0, 10, 8)).toBe(0);
    expect(gridMove('ArrowDown', 1, 10, 8)).toBe(9);
    expect(gridMove('ArrowDown', 3, 10, 8)).toBe(3);
    expect(gridMove('ArrowUp', 9, 10, 8)).toBe(1);
    expect(gridMove('ArrowUp', 2, 10, 8)).toBe(2);
    expect(gridMove('Home', 5, 10, 8)).toBe(0);
    expect(gridMove('End', 5, 10, 8)).toBe(9);
    expect(gridMove('a', 5, 10, 8)).toBeNull();
    expect(gridMove('ArrowRight', 0, 0, 8)).toBeNull();
  });

  it('writes the marker of spec §2.10', () => {
    expect(emojiMarker('hikari', 'smile')).toBe('[emoji:hikari/smile]');
  });
});

describe('the rich comment input', () => {
  it('puts an insert in place of the selection and says where the caret goes', () => {
    expect(insertAt('hello world', '[emoji:a/b]', 5, 5)).toEqual({ value: 'hello[emoji:a/b] world', caret: 16 });
    expect(insertAt('hello world', 'X', 0, 5)).toEqual({ value: 'X world', caret: 1 });
    expect(insertAt('abc', 'X', 99, 120)).toEqual({ value: 'abcX', caret: 4 });
    expect(insertAt('abc', 'X', 2, 1)).toEqual({ value: 'abXc', caret: 3 });
  });

  it('writes one image marker per line', () => {
    expect(imageMarkers(['https://a/1.webp', 'https://a/2.webp'])).toBe(
      '[img]https://a/1.webp[/img]\n[img]https://a/2.webp[/img]',
    );
    expect(imageMarkers([])).toBe('');
  });
});

describe('the emoji pages', () => {
  it('names an emoji after its file, in the characters a marker can hold', () => {
    expect(emojiNameFromFile('smile.png', 'emoji1')).toBe('smile');
    expect(emojiNameFromFile('开心 脸!.webp', 'emoji1')).toBe('开心_脸');
    expect(emojiNameFromFile('..png', 'emoji1')).toBe('emoji1');
    expect(emojiNameFromFile('[x]/y.gif', 'emoji1')).toBe('x_y');
    expect(emojiNameFromFile(null, 'emoji7')).toBe('emoji7');
    expect(emojiNameFromFile(`${'a'.repeat(50)}.png`, 'e')).toHaveLength(32);
  });

  it('moves an item within a list, ignoring moves out of it', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 3)).toEqual(['a', 'b', 'c']);
  });
});
