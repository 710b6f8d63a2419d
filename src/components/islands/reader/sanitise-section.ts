import DOMPurify, { type Config } from 'dompurify';

/**
 * Book content is untrusted. The reader page's Content-Security-Policy already stops every script in
 * the book's frames (they are blob: documents, which inherit it); DOMPurify's allow-list also takes out
 * of each (X)HTML or SVG section, before it is shown, whatever could run or reach out: scripts, event
 * handlers, script URLs, frames, objects, forms, <base> and <meta http-equiv>. What a book needs stays:
 * text, ruby, images (blob: and data: ones too), SVG covers, links, its own style sheets, classes,
 * inline styles, ids and epub:type.
 */

const XHTML = 'application/xhtml+xml';
const HTML = 'text/html';
const SVG = 'image/svg+xml';

export const isMarkup = (type: string): boolean => type === XHTML || type === HTML || type === SVG;

/** SVG names with capitals a book uses: in XML, DOMPurify compares names as written, and lists them in lower case. */
const SVG_TAGS = ['clipPath', 'linearGradient', 'radialGradient', 'textPath'];
const SVG_ATTRIBUTES = [
  'viewBox',
  'preserveAspectRatio',
  'clipPathUnits',
  'gradientTransform',
  'gradientUnits',
  'spreadMethod',
  'markerHeight',
  'markerUnits',
  'markerWidth',
  'maskContentUnits',
  'maskUnits',
  'patternContentUnits',
  'patternTransform',
  'patternUnits',
  'refX',
  'refY',
  'pathLength',
  'startOffset',
  'textLength',
  'lengthAdjust',
];

/** Made for each call: DOMPurify writes the names of its lists back in the case of the mode it runs in. */
const config = (xml: boolean): Config => ({
  IN_PLACE: true,
  WHOLE_DOCUMENT: true,
  // foliate-js hands over each resource of the book (images, style sheets) as a blob: URL.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel|blob):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  // A section's head: its title, its style sheets, and the character set (other <meta> attributes go).
  ADD_TAGS: ['title', 'link', 'meta', ...SVG_TAGS],
  ADD_ATTR: ['epub:type', 'xmlns:epub', 'xml:lang', 'charset', ...SVG_ATTRIBUTES],
  ADD_URI_SAFE_ATTR: ['epub:type', 'xml:lang'],
  FORBID_TAGS: ['form', 'input', 'button', 'select', 'option', 'optgroup', 'datalist', 'textarea', 'output'],
  FORBID_ATTR: ['action', 'formaction', 'method'],
  PARSER_MEDIA_TYPE: xml ? XHTML : HTML,
  // Ids named like document properties clobber them only in HTML documents; in XML they are kept for links.
  SANITIZE_DOM: !xml,
});

/** What is shown when a section cannot be read or cleaned: an empty page, never the markup as it came. */
const EMPTY: Record<string, string> = {
  [XHTML]: '<html xmlns="http://www.w3.org/1999/xhtml"><head></head><body></body></html>',
  [HTML]: '<!DOCTYPE html><html><head></head><body></body></html>',
  [SVG]: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};

/** The section's markup, of the media type `type`, without anything that could run. */
export function sanitiseSection(markup: string, type: string): string {
  const xml = type !== HTML;
  const doc = new DOMParser().parseFromString(markup, xml ? (type as DOMParserSupportedType) : HTML);
  // foliate-js reads XHTML that is not well-formed as HTML and says so in `type`: such XML never comes here.
  if (xml && (doc.querySelector('parsererror') || !doc.documentElement?.namespaceURI)) return EMPTY[type] ?? '';
  try {
    DOMPurify.sanitize(doc.documentElement, config(xml));
  } catch {
    return EMPTY[type] ?? '';
  }
  if (type === HTML) return `<!DOCTYPE html>${doc.documentElement.outerHTML}`;
  return new XMLSerializer().serializeToString(doc);
}
