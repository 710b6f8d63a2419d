/**
 * Markers in comments and private messages: `[emoji:{set}/{name}]` and `[img]{url}[/img]`.
 * The parser returns plain tokens for a component to render as elements; it never produces HTML.
 */
export type MarkerToken =
  | { type: 'text'; text: string }
  | { type: 'newline' }
  | { type: 'emoji'; code: string; set: string; name: string; raw: string }
  | { type: 'image'; url: string; index: number; raw: string };

/** Markers are recognised only within the first 20 000 characters; the rest is plain text. */
export const MAX_MARKER_INPUT = 20_000;
export const MAX_EMOJI_PART_LENGTH = 64;
export const MAX_IMAGE_URL_LENGTH = 2048;

const EMOJI_OPEN = '[emoji:';
const IMG_OPEN = '[img]';
const IMG_CLOSE = '[/img]';
// Longest possible emoji body: set + '/' + name.
const MAX_EMOJI_BODY = MAX_EMOJI_PART_LENGTH * 2 + 1;
// The URL is trimmed before the length check; more padding than this is not a URL someone typed.
const MAX_IMAGE_BODY = MAX_IMAGE_URL_LENGTH * 2;

const EMOJI_PART = /^[\p{L}\p{M}\p{Nd}_.-]{1,64}$/u;
const ONLY_DOTS = /^\.+$/;
const HTTP_SCHEME = /^https?:\/\//i;
// Whitespace, quotes, angle brackets, backslash and control characters never belong in an image URL.
const UNSAFE_URL_CHAR = /[\s"'<>\\\u0000-\u001f\u007f]/;

/** Whether `part` can be a set or emoji name in `[emoji:{set}/{name}]` (what the parser reads). */
export function emojiPart(part: string): boolean {
  // '.' and '..' would read as path segments to a resolver that builds URLs from the code.
  return EMOJI_PART.test(part) && !ONLY_DOTS.test(part);
}

/** The trimmed URL when `body` is an acceptable image address (http or https, nothing unsafe), else null. */
export function imageUrl(body: string): string | null {
  if (body.length > MAX_IMAGE_BODY) return null;
  const url = body.trim();
  if (url.length === 0 || url.length > MAX_IMAGE_URL_LENGTH) return null;
  if (!HTTP_SCHEME.test(url) || UNSAFE_URL_CHAR.test(url)) return null;
  try {
    new URL(url);
  } catch {
    return null;
  }
  return url;
}

/**
 * Splits text into text, newline, emoji and image tokens. Invalid or unclosed markers stay text.
 * Runs in linear time: the positions of the next `]` and `[/img]` are remembered, not searched again
 * for every `[`.
 */
export function parseMarkers(input: string): MarkerToken[] {
  const tokens: MarkerToken[] = [];
  const limit = Math.min(input.length, MAX_MARKER_INPUT);

  const pushText = (text: string) => {
    if (text.length === 0) return;
    const last = tokens.at(-1);
    if (last?.type === 'text') last.text += text;
    else tokens.push({ type: 'text', text });
  };
  const pushPlain = (text: string) => {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      pushText(text.slice(start, end));
      tokens.push({ type: 'newline' });
      start = nl + 1;
    }
    pushText(text.slice(start));
  };

  // Cached search results; -1 means "not searched yet", Infinity means "none left".
  let nextBracket = -1;
  let nextImgClose = -1;
  const findBracket = (from: number) => {
    if (nextBracket < from) nextBracket = input.indexOf(']', from);
    if (nextBracket === -1) nextBracket = Infinity;
    return nextBracket;
  };
  const findImgClose = (from: number) => {
    if (nextImgClose < from) nextImgClose = input.indexOf(IMG_CLOSE, from);
    if (nextImgClose === -1) nextImgClose = Infinity;
    return nextImgClose;
  };

  let imageCount = 0;
  let consumed = 0;
  let cursor = 0;
  while (cursor < limit) {
    const open = input.indexOf('[', cursor);
    if (open === -1 || open >= limit) break;
    cursor = open + 1;

    if (input.startsWith(EMOJI_OPEN, open)) {
      const bodyStart = open + EMOJI_OPEN.length;
      const close = findBracket(bodyStart);
      if (close + 1 > limit || close - bodyStart > MAX_EMOJI_BODY) continue;
      const body = input.slice(bodyStart, close);
      const slash = body.indexOf('/');
      const set = body.slice(0, slash);
      const name = body.slice(slash + 1);
      if (slash === -1 || !emojiPart(set) || !emojiPart(name)) continue;
      pushPlain(input.slice(consumed, open));
      tokens.push({ type: 'emoji', code: `${set}/${name}`, set, name, raw: input.slice(open, close + 1) });
      consumed = cursor = close + 1;
    } else if (input.startsWith(IMG_OPEN, open)) {
      const bodyStart = open + IMG_OPEN.length;
      const close = findImgClose(bodyStart);
      const end = close + IMG_CLOSE.length;
      if (end > limit) continue;
      const url = imageUrl(input.slice(bodyStart, close));
      if (url === null) continue;
      pushPlain(input.slice(consumed, open));
      tokens.push({ type: 'image', url, index: ++imageCount, raw: input.slice(open, end) });
      consumed = cursor = end;
    }
  }
  pushPlain(input.slice(consumed));
  return tokens;
}
