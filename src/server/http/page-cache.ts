import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE } from '../../shared/auth-model.ts';
import { requestLocale } from '../../shared/i18n/index.ts';
import type { AppContext } from '../context.ts';
import {
  PAGES_CHANGED_TOPIC,
  etagMatches,
  pageTags,
  policyTags,
  type CachedHeaders,
  type CapturedPage,
  type PageAudience,
  type PageCachePolicy,
  type PageCapture,
} from './page-cache-policy.ts';

/**
 * The page cache: HTML of pages that declared themselves the same for every visitor (`cachePage`),
 * kept in memory in each server process and keyed by audience, language, path and query.
 *
 * - Visitors (no access or refresh token cookie) share one copy of such a page. Members share another
 *   copy only of pages that declared `members` and whose render read nothing of the member's own
 *   (`markPersonal`); that copy is answered `private`. Every other member request is a fresh render,
 *   so nobody is ever served someone else's HTML.
 * - A miss renders once: requests for the same page arriving meanwhile wait for that render (single
 *   flight). A page is fresh for `freshMs`; after that, and until `staleMs`, one request renders it
 *   again while the others are answered with the stale copy.
 * - `pages.changed` events on the bus (from any process) drop the pages showing the changed data,
 *   and a render that started before such a change is not kept.
 * - Answers carry a weak ETag (304 when the browser has it) and `Cache-Control` with `s-maxage` and
 *   `stale-while-revalidate` for a CDN, with `Vary: Cookie` so it keeps members apart.
 * - Memory is bounded: least recently used pages go first once `maxBytes` is reached.
 * - While the database cannot be reached, every page kept is served as it is (stale if need be), and
 *   nothing is rendered again until it is back.
 */

export interface PageCacheOptions {
  /** Total bytes of pages kept (bodies and their gzip copies). 0 turns the cache off. */
  maxBytes: number;
  freshMs?: number;
  staleMs?: number;
  /** Pages bigger than this are not kept. */
  maxPageBytes?: number;
  now?: () => number;
}

export const PAGE_FRESH_MS = 60_000;
export const PAGE_STALE_MS = 10 * 60_000;
/** How long an address whose page was not cacheable renders without waiting on others. */
const UNCACHEABLE_MS = 60_000;
/** How long a request waits for another one rendering the same page before rendering itself. */
const FLIGHT_WAIT_MS = 5_000;
/** A render that takes longer than this is not kept (its data may have changed without notice). */
const MAX_RENDER_MS = 60_000;
/** Headers the cache sets itself, or that belong to one transfer only. */
const OWN_HEADERS = new Set([
  'cache-control',
  'etag',
  'vary',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'x-cache',
  'set-cookie',
]);

interface Entry {
  key: string;
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  cacheControl: string;
  tags: string[];
  onServe: ((req: IncomingMessage) => void) | undefined;
  freshUntil: number;
  staleUntil: number;
  /** A request is rendering a new copy (stale entries only). */
  refreshing: boolean;
  bytes: number;
}

/** Members' copies stay out of shared caches (a CDN, a proxy) and are checked with the server each time. */
export const MEMBER_CACHE_CONTROL = 'private, no-cache';

/** What rendering a request takes: the per-request locals the server hands to Astro. */
export type RenderPage = (locals: Pick<App.Locals, 'app' | 'pageCapture'>) => void | Promise<void>;

export interface PageCache {
  /** Answers from the cache, or renders (capturing the page when it may be kept). */
  serve: (req: IncomingMessage, res: ServerResponse, render: RenderPage) => Promise<void>;
  invalidate: (tags: readonly string[]) => void;
  stats: () => { entries: number; bytes: number };
  /** Stops listening to the bus. */
  close: () => void;
}

/** A request with a login: it carries an access or refresh token cookie (whatever their validity). */
export function hasLogin(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(';')) {
    // A part without '=' is no cookie at all (Astro's parser skips it too).
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    if (name === ACCESS_TOKEN_COOKIE || name === REFRESH_TOKEN_COOKIE) return true;
  }
  return false;
}

export function cacheControl(freshMs: number, staleMs: number): string {
  const s = (ms: number) => Math.round(ms / 1000);
  return `public, max-age=0, s-maxage=${s(freshMs)}, stale-while-revalidate=${s(staleMs - freshMs)}`;
}

