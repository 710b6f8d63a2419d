import { describe, expect, it } from 'vitest';
import { docHref, entryText, groupDocs, parseExcerpt } from './docs.ts';

describe('docs helpers', () => {
  it('maps slugs to URLs', () => {
    expect(docHref('index')).toBe('/docs');
    expect(docHref('community/community-regulation')).toBe('/docs/community/community-regulation');
  });

  it('groups docs by folder in a fixed order, sorted by order', () => {
    const groups = groupDocs([
      { slug: 'community/b', title: 'B', order: 2 },
      { slug: 'community/a', title: 'A', order: 1 },
      { slug: 'index', title: 'Home', order: 1 },
      { slug: 'guide/x', title: 'X', order: 1 },
    ]);
    expect(groups.map((g) => g.id)).toEqual(['', 'guide', 'community']);
    expect(groups[2]?.items.map((i) => i.slug)).toEqual(['community/a', 'community/b']);
  });

  it('turns an excerpt into text parts, joining neighbouring highlights and decoding entities', () => {
    expect(parseExcerpt('请标记<mark>剧</mark><mark>透</mark>，&lt;b&gt; &amp; 更多')).toEqual([
      { text: '请标记', mark: false },
      { text: '剧透', mark: true },
      { text: '，<b> & 更多', mark: false },
    ]);
  });

  it('never passes markup through', () => {
    const parts = parseExcerpt('<img src=x onerror=alert(1)><mark><script>x</script></mark>');
    expect(parts.every((p) => !p.text.includes('<img') && !p.text.includes('<script>'))).toBe(true);
  });

  it('gives an entry its translated title and description, or the default ones', () => {
    const data = {
      title: '新手指南',
      description: '上手',
      en: { title: 'Getting started', description: 'Start here' },
    };
    expect(entryText(data, 'en')).toEqual({ title: 'Getting started', description: 'Start here' });
    expect(entryText(data, 'zh-CN')).toEqual({ title: '新手指南', description: '上手' });
    expect(entryText({ title: '友情链接', description: '站点' }, 'en')).toEqual({
      title: '友情链接',
      description: '站点',
    });
  });
});
