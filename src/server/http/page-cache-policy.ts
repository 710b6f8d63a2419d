import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { MAX_PAYLOAD_BYTES } from '../platform/bus/bus.ts';

/**
 * What the visitor page cache needs from pages and writers, without its state: pages say that they
 * may be cached and which data they show (`cachePage`), writers say which data changed
 * (`pagesChanged`), and the Astro middleware hands a rendered page to the cache through the request's
 * locals (`PageCapture`). The cache itself lives in the server (page-cache.ts), one per process.
 */

/** Names of the data a page shows, so a change to that data drops exactly the pages showing it. */
export const pageTags = {
  galgame: (id: number) => `galgame:${id}`,
  character: (id: number) => `character:${id}`,
  person: (id: number) => `person:${id}`,
  producer: (id: number) => `producer:${id}`,
  /** A user's name, avatar or visibility as shown next to their ratings. */
  user: (id: string) => `user:${id}`,
  /** Which games exist and are published: every list of games. */
  galgames: 'galgames',
  /** The tag list of /galgame. */
  tags: 'tags',
  announcements: 'announcements',
  /** An emoji set: its names, its emojis and their images. */
  emojiSet: (id: number) => `emoji-set:${id}`,
  /** A community post or article: its page, and the lists showing it. */
  post: (id: number) => `post:${id}`,
  article: (id: number) => `article:${id}`,
  section: (id: number) => `section:${id}`,
  topic: (id: number) => `topic:${id}`,
  /** Which posts and articles exist and are published: /community and every list of them. */
  community: 'community',
  /** The comments on one target (its page shows the first page of them). */
  comments: (type: string, id: number) => `comments:${type}:${id}`,
  /** Every cached page. */
  all: '*',
} as const;

export type PagesChanged = { tags: string[] };

declare module '../context.ts' {
  interface AppTopics {
    /** Data behind cached pages changed: every process drops the pages and shared reads showing it. */
    'pages.changed': PagesChanged;
  }
}

export const PAGES_CHANGED_TOPIC = 'pages.changed';

/** Largest tag list per event, comfortably under the bus payload limit. */
const TAG_BYTES_PER_EVENT = MAX_PAYLOAD_BYTES - 200;

/**
 * Tells every server process that the data behind these tags changed. Call it after the change is
 * committed. Never fails the caller: a lost event only means a page stays stale until it expires.
 */
export async function pagesChanged(ctx: Pick<AppContext, 'bus' | 'logger'>, tags: readonly string[]): Promise<void> {
  const unique = [...new Set(tags)];
  let batch: string[] = [];
  let bytes = 0;
  const batches: string[][] = [];
  for (const tag of unique) {
    const size = Buffer.byteLength(JSON.stringify(tag)) + 1;
    if (bytes + size > TAG_BYTES_PER_EVENT && batch.length > 0) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(tag);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  for (const part of batches) {
    await ctx.bus
      .publish(PAGES_CHANGED_TOPIC, { tags: part })
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'page cache invalidation not sent'));
  }
}

/** What a page declares when its HTML does not depend on who is looking (for visitors). */
export interface PageCachePolicy {
  /** The data shown, as `pageTags`; a function is only called when the page is kept. */
  tags: readonly string[] | (() => readonly string[]);
  /**
   * Runs on every answer from the cache (the render itself already ran it once), e.g. a view count;
   * it gets the request being answered (who asked: `incomingIp`).
   */
  onServe?: (req: IncomingMessage) => void;
  /**
   * The page is also the same for every member: members then share one copy of it too (apart from
   * visitors'), rendered without anything of theirs. Its personal parts (the header's avatar, the
   * author's and moderators' actions, likes and follows) are islands that learn the member once
   * hydrated. Such a page reads who is looking only through `sharedMemberRender` and `showsLoggedIn`.
   */
  members?: boolean;
}