const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));

export function createPageCache(ctx: AppContext, options: PageCacheOptions): PageCache {
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? PAGE_FRESH_MS;
  const staleMs = Math.max(options.staleMs ?? PAGE_STALE_MS, freshMs);
  const maxPageBytes = options.maxPageBytes ?? 2 * 1024 * 1024;
  const control = cacheControl(freshMs, staleMs);
  const vary = 'Cookie, Accept-Encoding';

  /** In least-recently-used order (a Map keeps insertion order; a hit moves its entry to the end). */
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<string>>();
  let bytes = 0;
  /** Renders of pages nobody has yet, by key: later requests wait for them. */
  const flights = new Map<string, Promise<Entry | null>>();
  const uncacheable = new Map<string, number>();
  /**
   * Members' keys whose page was kept before: only their renders are waited for. Most pages are never
   * shared with members (catalogue pages, account pages); their members' requests render at once.
   */
  const sharedWithMembers = new Set<string>();
  /** Invalidation clock: each change gets the next number, kept per tag for renders still running. */
  let clock = 0;
  const changedAt = new Map<string, { tick: number; at: number }>();

  function remove(entry: Entry): void {
    if (entries.get(entry.key) !== entry) return;
    entries.delete(entry.key);
    bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(entry.key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  }

  function add(entry: Entry): void {
    const old = entries.get(entry.key);
    if (old) remove(old);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = byTag.get(tag);
      if (!keys) byTag.set(tag, (keys = new Set()));
      keys.add(entry.key);
    }
    for (const oldest of entries.values()) {
      if (bytes <= options.maxBytes) break;
      remove(oldest);
    }
  }

  function invalidate(tags: readonly string[]): void {
    clock++;
    const at = now();
    for (const [tag, mark] of changedAt) if (at - mark.at > MAX_RENDER_MS) changedAt.delete(tag);
    for (const tag of tags) {
      changedAt.set(tag, { tick: clock, at });
      if (tag === pageTags.all) {
        for (const entry of [...entries.values()]) remove(entry);
        continue;
      }
      for (const key of [...(byTag.get(tag) ?? [])]) {
        const entry = entries.get(key);
        if (entry) remove(entry);
      }
    }
  }

  /** Whether something a render started at `tick` shows has changed since. */
  const changedSince = (tick: number, tags: readonly string[]) =>
    (changedAt.get(pageTags.all)?.tick ?? 0) > tick || tags.some((tag) => (changedAt.get(tag)?.tick ?? 0) > tick);

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry, state: 'HIT' | 'STALE'): void {
    entry.onServe?.(req);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of entry.headers) headers[name] = value;
    headers['cache-control'] = entry.cacheControl;
    headers['etag'] = entry.etag;
    headers['vary'] = vary;
    headers['x-cache'] = state;
    if (etagMatches(req.headers['if-none-match'], entry.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const body = entry.gzip && acceptsGzip(req) ? entry.gzip : entry.body;
    if (body === entry.gzip) headers['content-encoding'] = 'gzip';
    headers['content-length'] = String(body.length);
    res.writeHead(entry.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function keyOf(req: IncomingMessage): { key: string; audience: PageAudience } | null {
    if (options.maxBytes <= 0) return null;
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const cookie = req.headers.cookie;
    const audience = hasLogin(cookie) ? 'member' : 'visitor';
    return { key: `${audience === 'member' ? 'm' : 'v'} ${requestLocale(cookie)} ${req.url ?? '/'}`, audience };
  }

  /**
   * The locals of a request whose page may be kept: the middleware reports back through
   * `pageCapture`, and `done` learns whether the page was kept, not cacheable, or never finished.
   */
  function capturing(
    res: ServerResponse,
    key: string,
    audience: PageAudience,
    done: (entry: Entry | null, outcome: 'stored' | 'skipped' | 'abandoned') => void,
  ): Pick<App.Locals, 'app' | 'pageCapture'> {
    const tick = clock;
    const started = now();
    let settled = false;
    const settle = (entry: Entry | null, outcome: 'stored' | 'skipped' | 'abandoned') => {
      if (settled) return false;
      settled = true;
      done(entry, outcome);
      return true;
    };
    // A render that fails or is cut off releases the requests waiting for it.
    res.once('close', () => settle(null, 'abandoned'));
    const cacheControl = audience === 'member' ? MEMBER_CACHE_CONTROL : control;
    const pageCapture: PageCapture = {
      audience,
      store(page: CapturedPage, policy: PageCachePolicy): CachedHeaders {
        const body = Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
        const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
        const answer = { etag, cacheControl, vary };
        if (settled) return answer;
        uncacheable.delete(key);
        if (audience === 'member') {
          if (sharedWithMembers.size >= 10_000) sharedWithMembers.clear();
          sharedWithMembers.add(key);
        }
        const at = now();
        const tags = [...new Set(policyTags(policy))];
        if (body.length > maxPageBytes || at - started > MAX_RENDER_MS || changedSince(tick, tags)) {
          settle(null, 'abandoned');
          return answer;
        }
        const entry: Entry = {
          key,
          status: page.status,
          headers: page.headers.filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())),
          body,
          gzip: null,
          etag,
          cacheControl,
          tags,
          onServe: policy.onServe,
          freshUntil: at + freshMs,
          staleUntil: at + staleMs,
          refreshing: false,
          bytes: body.length + key.length,
        };
        add(entry);
        settle(entry, 'stored');
        if (body.length > 1024) {
          gzip(body, (error, zipped) => {
            if (error || entries.get(key) !== entry) return;
            entry.gzip = zipped;
            entry.bytes += zipped.length;
            bytes += zipped.length;
            add(entry);
          });
        }
        return answer;
      },
      skip() {
        if (!settle(null, 'skipped')) return;
        if (audience === 'member') {
          sharedWithMembers.delete(key);
          return;
        }
        if (uncacheable.size >= 10_000) uncacheable.clear();
        uncacheable.set(key, now() + UNCACHEABLE_MS);
      },
    };
    return { app: ctx, pageCapture };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, render: RenderPage): Promise<void> {
    const keyed = keyOf(req);
    if (keyed === null) return render({ app: ctx });
    const { key, audience } = keyed;
    const at = now();
    const entry = entries.get(key);
    // While the database is away, every page kept is served, however old, rather than a 503.
    const away = !ctx.dbAvailability.reachable;
    if (entry && (at < entry.staleUntil || away)) {
      // Most recently used goes last.
      entries.delete(key);
      entries.set(key, entry);
      if (at < entry.freshUntil) return send(req, res, entry, 'HIT');
      if (entry.refreshing || req.method === 'HEAD' || away) return send(req, res, entry, 'STALE');
      // This request renders a new copy; the others get the stale one meanwhile.
      entry.refreshing = true;
      return render(
        capturing(res, key, audience, (_fresh, outcome) => {
          entry.refreshing = false;
          // The page is no longer cacheable (gone, or now personal): the stale copy goes too.
          if (outcome === 'skipped') remove(entry);
        }),
      );
    }
    if (entry) remove(entry);
    // A HEAD is answered from a kept page, but its own render has no body to keep.
    if (req.method === 'HEAD') return render({ app: ctx });

    const flight = flights.get(key);
    if (flight) {
      const waited = await Promise.race([flight, new Promise<null>((r) => setTimeout(r, FLIGHT_WAIT_MS, null))]);
      if (waited && !res.destroyed && entries.get(key) === waited) return send(req, res, waited, 'HIT');
      return render({ app: ctx });
    }
    let release: (entry: Entry | null) => void = () => {};
    const blocked = audience === 'member' ? !sharedWithMembers.has(key) : (uncacheable.get(key) ?? 0) > at;
    if (!blocked) {
      const promise = new Promise<Entry | null>((resolve) => (release = resolve));
      flights.set(key, promise);
      const resolve = release;
      release = (result) => {
        if (flights.get(key) === promise) flights.delete(key);
        resolve(result);
      };
    }
    return render(capturing(res, key, audience, (result) => release(result)));
  }

  const unsubscribe = ctx.bus.subscribe(PAGES_CHANGED_TOPIC, ({ tags }) => invalidate(tags));
  return {
    serve,
    invalidate,
    stats: () => ({ entries: entries.size, bytes }),
    close: unsubscribe,
  };
}
