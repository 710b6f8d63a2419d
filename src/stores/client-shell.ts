import { API_BASE } from '../shared/api.ts';
import { isLocale, LOCALE_COOKIE } from '../shared/i18n/index.ts';
import { keepsScrollOnNavigation } from '../shared/layout.ts';
import { applyColorMode, watchColorMode } from './color-mode.ts';
import { $globalStyle, resetGlobalStyle, toCssText } from './global-style.ts';
import { trackPageView } from './analytics.ts';
import { canPrefetch, createPrefetchQueue, extractChunkUrls } from './prefetch.ts';
import { $publicConfig, loadPublicConfig } from './public-config.ts';
import { installPreviewTriggers } from './image-preview.ts';
import { hydrateSessionFromCookies } from './session.ts';
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
 * colour mode, the session and its token refresher (also on pages without a header), scroll keeping on
 * the routes that ask for it, build-update checks and the chunk-error reload guard.
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

  // The footer's language choice lives in a cookie, so server-rendered pages come back in that language.
  document.addEventListener('click', (event) => {
    const locale = (event.target as Element | null)?.closest?.('[data-set-locale]')?.getAttribute('data-set-locale');
    if (!isLocale(locale)) return;
    document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
    location.reload();
  });

  // Page-specific header/footer styles never outlive their page.
  document.addEventListener('astro:after-swap', resetGlobalStyle);
  const styleFooter = () => {
    const footer = document.querySelector<HTMLElement>('[data-site-footer]');
    if (footer) footer.style.cssText = toCssText($globalStyle.get().footer);
  };
  $globalStyle.subscribe(styleFooter);
  document.addEventListener('astro:page-load', styleFooter);

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

  startSession();
  startAnalytics();
  startPrefetch();
  // Clicks on previewable images open the overlay even before its island has hydrated.
  installPreviewTriggers(document);

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

/**
 * Reads the session from the cookies on every page (which also picks up a login or logout made in
 * another tab) and keeps its tokens fresh while a login is present. The refresher (with the API
 * client) loads only then: a visitor's pages do without it.
 */
function startSession(): void {
  const sync = () => {
    const session = hydrateSessionFromCookies();
    if (!session) return;
    void import('./token-refresher.ts').then((m) => m.startTokenRefresher());
    // Catalogue pages' edit links (EditEntryLink.astro), hidden for visitors and in cached pages: "Edit"
    // for editors and above (EDITOR_GROUPS of creator-model.ts), "Suggest an edit" for other members.
    const editor = /^(editor|admin|superAdmin)$/.test(session.hikariUserGroup);
    document.querySelectorAll<HTMLElement>('[data-edit-link]').forEach((link) => {
      link.lastElementChild!.textContent = link.dataset[editor ? 'edit' : 'suggest'] ?? '';
      link.style.display = 'inline-flex';
    });
  };
  sync();
  document.addEventListener('astro:page-load', sync);
}

function startAnalytics(): void {
  let referrer = document.referrer;
  document.addEventListener('astro:page-load', () => {
    const url = new URL(window.location.href);
    const page = {
      url,
      title: document.title,
      referrer,
      language: navigator.language,
      screenWidth: window.screen.width,
      screenHeight: window.screen.height,
    };
    referrer = url.href;
    void loadPublicConfig().then(() =>
      trackPageView(page, {
        config: $publicConfig.get().analytics,
        storage: localStorage,
        send: (endpoint, body) =>
          fetch(endpoint, { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }),
        schedule: (fn, ms) => void setTimeout(fn, ms),
      }),
    );
  });
}

/** Prefetches a same-origin page when its link is hovered, focused or touched, then preloads its chunks. */
function startPrefetch(): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
    .connection;
  const queue = createPrefetchQueue(async (url) => {
    if (url.endsWith('.js')) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = url;
      document.head.append(link);
      return;
    }
    const res = await fetch(url, { priority: 'low', credentials: 'same-origin' } as RequestInit);
    if (!res.ok || !res.headers.get('content-type')?.includes('text/html')) return;
    for (const chunk of extractChunkUrls(await res.text(), url)) {
      if (!document.querySelector(`script[src="${new URL(chunk).pathname}"]`)) queue.enqueue(chunk);
    }
  });
  const onIntent = (event: Event) => {
    if (!canPrefetch(connection)) return;
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith(`${API_BASE}/`)) return;
    url.hash = '';
    if (url.href === window.location.href.split('#')[0]) return;
    queue.enqueue(url.href);
  };
  document.addEventListener('mouseover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  document.addEventListener('touchstart', onIntent, { passive: true });
}
