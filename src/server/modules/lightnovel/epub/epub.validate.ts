import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type yauzl from 'yauzl';
import type { EpubMeta } from '../../../../shared/lightnovel/lightnovel-model.ts';
import { checkCss, checkMarkup, decodeEntities, decodeText, leavesBook } from './epub.markup.ts';
import { refuse, shown } from './epub.rejection.ts';
import { EPUB_LIMITS, entryReader, listEntries, unsafeEntryName, zipProblem, type EpubLimits } from './epub.zip.ts';

/** The cover image found in a book, as stored in it. */
export interface EpubCover {
  name: string;
  mediaType: string;
  data: Buffer;
}

export interface ValidEpub {
  meta: EpubMeta;
  cover: EpubCover | null;
}

/** Entries never read into memory: images, fonts, audio and video are only counted. */
const BINARY = /\.(jpe?g|png|gif|webp|avif|bmp|ico|otf|ttf|woff2?|mp3|mp4|m4a|m4v|aac|ogg|oga|webm|wav|opus)$/i;
const CSS = /\.css$/i;

// --- XML without a DOM: the container and the package document are small and regular (read as XML, as
// foliate-js reads them: `<!--` opens a comment up to `-->`). ---

interface Tag {
  /** Lower case, without a namespace prefix: `item`, `script`, `image`. */
  name: string;
  /** `</name>` */
  closing: boolean;
  /** Attributes by lower-case name, prefix kept (`xlink:href`), values with entities decoded. */
  attributes: Map<string, string>;
  /** The text between the name and `>`, as written. */
  raw: string;
  /** Where the tag starts (`<`) and where the text after it starts. */
  start: number;
  end: number;
}

