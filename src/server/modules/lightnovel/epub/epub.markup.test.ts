import { describe, expect, it } from 'vitest';
import { checkMarkup, decodeEntities, decodeText } from './epub.markup.ts';
import { EpubRejection } from './epub.rejection.ts';

/** The code a markup text is refused with, or null when it is accepted. */
async function refused(markup: string): Promise<string | null> {
  try {
    await checkMarkup('c.xhtml', markup);
    return null;
  } catch (error) {
    return error instanceof EpubRejection ? error.problem : 'threw';
  }
}

/** Each case: what hides the markup after it from a scanner that does not read as browsers do. */
async function answers(cases: [string, string | null][]) {
  const got: [string, string | null][] = [];
  for (const [markup] of cases) got.push([markup, await refused(markup)]);
  expect(got).toEqual(cases);
}

const IMG = '<img src="x" onerror="alert(1)"/>';
const LINK = '<a href="javascript:alert(1)">x</a>';

describe('markup checks', () => {
  it('decodes entities as a browser reads attributes', () => {
    expect(decodeEntities('&#106;ava&#x53;cript&colon;x&amp;y&Tab;&NewLine;')).toBe('javaScript:x&y\t\n');
  });

  it('refuses markup with scripts in any of their disguises', async () => {
    await answers([
      ['<p>JavaScript 是一种语言；upon = 1</p>', null],
      ['<script\n>x</script>', 'EPUB_SCRIPT'],
      ['<body onLoad="x()">', 'EPUB_EVENT_HANDLER'],
      ['<svg><a xlink:href=" javascript:x()"/></svg>', 'EPUB_JAVASCRIPT_URL'],
      ['<iframe src="data:text/html,x"/>', 'EPUB_JAVASCRIPT_URL'],
      ['<p style="background: url(https://example.com/x.png)">x</p>', 'EPUB_REMOTE_RESOURCE'],
      ['<style>@import "https://example.com/a.css";</style>', 'EPUB_REMOTE_RESOURCE'],
      ['<img srcset="a.png 1x, https://example.com/b.png 2x"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<meta http-equiv="refresh" content="0;url=https://example.com"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<img/src="a.png"/onerror=x()>', 'EPUB_EVENT_HANDLER'],
      ['<style>p { background: \\75 rl( "//example.com/x.png" ) }</style>', 'EPUB_REMOTE_RESOURCE'],
      ['<style>p { background-image: image-set("https://example.com/x.png" 1x) }</style>', 'EPUB_REMOTE_RESOURCE'],
      ['<!-- <img src="https://example.com/x.png"/> --><p>注释里的不算</p>', null],
      ['<img src="https:evil.example/x.png"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<img src="\\\\evil.example/x.png"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<video poster="ftp://evil.example/x.png"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<style>p { background: url( https:evil.example/x.png ) }</style>', 'EPUB_REMOTE_RESOURCE'],
      ['<meta http-equiv="Refresh" content="5"/>', 'EPUB_REMOTE_RESOURCE'],
      ['<iframe srcdoc="&lt;p&gt;x"/>', 'EPUB_SCRIPT'],
      ['<set attributeName="href" to=" javascript:x()"/>', 'EPUB_JAVASCRIPT_URL'],
      ['<a href="java&#9;script:x()">x</a>', 'EPUB_JAVASCRIPT_URL'],
      ['<a href="jav&#x0A;ascript:x()">x</a>', 'EPUB_JAVASCRIPT_URL'],
      ['<a href="JaVaScRiPt&colon;x()">x</a>', 'EPUB_JAVASCRIPT_URL'],
    ]);
    // What stays in the book is allowed: relative paths, fragments, data: images and fonts, text with colons.
    expect(
      await refused(
        '<img src="images/a.png"/><use xlink:href="#g"/><img src="data:image/png;base64,AAAA"/><style>@font-face { src: url(data:font/woff2;base64,AAAA) } p::before { content: "Note: x" }</style><p title="注意: 1">x</p>',
      ),
    ).toBeNull();
  });

  it('ends comments where an HTML parser does, so nothing hides after them', async () => {
    await answers([
      // Abrupt closing of an empty comment: `<!-->` and `<!--->` are whole comments.
      [`<!-->${IMG}-->`, 'EPUB_EVENT_HANDLER'],
      [`<!--->${LINK}-->`, 'EPUB_JAVASCRIPT_URL'],
      // `--!>` ends a comment too.
      [`<!-- 注 --!>${IMG} -->`, 'EPUB_EVENT_HANDLER'],
      // `<!` or `<?` without `--` is a bogus comment that ends at the first `>`.
      [`<![if !IE]>${IMG}<![endif]>`, 'EPUB_EVENT_HANDLER'],
      [`<?php -->${LINK}<!-- ?>`, 'EPUB_JAVASCRIPT_URL'],
      // CDATA is a bogus comment in HTML content, and runs to `]]>` in SVG, where a comment may follow it.
      [`<![CDATA[>${IMG}]]>`, 'EPUB_EVENT_HANDLER'],
      [`<svg><![CDATA[><!--]]><image href="x" onerror="alert(1)"/>--></svg>`, 'EPUB_EVENT_HANDLER'],
      // Raw text ends at its own end tag, whatever looks like a comment inside it.
      [`<title><!--</title>${IMG}-->`, 'EPUB_EVENT_HANDLER'],
      [`<textarea><!--</textarea>${LINK}-->`, 'EPUB_JAVASCRIPT_URL'],
      [`<style><!--</style>${IMG}--></style>`, 'EPUB_EVENT_HANDLER'],
      // In XML, what HTML takes as raw text is markup.
      [`<style>${IMG}</style>`, 'EPUB_EVENT_HANDLER'],
      [`<xmp>${LINK}</xmp>`, 'EPUB_JAVASCRIPT_URL'],
      // A `<style>` left open runs to the end of the text, and is still CSS.
      ['<p>x</p><style>p { background: url(https://example.com/x.png) }', 'EPUB_REMOTE_RESOURCE'],
    ]);
  });

  it('accepts ordinary comments, CDATA and processing instructions, and comments left open', async () => {
    await answers([
      ['<?xml-stylesheet href="a.css" type="text/css"?><!-- 第一章 --><p>正文</p><!---->', null],
      ['<style><![CDATA[ p > span::before { content: "<注>"; } ]]></style>', null],
      ['<svg><![CDATA[ a < b ]]><text>x</text></svg>', null],
      [`<p>正文</p><!-- 未写完的注释 ${IMG}`, null],
      ['<p title="a -- b">-- 破折号 --</p>', null],
    ]);
  });

  it('refuses what a browser reads differently with scripts on and off, and declarations that make markup', async () => {
    await answers([
      [`<noscript><p title="</noscript>${IMG}"></p></noscript>`, 'EPUB_SCRIPT'],
      [`<noscript><![CDATA[>${IMG}]]></noscript>`, 'EPUB_SCRIPT'],
      ['<noscript><p>请打开脚本</p></noscript>', 'EPUB_SCRIPT'],
      [
        "<!DOCTYPE html [<!ENTITY x \"&#60;img src='x' onerror='alert(1)'/&#62;\">]><html><body>&x;</body></html>",
        'EPUB_DTD_DECLARATION',
      ],
      [
        '<!DOCTYPE html [<!ATTLIST img onerror CDATA "alert(1)">]><html><body><img/></body></html>',
        'EPUB_DTD_DECLARATION',
      ],
    ]);
  });

  it('refuses namespace confusion and templates that hide elements in either reading', async () => {
    await answers([
      // mglyph keeps `<style>` in MathML, where `<!--` opens a comment: hidden from a browser too.
      [`<math><mi><mglyph><style><!--</style>${IMG}--></style></mglyph></mi></math>`, null],
      [`<math><mi><style><!--</style>${IMG}--></style></mi></math>`, 'EPUB_EVENT_HANDLER'],
      [`<svg><style>${IMG}</style></svg>`, 'EPUB_EVENT_HANDLER'],
      [`<template>${IMG}</template>`, 'EPUB_EVENT_HANDLER'],
      [`<svg><foreignObject><iframe>${LINK}</iframe></foreignObject></svg>`, 'EPUB_JAVASCRIPT_URL'],
      ['<svg><a XLINK:HREF="ok" xlink:href="javascript:alert(1)">x</a></svg>', 'EPUB_JAVASCRIPT_URL'],
      [`<plaintext>${IMG}`, 'EPUB_EVENT_HANDLER'],
    ]);
  });

  it('answers any mix of hostile fragments with a refusal or an acceptance, never another error', async () => {
    const fragments = [
      '<!--',
      '-->',
      '--!>',
      '<!-->',
      '<![CDATA[',
      ']]>',
      '<?',
      '>',
      '<svg>',
      '<math>',
      '<mi>',
      '<mglyph>',
      '<style>',
      '</style>',
      '<title>',
      '</title>',
      '<noembed>',
      '<template>',
      '<table>',
      '<p title="',
      '"',
      "'",
      '&#',
      '&x',
      IMG,
      LINK,
      '<!DOCTYPE html>',
      '\ud800',
      '\u0000',
      'url(',
      '</',
      '<a:b c:d=e>',
    ];
    let state = 1;
    const pick = () => fragments[(state = (Math.imul(state, 1103515245) + 12345) >>> 0) % fragments.length]!;
    for (let round = 0; round < 300; round++) {
      const markup = Array.from({ length: 12 }, pick).join('');
      expect(await refused(markup), markup).not.toBe('threw');
    }
  });

  it('decodes markup as a browser would: UTF-16 by its byte order mark, UTF-8 otherwise', () => {
    const text = '<p>雨</p>';
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    expect(decodeText(Buffer.from(text, 'utf16le'))).toBe(text);
    expect(decodeText(Buffer.from(text, 'utf16le').swap16())).toBe(text);
    expect(decodeText(Buffer.from(`\ufeff${text}`, 'utf8'))).toBe(text);
  });

  it('reads hostile text in one pass: unterminated tags, quotes and comments do not make it slow', async () => {
    const started = performance.now();
    for (const text of [
      '<a'.repeat(500_000),
      '<a title="'.repeat(100_000),
      '<style>url('.repeat(100_000),
      '<!--'.repeat(250_000),
      '<div>'.repeat(200_000),
    ]) {
      await checkMarkup('c.xhtml', text);
    }
    // Well under a second alone; an element stack kept in an array that shifts on each tag takes seconds.
    expect(performance.now() - started).toBeLessThan(6000);
  });
});
