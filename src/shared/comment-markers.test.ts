import { describe, expect, it } from 'vitest';
import { MAX_MARKER_INPUT, parseMarkers, type MarkerToken } from './comment-markers.ts';

const text = (t: string): MarkerToken => ({ type: 'text', text: t });
const newline: MarkerToken = { type: 'newline' };
const emoji = (set: string, name: string): MarkerToken => ({
  type: 'emoji',
  code: `${set}/${name}`,
  set,
  name,
  raw: `[emoji:${set}/${name}]`,
});
const image = (url: string, index: number, raw = `[img]${url}[/img]`): MarkerToken => ({
  type: 'image',
  url,
  index,
  raw,
});
const count = (tokens: MarkerToken[], type: MarkerToken['type']) => tokens.filter((t) => t.type === type).length;

describe('parseMarkers: text and newlines', () => {
  it('returns nothing for empty input', () => {
    expect(parseMarkers('')).toEqual([]);
  });

  it('keeps plain text as one token', () => {
    expect(parseMarkers('这部作品的剧情真不错')).toEqual([text('这部作品的剧情真不错')]);
  });

  it('turns \\n and \\r\\n into newline tokens, one each', () => {
    expect(parseMarkers('第一行\n第二行\r\n第三行')).toEqual([
      text('第一行'),
      newline,
      text('第二行'),
      newline,
      text('第三行'),
    ]);
    expect(parseMarkers('\n\r\n\n')).toEqual([newline, newline, newline]);
  });

  it('keeps a lone \\r as text', () => {
    expect(parseMarkers('a\rb')).toEqual([text('a\rb')]);
  });

  it('merges the text of a rejected marker with its neighbours', () => {
    expect(parseMarkers('前[emoji:bad]后')).toEqual([text('前[emoji:bad]后')]);
    expect(parseMarkers('[x] [y] [img]nope[/img]')).toEqual([text('[x] [y] [img]nope[/img]')]);
  });
});

describe('parseMarkers: emoji', () => {
  it('parses an emoji marker between text', () => {
    expect(parseMarkers('好耶[emoji:bili/doge]！')).toEqual([text('好耶'), emoji('bili', 'doge'), text('！')]);
  });

  it('accepts letters of any script, digits, _, - and .', () => {
    expect(parseMarkers('[emoji:小电视/哭泣]')).toEqual([emoji('小电视', '哭泣')]);
    expect(parseMarkers('[emoji:set_1-a.b/Name.2_x-y]')).toEqual([emoji('set_1-a.b', 'Name.2_x-y')]);
    expect(parseMarkers('[emoji:かわいい/ねこ]')).toEqual([emoji('かわいい', 'ねこ')]);
  });

  it('parses neighbouring emoji markers', () => {
    expect(parseMarkers('[emoji:a/b][emoji:c/d]\n[emoji:e/f]')).toEqual([
      emoji('a', 'b'),
      emoji('c', 'd'),
      newline,
      emoji('e', 'f'),
    ]);
  });

  it('accepts parts of exactly 64 characters and rejects 65', () => {
    const p64 = 'a'.repeat(64);
    const p65 = 'a'.repeat(65);
    expect(parseMarkers(`[emoji:${p64}/${p64}]`)).toEqual([emoji(p64, p64)]);
    expect(parseMarkers(`[emoji:${p65}/b]`)).toEqual([text(`[emoji:${p65}/b]`)]);
    expect(parseMarkers(`[emoji:a/${p65}]`)).toEqual([text(`[emoji:a/${p65}]`)]);
  });

  it.each([
    '[emoji:/]',
    '[emoji:]',
    '[emoji:a/]',
    '[emoji:/b]',
    '[emoji:ab]',
    '[emoji:a/b/c]',
    '[emoji:a b/c]',
    '[emoji:a/b c]',
    '[emoji: a/b]',
    '[emoji:a/<b>]',
    '[emoji:a/b"]',
    '[emoji:a/b;]',
    '[emoji:../x]',
    '[emoji:a/..]',
    '[emoji:a/b',
    '[EMOJI:a/b]',
    '[emoji :a/b]',
  ])('keeps %j as text', (input) => {
    expect(parseMarkers(input)).toEqual([text(input)]);
  });

  it('keeps a marker broken by a newline as text', () => {
    expect(parseMarkers('[emoji:a/b\n]')).toEqual([text('[emoji:a/b'), newline, text(']')]);
  });

  it('recovers a valid marker that follows an invalid opening', () => {
    expect(parseMarkers('[emoji:[emoji:a/b]')).toEqual([text('[emoji:'), emoji('a', 'b')]);
    expect(parseMarkers('[emoji:x y][emoji:a/b]')).toEqual([text('[emoji:x y]'), emoji('a', 'b')]);
  });
});