const ATTRIBUTE = /([^\s=/"'<>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
const NAME_CHAR = /[\w.:-]/;

/**
 * The tags of an XML or HTML text, in one pass that looks at each character a bounded number of times
 * (no backtracking regular expression over the whole text: a hostile book cannot make it slow).
 * Comments, declarations and processing instructions are skipped; an unterminated tag ends the scan.
 */
function* scan(text: string): Generator<Tag> {
  let at = 0;
  for (;;) {
    const start = text.indexOf('<', at);
    if (start === -1) return;
    if (text.startsWith('!--', start + 1)) {
      const close = text.indexOf('-->', start + 4);
      if (close === -1) return;
      at = close + 3;
      continue;
    }
    if (text[start + 1] === '!' || text[start + 1] === '?') {
      const close = text.indexOf('>', start + 2);
      if (close === -1) return;
      at = close + 1;
      continue;
    }
    let i = start + 1;
    const closing = text[i] === '/';
    if (closing) i++;
    const nameStart = i;
    while (i < text.length && NAME_CHAR.test(text[i]!)) i++;
    if (i === nameStart || !/[A-Za-z]/.test(text[nameStart]!)) {
      at = start + 1;
      continue;
    }
    const qualified = text.slice(nameStart, i).toLowerCase();
    const rawStart = i;
    let quote = '';
    for (; i < text.length; i++) {
      const char = text[i];
      if (quote) {
        if (char === quote) quote = '';
      } else if (char === '"' || char === "'") quote = char;
      else if (char === '>') break;
    }
    if (i >= text.length) return;
    const raw = text.slice(rawStart, i);
    const attributes = new Map<string, string>();
    if (!closing) {
      for (const attribute of raw.matchAll(ATTRIBUTE)) {
        const key = (attribute[1] ?? '').toLowerCase();
        if (!attributes.has(key))
          attributes.set(key, decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? ''));
      }
    }
    const name = qualified.includes(':') ? qualified.slice(qualified.lastIndexOf(':') + 1) : qualified;
    yield { name, closing, attributes, raw, start, end: i + 1 };
    at = i + 1;
  }
}

function* tags(text: string): Generator<Tag> {
  for (const tag of scan(text)) if (!tag.closing) yield tag;
}

const attr = (tag: Tag, name: string) => tag.attributes.get(name);

/** The first `element` (any namespace prefix) of a text: its attributes as written and the text inside it. */
function elementBlock(xml: string, element: string): { attributes: string; body: string } | undefined {
  let open: Tag | undefined;
  for (const tag of scan(xml)) {
    if (tag.name !== element) continue;
    if (!open && !tag.closing) {
      open = tag;
      if (tag.raw.trimEnd().endsWith('/')) return { attributes: tag.raw, body: '' };
    } else if (open && tag.closing) {
      return { attributes: open.raw, body: xml.slice(open.end, tag.start) };
    }
  }
  return undefined;
}

function elementText(xml: string, element: string): string | undefined {
  const block = elementBlock(xml, element);
  return block ? decodeEntities(block.body.replace(/<[^<>]*>/g, '')).trim() : undefined;
}

/** Where an href in `base` (an entry name) points inside the zip, or null for another site or an odd URL. */
function resolveHref(base: string, href: string): string | null {
  const path = href.split('#', 1)[0]?.split('?', 1)[0] ?? '';
  if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  const joined = posix.normalize(posix.join(posix.dirname(base), decoded));
  return joined.startsWith('../') || joined.startsWith('/') ? null : joined;
}

/** Font obfuscation (IDPF, Adobe) is not DRM: a book may declare it; any other encryption is refused. */
const FONT_OBFUSCATION = ['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC'];

function checkDrm(kept: Map<string, Buffer>): void {
  if (kept.has('META-INF/rights.xml')) refuse('EPUB_ENCRYPTED', { name: 'META-INF/rights.xml' });
  const encryption = kept.get('META-INF/encryption.xml');
  if (!encryption) return;
  for (const tag of tags(encryption.toString('utf8'))) {
    if (tag.name !== 'encryptionmethod') continue;
    if (!FONT_OBFUSCATION.includes(attr(tag, 'algorithm') ?? '')) {
      refuse('EPUB_ENCRYPTED', { name: 'META-INF/encryption.xml' });
    }
  }
}

interface ManifestItem {
  id: string;
  href: string;
  path: string | null;
  mediaType: string;
  properties: string[];
}

type Loader = (name: string) => Promise<Buffer | null>;

async function readPackage(entries: Map<string, yauzl.Entry>, load: Loader) {
  const mimetype = await load('mimetype');
  if (!mimetype || mimetype.toString('latin1').trim() !== 'application/epub+zip') refuse('EPUB_MIMETYPE');
  const container = (await load('META-INF/container.xml'))?.toString('utf8');
  if (!container) return refuse('EPUB_CONTAINER');
  const rootfiles = [...tags(container)].filter((tag) => tag.name === 'rootfile' && attr(tag, 'full-path'));
  const rootfile = rootfiles.find((tag) => attr(tag, 'media-type') === 'application/oebps-package+xml') ?? rootfiles[0];
  const opfPath = rootfile ? attr(rootfile, 'full-path') : undefined;
  if (!opfPath) return refuse('EPUB_CONTAINER');
  if (unsafeEntryName(opfPath)) refuse('EPUB_UNSAFE_NAME', { name: shown(opfPath) });
  const opfData = await load(opfPath);
  const opf = opfData ? decodeText(opfData) : undefined;
  if (opf === undefined) return refuse('EPUB_OPF_MISSING', { name: shown(opfPath) });

  const manifestBlock = elementBlock(opf, 'manifest');
  const spineBlock = elementBlock(opf, 'spine');
  if (!manifestBlock || !spineBlock) return refuse('EPUB_OPF_INVALID');
  const manifest = new Map<string, ManifestItem>();
  for (const tag of tags(manifestBlock.body)) {
    if (tag.name !== 'item') continue;
    const id = attr(tag, 'id');
    const href = attr(tag, 'href');
    if (!id || !href) continue;
    if (leavesBook(href)) refuse('EPUB_REMOTE_RESOURCE', { name: shown(opfPath), url: shown(href) });
    manifest.set(id, {
      id,
      href,
      path: resolveHref(opfPath, href),
      mediaType: (attr(tag, 'media-type') ?? '').toLowerCase(),
      properties: (attr(tag, 'properties') ?? '').split(/\s+/).filter(Boolean),
    });
  }
  const spine = [...tags(spineBlock.body)]
    .filter((tag) => tag.name === 'itemref')
    .map((tag) => attr(tag, 'idref') ?? '');
  if (manifest.size === 0 || spine.length === 0) return refuse('EPUB_OPF_INVALID');
  for (const idref of spine) {
    const item = manifest.get(idref);
    if (!item?.path || !entries.has(item.path)) refuse('EPUB_SPINE_ITEM_MISSING', { name: shown(item?.href ?? idref) });
  }
  return { opf, manifest, spineAttributes: spineBlock.attributes };
}

function readMeta(opf: string, spineAttributes: string): EpubMeta & { coverId?: string; writingMode?: string } {
  const meta: EpubMeta & { coverId?: string; writingMode?: string } = {};
  const metadata = elementBlock(opf, 'metadata')?.body ?? opf;
  const title = elementText(metadata, 'title');
  if (title) meta.title = title.slice(0, 500);
  const language = elementText(metadata, 'language');
  if (language && /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(language)) meta.language = language;
  for (const tag of tags(metadata)) {
    if (tag.name !== 'meta') continue;
    if (attr(tag, 'name') === 'cover') meta.coverId = attr(tag, 'content');
    if (attr(tag, 'name') === 'primary-writing-mode') meta.writingMode = attr(tag, 'content');
  }
  const direction = /page-progression-direction\s*=\s*["']([^"']*)["']/i.exec(spineAttributes)?.[1];
  if (direction?.toLowerCase() === 'rtl') meta.rtl = true;
  return meta;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);

function coverItem(manifest: Map<string, ManifestItem>, coverId: string | undefined): ManifestItem | null {
  const items = [...manifest.values()];
  const candidate =
    items.find((item) => item.properties.includes('cover-image')) ?? (coverId ? manifest.get(coverId) : undefined);
  return candidate?.path && IMAGE_TYPES.has(candidate.mediaType) ? candidate : null;
}

/** Media types a reader renders as a document (and so must not carry scripts). */
const MARKUP_TYPES =
  /^(?:application\/xhtml\+xml|text\/html|image\/svg\+xml|application\/x-dtbncx\+xml|application\/smil\+xml|text\/css|text\/xml|application\/xml)$/;
const MARKUP = /\.(?:x?html?|xml|svg|opf|ncx|smil|css)$/i;
/** A cover larger than this is not kept for extraction (the book is still accepted). */
const COVER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Decides whether the file at `path` is an EPUB we accept, and reads what the reader needs to know.
 * Throws an EpubRejection with a stable code otherwise. Nothing is written anywhere.
 */
export async function validateEpub(path: string, limits: EpubLimits = EPUB_LIMITS): Promise<ValidEpub> {
  const listing = await listEntries(path, limits).catch((error: unknown) => {
    throw zipProblem(error);
  });
  try {
    if (listing.entries.size === 0) refuse('EPUB_NOT_ZIP');
    const reader = entryReader(listing, limits, (await stat(path)).size);
    const kept = new Map<string, Buffer>();
    const load: Loader = async (name) => {
      const data = kept.get(name) ?? (await reader.read(name, true, limits.maxTextBytes));
      if (data) kept.set(name, data);
      return data;
    };
    await load('META-INF/rights.xml');
    await load('META-INF/encryption.xml');
    checkDrm(kept);
    const book = await readPackage(listing.entries, load);
    const { coverId, writingMode, ...meta } = readMeta(book.opf, book.spineAttributes);
    const cover = coverItem(book.manifest, coverId);
    const markupPaths = new Set(
      [...book.manifest.values()].filter((item) => MARKUP_TYPES.test(item.mediaType)).map((item) => item.path),
    );
    for (const [name, entry] of listing.entries) {
      if (name.endsWith('/') || reader.done.has(name)) continue;
      const markup = MARKUP.test(name) || markupPaths.has(name);
      const small = entry.uncompressedSize <= limits.maxTextBytes;
      const isCover = name === cover?.path && entry.uncompressedSize <= COVER_MAX_BYTES;
      // Unknown kinds of file are read and checked as text when they are small enough to be.
      const keep = markup || isCover || (!BINARY.test(name) && small);
      const data = await reader.read(
        name,
        keep,
        markup || (keep && !isCover) ? limits.maxTextBytes : limits.maxEntryBytes,
      );
      if (data) kept.set(name, data);
    }
    let verticalCss = false;
    for (const [name, data] of kept) {
      if (name === 'mimetype' || (name === cover?.path && !markupPaths.has(name))) continue;
      if (BINARY.test(name) && !markupPaths.has(name)) continue;
      const text = decodeText(data);
      const { vertical } = CSS.test(name) ? checkCss(name, text) : await checkMarkup(name, text);
      if (vertical) verticalCss = true;
    }
    if (verticalCss || /^vertical/i.test(writingMode ?? '')) meta.vertical = true;
    const coverData = cover?.path ? kept.get(cover.path) : undefined;
    return {
      meta,
      cover: cover?.path && coverData ? { name: cover.path, mediaType: cover.mediaType, data: coverData } : null,
    };
  } finally {
    listing.zip.close();
  }
}
