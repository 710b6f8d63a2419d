import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { posix } from 'node:path';
import yauzl from 'yauzl';
import type { EpubProblem } from '../../../../shared/lightnovel/epub.contract.ts';
import type { EpubMeta } from '../../../../shared/lightnovel/lightnovel-model.ts';
import { formatBytes } from '../../../platform/storage/storage.ts';

/** How much an EPUB may hold once unpacked; sizes are counted while inflating, never taken from headers. */
export interface EpubLimits {
  maxEntries: number;
  /** Largest unpacked entry. */
  maxEntryBytes: number;
  /** Largest unpacked text entry (XHTML, CSS, OPF…), which is read into memory to be checked. */
  maxTextBytes: number;
  /** All entries unpacked together. */
  maxTotalBytes: number;
  /** All entries read into memory together to be checked (text, markup, the cover). */
  maxKeptBytes: number;
  /** Unpacked ÷ packed beyond which an entry, or the whole archive, is a zip bomb… */
  maxRatio: number;
  /** …once it has unpacked at least this much (tiny files compress well and harm nobody). */
  ratioFloorBytes: number;
}

export const EPUB_LIMITS: EpubLimits = {
  maxEntries: 5000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTextBytes: 8 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxKeptBytes: 32 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

/** A book refused, with its stable code and what the message names (an entry, a limit, a URL). */
export class EpubRejection extends Error {
  readonly problem: EpubProblem;
  readonly params: Record<string, string | number>;
  constructor(problem: EpubProblem, params: Record<string, string | number> = {}) {
    super(`${problem} ${JSON.stringify(params)}`);
    this.name = 'EpubRejection';
    this.problem = problem;
    this.params = params;
  }
}

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

const refuse = (problem: EpubProblem, params?: Record<string, string | number>): never => {
  throw new EpubRejection(problem, params);
};

/** Shown in messages: names come from the uploader, so they are cut short and stripped of controls. */
const shown = (name: string) => {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
};

/** Null when an entry name is safe to unpack anywhere; the reason otherwise. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0 || name.length > 1024) return 'length';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control character';
  if (name.includes('\\')) return 'backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute path';
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return 'dot segment';
  return null;
}

/** Entries never read into memory: images, fonts, audio and video are only counted. */
const BINARY = /\.(jpe?g|png|gif|webp|avif|bmp|ico|otf|ttf|woff2?|mp3|mp4|m4a|m4v|aac|ogg|oga|webm|wav|opus)$/i;
const CSS = /\.css$/i;

interface ZipListing {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

/** Maps what yauzl says about a broken archive to our codes: sizes that disagree, or not a zip at all. */
function zipProblem(error: unknown): EpubRejection {
  if (error instanceof EpubRejection) return error;
  const message = error instanceof Error ? error.message : '';
  if (/size mismatch|too many bytes|not enough bytes/.test(message))
    return new EpubRejection('EPUB_SIZE_MISMATCH', { name: '?' });
  return new EpubRejection('EPUB_NOT_ZIP');
}

async function listEntries(path: string, limits: EpubLimits): Promise<ZipListing> {
  const zip = await openZip(path);
  const entries = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > limits.maxEntries) refuse('EPUB_TOO_MANY_ENTRIES', { max: limits.maxEntries });
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          const name = yauzl.getFileNameLowLevel(
            entry.generalPurposeBitFlag,
            entry.fileNameRaw,
            entry.extraFields,
            true,
          );
          if (unsafeEntryName(name)) refuse('EPUB_UNSAFE_NAME', { name: shown(name) });
          if (entries.has(name)) refuse('EPUB_DUPLICATE_ENTRY', { name: shown(name) });
          if (entry.isEncrypted()) refuse('EPUB_ENCRYPTED', { name: shown(name) });
          entries.set(name, entry);
          zip.readEntry();
        } catch (error) {
          reject(error);
        }
      });
      zip.readEntry();
    });
    return { zip, entries };
  } catch (error) {
    zip.close();
    throw zipProblem(error);
  }
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

/**
 * Reads entries, counting the real bytes as they are inflated: an entry past its limit, the total past
 * its limit, the bytes kept in memory past theirs, or a suspicious compression ratio (of the entry or
 * of the whole archive, `archiveBytes` long) stops the inflation at once (a zip bomb never unpacks).
 * Every entry is inflated once, kept in memory only when asked.
 */