describe('parseMarkers: images', () => {
  it('parses http and https images and numbers them from 1', () => {
    expect(parseMarkers('图一[img]https://a.com/x.png[/img]图二[img]http://b.org/y.jpg?s=1[/img]')).toEqual([
      text('图一'),
      image('https://a.com/x.png', 1),
      text('图二'),
      image('http://b.org/y.jpg?s=1', 2),
    ]);
  });

  it('accepts any case in the scheme and trims the URL', () => {
    expect(parseMarkers('[img]HTTPS://a.com/x.png[/img]')).toEqual([image('HTTPS://a.com/x.png', 1)]);
    expect(parseMarkers('[img]  https://a.com/x.png \t[/img]')).toEqual([
      image('https://a.com/x.png', 1, '[img]  https://a.com/x.png \t[/img]'),
    ]);
  });

  it('numbers images across lines and emoji', () => {
    const tokens = parseMarkers('[img]https://a.com/1.png[/img]\n[emoji:a/b][img]https://a.com/2.png[/img]');
    expect(tokens.filter((t) => t.type === 'image').map((t) => t.index)).toEqual([1, 2]);
  });

  it('accepts a URL of exactly 2048 characters and rejects 2049', () => {
    const prefix = 'https://a.com/';
    const ok = prefix + 'x'.repeat(2048 - prefix.length);
    const long = ok + 'x';
    expect(parseMarkers(`[img]${ok}[/img]`)).toEqual([image(ok, 1)]);
    expect(parseMarkers(`[img]${long}[/img]`)).toEqual([text(`[img]${long}[/img]`)]);
  });

  it.each([
    '[img][/img]',
    '[img]   [/img]',
    '[img]javascript:alert(1)[/img]',
    '[img]JavaScript:alert(1)//https://a.com/x.png[/img]',
    '[img]data:image/png;base64,iVBORw0KGgo=[/img]',
    '[img]blob:https://a.com/1234[/img]',
    '[img]//evil.com/x.png[/img]',
    '[img]/media/x.png[/img]',
    '[img]ftp://a.com/x.png[/img]',
    '[img]https://[/img]',
    '[img]http://[/img]',
    '[img]https://a.com/x.png" onerror="alert(1)[/img]',
    "[img]https://a.com/x.png' onerror='alert(1)[/img]",
    '[img]https://a.com/<script>.png[/img]',
    '[img]https://a.com/x>.png[/img]',
    '[img]https://a.com\\x.png[/img]',
    '[img]https://a.com/x y.png[/img]',
    '[img]https://a.com/x\u3000y.png[/img]',
    '[img]https://a.com/x\u0000.png[/img]',
    '[img]https://a .com/x.png[/img]',
    '[img]http://a:b:c:d/x.png[/img]',
    '[img]https://a.com/x.png',
    '[IMG]https://a.com/x.png[/IMG]',
    '[img]https://a.com/x.png[/IMG]',
  ])('keeps %j as text', (input) => {
    const tokens = parseMarkers(input);
    expect(count(tokens, 'image')).toBe(0);
    expect(tokens).toEqual([text(input)]);
  });

  it('keeps an image URL split by a newline as text', () => {
    expect(parseMarkers('[img]https://a.com/\nx.png[/img]')).toEqual([
      text('[img]https://a.com/'),
      newline,
      text('x.png[/img]'),
    ]);
  });

  it('does not nest markers: marker text inside a valid image URL is part of the URL', () => {
    expect(parseMarkers('[img]https://a.com/[emoji:a/b].png[/img]')).toEqual([
      image('https://a.com/[emoji:a/b].png', 1),
    ]);
  });

  it('parses an emoji inside a rejected image marker', () => {
    expect(parseMarkers('[img]javascript:[emoji:a/b][/img]')).toEqual([
      text('[img]javascript:'),
      emoji('a', 'b'),
      text('[/img]'),
    ]);
  });

  it('pairs an opening with the nearest closing', () => {
    expect(parseMarkers('[img][img]https://a.com/x.png[/img][/img]')).toEqual([
      text('[img]'),
      image('https://a.com/x.png', 1),
      text('[/img]'),
    ]);
  });

  it('accepts brackets in the URL path; the first [/img] ends the marker', () => {
    expect(parseMarkers('[img]https://a.com/a[1].png[/img]')).toEqual([image('https://a.com/a[1].png', 1)]);
  });
});

