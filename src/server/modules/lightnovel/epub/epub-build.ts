import yazl from 'yazl';

/** One file of a zip: its name inside the archive, its bytes, and whether to deflate it. */
export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
  /** Deflate the entry (the default); `mimetype` and images are stored as they are. */
  compress?: boolean;
}

/**
 * Every entry carries this time, in local wall-clock fields with DOS timestamps only, so the same
 * entries give the same bytes on any machine and in any time zone.
 */
const FIXED_MTIME = new Date(2026, 0, 1, 12, 0, 0);

/** Writes entries into a zip, in order, with fixed times: the same input always gives the same bytes. */
export function writeZip(entries: readonly ZipEntry[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    zip.addBuffer(data, entry.name, {
      mtime: FIXED_MTIME,
      mode: 0o100644,
      compress: entry.compress ?? true,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
  });
}

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A chapter of a generated book: its title and body (XHTML inside `<body>`, already escaped). */
export interface BookChapter {
  title: string;
  body: string;
}

/** An image inside a generated book, under `OEBPS/images/`. */
export interface BookImage {
  /** File name, `illust-1.jpg`. */
  name: string;
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp';
  data: Uint8Array;
}

/** Everything a generated EPUB 3 holds. */
export interface BookSpec {
  identifier: string;
  title: string;
  author: string;
  language: string;
  /** `vertical`: vertical-rl writing with pages turning right to left. */
  writing: 'horizontal' | 'vertical';
  /** Drawn cover, stored as `images/cover.jpg`. */
  cover: Uint8Array;
  images: BookImage[];
  chapters: BookChapter[];
  /** The book's style sheet. */
  css: string;
}

const MODIFIED = '2026-01-01T00:00:00Z';

const xhtml = (spec: BookSpec, title: string, body: string, bodyClass = '') => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${spec.language}" lang="${spec.language}">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title)}</title>
<link rel="stylesheet" type="text/css" href="../style.css"/>
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ''}>
${body}
</body>
</html>
`;

const chapterFile = (index: number) => `chapter-${String(index + 1).padStart(2, '0')}.xhtml`;

function opf(spec: BookSpec): string {
  const vertical = spec.writing === 'vertical';
  const items = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    '<item id="css" href="style.css" media-type="text/css"/>',
    '<item id="cover-image" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>',
    '<item id="cover" href="text/cover.xhtml" media-type="application/xhtml+xml"/>',
    ...spec.images.map(
      (image, i) => `<item id="image-${i + 1}" href="images/${image.name}" media-type="${image.mediaType}"/>`,
    ),
    ...spec.chapters.map(
      (_, i) => `<item id="chapter-${i + 1}" href="text/${chapterFile(i)}" media-type="application/xhtml+xml"/>`,
    ),
  ];
  const spine = [
    '<itemref idref="cover" linear="yes"/>',
    ...spec.chapters.map((_, i) => `<itemref idref="chapter-${i + 1}"/>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${spec.language}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${escapeXml(spec.identifier)}</dc:identifier>
    <dc:title>${escapeXml(spec.title)}</dc:title>
    <dc:creator>${escapeXml(spec.author)}</dc:creator>
    <dc:language>${spec.language}</dc:language>
    <meta property="dcterms:modified">${MODIFIED}</meta>
    <meta name="cover" content="cover-image"/>${vertical ? '\n    <meta name="primary-writing-mode" content="vertical-rl"/>' : ''}
  </metadata>
  <manifest>
    ${items.join('\n    ')}
  </manifest>
  <spine toc="ncx"${vertical ? ' page-progression-direction="rtl"' : ''}>
    ${spine.join('\n    ')}
  </spine>
</package>
`;
}

function nav(spec: BookSpec): string {
  const links = spec.chapters
    .map((chapter, i) => `<li><a href="text/${chapterFile(i)}">${escapeXml(chapter.title)}</a></li>`)
    .join('\n      ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${spec.language}" lang="${spec.language}">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(spec.title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
  <nav epub:type="toc" id="toc">
    <h1>目录</h1>
    <ol>
      ${links}
    </ol>
  </nav>
</body>
</html>
`;
}

function ncx(spec: BookSpec): string {
  const points = spec.chapters
    .map(
      (chapter, i) => `<navPoint id="nav-${i + 1}" playOrder="${i + 1}">
      <navLabel><text>${escapeXml(chapter.title)}</text></navLabel>
      <content src="text/${chapterFile(i)}"/>
    </navPoint>`,
    )
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${spec.language}">
  <head>
    <meta name="dtb:uid" content="${escapeXml(spec.identifier)}"/>
    <meta name="dtb:depth" content="1"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle><text>${escapeXml(spec.title)}</text></docTitle>
  <navMap>
    ${points}
  </navMap>
</ncx>
`;
}

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

/** The entries of an EPUB 3 (with a nav document and an NCX for older readers), `mimetype` first and stored. */
export function epubEntries(spec: BookSpec): ZipEntry[] {
  const cover = `<section epub:type="cover" class="cover"><img src="../images/cover.jpg" alt="${escapeXml(spec.title)}"/></section>`;
  return [
    { name: 'mimetype', data: 'application/epub+zip', compress: false },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OEBPS/content.opf', data: opf(spec) },
    { name: 'OEBPS/nav.xhtml', data: nav(spec) },
    { name: 'OEBPS/toc.ncx', data: ncx(spec) },
    { name: 'OEBPS/style.css', data: spec.css },
    { name: 'OEBPS/images/cover.jpg', data: spec.cover, compress: false },
    ...spec.images.map((image) => ({ name: `OEBPS/images/${image.name}`, data: image.data, compress: false })),
    { name: 'OEBPS/text/cover.xhtml', data: xhtml(spec, spec.title, cover, 'cover-page') },
    ...spec.chapters.map((chapter, i) => ({
      name: `OEBPS/text/${chapterFile(i)}`,
      data: xhtml(spec, chapter.title, chapter.body),
    })),
  ];
}

export const buildEpub = (spec: BookSpec): Promise<Uint8Array> => writeZip(epubEntries(spec));
