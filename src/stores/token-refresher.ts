import { api, loadAuthContract } from './api-client.ts';
import {
  $session,
  accessTokenExpiresAt,
  hydrateSessionFromCookies,
  readAccessToken,
  readRefreshToken,
} from './session.ts';

/** Spec §4/§9: check every 60 s, refresh when the access token has under 10 minutes left. */
export const REFRESH_CHECK_INTERVAL_MS = 60_000;
export const REFRESH_MARGIN_MS = 10 * 60_000;

/** True when the access token runs out within the margin (or its expiry is unknown). */
export function needsRefresh(expiresAtMs: number | null, nowMs: number): boolean {
  return expiresAtMs === null || expiresAtMs - nowMs < REFRESH_MARGIN_MS;
}

export interface RefresherDeps {
  now: () => number;
  /** Calls `fn` every `ms`; returns a cancel function. */
  every: (fn: () => void, ms: number) => () => void;
  /** The document: its visibility and `visibilitychange`. */
  page: EventTarget & { readonly visibilityState: string };
  /** The window: `pagehide`. */
  window: EventTarget;
  /** The API client's shared refresh (keepalive), so a 401 retry and the timer never refresh twice at once. */
  refresh: () => Promise<unknown>;
  readAccessToken: () => string | null;
  readRefreshToken: () => string | null;
  /** Called on a check that finds no refresh token (the login ran out, or another tab logged out). */
  onNoRefreshToken?: () => void;
  /**
   * Check at pagehide (spec §4, default on). A page that is going away cannot store the answer, and the
   * refresh uses the old token up, so this keeps the login only if the server also sends the new tokens
   * as Set-Cookie on the refresh answer (the browser stores those after the page is gone).
   */
  checkOnPageHide?: boolean;
}

export interface TokenRefresher {
  start(): void;
  stop(): void;
  /** Refreshes when needed; true when a refresh was started. */
  check(): boolean;
}

export function createTokenRefresher(deps: RefresherDeps): TokenRefresher {
  let cancelInterval: (() => void) | null = null;
  let started = false;

  function check(): boolean {
    if (!deps.readRefreshToken()) {
      deps.onNoRefreshToken?.();
      return false;
    }
    const access = deps.readAccessToken();
    if (access && !needsRefresh(accessTokenExpiresAt(access), deps.now())) return false;
    deps.refresh().catch((error: unknown) => {
      console.warn('[auth] background token refresh failed', error);
    });
    return true;
  }

  function resume(): void {
    if (cancelInterval) return;
    check();
    cancelInterval = deps.every(() => check(), REFRESH_CHECK_INTERVAL_MS);
  }

  function pause(): void {
    cancelInterval?.();
    cancelInterval = null;
  }

  // Hidden pages do not check; a page coming back checks at once and restarts the 60 s rhythm.
  const onVisibilityChange = () => (deps.page.visibilityState === 'hidden' ? pause() : resume());
  // Before the page goes away; the refresh is keepalive, so it finishes after it (spec §4).
  const onPageHide = () => void check();

  return {
    start() {
      if (started) return;
      started = true;
      deps.page.addEventListener('visibilitychange', onVisibilityChange);
      if (deps.checkOnPageHide ?? true) deps.window.addEventListener('pagehide', onPageHide);
      if (deps.page.visibilityState !== 'hidden') resume();
    },
    stop() {
      if (!started) return;
      started = false;
      pause();
      deps.page.removeEventListener('visibilitychange', onVisibilityChange);
      deps.window.removeEventListener('pagehide', onPageHide);
    },
    check,
  };
}

let browserRefresher: TokenRefresher | null = null;

/** Starts the page's refresher once (later calls do nothing); returns a function that stops it. */
export function startTokenRefresher(): () => void {
  if (typeof window === 'undefined') return () => {};
  browserRefresher ??= createTokenRefresher({
    now: () => Date.now(),
    every: (fn, ms) => {
      const handle = setInterval(fn, ms);
      return () => clearInterval(handle);
    },
    page: document,
    window,
    refresh: () => api.refresh(),
    readAccessToken,
    readRefreshToken,
    // The header should stop showing a login whose tokens are gone.
    onNoRefreshToken: () => {
      if ($session.get() && !readAccessToken()) hydrateSessionFromCookies();
    },
  });
  browserRefresher.start();
  // A refresh at pagehide has no time left to load the auth contract: have it ready while there is a login.
  if (readRefreshToken()) loadAuthContract().catch(() => {});
  const refresher = browserRefresher;
  return () => refresher.stop();
}
