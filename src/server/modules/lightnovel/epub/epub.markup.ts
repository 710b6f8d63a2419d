import { decodeHTML } from 'entities';
import { refuse, shown } from './epub.rejection.ts';
import { readAsHtml, readAsXml, type MarkupVisitor } from './epub.readings.ts';

/** Untrusted content: the checks every markup and CSS entry of a book passes before it is accepted. */

/** `&amp;`, `&#106;`, `&#x6A;`, `&colon;`… as a browser reads them (every HTML entity, with or without `;`). */
export const decodeEntities = (value: string): string => decodeHTML(value);

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

/**
 * Refuses CSS (a file, a `<style>`, a `style` attribute) that loads from other sites or runs script;
 * tells whether it writes vertically.
 */
export function checkCss(name: string, source: string): { vertical: boolean } {
  const css = decodeCssEscapes(decodeEntities(source));
  if (/expression\s*\(|behavior\s*:|-moz-binding/i.test(css)) refuse('EPUB_SCRIPT', { name: shown(name) });
  if (CSS_SCRIPT_URL.test(css)) refuse('EPUB_JAVASCRIPT_URL', { name: shown(name) });
  const remote = CSS_REMOTE.exec(css);
  if (remote) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(remote[1] ?? '') });
  for (const match of css.matchAll(CSS_URL)) {
    const url = match[1] ?? '';
    if (leavesBook(url)) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(url) });
  }
  return { vertical: VERTICAL_CSS.test(source) };
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

/** Declarations that turn text into markup or add attributes to elements (XML readers apply them). */
const DTD_DECLARATION = /<!(?:ENTITY|ATTLIST)\b/;

/** The checks of one reading: each start tag, and the text of each `<style>` once it ends (or the text does). */
function markupChecks(name: string) {
  let vertical = false;
  let styleDepth = 0;
  let css = '';
  const checkStyle = () => {
    if (checkCss(name, css).vertical) vertical = true;
    css = '';
  };
  const visitor: MarkupVisitor = {
    start(tag, attributes) {
      if (tag === 'script') refuse('EPUB_SCRIPT', { name: shown(name) });
      // What it holds is text to a browser running scripts and markup to one that is not: never in a book.
      if (tag === 'noscript') refuse('EPUB_SCRIPT', { name: shown(name) });
      if (tag === 'style') styleDepth++;
      checkElement(name, tag, attributes);
      for (const [key, value] of attributes) {
        if (key === 'style' && checkCss(name, value).vertical) vertical = true;
      }
    },
    end(tag) {
      if (tag !== 'style' || styleDepth === 0) return;
      styleDepth--;
      if (styleDepth === 0) checkStyle();
    },
    text(chars) {
      if (styleDepth > 0) css += chars;
    },
  };
  return {
    visitor,
    finish() {
      if (styleDepth > 0) checkStyle();
      return vertical;
    },
  };
}

function checkElement(name: string, tag: string, attributes: readonly (readonly [string, string])[]): void {
  for (const [key, value] of attributes) {
    const bare = key.slice(key.indexOf(':') + 1);
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
    if (!LOADING_ATTRIBUTES.includes(key)) continue;
    if (LINK_ELEMENTS.has(tag) && (key === 'href' || key === 'xlink:href')) continue;
    const urls = key === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/, 1)[0] ?? '') : [value];
    for (const candidate of urls) {
      if (leavesBook(candidate)) refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(candidate) });
    }
  }
  // A refresh goes somewhere else (another site, or back to itself for ever): never in a book.
  const httpEquiv = attributes.find(([key]) => key === 'http-equiv')?.[1] ?? '';
  if (tag === 'meta' && /refresh/i.test(httpEquiv)) {
    const content = attributes.find(([key]) => key === 'content')?.[1] ?? '';
    refuse('EPUB_REMOTE_RESOURCE', { name: shown(name), url: shown(content) });
  }
}

/**
 * Refuses markup (XHTML, HTML, SVG, any XML) with scripts, event handlers, script URLs or remote
 * resources, as an HTML parser or an XML parser would read it; tells whether its CSS writes vertically.
 */
export async function checkMarkup(name: string, text: string): Promise<{ vertical: boolean }> {
  if (/<\s*(?:[\w-]+:)?script\b/i.test(text)) refuse('EPUB_SCRIPT', { name: shown(name) });
  if (DTD_DECLARATION.test(text)) refuse('EPUB_DTD_DECLARATION', { name: shown(name) });
  const asXml = markupChecks(name);
  await readAsXml(text, asXml.visitor, decodeEntities);
  const vertical = asXml.finish();
  const asHtml = markupChecks(name);
  await readAsHtml(text, asHtml.visitor);
  return { vertical: asHtml.finish() || vertical };
}
