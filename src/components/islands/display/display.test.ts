// Vitest picks up *.test.ts only, so this file builds elements with createElement instead of JSX.
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ImageUrlOptions } from '../../../shared/image-url.ts';
import Avatar, {
  AVATAR_PIXELS,
  DEFAULT_AVATAR,
  avatarSrc,
  failedAfterError,
  shownAvatar,
  type AvatarProps,
} from './Avatar.tsx';
import RichText, { type RichTextProps } from './RichText.tsx';

const richText = (props: RichTextProps) => renderToStaticMarkup(h(RichText, props));
const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? [];
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const emojiUrl = (code: string) => `/emoji/${code}.png`;

describe('RichText', () => {
  it('renders plain text in a wrapping root that inherits its colour', () => {
    const html = richText({ text: '这部作品的剧情真不错' });
    expect(html).toBe('<div class="whitespace-pre-wrap break-words">这部作品的剧情真不错</div>');
  });

  it('adds the given class to the root', () => {
    expect(richText({ text: 'a', className: 'text-sm text-zinc-600' })).toBe(
      '<div class="whitespace-pre-wrap break-words text-sm text-zinc-600">a</div>',
    );
  });

  it('renders nothing inside the root for empty text', () => {
    expect(richText({ text: '' })).toBe('<div class="whitespace-pre-wrap break-words"></div>');
  });

  it('turns newlines into <br>', () => {
    expect(richText({ text: '第一行\n第二行\r\n\n第四行' })).toBe(
      '<div class="whitespace-pre-wrap break-words">第一行<br/>第二行<br/><br/>第四行</div>',
    );
  });

  it('escapes markup instead of rendering it', () => {
    const html = richText({ text: '<script>alert(1)</script><img src=x onerror=alert(1)> & "q"' });
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; ');
  });

  it('shows emoji markers as text without a resolver', () => {
    expect(richText({ text: '好耶[emoji:bili/doge]！' })).toBe(
      '<div class="whitespace-pre-wrap break-words">好耶[emoji:bili/doge]！</div>',
    );
  });

  it('renders resolved emoji as 36 px inline images', () => {
    const resolveEmoji = vi.fn(emojiUrl);
    const html = richText({ text: '好耶[emoji:bili/doge]', resolveEmoji });
    expect(resolveEmoji).toHaveBeenCalledWith('bili/doge');
    const [tag] = imgTags(html);
    expect(tag).toBeDefined();
    expect(attr(tag ?? '', 'src')).toBe('/emoji/bili/doge.png');
    expect(attr(tag ?? '', 'width')).toBe('36');
    expect(attr(tag ?? '', 'height')).toBe('36');
    expect(attr(tag ?? '', 'alt')).toBe('表情:bili/doge');
    expect(attr(tag ?? '', 'class')).toBe('inline-block size-9 align-text-bottom');
    expect(attr(tag ?? '', 'loading')).toBe('lazy');
    expect(attr(tag ?? '', 'decoding')).toBe('async');
    expect(attr(tag ?? '', 'data-preview-src')).toBeUndefined();
    expect(html.startsWith('<div class="whitespace-pre-wrap break-words">好耶<img ')).toBe(true);
  });

  it('shows unknown emoji as their marker text', () => {
    const resolveEmoji = (code: string) => (code === 'a/known' ? emojiUrl(code) : null);
    const html = richText({ text: '[emoji:a/known][emoji:a/unknown]尾', resolveEmoji });
    expect(imgTags(html)).toHaveLength(1);
    expect(html).toContain('>[emoji:a/unknown]尾</div>');
  });

  it('treats an empty resolved URL as unknown', () => {
    expect(richText({ text: '[emoji:a/b]', resolveEmoji: () => '' })).toContain('>[emoji:a/b]<');
  });

  it('renders images as previewable, lazy thumbnails with their original URL', () => {
    const url = 'https://i.example.com/pics/a.png?x=1&y=2';
    const html = richText({ text: `看图[img]${url}[/img]`, previewGroup: 'comment-7' });
    const [tag] = imgTags(html);
    expect(attr(tag ?? '', 'src')).toBe('https://i.example.com/pics/a.png?x=1&amp;y=2');
    expect(attr(tag ?? '', 'data-preview-src')).toBe('https://i.example.com/pics/a.png?x=1&amp;y=2');
    expect(attr(tag ?? '', 'data-preview-group')).toBe('comment-7');
    expect(attr(tag ?? '', 'alt')).toBe('图片1');
    expect(attr(tag ?? '', 'loading')).toBe('lazy');
    expect(attr(tag ?? '', 'class')).toContain('max-h-48');
    expect(attr(tag ?? '', 'class')).toContain('rounded-md');
    expect(attr(tag ?? '', 'class')).toContain('cursor-zoom-in');
    expect(html).not.toContain('/img?');
  });

  it('numbers images and puts them in one preview group per text', () => {
    const html = richText({
      text: '[img]https://a.com/1.png[/img]\n[img]https://b.com/2.jpg[/img]',
    });
    const tags = imgTags(html);
    expect(tags.map((t) => attr(t, 'alt'))).toEqual(['图片1', '图片2']);
    const groups = tags.map((t) => attr(t, 'data-preview-group'));
    expect(groups[0]).toBeTruthy();
    expect(groups[1]).toBe(groups[0]);
  });

  it('gives each text its own preview group', () => {
    const text = '[img]https://a.com/1.png[/img]';
    const html = renderToStaticMarkup(h('section', null, h(RichText, { text }), h(RichText, { text })));
    const groups = imgTags(html).map((t) => attr(t, 'data-preview-group'));
    expect(groups).toHaveLength(2);
    expect(groups[0]).not.toBe(groups[1]);
  });

  it('keeps unsafe image markers as escaped text', () => {
    const html = richText({
      text: '[img]javascript:alert(1)[/img][img]https://a.com/x.png" onerror="alert(1)[/img][img]data:image/png;base64,AA[/img]',
    });
    expect(imgTags(html)).toHaveLength(0);
    expect(html).toContain('[img]javascript:alert(1)[/img]');
    expect(html).toContain('[img]https://a.com/x.png&quot; onerror=&quot;alert(1)[/img]');
  });

  it('clamps to maxLines with an inline line clamp', () => {
    const html = richText({ text: 'a\nb\nc\nd', maxLines: 3 });
    expect(html).toContain(
      'style="display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;overflow:hidden"',
    );
  });

  it.each([0, -1, Number.NaN, Infinity])('ignores maxLines %s', (maxLines) => {
    expect(richText({ text: 'a', maxLines })).not.toContain('style=');
  });

  it('renders a mixed comment in order', () => {
    const html = richText({
      text: '楼主好人[emoji:表情/赞]\n附图：[img]https://lain.bgm.tv/a.jpg[/img]。',
      resolveEmoji: emojiUrl,
      previewGroup: 'g',
    });
    // Image classes are checked above; here only the order of the parts matters.
    expect(html.replace(/ class="[^"]*"/g, '')).toBe(
      '<div>楼主好人' +
        '<img src="/emoji/表情/赞.png" width="36" height="36" alt="表情:表情/赞" loading="lazy" decoding="async"/>' +
        '<br/>附图：' +
        '<img src="https://lain.bgm.tv/a.jpg" alt="图片1" loading="lazy" decoding="async" referrerPolicy="no-referrer" data-preview-src="https://lain.bgm.tv/a.jpg" data-preview-group="g"/>' +
        '。</div>',
    );
  });
});

