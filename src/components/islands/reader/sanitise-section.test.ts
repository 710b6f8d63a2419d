// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitiseSection } from './sanitise-section.ts';

const XHTML = 'application/xhtml+xml';
const HTML = 'text/html';

/** A section as foliate-js hands it over: serialised, with the book's resources as blob: URLs. */
const xhtml = (body: string, head = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="zh-CN" lang="zh-CN"><head><title>章</title>${head}</head><body>${body}</body></html>`;
const html = (body: string) => `<!DOCTYPE html><html><head><title>章</title></head><body>${body}</body></html>`;

/** Everything in a document that could run or reach out, read back as the frame will read it. */
function dangers(markup: string, type: string): string[] {
  const doc = new DOMParser().parseFromString(markup, type as DOMParserSupportedType);
  const found: string[] = [];
  const visit = (root: Document | DocumentFragment) => {
    for (const element of root.querySelectorAll('*')) {
      const name = element.localName.toLowerCase();
      if (/^(script|iframe|frame|object|embed|base|form|input|button|textarea|noscript|animate|set)$/.test(name))
        found.push(`<${name}>`);
      if (name === 'meta' && element.hasAttribute('http-equiv')) found.push('<meta http-equiv>');
      for (const attribute of element.attributes) {
        const value = attribute.value.replace(/[\u0000-\u0020]/g, '');
        if (/^on/i.test(attribute.localName)) found.push(`${name} ${attribute.name}`);
        if (/^(javascript|vbscript|data:text|data:application)/i.test(value))
          found.push(`${name} ${attribute.name}=${value}`);
        if (/^(srcdoc|formaction|action)$/i.test(attribute.localName)) found.push(`${name} ${attribute.name}`);
      }
      if (element instanceof HTMLTemplateElement) visit(element.content);
    }
  };
  visit(doc);
  return found;
}

const clean = (markup: string, type: string) => {
  const out = sanitiseSection(markup, type);
  return { out, dangers: dangers(out, type) };
};

const HOSTILE = [
  '<a href="java&#9;script:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" &#x6A;avascript&#x3A;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<svg xmlns="http://www.w3.org/2000/svg"><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="onmouseover" to="alert(1)"/></svg>',
  '<img src="x" onerror="alert(1)"/>',
  '<p onclick="alert(1)" style="color:red">x</p>',
  '<script>alert(1)</script>',
  '<iframe src="c2.xhtml"></iframe><iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf"/>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"/>',
  '<form action="https://evil.example/"><input name="q"/><button formaction="javascript:alert(1)">go</button><textarea>x</textarea></form>',
  '<base href="https://evil.example/"/>',
  '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  '<template><img src="x" onerror="alert(1)"/></template>',
];

describe('sanitiseSection', () => {
  it('takes out of XHTML sections whatever could run, however it is written', () => {
    for (const body of HOSTILE) expect(clean(xhtml(body), XHTML).dangers, body).toEqual([]);
  });

  it('takes it out of HTML sections too, including mutations on a second parse', () => {
    const mutations = [
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
      '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
      '<style></style><img src=x onerror=alert(1)>',
      '<svg><style><img src=x onerror=alert(1)></style></svg>',
      '<!--><img src=x onerror=alert(1)>-->',
      '<a href="java&#9;script:alert(1)">x</a><img src=x onerror=alert(1)//',
    ];
    for (const body of [...HOSTILE, ...mutations]) expect(clean(html(body), HTML).dangers, body).toEqual([]);
  });

  it('keeps what a book needs: text, ruby, images, SVG covers, links, style sheets, classes and epub:type', () => {
    const section = xhtml(
      [
        '<section epub:type="chapter" id="title" class="chapter"><h1 class="title" dir="auto">第一章</h1>',
        '<p style="text-indent: 2em">雨<ruby>雨<rp>（</rp><rt>あめ</rt><rp>）</rp></ruby>停了。',
        '<a href="c2.xhtml#n1" epub:type="noteref" id="r1">1</a> <a href="https://example.com/">作者</a></p>',
        '<img src="blob:http://localhost/1" alt="插图"/><img src="data:image/png;base64,AAAA" alt=""/>',
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100%" height="100%" viewBox="0 0 600 800" preserveAspectRatio="xMidYMid meet">',
        '<image width="600" height="800" xlink:href="blob:http://localhost/2"/></svg>',
        '<aside epub:type="footnote" id="n1"><p>注</p></aside></section>',
      ].join(''),
      '<link rel="stylesheet" type="text/css" href="blob:http://localhost/3"/><style>p { margin: 0 }</style><meta charset="utf-8"/>',
    );
    const { out, dangers: found } = clean(section, XHTML);
    expect(found).toEqual([]);
    const doc = new DOMParser().parseFromString(out, XHTML);
    expect(doc.querySelector('parsererror')).toBeNull();
    const EPUB = 'http://www.idpf.org/2007/ops';
    expect(doc.documentElement.getAttribute('xml:lang')).toBe('zh-CN');
    expect(doc.querySelector('section')?.getAttributeNS(EPUB, 'type')).toBe('chapter');
    expect(out).toContain('epub:type="noteref"');
    expect(doc.getElementById('title')?.className).toBe('chapter');
    expect(doc.querySelector('p')?.getAttribute('style')).toBe('text-indent: 2em');
    expect(doc.querySelector('rt')?.textContent).toBe('あめ');
    expect([...doc.querySelectorAll('rp')]).toHaveLength(2);
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'c2.xhtml#n1',
      'https://example.com/',
    ]);
    expect([...doc.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      'blob:http://localhost/1',
      'data:image/png;base64,AAAA',
    ]);
    const svg = doc.querySelector('svg')!;
    expect([svg.getAttribute('viewBox'), svg.getAttribute('preserveAspectRatio')]).toEqual([
      '0 0 600 800',
      'xMidYMid meet',
    ]);
    expect(doc.querySelector('image')?.getAttributeNS('http://www.w3.org/1999/xlink', 'href')).toBe(
      'blob:http://localhost/2',
    );
    expect(doc.querySelector('link')?.getAttribute('href')).toBe('blob:http://localhost/3');
    expect(doc.querySelector('style')?.textContent).toBe('p { margin: 0 }');
    expect(doc.getElementById('n1')?.textContent).toBe('注');
  });

  it('keeps the same in HTML sections, and answers HTML', () => {
    const out = sanitiseSection(
      html(
        '<p class="x" epub:type="chapter">雨<ruby>雨<rt>あめ</rt></ruby><img src="blob:http://localhost/1" alt=""></p>',
      ),
      HTML,
    );
    expect(out.startsWith('<!DOCTYPE html><html>')).toBe(true);
    expect(out).toContain(
      '<p class="x" epub:type="chapter">雨<ruby>雨<rt>あめ</rt></ruby><img src="blob:http://localhost/1" alt=""></p>',
    );
  });

  it('cleans SVG documents, and answers XML that is not well-formed with an empty page', () => {
    const svg = clean(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)"><image xlink:href="blob:http://localhost/1"/><script>alert(1)</script></svg>',
      'image/svg+xml',
    );
    expect(svg.dangers).toEqual([]);
    expect(svg.out).toContain('viewBox="0 0 10 10"');
    expect(svg.out).toContain('blob:http://localhost/1');
    const broken = clean(xhtml('<p>未闭合<img src=x onerror=alert(1)><br></p>'), XHTML);
    expect(broken.dangers).toEqual([]);
    expect(new DOMParser().parseFromString(broken.out, XHTML).body.innerHTML).toBe('');
  });
});
