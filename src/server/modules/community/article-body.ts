import { getSchema, type JSONContent } from '@tiptap/core';
import type { Node as PmNode, Schema } from '@tiptap/pm/model';
import { renderToHTMLString } from '@tiptap/static-renderer/pm/html-string';
import sanitizeHtml from 'sanitize-html';
import {
  ARTICLE_HEADING_LEVELS,
  ARTICLE_LINK_PROTOCOLS,
  ARTICLE_LINK_REL,
  articleExtensions,
} from '../../../shared/community/article-schema.ts';
import { emojiPart, imageUrl } from '../../../shared/comment-markers.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { HttpError } from '../../platform/errors.ts';

/** Bytes of JSON an article body may take. */
export const ARTICLE_BODY_MAX_JSON = 300_000;
/** Characters of text an article body may hold. */
export const ARTICLE_TEXT_MAX = 100_000;
/** Deeper than this no editor goes (lists in quotes in spoilers…); deeper is an attack on the renderer. */
const MAX_DEPTH = 24;
const MAX_NODES = 30_000;

export interface RenderedArticleBody {
  /** The document as stored: our schema only, unsafe links and images dropped. */
  doc: JSONContent;
  /** Sanitised HTML the article page shows as it is. */
  html: string;
  /** Plain text (search, summaries, length). */
  text: string;
  /** Addresses of the images in the body, in order. */
  images: string[];
}

const invalid = () => new HttpError(400, 'VALIDATION_FAILED', messageRef('server.articleBody.invalid'));

// Control characters other than tab and newline (C0 and C1), bidi overrides and isolates, and lone
// surrogates never belong in text: they hide what it says, as the text fields' rules say (input-rules.ts).
const CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function linkHref(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const href = value.trim();
  if (href.length === 0 || href.length > 2048 || /[\s"'<>\\\u0000-\u001f\u007f]/.test(href)) return null;
  try {
    const scheme = new URL(href).protocol.slice(0, -1);
    return (ARTICLE_LINK_PROTOCOLS as readonly string[]).includes(scheme) ? href : null;
  } catch {
    return null;
  }
}

/** An emoji image: a path on this site (`/img?…`, `/media/…`) or an http(s) address. */
function emojiSrc(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (/^\/(?![/\\])[^\s"'<>\\\u0000-\u001f\u007f]{0,2047}$/.test(value)) return value;
  return imageUrl(value);
}

/**
 * Copies the document keeping what our schema can hold and what is safe to show: text without control
 * characters, links with an allowed scheme (others lose the link, keep the text), images with an http(s)
 * address, emoji with a proper code. The rest of the checking is ProseMirror's (`check()`).
 */
function clean(value: unknown, depth: number, budget: { nodes: number }): JSONContent | null {
  if (!isRecord(value) || typeof value.type !== 'string') throw invalid();
  if (depth > MAX_DEPTH || --budget.nodes < 0) throw invalid();
  const node: JSONContent = { type: value.type };
  const attrs = isRecord(value.attrs) ? { ...value.attrs } : undefined;
  if (value.type === 'text') {
    if (typeof value.text !== 'string') throw invalid();
    const text = value.text.replace(CONTROL, '');
    if (text.length === 0) return null;
    node.text = text;
  } else if (value.type === 'image') {
    const src = imageUrl(typeof attrs?.src === 'string' ? attrs.src : '');
    if (!src) return null;
    node.attrs = {
      src,
      // Cut first, then cleaned: a cut through an emoji leaves half of it, which the cleaning drops.
      alt: typeof attrs?.alt === 'string' ? attrs.alt.slice(0, 200).replace(CONTROL, '') : null,
      title: typeof attrs?.title === 'string' ? attrs.title.slice(0, 200).replace(CONTROL, '') : null,
    };
  } else if (value.type === 'emoji') {
    const code = typeof attrs?.code === 'string' ? attrs.code : '';
    const [set = '', name = '', extra] = code.split('/');
    const src = emojiSrc(attrs?.src);
    if (extra !== undefined || !emojiPart(set) || !emojiPart(name) || !src) return null;
    node.attrs = { code, src };
  } else if (value.type === 'orderedList') {
    const start = Number(attrs?.start ?? 1);
    node.attrs = { start: Number.isInteger(start) && start >= 0 && start <= 1_000_000 ? start : 1 };
  } else if (value.type === 'heading') {
    const level = Number(attrs?.level);
    node.attrs = {
      level: (ARTICLE_HEADING_LEVELS as readonly number[]).includes(level) ? level : ARTICLE_HEADING_LEVELS[0],
    };
  } else if (value.type === 'codeBlock') {
    const language = typeof attrs?.language === 'string' ? attrs.language : '';
    node.attrs = { language: /^[a-z0-9+#-]{1,24}$/i.test(language) ? language.toLowerCase() : null };
  } else if (attrs) {
    node.attrs = attrs;
  }
  if (Array.isArray(value.marks)) {
    const marks: NonNullable<JSONContent['marks']> = [];
    for (const mark of value.marks) {
      if (!isRecord(mark) || typeof mark.type !== 'string') throw invalid();
      if (mark.type === 'link') {
        const href = linkHref(isRecord(mark.attrs) ? mark.attrs.href : null);
        if (href) marks.push({ type: 'link', attrs: { href } });
        continue;
      }
      marks.push({ type: mark.type });
    }
    if (marks.length > 0) node.marks = marks;
  } else if (value.marks !== undefined) {
    throw invalid();
  }
  if (value.content !== undefined) {
    if (!Array.isArray(value.content)) throw invalid();
    const content: JSONContent[] = [];
    for (const child of value.content) {
      const kept = clean(child, depth + 1, budget);
      if (kept) content.push(kept);
    }
    node.content = content;
  }
  return node;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    ...ARTICLE_HEADING_LEVELS.map((level) => `h${level}`),
    'strong',
    'em',
    's',
    'u',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'hr',
    'a',
    'img',
    'details',
    'summary',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'class', 'data-emoji', 'loading'],
    ol: ['start'],
    code: ['class'],
    details: ['class'],
    div: ['class'],
  },
  allowedClasses: {
    code: ['language-*'],
    img: ['hk-emoji'],
    details: ['hk-spoiler'],
    div: ['hk-spoiler-body'],
  },
  allowedSchemes: [...ARTICLE_LINK_PROTOCOLS],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Whatever a link said before, it leaves as user content in a new tab.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: ARTICLE_LINK_REL, target: '_blank' } }),
  },
};

