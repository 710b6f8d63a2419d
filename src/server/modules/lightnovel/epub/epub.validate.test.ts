import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoEpubs, buildSizedEpub } from './demo-books.ts';
import { corpusEpub, hostileCorpus } from './epub-corpus.ts';
import { Slots } from './epub-upload.ts';
import { EpubRejection } from './epub.rejection.ts';
import { validateEpub } from './epub.validate.ts';
import { EPUB_LIMITS, unsafeEntryName } from './epub.zip.ts';

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
  it('accepts books with ordinary comments, CDATA and SVG covers', async () => {
    const book = await corpusEpub({
      head: '<!-- 样式 --><style><![CDATA[ p > ruby { ruby-position: over; } ]]></style>',
      chapters: [
        '<!-- 第一章 --><p>雨<ruby>雨<rt>あめ</rt></ruby></p><!---->',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 600 800"><image width="600" height="800" xlink:href="images/cover.jpg"/></svg>',
      ],
    });
    await expect(validateEpub(onDisk(book))).resolves.toMatchObject({ meta: { title: '测试之书' } });
  });
});

describe('the checks underneath', () => {
  it('finds unsafe entry names', () => {
    expect(['OEBPS/a.xhtml', 'mimetype', 'META-INF/'].map(unsafeEntryName)).toEqual([null, null, null]);
    for (const name of ['../a', 'a/../../b', '/etc/passwd', 'C:/x', 'a\\b', 'a\u0000b', 'a//b', './a', ''])
      expect(unsafeEntryName(name), name).not.toBeNull();
  });
});