const imageOptions: ImageUrlOptions = { imageBedUrl: 'https://img.hikari.test', allowedHosts: ['lain.bgm.tv'] };
const avatar = (props: Partial<AvatarProps> = {}) =>
  imgTags(renderToStaticMarkup(h(Avatar, { name: '光', imageOptions, ...props })))[0] ?? '';
const transformed = (url: string) =>
  `/img?url=${encodeURIComponent(url)}&amp;w=100&amp;h=100&amp;q=85&amp;f=avif&amp;fit=cover`;

describe('Avatar', () => {
  it('requests an allowed image at 100×100 avif, medium and round by default', () => {
    const tag = avatar({ src: 'https://img.hikari.test/avatars/1.png' });
    expect(attr(tag, 'src')).toBe(transformed('https://img.hikari.test/avatars/1.png'));
    expect(attr(tag, 'alt')).toBe('光');
    expect(attr(tag, 'width')).toBe('40');
    expect(attr(tag, 'height')).toBe('40');
    const classes = attr(tag, 'class')?.split(' ') ?? [];
    expect(classes).toEqual(
      expect.arrayContaining(['size-10', 'rounded-full', 'bg-zinc-100', 'dark:bg-zinc-800', 'object-cover']),
    );
    expect(classes).not.toContain('rounded-md');
  });

  it('requests a /media/ path through the image endpoint', () => {
    expect(attr(avatar({ src: '/media/avatars/2.jpg' }), 'src')).toBe(transformed('/media/avatars/2.jpg'));
  });

  it('uses other hosts as they are', () => {
    expect(attr(avatar({ src: 'https://elsewhere.example/a.png' }), 'src')).toBe('https://elsewhere.example/a.png');
  });

  it.each([undefined, null, '', '   '])('shows the default avatar for src %j', (src) => {
    expect(attr(avatar({ src }), 'src')).toBe(DEFAULT_AVATAR);
  });

  it.each([
    ['small', '32', 'size-8'],
    ['medium', '40', 'size-10'],
    ['large', '48', 'size-12'],
  ] as const)('sizes %s to %s px', (size, px, sizeClass) => {
    const tag = avatar({ size });
    expect(attr(tag, 'width')).toBe(px);
    expect(attr(tag, 'height')).toBe(px);
    expect(attr(tag, 'class')?.split(' ')).toContain(sizeClass);
    expect(AVATAR_PIXELS[size]).toBe(Number(px));
  });

  it('rounds square avatars slightly and adds the given class', () => {
    const classes = attr(avatar({ shape: 'square', className: 'ring-2 ring-white' }), 'class')?.split(' ') ?? [];
    expect(classes).toEqual(expect.arrayContaining(['rounded-md', 'ring-2', 'ring-white']));
    expect(classes).not.toContain('rounded-full');
  });

  it('escapes the name in alt', () => {
    const html = renderToStaticMarkup(h(Avatar, { name: '"><script>x</script>', imageOptions }));
    expect(html).not.toContain('<script');
    expect(html).toContain('alt="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });

  it('loads lazily', () => {
    expect(attr(avatar(), 'loading')).toBe('lazy');
  });
});

describe('Avatar fallback', () => {
  it('maps an empty src to the default and others through the image rule', () => {
    expect(avatarSrc(null, imageOptions)).toBe(DEFAULT_AVATAR);
    expect(avatarSrc('https://lain.bgm.tv/a.jpg', imageOptions)).toMatch(/^\/img\?url=.*&f=avif&fit=cover$/);
  });

  it('switches to the default once after an error and never loops', () => {
    const wanted = avatarSrc('https://lain.bgm.tv/a.jpg', imageOptions);
    let failed: string | null = null;
    let shown = shownAvatar(wanted, failed);
    expect(shown).toBe(wanted);
    const seen = [shown];
    // Every image keeps failing, the default too: the shown URL must settle on the default.
    for (let i = 0; i < 5; i++) {
      failed = failedAfterError(shown, failed);
      shown = shownAvatar(wanted, failed);
      seen.push(shown);
    }
    expect(seen).toEqual([wanted, DEFAULT_AVATAR, DEFAULT_AVATAR, DEFAULT_AVATAR, DEFAULT_AVATAR, DEFAULT_AVATAR]);
  });

  it('tries a new src after an earlier one failed', () => {
    const first = avatarSrc('https://lain.bgm.tv/a.jpg', imageOptions);
    const failed = failedAfterError(first, null);
    expect(shownAvatar(first, failed)).toBe(DEFAULT_AVATAR);
    const second = avatarSrc('https://lain.bgm.tv/b.jpg', imageOptions);
    expect(shownAvatar(second, failed)).toBe(second);
  });

  it('does not mark the default as failed', () => {
    expect(failedAfterError(DEFAULT_AVATAR, null)).toBeNull();
    expect(failedAfterError(DEFAULT_AVATAR, 'x')).toBe('x');
  });
});