let schema: Schema | null = null;
const extensions = articleExtensions();

/** The spoiler edits as a framed block; readers get a `<details>` they open themselves (no script needed). */
const nodeMapping = {
  spoiler: ({ children }: { children?: string | string[] }) =>
    `<details class="hk-spoiler"><summary></summary><div class="hk-spoiler-body">${
      Array.isArray(children) ? children.join('') : (children ?? '')
    }</div></details>`,
};

function collectImages(doc: PmNode): string[] {
  const images: string[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'image' && typeof node.attrs.src === 'string') images.push(node.attrs.src);
  });
  return images;
}

/**
 * Checks an article body (a Tiptap document in our schema) and renders it to HTML on the server,
 * sanitised against an allow-list as a second wall: no script, style, frame, event handler or
 * `javascript:` can come out, whatever came in. Throws 400 VALIDATION_FAILED when it is not a document
 * of our schema or is too large.
 */
export function renderArticleBody(input: unknown): RenderedArticleBody {
  let json: string;
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    throw invalid();
  }
  if (Buffer.byteLength(json) > ARTICLE_BODY_MAX_JSON) {
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', messageRef('server.articleBody.tooLarge'));
  }
  if (!isRecord(input) || input.type !== 'doc') throw invalid();
  const cleaned = clean(input, 0, { nodes: MAX_NODES });
  if (!cleaned) throw invalid();
  if (!cleaned.content || cleaned.content.length === 0) cleaned.content = [{ type: 'paragraph' }];

  schema ??= getSchema(extensions);
  let doc: PmNode;
  try {
    doc = schema.nodeFromJSON(cleaned);
    doc.check();
  } catch {
    throw invalid();
  }
  const text = doc.textBetween(0, doc.content.size, '\n', (leaf) => (leaf.type.name === 'hardBreak' ? '\n' : ''));
  if (text.length > ARTICLE_TEXT_MAX) {
    throw new HttpError(400, 'VALIDATION_FAILED', messageRef('server.articleBody.tooLong', { max: ARTICLE_TEXT_MAX }));
  }
  const rendered = renderToHTMLString({ content: doc, extensions, options: { nodeMapping } });
  return {
    doc: doc.toJSON() as JSONContent,
    html: sanitizeHtml(rendered, SANITIZE),
    text: text.trim(),
    images: collectImages(doc),
  };
}
