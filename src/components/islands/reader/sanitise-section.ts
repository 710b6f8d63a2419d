/**
 * Book content is untrusted. The reader page's Content-Security-Policy already stops every script in
 * the book's frames (they are blob: documents, which inherit it); this also takes scripts out of each
 * (X)HTML or SVG section before it is shown: <script> elements, on… handler attributes, and
 * javascript:/vbscript:/data: URLs in links and sources (data: images stay).
 */

const MARKUP_TYPES = ['application/xhtml+xml', 'text/html', 'image/svg+xml'];
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'poster', 'srcdoc'];
const SCRIPT_URL = /^\s*(javascript|vbscript):/i;
/** data: only as images (a data: document in a frame or a link could carry script). */
const DATA_IMAGE = /^\s*data:image\/(png|jpe?g|gif|webp|avif)[;,]/i;

export const isMarkup = (type: string): boolean => MARKUP_TYPES.includes(type);

function cleanElement(element: Element): void {
  for (const attribute of [...element.attributes]) {
    const name = attribute.name.toLowerCase();
    const local = attribute.localName.toLowerCase();
    if (local.startsWith('on')) {
      element.removeAttributeNode(attribute);
      continue;
    }
    if (name === 'srcdoc' || URL_ATTRIBUTES.includes(name) || local === 'href') {
      const value = attribute.value;
      if (SCRIPT_URL.test(value) || (/^\s*data:/i.test(value) && !DATA_IMAGE.test(value)) || name === 'srcdoc') {
        element.removeAttributeNode(attribute);
      }
    }
  }
}

/** The section's markup without anything that could run. */
export function sanitiseSection(markup: string, type: string): string {
  const doc = new DOMParser().parseFromString(markup, type as DOMParserSupportedType);
  if (doc.querySelector('parsererror') && type !== 'text/html') {
    // Not well-formed: read it as HTML, as foliate itself does.
    return sanitiseSection(markup, 'text/html');
  }
  for (const element of [
    ...doc.querySelectorAll('script, iframe, object, embed, frame, frameset, base, meta[http-equiv]'),
  ]) {
    element.remove();
  }
  for (const element of doc.querySelectorAll('*')) cleanElement(element);
  if (type === 'text/html') return `<!DOCTYPE html>${doc.documentElement.outerHTML}`;
  return new XMLSerializer().serializeToString(doc);
}