function entryReader(listing: ZipListing, limits: EpubLimits, archiveBytes: number) {
  let total = 0;
  let keptTotal = 0;
  const done = new Set<string>();
  return {
    done,
    async read(name: string, keep: boolean, cap: number): Promise<Buffer | null> {
      const entry = listing.entries.get(name);
      if (!entry || done.has(name)) return null;
      done.add(name);
      if (entry.uncompressedSize > cap) refuse('EPUB_ENTRY_TOO_LARGE', { name: shown(name), max: formatBytes(cap) });
      const stream = await openEntry(listing.zip, entry).catch((error: unknown) => {
        throw zipProblem(error);
      });
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          total += chunk.length;
          if (size > cap) refuse('EPUB_ENTRY_TOO_LARGE', { name: shown(name), max: formatBytes(cap) });
          if (total > limits.maxTotalBytes) {
            refuse('EPUB_TOO_LARGE_UNPACKED', { max: formatBytes(limits.maxTotalBytes) });
          }
          if (size > limits.ratioFloorBytes && size > Math.max(1, entry.compressedSize) * limits.maxRatio) {
            refuse('EPUB_COMPRESSION_RATIO', { name: shown(name) });
          }
          // Many entries each under the floor add up: the archive as a whole has the same limit.
          if (total > limits.ratioFloorBytes && total > Math.max(1, archiveBytes) * limits.maxRatio) {
            refuse('EPUB_COMPRESSION_RATIO', { name: shown(name) });
          }
          if (keep) {
            keptTotal += chunk.length;
            if (keptTotal > limits.maxKeptBytes) {
              refuse('EPUB_TOO_LARGE_UNPACKED', { max: formatBytes(limits.maxKeptBytes) });
            }
            chunks.push(chunk);
          }
        }
      } catch (error) {
        stream.destroy();
        if (error instanceof EpubRejection) throw error;
        const message = error instanceof Error ? error.message : '';
        if (/too many bytes|not enough bytes/.test(message)) refuse('EPUB_SIZE_MISMATCH', { name: shown(name) });
        throw zipProblem(error);
      }
      return keep ? Buffer.concat(chunks) : null;
    },
  };
}

// --- XML without a DOM: the container and the package document are small and regular. ---

/** `&amp;`, `&#106;`, `&#x6A;`, `&colon;`… as the browser would read them in an attribute. */
export function decodeEntities(value: string): string {
  const named: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    colon: ':',
    tab: '\t',
    newline: '\n',
    sol: '/',
    lpar: '(',
    rpar: ')',
  };
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (match, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return named[body.toLowerCase()] ?? match;
  });
}

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

// --- Untrusted content. ---

/**
 * True when a URL that loads something leaves the book: any scheme but `data:` (`https:evil`,
 * `https:\\evil`, `HTTPS://`, `ftp:`…, as a browser reads them), or `//` and `\\` naming a host.
 */
