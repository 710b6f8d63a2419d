import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoEpubs, buildSizedEpub } from './demo-books.ts';
import { corpusEpub, hostileCorpus } from './epub-corpus.ts';
import { Slots } from './epub-upload.ts';
import {
  checkMarkup,
  decodeEntities,
  decodeText,
  EPUB_LIMITS,
  EpubRejection,
  unsafeEntryName,
  validateEpub,
} from './epub.validate.ts';

const folder = mkdtempSync(join(tmpdir(), 'hikari-epub-test-'));
let count = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function onDisk(bytes: Uint8Array): string {
  const path = join(folder, `book-${++count}.epub`);
  writeFileSync(path, bytes);
  return path;
}

async function problemOf(bytes: Uint8Array, limits = EPUB_LIMITS): Promise<string> {
  try {
    await validateEpub(onDisk(bytes), limits);
  } catch (error) {
    if (error instanceof EpubRejection) return error.problem;
    throw error;
  }
  return 'accepted';
}

describe('validateEpub', () => {
  it('accepts the demo books and reads their title, language, writing mode and cover', async () => {
    const [library, letters, cat] = await buildDemoEpubs();
    const one = await validateEpub(onDisk(library!.bytes));
    expect(one.meta).toEqual({ title: '星见坂图书室的四季　第一卷', language: 'zh-CN' });
    expect(one.cover).toMatchObject({ name: 'OEBPS/images/cover.jpg', mediaType: 'image/jpeg' });
    const two = await validateEpub(onDisk(letters!.bytes));
    expect(two.meta).toEqual({ title: '雨夜信笺　第一卷', language: 'zh', vertical: true, rtl: true });
    expect((await validateEpub(onDisk(cat!.bytes))).meta.vertical).toBeUndefined();
  });

  it('builds the demo books byte for byte the same each time', async () => {
    const [first, second] = [await buildDemoEpubs(), await buildDemoEpubs()];
    expect(first.map((b) => Buffer.from(b.bytes).equals(Buffer.from(second[first.indexOf(b)]!.bytes)))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('accepts a sized book for benchmarks, about as large as asked', async () => {
    const bytes = await buildSizedEpub(2 * 1024 * 1024);
    expect(Math.abs(bytes.length - 2 * 1024 * 1024)).toBeLessThan(100 * 1024);
    await expect(validateEpub(onDisk(bytes))).resolves.toMatchObject({ meta: { language: 'zh-CN' } });
  });

  it('refuses each book of the hostile corpus with its code', async () => {
    const cases = await hostileCorpus();
    const answers = [];
    for (const book of cases) answers.push([book.name, await problemOf(book.bytes)]);
    expect(answers).toEqual(cases.map((book) => [book.name, book.problem]));
  });

  it('stops inflating an entry or a book past its limit, counting the real bytes', async () => {
    const big = await corpusEpub({ entries: [{ name: 'OEBPS/images/a.png', data: new Uint8Array(3 * 1024 * 1024) }] });
    const noRatio = { ...EPUB_LIMITS, ratioFloorBytes: Number.MAX_SAFE_INTEGER };
    expect(await problemOf(big, { ...noRatio, maxEntryBytes: 1024 * 1024 })).toBe('EPUB_ENTRY_TOO_LARGE');
    expect(await problemOf(big, { ...noRatio, maxTotalBytes: 2 * 1024 * 1024 })).toBe('EPUB_TOO_LARGE_UNPACKED');
    expect(await problemOf(await corpusEpub(), { ...EPUB_LIMITS, maxEntries: 3 })).toBe('EPUB_TOO_MANY_ENTRIES');
  });

  it('refuses many entries each under the ratio floor that add up to a bomb, and caps what is kept in memory', async () => {
    // 40 text entries of almost 1 MB of one letter: each too small for the per-entry ratio check.
    const letter = new Uint8Array(1024 * 1024 - 1).fill(0x61);
    const many = await corpusEpub({
      entries: Array.from({ length: 40 }, (_, i) => ({ name: `OEBPS/f${i}.txt`, data: letter })),
    });
    expect(await problemOf(many)).toBe('EPUB_COMPRESSION_RATIO');
    const noRatio = { ...EPUB_LIMITS, maxRatio: Number.MAX_SAFE_INTEGER };
    expect(await problemOf(many, noRatio)).toBe('EPUB_TOO_LARGE_UNPACKED');
    expect(await problemOf(await corpusEpub(), { ...EPUB_LIMITS, maxKeptBytes: 256 })).toBe('EPUB_TOO_LARGE_UNPACKED');
  });

  it('runs at most two tasks at once; a third waits for a turn, or is refused when none comes in time', async () => {
    const slots = new Slots(2, 50);
    const refused = () => new Error('busy');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = slots.run(() => held, refused);
    const second = slots.run(() => held, refused);
    await expect(slots.run(async () => 'late', refused)).rejects.toThrow('busy');
    slots.waitMs = 5_000;
    const third = slots.run(async () => 'third', refused);
    release();
    await Promise.all([first, second]);
    expect(await third).toBe('third');
    expect(await slots.run(async () => 'free', refused)).toBe('free');
  });

  it('lets plain links to other sites through, and reads vertical writing from CSS', async () => {
    const book = await corpusEpub({
      chapters: ['<p>见 <a href="https://example.com/about">作者的网站</a>。</p>'],
      entries: [{ name: 'OEBPS/style.css', data: 'html { -epub-writing-mode: vertical-rl; }' }],
    });
    expect((await validateEpub(onDisk(book))).meta).toMatchObject({ vertical: true });
  });
});

describe('the checks underneath', () => {
  it('finds unsafe entry names', () => {
    expect(['OEBPS/a.xhtml', 'mimetype', 'META-INF/'].map(unsafeEntryName)).toEqual([null, null, null]);
    for (const name of ['../a', 'a/../../b', '/etc/passwd', 'C:/x', 'a\\b', 'a\u0000b', 'a//b', './a', ''])
      expect(unsafeEntryName(name), name).not.toBeNull();
  });

  it('decodes entities as a browser reads attributes', () => {
    expect(decodeEntities('&#106;ava&#x53;cript&colon;x&amp;y')).toBe('javaScript:x&y');
  });

  it('refuses markup with scripts in any of their disguises', () => {
    const refused = (markup: string) => {
      try {
        checkMarkup('c.xhtml', markup);
        return null;
      } catch (error) {
        return error instanceof EpubRejection ? error.problem : 'threw';
      }
    };
    expect(refused('<p>JavaScript 是一种语言；upon = 1</p>')).toBeNull();
    expect(refused('<script\n>x</script>')).toBe('EPUB_SCRIPT');
    expect(refused('<body onLoad="x()">')).toBe('EPUB_EVENT_HANDLER');
    expect(refused('<svg><a xlink:href=" javascript:x()"/></svg>')).toBe('EPUB_JAVASCRIPT_URL');
    expect(refused('<iframe src="data:text/html,x"/>')).toBe('EPUB_JAVASCRIPT_URL');
    expect(refused('<p style="background: url(https://example.com/x.png)">x</p>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<style>@import "https://example.com/a.css";</style>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<img srcset="a.png 1x, https://example.com/b.png 2x"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<meta http-equiv="refresh" content="0;url=https://example.com"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<img/src="a.png"/onerror=x()>')).toBe('EPUB_EVENT_HANDLER');
    expect(refused('<style>p { background: \\75 rl( "//example.com/x.png" ) }</style>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<style>p { background-image: image-set("https://example.com/x.png" 1x) }</style>')).toBe(
      'EPUB_REMOTE_RESOURCE',
    );
    expect(refused('<!-- <img src="https://example.com/x.png"/> --><p>注释里的不算</p>')).toBeNull();
    expect(refused('<img src="https:evil.example/x.png"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<img src="\\\\evil.example/x.png"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<video poster="ftp://evil.example/x.png"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<style>p { background: url( https:evil.example/x.png ) }</style>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<meta http-equiv="Refresh" content="5"/>')).toBe('EPUB_REMOTE_RESOURCE');
    expect(refused('<iframe srcdoc="&lt;p&gt;x"/>')).toBe('EPUB_SCRIPT');
    expect(refused('<set attributeName="href" to=" javascript:x()"/>')).toBe('EPUB_JAVASCRIPT_URL');
    // What stays in the book is allowed: relative paths, fragments, data: images and fonts, text with colons.
    expect(
      refused(
        '<img src="images/a.png"/><use xlink:href="#g"/><img src="data:image/png;base64,AAAA"/><style>@font-face { src: url(data:font/woff2;base64,AAAA) } p::before { content: "Note: x" }</style><p title="注意: 1">x</p>',
      ),
    ).toBeNull();
  });

  it('decodes markup as a browser would: UTF-16 by its byte order mark, UTF-8 otherwise', () => {
    const text = '<p>雨</p>';
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    expect(decodeText(Buffer.from(text, 'utf16le'))).toBe(text);
    expect(decodeText(Buffer.from(text, 'utf16le').swap16())).toBe(text);
    expect(decodeText(Buffer.from(`\ufeff${text}`, 'utf8'))).toBe(text);
  });

  it('reads hostile text in one pass: unterminated tags and quotes do not make it slow', () => {
    const started = performance.now();
    for (const text of ['<a'.repeat(1_000_000), '<a title="'.repeat(200_000), '<style>url('.repeat(200_000)]) {
      checkMarkup('c.xhtml', text);
    }
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