describe('parseMarkers: hostile input', () => {
  it('keeps markup verbatim as text', () => {
    const input = '<script>alert(1)</script><img src=x onerror=alert(1)>&lt;';
    expect(parseMarkers(input)).toEqual([text(input)]);
  });

  it('mixes Chinese text, emoji, images and newlines', () => {
    expect(
      parseMarkers('楼主好人[emoji:表情包/点赞]\r\n附图：[img]https://lain.bgm.tv/pic/cover/l/a.jpg[/img]。'),
    ).toEqual([
      text('楼主好人'),
      emoji('表情包', '点赞'),
      newline,
      text('附图：'),
      image('https://lain.bgm.tv/pic/cover/l/a.jpg', 1),
      text('。'),
    ]);
  });

  it('returns every character of the input exactly once', () => {
    const input = '[img]x[/img][emoji:a/b]\r\n[img]https://a.com/x.png[/img][[]]][emoji:[img]';
    const rebuilt = parseMarkers(input)
      .map((t) => (t.type === 'text' ? t.text : t.type === 'newline' ? '\r\n' : t.raw))
      .join('');
    expect(rebuilt).toBe(input);
  });

  it('parses markers only in the first 20 000 characters, the rest as text and newlines', () => {
    const marker = '[emoji:a/b]';
    const head = 'x'.repeat(MAX_MARKER_INPUT - marker.length);
    const tokens = parseMarkers(`${head}${marker}${marker}\nmore`);
    expect(tokens).toEqual([text(head), emoji('a', 'b'), text(marker), newline, text('more')]);
  });

  it('does not accept a marker that straddles the 20 000 character limit', () => {
    const head = 'x'.repeat(MAX_MARKER_INPUT - 5);
    const tokens = parseMarkers(`${head}[img]https://a.com/x.png[/img]`);
    expect(tokens).toEqual([text(`${head}[img]https://a.com/x.png[/img]`)]);
  });

  it('keeps \\r\\n as one newline across the 20 000 character limit', () => {
    const head = 'x'.repeat(MAX_MARKER_INPUT - 1);
    expect(parseMarkers(`${head}\r\ny`)).toEqual([text(head), newline, text('y')]);
  });

  it('handles 10 000 emoji markers in one input', () => {
    const marker = '[emoji:a/b]';
    const input = marker.repeat(10_000);
    const tokens = parseMarkers(input);
    const parsed = Math.floor(MAX_MARKER_INPUT / marker.length);
    expect(count(tokens, 'emoji')).toBe(parsed);
    expect(tokens.at(-1)).toEqual(text(input.slice(parsed * marker.length)));
    expect(tokens).toHaveLength(parsed + 1);
  });

  it('handles 10 000 emoji markers on separate lines within the limit', () => {
    const tokens = parseMarkers('[emoji:a/b]\n'.repeat(10_000));
    // Every marker starting within the first 20 000 characters (12 per line) is parsed.
    const parsed = Math.floor(MAX_MARKER_INPUT / 12) + (MAX_MARKER_INPUT % 12 >= 11 ? 1 : 0);
    expect(count(tokens, 'emoji')).toBe(parsed);
    expect(count(tokens, 'newline')).toBe(10_000);
  });

  it('handles 10 000 image markers in one input', () => {
    const marker = '[img]http://a.co/1.png[/img]';
    const input = marker.repeat(10_000);
    const tokens = parseMarkers(input);
    const parsed = Math.floor(MAX_MARKER_INPUT / marker.length);
    expect(count(tokens, 'image')).toBe(parsed);
    const last = tokens.filter((t) => t.type === 'image').at(-1);
    expect(last).toMatchObject({ index: parsed });
    expect(tokens).toHaveLength(parsed + 1);
  });

  it('stays linear on many unclosed or invalid openings', () => {
    const cases = [
      '[img]'.repeat(4000),
      '[emoji:'.repeat(3000),
      `${'[img]'.repeat(3000)}${' '.repeat(4000)}[/img]`,
      `${'[img]https://a.com/'.repeat(1000)}[/img]`,
      `${'[emoji:a/'.repeat(2000)}]`,
      '['.repeat(20_000),
      `[img]https://a.com/${'x'.repeat(200_000)}`,
    ];
    for (const input of cases) {
      const tokens = parseMarkers(input);
      expect(count(tokens, 'emoji') + count(tokens, 'image')).toBeLessThanOrEqual(1);
    }
  });

  it('handles very long input', () => {
    const input = '长文'.repeat(100_000) + '[emoji:a/b]';
    expect(parseMarkers(input)).toEqual([text(input)]);
  });
});