export function leavesBook(value: string): boolean {
  const url = urlForm(value);
  if (/^[\\/]{2}/.test(url)) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  return scheme !== undefined && scheme.toLowerCase() !== 'data';
}
const SCRIPT_URL = /^(?:javascript|vbscript|livescript):/i;
/** Attributes that load something into the page (a plain link on `<a>` is allowed to leave the book). */
const LOADING_ATTRIBUTES = [
  'src',
  'href',
  'xlink:href',
  'poster',
  'data',
  'background',
  'srcset',
  'action',
  'formaction',
];
const LINK_ELEMENTS = new Set(['a', 'area']);
/** A URL starting in CSS (quoted, in `url(`, `image-set(`, after `@import`) that leaves the book or runs script. */
const CSS_REMOTE = /(?:["'(,]|@import)\s*((?:https?:)?\/\/[^\s"'()]{0,200})/i;
const CSS_SCRIPT_URL = /["'(,]\s*(?:javascript|vbscript):/i;
/** Every URL a stylesheet may load: in `url(`, after `@import`, in `image-set(`, or a string in a list. */
const CSS_URL = /(?:url\(\s*["']?|@import\s*["']|image-set\(\s*["']?|,\s*["'])\s*([^"'()\s]{1,200})/gi;
/** SVG animation attributes, whose values (`a;b;c`) a browser sets on the animated attribute. */
const ANIMATION_VALUES = new Set(['values', 'to', 'from', 'by']);
const VERTICAL_CSS = /(?:-epub-|-webkit-)?writing-mode\s*:\s*(?:vertical-rl|tb-rl)/i;

/** A URL as the browser compares it: entities decoded, whitespace and controls inside it removed. */
const urlForm = (value: string) => value.replace(/[\u0000-\u0020\u007f]+/g, '');

/** CSS as the browser tokenises it: `\75 rl(` is `url(`, `\2f` is `/`. */
const decodeCssEscapes = (css: string) =>
  css.replace(/\\([0-9a-f]{1,6})\s?|\\(.)/gi, (_, hex: string | undefined, char: string | undefined) => {
    if (!hex) return char ?? '';
    const code = parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });

/** Refuses CSS (a file, a `<style>`, a `style` attribute) that loads from other sites or runs script. */
function checkCss(name: string, source: string): void {
  const css = decodeCssEscapes(decodeEntities(source));
  if (/expression\s*\(|behavior\s*:|-moz-binding/i.test(css)) refuse('EPUB_SCRIPT', { name: shown(name) });
  if (CSS_SCRIPT_URL.test(css)) refuse('EPUB_JAVASCRIPT_URL', { name: shown(name) });
  const remote = CSS_REMOTE.exec(css);
  if (remote) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(remote[1] ?? '') });
  for (const match of css.matchAll(CSS_URL)) {
    const url = match[1] ?? '';
    if (leavesBook(url)) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(url) });
  }
}

/**
 * The text of a markup or CSS entry as a browser would decode it: UTF-16 by its byte order mark (or
 * the `<` it starts with), UTF-8 otherwise; NULs are dropped so that they cannot hide a tag name.
 */
export function decodeText(data: Buffer): string {
  const [a, b] = [data[0], data[1]];
  const even = (bytes: Buffer) => bytes.subarray(0, bytes.length - (bytes.length % 2));
  let text: string;
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) text = even(data).toString('utf16le');
  else if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) {
    text = Buffer.from(even(data)).swap16().toString('utf16le');
  } else text = data.toString('utf8');
  return text.replace(/^\ufeff/, '').replace(/\u0000/g, '');
}

/** Refuses markup (XHTML, HTML, SVG, any XML) with scripts, event handlers, script URLs or remote resources. */
export function checkMarkup(name: string, text: string): { vertical: boolean } {
  if (/<\s*(?:[\w-]+:)?script\b/i.test(text)) refuse('EPUB_SCRIPT', { name: shown(name) });
  let vertical = false;
  let styleOpen: Tag | null = null;
  for (const tag of scan(text)) {
    if (tag.name === 'style') {
      if (!tag.closing) styleOpen = tag;
      else if (styleOpen) {
        const css = text.slice(styleOpen.end, tag.start);
        checkCss(name, css);
        if (VERTICAL_CSS.test(css)) vertical = true;
        styleOpen = null;
      }
    }
    if (tag.closing) continue;
    // Also as written, in case a browser splits the attributes differently from the parse above.
    if (/(?:^|[\s"'/])on[a-z]+\s*=/i.test(tag.raw)) refuse('EPUB_EVENT_HANDLER', { name: shown(name) });
    for (const [key, value] of tag.attributes) {
      const bare = key.includes(':') ? key.slice(key.indexOf(':') + 1) : key;
      if (/^on[a-z]/.test(bare)) refuse('EPUB_EVENT_HANDLER', { name: shown(name) });
      // A frame's own document, written in an attribute: markup this check never sees as such.
      if (bare === 'srcdoc') refuse('EPUB_SCRIPT', { name: shown(name) });
      if (ANIMATION_VALUES.has(bare)) {
        for (const part of value.split(';')) {
          if (SCRIPT_URL.test(urlForm(part)) || /^data:(?:text\/html|application\/xhtml)/i.test(urlForm(part))) {
            refuse('EPUB_JAVASCRIPT_URL', { name: shown(name) });
          }
        }
      }
      const url = urlForm(value);
      if (SCRIPT_URL.test(url) || /^data:(?:text\/html|application\/xhtml|image\/svg)/i.test(url)) {
        refuse('EPUB_JAVASCRIPT_URL', { name: shown(name) });
      }
      if (key === 'style') {
        checkCss(name, value);
        if (VERTICAL_CSS.test(value)) vertical = true;
      }
      if (!LOADING_ATTRIBUTES.includes(key)) continue;
      if (LINK_ELEMENTS.has(tag.name) && (key === 'href' || key === 'xlink:href')) continue;
      const urls = key === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/, 1)[0] ?? '') : [value];
      for (const candidate of urls) {
        if (leavesBook(candidate)) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(candidate) });
      }
    }
    // A refresh goes somewhere else (another site, or back to itself for ever): never in a book.
    if (tag.name === 'meta' && /refresh/i.test(attr(tag, 'http-equiv') ?? '')) {
      refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(attr(tag, 'content') ?? '') });
    }
  }
  return { vertical };
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
      if (CSS.test(name)) {
        checkCss(name, text);
        if (VERTICAL_CSS.test(text)) verticalCss = true;
      } else if (checkMarkup(name, text).vertical) {
        verticalCss = true;
      }
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
