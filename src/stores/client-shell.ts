import { keepsScrollOnNavigation } from '../shared/layout.ts';
import { applyColorMode, watchColorMode } from './color-mode.ts';
import {
  $newBuildAvailable,
  BUILD_POLL_MS,
  MANIFEST_FIRST_FETCH_MS,
  checkForNewBuild,
  fetchBuildManifest,
  isChunkLoadError,
  mayReloadAfterChunkError,
} from './build-update.ts';

let started = false;

/**
 * Client behaviour shared by every page, started once per tab (the client router keeps it alive):
 * colour mode, scroll keeping on the routes that ask for it, build-update checks and the chunk-error
 * reload guard.
 */
export function startClientShell(): void {
  if (started) return;
  started = true;
  watchColorMode();

  // Paint the incoming page with the right theme before it is shown.
  document.addEventListener('astro:before-swap', (event) => {
    const root = event.newDocument.documentElement;
    root.classList.toggle('dark', document.documentElement.classList.contains('dark'));
    queueMicrotask(applyColorMode);
  });

  let keptScroll: number | null = null;
  document.addEventListener('astro:before-preparation', (event) => {
    if ($newBuildAvailable.get()) {
      // A new build is live: load the destination fully instead of swapping into stale code.
      event.preventDefault();
      window.location.href = event.to.href;
      return;
    }
    keptScroll =
      event.navigationType !== 'traverse' && keepsScrollOnNavigation(event.to.pathname) ? window.scrollY : null;
  });
  document.addEventListener('astro:after-swap', () => {
    if (keptScroll !== null) window.scrollTo({ top: keptScroll, behavior: 'instant' });
    keptScroll = null;
  });

  const reloadOnChunkError = (reason: unknown) => {
    if (!isChunkLoadError(reason)) return false;
    if (mayReloadAfterChunkError(sessionStorage, location.pathname, Date.now())) location.reload();
    return true;
  };
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnChunkError((event as Event & { payload?: unknown }).payload ?? 'Unable to preload CSS'))
      event.preventDefault();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (reloadOnChunkError(event.reason)) event.preventDefault();
  });

  const buildId = __BUILD_ID__;
  const check = () => {
    if (document.visibilityState !== 'visible' || $newBuildAvailable.get()) return;
    checkForNewBuild(buildId, (url) => fetch(url, { cache: 'no-store' })).catch((error: unknown) =>
      console.warn('[build] update check failed', error),
    );
  };
  setTimeout(() => {
    void fetchBuildManifest(buildId, (url) => fetch(url, { cache: 'no-store' }));
    check();
    setInterval(check, BUILD_POLL_MS);
    document.addEventListener('visibilitychange', check);
  }, MANIFEST_FIRST_FETCH_MS);
}