/**
 * Marks this page as the same for every visitor: a visitor's request may then be answered from the
 * cache until one of `tags` changes (and a member's too, with `members`). Pages whose HTML depends on
 * other request state, like a secret in the address, must not call it. Members' requests use the cache
 * only for pages declaring `members`, in a copy of their own, and never once the render read a
 * member's cookie data (`markPersonal`).
 */
export function cachePage(locals: App.Locals, policy: PageCachePolicy): void {
  locals.pageCachePolicy = policy;
}

/** The tags of a policy. */
export const policyTags = (policy: PageCachePolicy): readonly string[] =>
  typeof policy.tags === 'function' ? policy.tags() : policy.tags;

/** A rendered page as the middleware hands it over. */
export interface CapturedPage {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

/** Headers the cache sets on a cached page (for the browser and for a CDN in front). */
export interface CachedHeaders {
  etag: string;
  cacheControl: string;
  vary: string;
}

/** Who a kept page is for: visitors, or members (who get a copy without anything of theirs). */
export type PageAudience = 'visitor' | 'member';

/**
 * Set by the server on the locals of a request that may be answered from the cache (a GET).
 * The middleware calls exactly one of the two once the page is rendered.
 */
export interface PageCapture {
  audience: PageAudience;
  /** Keeps the page (unless it changed while rendering) and returns the headers to answer with. */
  store: (page: CapturedPage, policy: PageCachePolicy) => CachedHeaders;
  /** The page is not cacheable (not declared, not 200, sets a cookie, or shows the member's own data). */
  skip: () => void;
}

/**
 * Whether this render makes the copy of a page that all members share (the page declared `members`
 * and the request has a login): the page must then show nothing of the member's own, and parts that
 * would (the header's user) render their neutral logged-in state instead.
 */
export function sharedMemberRender(locals: Pick<App.Locals, 'pageCapture' | 'pageCachePolicy'>): boolean {
  return locals.pageCapture?.audience === 'member' && locals.pageCachePolicy?.members === true;
}

/**
 * Marks the page as showing something of the member who asked (read from their cookies): it is then
 * never shared with other members, whatever it declared.
 */
export function markPersonal(locals: Pick<App.Locals, 'personal'>): void {
  locals.personal = true;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}

/**
 * The last step of rendering a page (the Astro middleware's): a visitor's page that declared itself
 * cacheable is read whole, handed to the cache and answered with its validators (304 when the browser
 * already has it); anything else is passed on as it is (`private, no-cache` unless the page chose).
 */
export async function finishPage(
  request: Request,
  response: Response,
  locals: Pick<App.Locals, 'pageCapture' | 'pageCachePolicy' | 'personal'>,
): Promise<Response> {
  const capture = locals.pageCapture;
  const policy = locals.pageCachePolicy;
  // A page that read someone's own data is never kept, for whichever audience it was rendered.
  const unshared = () => locals.personal === true || (capture?.audience === 'member' && !policy?.members);
  // Not kept: private to the browser that asked, unless the page chose its own caching.
  const notKept = (answer: Response) => {
    capture?.skip();
    if (!answer.headers.has('Cache-Control')) answer.headers.set('Cache-Control', 'private, no-cache');
    return answer;
  };
  if (!capture || !policy || unshared() || response.status !== 200 || response.headers.has('Set-Cookie')) {
    return notKept(response);
  }
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    capture.skip();
    throw error;
  }
  // With streaming, components still render while the body is read: look again once it is whole.
  if (unshared()) return notKept(new Response(body, response));
  const cached = capture.store({ status: response.status, headers: [...response.headers], body }, policy);
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', cached.cacheControl);
  headers.set('ETag', cached.etag);
  headers.set('Vary', cached.vary);
  headers.set('X-Cache', 'MISS');
  if (etagMatches(request.headers.get('If-None-Match'), cached.etag))
    return new Response(null, { status: 304, headers });
  return new Response(body, { status: response.status, headers });
}
