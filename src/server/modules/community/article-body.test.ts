import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../platform/errors.ts';
import { ARTICLE_BODY_MAX_JSON, ARTICLE_TEXT_MAX, renderArticleBody } from './article-body.ts';

const text = (value: string, marks?: unknown[]) => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });
const doc = (...content: unknown[]) => ({ type: 'doc', content });

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'strong',
  'em',
  's',
  'u',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'a',
  'img',
  'details',
  'summary',
  'div',
]);

/** Parses the HTML as a browser would and checks every element and attribute it would act on. */
function expectInert(html: string) {
  const problems: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (!ALLOWED_TAGS.has(name)) problems.push(`<${name}>`);
      for (const [attribute, value] of Object.entries(attributes)) {
        if (/^on/i.test(attribute) || attribute === 'style') problems.push(`${name}[${attribute}]`);
        if ((attribute === 'href' || attribute === 'src') && !/^(https?:|mailto:|\/(?!\/))/i.test(value.trim()))
          problems.push(`${name}[${attribute}=${value}]`);
      }
    },
  });
  parser.write(html);
  parser.end();
  expect(problems).toEqual([]);
}

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof HttpError ? error.status : 'not an HttpError';
  }
  return 'no error';
};

describe('article bodies', () => {
  it('renders every block of the editor', () => {
    const body = renderArticleBody(
      doc(
        { type: 'heading', attrs: { level: 2 }, content: [text('第一章')] },
        paragraph(
          text('粗体', [{ type: 'bold' }]),
          text('链接', [{ type: 'link', attrs: { href: 'https://example.com/a?b=1' } }]),
          { type: 'emoji', attrs: { code: 'hikari/smile', src: '/img?url=%2Fmedia%2Femoji%2F1.webp&w=36' } },
        ),
        { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('一'))] }] },
        { type: 'orderedList', attrs: { start: 3 }, content: [{ type: 'listItem', content: [paragraph(text('三'))] }] },
        { type: 'blockquote', content: [paragraph(text('引用'))] },
        { type: 'codeBlock', attrs: { language: 'TypeScript' }, content: [text('const a = 1 < 2;')] },
        { type: 'horizontalRule' },
        { type: 'image', attrs: { src: 'https://img.example.com/a.webp', alt: '插图' } },
        { type: 'spoiler', content: [paragraph(text('结局是……'))] },
      ),
    );
    expect(body.html).toContain('<h2>第一章</h2>');
    expect(body.html).toContain('<strong>粗体</strong>');
    expect(body.html).toContain(
      '<a target="_blank" rel="nofollow ugc noopener" href="https://example.com/a?b=1">链接</a>',
    );
    expect(body.html).toContain('alt="表情:hikari/smile"');
    expect(body.html).toContain('<ol start="3">');
    expect(body.html).toContain('<blockquote><p>引用</p></blockquote>');
    expect(body.html).toContain('<code class="language-typescript">const a = 1 &lt; 2;</code>');
    expect(body.html).toContain('<hr />');
    expect(body.html).toContain(
      '<details class="hk-spoiler"><summary></summary><div class="hk-spoiler-body"><p>结局是……</p></div></details>',
    );
    expect(body.images).toEqual(['https://img.example.com/a.webp']);
    expect(body.text).toBe('第一章\n粗体链接\n一\n三\n引用\nconst a = 1 < 2;\n结局是……');
    expectInert(body.html);
  });

  it('keeps a stored document that renders the same again', () => {
    const first = renderArticleBody(doc(paragraph(text('你好', [{ type: 'italic' }]))));
    const again = renderArticleBody(first.doc);
    expect(again.html).toBe(first.html);
    expect(again.doc).toEqual(first.doc);
  });

  it('drops links, images and emoji that are not safe, keeping their text', () => {
    const body = renderArticleBody(
      doc(
        paragraph(
          text('a', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }]),
          text('b', [{ type: 'link', attrs: { href: ' JaVaScRiPt:alert(1)' } }]),
          text('c', [{ type: 'link', attrs: { href: 'data:text/html,<script>alert(1)</script>' } }]),
          text('d', [{ type: 'link', attrs: { href: 'https://ok.example/', onclick: 'alert(1)', target: '_self' } }]),
          { type: 'emoji', attrs: { code: '../../etc/passwd', src: '/img' } },
          { type: 'emoji', attrs: { code: 'a/b', src: '//evil.example/x.png' } },
          { type: 'emoji', attrs: { code: 'a/b', src: 'javascript:alert(1)' } },
        ),
        { type: 'image', attrs: { src: 'javascript:alert(1)' } },
        { type: 'image', attrs: { src: 'data:image/svg+xml;base64,PHN2Zz4=' } },
        { type: 'image', attrs: { src: 'https://ok.example/x.png" onerror="alert(1)' } },
      ),
    );
    expect(body.html).toBe('<p>abc<a target="_blank" rel="nofollow ugc noopener" href="https://ok.example/">d</a></p>');
    expect(body.images).toEqual([]);
  });

  const payloads = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg onload=alert(1)>',
    "';alert(String.fromCharCode(88,83,83))//",
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<style>body{display:none}</style>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '\u0000<script>\u0007alert(1)</script>',
  ];

  it.each(payloads)('renders %j as text wherever it is put', (payload) => {
    const body = renderArticleBody(
      doc(
        { type: 'heading', attrs: { level: 3, onclick: payload }, content: [text(payload)] },
        paragraph(text(payload, [{ type: 'link', attrs: { href: `https://x.example/?q=${payload}` } }])),
        { type: 'codeBlock', attrs: { language: payload }, content: [text(payload)] },
        { type: 'image', attrs: { src: 'https://img.example/a.png', alt: payload, title: payload } },
        {
          type: 'orderedList',
          attrs: { start: payload },
          content: [{ type: 'listItem', content: [paragraph(text('x'))] }],
        },
      ),
    );
    expectInert(body.html);
  });

  it('refuses what is not a document of the schema', () => {
    expect(status(() => renderArticleBody(null))).toBe(400);
    expect(status(() => renderArticleBody('<p>hi</p>'))).toBe(400);
    expect(status(() => renderArticleBody({ type: 'paragraph' }))).toBe(400);
    expect(status(() => renderArticleBody(doc({ type: 'script', content: [text('x')] })))).toBe(400);
    expect(status(() => renderArticleBody(doc(paragraph(text('x', [{ type: 'font', attrs: {} }])))))).toBe(400);
    // A heading directly in a list item, text at the top level: not what the schema allows.
    expect(status(() => renderArticleBody(doc(text('loose'))))).toBe(400);
    expect(status(() => renderArticleBody(doc(paragraph({ type: 'paragraph' }))))).toBe(400);
    expect(status(() => renderArticleBody(doc(paragraph({ type: 'text', text: 42 }))))).toBe(400);
    expect(status(() => renderArticleBody(doc(paragraph(text('x')), 'x')))).toBe(400);
  });

  it('refuses bodies too large or too deep, before any work on them', () => {
    const big = doc(paragraph(text('字'.repeat(ARTICLE_BODY_MAX_JSON / 2))));
    expect(status(() => renderArticleBody(big))).toBe(413);
    const long = doc(...Array.from({ length: 11 }, () => paragraph(text('a'.repeat(ARTICLE_TEXT_MAX / 10)))));
    expect(status(() => renderArticleBody(long))).toBe(400);
    let deep: unknown = paragraph(text('x'));
    for (let i = 0; i < 100; i++) deep = { type: 'blockquote', content: [deep] };
    expect(status(() => renderArticleBody(doc(deep)))).toBe(400);
    const cyclic: { type: string; content: unknown[] } = { type: 'doc', content: [] };
    cyclic.content.push(cyclic);
    expect(status(() => renderArticleBody(cyclic))).toBe(400);
  });

  it('gives an empty document one empty paragraph', () => {
    expect(renderArticleBody({ type: 'doc', content: [] }).html).toBe('<p></p>');
    expect(renderArticleBody({ type: 'doc' }).text).toBe('');
  });
});
