import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Db } from '../../../db/database.ts';
import type { Storage } from '../../../platform/storage/storage.ts';
import { attachEpub } from './epub.service.ts';
import { buildEpub, escapeXml, type BookChapter, type BookImage, type BookSpec } from './epub-build.ts';
import {
  RAINY_NIGHT_LETTERS,
  STARGAZING_LIBRARY,
  TERMINAL_CAT,
  TERMINAL_CAT_AFTERWORD,
  type DemoChapter,
} from './demo-prose.ts';

/** The site colour, somewhere on every demo cover. */
const SITE_COLOR = '#39c5bb';
const FONT = `'Noto Serif CJK SC', 'Noto Sans CJK SC', 'Source Han Serif SC', serif`;

/** A demo series' EPUB: which of the demo series (1…3) its main volume 1 belongs to. */
export interface DemoEpub {
  series: 1 | 2 | 3;
  bytes: Uint8Array;
}

interface CoverDesign {
  title: string;
  subtitle: string;
  author: string;
  background: [string, string];
  ink: string;
  /** Extra SVG drawn under the title. */
  art: string;
}

function coverSvg(design: CoverDesign): string {
  const [top, bottom] = design.background;
  // Titles are short; two lines at most, split where the original title has its natural break.
  const lines = design.title.split('|');
  const title = lines
    .map(
      (line, i) =>
        `<text x="300" y="${210 + i * 78}" font-size="60" font-weight="bold" text-anchor="middle" fill="${design.ink}" font-family="${FONT}">${escapeXml(line)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
  <rect width="600" height="900" fill="url(#bg)"/>
  ${design.art}
  <rect x="0" y="92" width="600" height="10" fill="${SITE_COLOR}"/>
  ${title}
  <text x="300" y="${250 + lines.length * 78}" font-size="30" text-anchor="middle" fill="${design.ink}" font-family="${FONT}">${escapeXml(design.subtitle)}</text>
  <rect x="0" y="790" width="600" height="110" fill="${SITE_COLOR}" opacity="0.92"/>
  <text x="300" y="858" font-size="32" text-anchor="middle" fill="#ffffff" font-family="${FONT}">${escapeXml(design.author)}</text>
</svg>`;
}

/** Renders an SVG drawing to a JPEG of bounded quality (deterministic for a given sharp build). */
const jpeg = (svg: string): Promise<Uint8Array> =>
  sharp(Buffer.from(svg))
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer()
    .then((b) => new Uint8Array(b));

const stars = (seed: number, count: number, color: string) => {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return Array.from(
    { length: count },
    () =>
      `<circle cx="${Math.round(next() * 600)}" cy="${Math.round(120 + next() * 640)}" r="${(1 + next() * 2.5).toFixed(1)}" fill="${color}" opacity="${(0.5 + next() / 2).toFixed(2)}"/>`,
  ).join('');
};

const LIBRARY_COVER: CoverDesign = {
  title: '星见坂|图书室的四季',
  subtitle: '第一卷　春与夏',
  author: '雾谷萤　著',
  background: ['#1d2a4d', '#3f5a8c'],
  ink: '#fdf7e3',
  art: `${stars(7, 70, '#fff6c8')}
  <path d="M90 560 L180 600 L260 570 L330 640 L420 610" stroke="${SITE_COLOR}" stroke-width="3" fill="none"/>
  <rect x="120" y="660" width="360" height="110" fill="#2a3760"/>
  <g fill="#c98f5a">${Array.from({ length: 12 }, (_, i) => `<rect x="${132 + i * 29}" y="${672 + (i % 3) * 4}" width="22" height="${86 - (i % 3) * 4}"/>`).join('')}</g>`,
};

const LETTERS_COVER: CoverDesign = {
  title: '雨夜信笺',
  subtitle: '第一卷　梅雨之章',
  author: '天音莲　著',
  background: ['#3b4a5a', '#6d8199'],
  ink: '#f3f1ea',
  art: `<g stroke="#cfe3f2" stroke-width="2" opacity="0.55">${Array.from({ length: 40 }, (_, i) => `<line x1="${(i * 53) % 600}" y1="${140 + ((i * 97) % 560)}" x2="${((i * 53) % 600) - 14}" y2="${188 + ((i * 97) % 560)}"/>`).join('')}</g>
  <g transform="translate(300 560)"><rect x="-120" y="-80" width="240" height="160" fill="#f6efe0"/><path d="M-120 -80 L0 20 L120 -80" stroke="#9b8565" stroke-width="4" fill="none"/><circle cx="0" cy="40" r="16" fill="${SITE_COLOR}"/></g>
  <g fill="#8a74c9" opacity="0.85">${Array.from({ length: 9 }, (_, i) => `<circle cx="${80 + (i % 3) * 22}" cy="${700 + Math.floor(i / 3) * 20}" r="14"/>`).join('')}</g>`,
};

const CAT_COVER: CoverDesign = {
  title: '终点站的猫',
  subtitle: '第一卷　末班车之后',
  author: '常盘悠　著',
  background: ['#0f2733', '#1f5566'],
  ink: '#fff8ec',
  art: `${stars(23, 40, '#ffe9b0')}
  <rect x="0" y="640" width="600" height="14" fill="#5b6770"/>
  <rect x="60" y="600" width="200" height="12" fill="#8a6a4a"/>
  <g transform="translate(160 600)"><ellipse cx="0" cy="-28" rx="34" ry="26" fill="#d9d6d0"/><circle cx="-22" cy="-58" r="20" fill="#d9d6d0"/><path d="M-38 -70 L-34 -92 L-24 -76 Z M-16 -76 L-8 -94 L-4 -72 Z" fill="#d9d6d0"/><path d="M30 -30 Q70 -40 64 -78" stroke="#d9d6d0" stroke-width="9" fill="none"/><circle cx="64" cy="-80" r="6" fill="#222"/></g>
  <circle cx="470" cy="400" r="46" fill="#fff3c4" opacity="0.9"/>
  <rect x="380" y="560" width="24" height="80" fill="#444"/><circle cx="392" cy="552" r="16" fill="${SITE_COLOR}"/>`,
};

/** The reading room at night, for chapter 2 of 《星见坂图书室的四季》. */
const ROOFTOP_ILLUSTRATION = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="560" viewBox="0 0 800 560">
  <rect width="800" height="560" fill="#18223f"/>
  ${stars(11, 120, '#fff6c8').replace(/cy="(\d+)"/g, (_, y: string) => `cy="${Math.round(Number(y) * 0.55)}"`)}
  <path d="M150 120 L260 90 L330 150 L420 120" stroke="#ffe9a8" stroke-width="2" fill="none"/>
  <circle cx="560" cy="120" r="7" fill="#ffb36b"/>
  <rect x="0" y="400" width="800" height="160" fill="#4a4f5c"/>
  <g stroke="#f2f2f2" stroke-width="3" fill="none" opacity="0.8"><path d="M120 470 L220 440 L300 480 L390 450"/><circle cx="220" cy="440" r="6"/><path d="M480 500 L560 455 L650 490"/></g>
  <g transform="translate(600 400)"><rect x="-18" y="-110" width="36" height="80" rx="14" fill="${SITE_COLOR}"/><circle cx="0" cy="-128" r="20" fill="#f5d9c4"/><path d="M-20 -136 Q0 -170 20 -136 L24 -70 L-24 -70 Z" fill="#222"/><rect x="-14" y="-30" width="10" height="30" fill="#333"/><rect x="4" y="-30" width="10" height="30" fill="#333"/></g>
  <text x="400" y="540" font-size="24" text-anchor="middle" fill="#ffffff" font-family="${FONT}">屋顶的星图</text>
</svg>`;

/** The old building's lit window, for chapter 5 of 《星见坂图书室的四季》. */
const LAMP_ILLUSTRATION = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="560" viewBox="0 0 800 560">
  <rect width="800" height="560" fill="#e8b36a"/>
  <rect y="300" width="800" height="260" fill="#6b4a2e"/>
  <rect x="180" y="80" width="440" height="400" fill="#8c6a4a"/>
  ${Array.from({ length: 4 }, (_, row) => Array.from({ length: 4 }, (__, col) => `<rect x="${210 + col * 104}" y="${110 + row * 92}" width="76" height="62" fill="${row === 0 && col === 3 ? '#fff2b0' : '#3a2f2a'}"/>`).join('')).join('')}
  <circle cx="666" cy="152" r="28" fill="#fff2b0" opacity="0.6"/>
  <g fill="#e7c14a">${Array.from({ length: 14 }, (_, i) => `<ellipse cx="${60 + i * 52}" cy="${520 - (i % 4) * 8}" rx="10" ry="6"/>`).join('')}</g>
  <rect x="0" y="540" width="800" height="20" fill="${SITE_COLOR}"/>
  <text x="400" y="40" font-size="24" text-anchor="middle" fill="#3a2f2a" font-family="${FONT}">旧校舍的灯</text>
</svg>`;

const HORIZONTAL_CSS = `@charset "UTF-8";
html { writing-mode: horizontal-tb; }
body { margin: 0 1em; line-height: 1.9; font-family: serif; text-align: justify; }
h1 { font-size: 1.4em; margin: 1.5em 0 1em; color: #2a8f87; }
p { text-indent: 2em; margin: 0 0 0.6em; }
figure { margin: 1.2em 0; text-align: center; }
figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; color: #666; }
.cover-page { margin: 0; text-align: center; }
.cover img { max-width: 100%; max-height: 100vh; }
`;

const VERTICAL_CSS = `@charset "UTF-8";
html { writing-mode: vertical-rl; -epub-writing-mode: vertical-rl; -webkit-writing-mode: vertical-rl; }
body { margin: 1em 0; line-height: 1.8; font-family: serif; }
h1 { font-size: 1.4em; margin: 0 1em 0 1.5em; color: #2a8f87; }
p { text-indent: 1em; margin: 0 0 0 0.4em; }
.cover-page { margin: 0; text-align: center; writing-mode: horizontal-tb; }
.cover img { max-width: 100%; max-height: 100vh; }
`;

function chapterBody(chapter: DemoChapter, figure?: { image: string; alt: string; after: number }): BookChapter {
  const paragraphs = chapter.paragraphs.map((text) => `<p>${escapeXml(text)}</p>`);
  if (figure) {
    paragraphs.splice(
      figure.after,
      0,
      `<figure><img src="../images/${figure.image}" alt="${escapeXml(figure.alt)}"/><figcaption>${escapeXml(figure.alt)}</figcaption></figure>`,
    );
  }
  return { title: chapter.title, body: `<h1>${escapeXml(chapter.title)}</h1>\n${paragraphs.join('\n')}` };
}

async function libraryBook(): Promise<BookSpec> {
  const images: BookImage[] = [
    { name: 'illust-1.jpg', mediaType: 'image/jpeg', data: await jpeg(ROOFTOP_ILLUSTRATION) },
    { name: 'illust-2.jpg', mediaType: 'image/jpeg', data: await jpeg(LAMP_ILLUSTRATION) },
  ];
  return {
    identifier: 'urn:uuid:6f1d2c0e-0b7a-4d1e-9a51-1c0b5e1a0001',
    title: '星见坂图书室的四季　第一卷',
    author: '雾谷萤',
    language: 'zh-CN',
    writing: 'horizontal',
    cover: await jpeg(coverSvg(LIBRARY_COVER)),
    images,
    css: HORIZONTAL_CSS,
    chapters: STARGAZING_LIBRARY.map((chapter, i) => {
      if (i === 1) return chapterBody(chapter, { image: 'illust-1.jpg', alt: '屋顶的星图', after: 5 });
      if (i === 4) return chapterBody(chapter, { image: 'illust-2.jpg', alt: '旧校舍的灯', after: 8 });
      return chapterBody(chapter);
    }),
  };
}

async function lettersBook(): Promise<BookSpec> {
  return {
    identifier: 'urn:uuid:6f1d2c0e-0b7a-4d1e-9a51-1c0b5e1a0002',
    title: '雨夜信笺　第一卷',
    author: '天音莲',
    language: 'zh',
    writing: 'vertical',
    cover: await jpeg(coverSvg(LETTERS_COVER)),
    images: [],
    css: VERTICAL_CSS,
    chapters: RAINY_NIGHT_LETTERS.map((chapter) => chapterBody(chapter)),
  };
}

async function catBook(): Promise<BookSpec> {
  return {
    identifier: 'urn:uuid:6f1d2c0e-0b7a-4d1e-9a51-1c0b5e1a0003',
    title: '终点站的猫　第一卷',
    author: '常盘悠',
    language: 'zh-CN',
    writing: 'horizontal',
    cover: await jpeg(coverSvg(CAT_COVER)),
    images: [],
    css: HORIZONTAL_CSS,
    chapters: [...TERMINAL_CAT, TERMINAL_CAT_AFTERWORD].map((chapter) => chapterBody(chapter)),
  };
}

/**
 * The three demo books, written for this project: 《星见坂图书室的四季》 (two illustrations),
 * 《雨夜信笺》 (vertical writing, pages right to left) and 《终点站的猫》 (six short chapters).
 * The same bytes every time on one machine, so the seed can tell whether a volume already has them.
 */
export async function buildDemoEpubs(): Promise<DemoEpub[]> {
  return [
    { series: 1, bytes: await buildEpub(await libraryBook()) },
    { series: 2, bytes: await buildEpub(await lettersBook()) },
    { series: 3, bytes: await buildEpub(await catBook()) },
  ];
}

/** Random-looking but repeatable bytes (a linear congruential generator), for images that do not compress. */
function noise(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** Each image of a sized book holds about this many bytes. */
const SIZED_IMAGE_BYTES = 768 * 1024;

/**
 * A valid EPUB of about `bytes` bytes (within a few per cent, at least ~60 KB): the demo story of
 * 《终点站的猫》 with full-page noise images (PNG, which does not compress) between chapters, for
 * measuring how long the reader takes to show the first page of a large book.
 */
export async function buildSizedEpub(bytes: number): Promise<Uint8Array> {
  const base = await catBook();
  const baseSize = (await buildEpub(base)).length;
  const images: BookImage[] = [];
  let remaining = bytes - baseSize;
  let seed = 1;
  while (remaining > 4096) {
    const share = Math.min(SIZED_IMAGE_BYTES, remaining);
    // PNG stored without deflate: its size is the pixels plus a small overhead (a filter byte per row, headers).
    const width = 512;
    const height = Math.max(1, Math.floor((share - 600) / (width * 3 + 1)));
    const pixels = noise(width * height * 3, seed++);
    const data = await sharp(Buffer.from(pixels), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0, adaptiveFiltering: false })
      .toBuffer();
    images.push({ name: `plate-${images.length + 1}.png`, mediaType: 'image/png', data: new Uint8Array(data) });
    remaining -= data.length + 200;
  }
  const chapters = base.chapters.map((chapter, i) => {
    const plates = images.filter((_, n) => n % base.chapters.length === i);
    const figures = plates.map((image) => `<figure><img src="../images/${image.name}" alt="插图"/></figure>`);
    return { ...chapter, body: `${chapter.body}\n${figures.join('\n')}` };
  });
  return buildEpub({
    ...base,
    identifier: `urn:uuid:6f1d2c0e-0b7a-4d1e-9a51-${String(bytes).padStart(12, '0')}`,
    images,
    chapters,
  });
}

/**
 * Attaches the demo books to main volume 1 of demo series 1, 2 and 3, through the same path as an
 * upload (validated, stored, cover extracted). Volumes that are missing or already have an EPUB are
 * left alone, so running it again changes nothing. Answers the volume ids it attached a book to.
 */
export async function seedDemoEpubs(db: Db, storage: Storage): Promise<number[]> {
  const books = await buildDemoEpubs();
  const attached: number[] = [];
  const folder = await mkdtemp(join(tmpdir(), 'hikari-demo-epub-'));
  try {
    for (const book of books) {
      const volume = await db
        .selectFrom('lightnovel_volume')
        .select(['id', 'epub_key'])
        .where('lightnovel_id', '=', book.series)
        .where('kind', '=', 'main')
        .where('number', '=', 1)
        .executeTakeFirst();
      if (!volume || volume.epub_key) continue;
      const path = join(folder, `series-${book.series}.epub`);
      await writeFile(path, book.bytes);
      await attachEpub({ db, storage }, volume.id, path, null);
      attached.push(volume.id);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return attached;
}
