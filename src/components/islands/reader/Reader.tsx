import type { FoliateLocation, FoliateTocItem, FoliateView } from 'foliate-js/view.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { USER_INFO_COOKIE } from '../../../shared/auth-model.ts';
import { READER_NOVEL_KEY, READER_PATH, READER_VOLUME_KEY } from '../../../shared/error-page.ts';
import { PROGRESS_SCALE } from '../../../shared/lightnovel/lightnovel-model.ts';
import type { ReadingPosition } from '../../../shared/lightnovel/reading.contract.ts';
import { openImagePreview } from '../../../stores/image-preview.ts';
import { isTypingTarget, keyAction, tapAction, type ReaderMove } from '../../../stores/reader-input.ts';
import {
  createProgressSaver,
  localPositionKey,
  parseLocalPosition,
  percentText,
  pickStartPosition,
  toPercentage,
  type LocalPosition,
  type ProgressSaver,
} from '../../../stores/reader-progress.ts';
import {
  $readerSettings,
  changeReaderSettings,
  loadReaderSettings,
  readerCss,
  THEME_COLOURS,
} from '../../../stores/reader-settings.ts';
import { cookieJar } from '../../../stores/cookies.ts';
import { parseUserInfoCookie, readAccessToken } from '../../../stores/session.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import { ReaderPanel, type PanelName } from './ReaderPanel.tsx';
import { fetchVolumeEpub, openBook, openExternal } from './reader-book.ts';

export interface ReaderProps {
  volumeId: number;
  lightnovelId: number;
  /** "Series · Volume" */
  title: string;
  backHref: string;
  loggedIn: boolean;
}

const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

const loadContract = () => import('../../../shared/lightnovel/reading.contract.ts').then((m) => m.readingContract);
const loadApi = () => import('../../../stores/api-client.ts').then((m) => m.api);

/** Was this page reached by a full load? Only then does its own Content-Security-Policy apply. */
function fullyLoaded(): boolean {
  const entry = performance.getEntriesByType('navigation')[0];
  if (!entry) return true;
  try {
    return new URL(entry.name).pathname === READER_PATH;
  } catch {
    return true;
  }
}

type Status = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed' };

/** How long opening at a position may take before the reader starts at the beginning instead. */
const INIT_TIMEOUT_MS = 8000;

/** True when `promise` settles without error within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });

/** Whose positions this browser keeps: the member's id, or null for a visitor. */
function positionOwner(loggedIn: boolean): string | null {
  if (!loggedIn) return null;
  try {
    return parseUserInfoCookie(cookieJar().get(USER_INFO_COOKIE))?._id ?? 'member';
  } catch {
    return 'member';
  }
}

/** The EPUB reader of /lightnovel/read: foliate-js in the page, the reader's bars and panels around it. */
export function Reader({ volumeId, lightnovelId, title, backHref, loggedIn }: ReaderProps) {
  const t = useT();
  const locale = useLocale();
  const settings = useStore($readerSettings);
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<FoliateView | null>(null);
  const saverRef = useRef<ProgressSaver | null>(null);
  const rtlRef = useRef(false);
  const chromeRef = useRef(true);
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [location, setLocation] = useState<{ percentage: number; chapter: string; href: string; cfi: string }>({
    percentage: 0,
    chapter: '',
    href: '',
    cfi: '',
  });
  const [toc, setToc] = useState<FoliateTocItem[]>([]);
  const [chrome, setChrome] = useState(true);
  const [panel, setPanel] = useState<PanelName | null>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [sliderValue, setSliderValue] = useState<number | null>(null);
  /** A newer position read on another device, offered instead of saving over it. */
  const [newer, setNewer] = useState<LocalPosition | null>(null);

  const showChrome = useCallback((on: boolean) => {
    chromeRef.current = on;
    setChrome(on);
  }, []);

  const move = useCallback(
    (action: ReaderMove) => {
      const view = viewRef.current;
      if (action === 'toggle-chrome') showChrome(!chromeRef.current);
      else if (view) void (action === 'forward' ? view.next() : view.prev());
    },
    [showChrome],
  );

  /** Taps, keys and images inside a section (each section is its own document in a frame). */
  const wireSection = useCallback(
    (doc: Document) => {
      for (const image of doc.querySelectorAll('img, svg image')) {
        image.setAttribute('tabindex', '0');
        image.setAttribute('role', 'button');
        if (!image.getAttribute('aria-label')) image.setAttribute('aria-label', t('reader.imagePreview'));
      }
      const previewOf = (target: EventTarget | null): string | null => {
        const element = target instanceof doc.defaultView!.Element ? target : null;
        const image = element?.closest('img');
        if (image?.src) return image.src;
        const svgImage = element?.closest('image');
        return svgImage?.getAttribute('href') ?? svgImage?.getAttribute('xlink:href') ?? null;
      };
      doc.addEventListener('click', (event) => {
        const src = previewOf(event.target);
        if (src) {
          event.preventDefault();
          openImagePreview([src]);
          return;
        }
        if ((event.target as Element | null)?.closest?.('a[href]')) return;
        if (doc.getSelection()?.toString()) return;
        const frame = doc.defaultView?.frameElement;
        const host = hostRef.current;
        if (!frame || !host) return;
        const x = frame.getBoundingClientRect().left + event.clientX - host.getBoundingClientRect().left;
        move(tapAction(x, host.clientWidth, rtlRef.current));
      });
      doc.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && previewOf(event.target)) {
          openImagePreview([previewOf(event.target)!]);
          return;
        }
        const action = keyAction(event.key, event.shiftKey, rtlRef.current);
        if (action) {
          event.preventDefault();
          move(action);
        }
      });
    },
    [move, t],
  );

  const applySettings = useCallback((view: FoliateView) => {
    const current = $readerSettings.get();
    view.renderer.setAttribute('flow', current.flow);
    view.renderer.setAttribute('max-inline-size', current.flow === 'scrolled' ? '760px' : '720px');
    view.renderer.setStyles?.(readerCss(current));
  }, []);

  // Settings first, so the first page is drawn with them; the chrome starts hidden on phones.
  useEffect(() => {
    loadReaderSettings(storage(), document.documentElement.classList.contains('dark') ? 'dark' : 'light');
    if (window.matchMedia('(max-width: 639px)').matches) showChrome(false);
    try {
      localStorage.setItem(READER_NOVEL_KEY, String(lightnovelId));
      localStorage.setItem(READER_VOLUME_KEY, String(volumeId));
    } catch {
      // The error page then offers home or back instead.
    }
  }, [lightnovelId, volumeId, showChrome]);

  // Open the book.
  useEffect(() => {
    if (!fullyLoaded()) {
      // Reached through the client router: load again so the reader's Content-Security-Policy applies.
      window.location.reload();
      return;
    }
    const host = hostRef.current;
    if (!host) return;
    const controller = new AbortController();
    let view: FoliateView | null = null;
    let disposed = false;
    const owner = positionOwner(loggedIn);

    // Loaded now, so a save on leaving the page starts its request at once (nothing left to import then).
    let client: [Awaited<ReturnType<typeof loadApi>>, Awaited<ReturnType<typeof loadContract>>] | null = null;
    const clientReady = loggedIn ? Promise.all([loadApi(), loadContract()]).then((loaded) => (client = loaded)) : null;
    const serverPosition = async (): Promise<ReadingPosition | null> => {
      if (!clientReady) return null;
      try {
        const [api, contract] = await clientReady;
        return (await api.call(contract.progress, { params: { volumeId } })).data.position;
      } catch {
        return null;
      }
    };

    const saver = createProgressSaver(volumeId, {
      owner,
      fetchServer: clientReady ? serverPosition : undefined,
      onNewer: (position) => {
        if (!disposed) setNewer(position);
      },
      send: clientReady
        ? async (position, keepalive) => {
            const [api, contract] = client ?? (await clientReady);
            const answer = await api.call(
              contract.saveProgress,
              {
                params: { volumeId },
                body: {
                  cfi: position.cfi,
                  chapter: position.chapter,
                  percentage: position.percentage,
                  at: position.at,
                },
              },
              { keepalive },
            );
            return answer.data;
          }
        : null,
      storage: storage(),
      now: () => Date.now(),
      timer: (fn, ms) => {
        const handle = setTimeout(fn, ms);
        return () => clearTimeout(handle);
      },
    });
    saverRef.current = saver;
    setNewer(null);
    let relocated = false;

    (async () => {
      setStatus({ kind: 'loading' });
      const [file, remote] = await Promise.all([
        fetchVolumeEpub(volumeId, readAccessToken(), controller.signal),
        serverPosition(),
      ]);
      if (disposed) return;
      const opened = await openBook(file, host);
      view = opened.view;
      if (disposed) {
        view.remove();
        return;
      }
      viewRef.current = view;
      rtlRef.current = opened.rtl;
      setToc(opened.toc);
      applySettings(view);

      view.addEventListener('relocate', (event) => {
        const detail = (event as CustomEvent<FoliateLocation>).detail;
        const percentage = toPercentage(detail.fraction);
        const chapter = (detail.tocItem?.label ?? '').trim().slice(0, 200);
        const cfi = detail.cfi ?? '';
        setLocation({ percentage, chapter, href: detail.tocItem?.href ?? '', cfi });
        if (cfi.startsWith('epubcfi(')) saver.moved({ cfi, chapter, percentage, at: new Date().toISOString() });
        if (!relocated) {
          relocated = true;
          // The first page is drawn: the mark tests and `npm run bench:reader` wait for.
          performance.mark('reader-first-page');
          document.documentElement.dataset.readerReady = 'true';
          setStatus({ kind: 'ready' });
        }
      });
      view.addEventListener('load', (event) => {
        const { doc } = (event as CustomEvent<{ doc: Document }>).detail;
        wireSection(doc);
      });
      view.addEventListener('external-link', (event) => {
        event.preventDefault();
        openExternal((event as CustomEvent<{ href: string }>).detail.href);
      });

      const start = pickStartPosition(
        remote,
        parseLocalPosition(storage()?.getItem(localPositionKey(volumeId, owner)) ?? null),
      );
      saver.known(remote);
      if (start) {
        // A position outside this book (another edition, a damaged save) must not keep the book shut.
        await settlesWithin(view.init({ lastLocation: start.cfi, showTextStart: false }), INIT_TIMEOUT_MS);
        if (disposed) return;
        if (!relocated) {
          try {
            storage()?.removeItem(localPositionKey(volumeId, owner));
          } catch {
            // Nothing kept here then.
          }
        }
      }
      // From the beginning: the first page drawn replaces a bad position here and on the server.
      if (!relocated) await settlesWithin(view.init({ lastLocation: null, showTextStart: true }), INIT_TIMEOUT_MS);
      if (!disposed && !relocated) throw new Error('The book opened without a page to show');
    })().catch(() => {
      // Once a page is drawn the book is open, whatever a late step says.
      if (disposed || controller.signal.aborted || relocated) return;
      setStatus({ kind: 'failed' });
    });

    const leave = () => void saver.flush(true);
    const hidden = () => {
      if (document.visibilityState === 'hidden') {
        leave();
        saver.hidden();
      } else void saver.check();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      disposed = true;
      controller.abort();
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', hidden);
      void saver.flush(true);
      saver.stop();
      view?.close();
      view?.remove();
      viewRef.current = null;
      delete document.documentElement.dataset.readerReady;
    };
    // `attempt` opens the book again after a failure.
  }, [volumeId, loggedIn, attempt]);

  useEffect(() => {
    if (viewRef.current) applySettings(viewRef.current);
  }, [settings, applySettings]);

  // Keys on the page itself (outside the book's frames).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (panel || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      // Keyboard users reach the bars on a phone too: Tab brings them back.
      if (event.key === 'Tab' && !chromeRef.current) showChrome(true);
      if (isTypingTarget(target)) return;
      if ((event.key === ' ' || event.key === 'Enter') && target?.closest('button, a, [role="button"]')) return;
      const action = keyAction(event.key, event.shiftKey, rtlRef.current);
      if (!action) return;
      event.preventDefault();
      move(action);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [move, panel, showChrome]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggleFullscreen = async () => {
    if (document.fullscreenElement) {
      await document.exitFullscreen().catch(() => undefined);
      return;
    }
    if (fullscreen) {
      // The fallback: the bars were hidden in place of the Fullscreen API; bring them back.
      setFullscreen(false);
      showChrome(true);
      return;
    }
    try {
      await document.documentElement.requestFullscreen();
    } catch {
      // Refused (iOS Safari, an iframe, a policy): read without the bars instead.
      setFullscreen(true);
      showChrome(false);
    }
  };

  const goTo = useCallback((target: string) => {
    void viewRef.current?.goTo(target);
    setPanel(null);
  }, []);

  const colours = THEME_COLOURS[settings.theme];
  const dark = settings.theme === 'dark';
  const chromeClass = dark
    ? 'bg-zinc-900/95 text-zinc-100 border-zinc-700'
    : settings.theme === 'sepia'
      ? 'bg-[#ebe0c5]/95 text-[#3b2f1e] border-[#d6c7a1]'
      : 'bg-white/95 text-zinc-800 border-zinc-200';
  const iconButton =
    'inline-flex size-10 shrink-0 items-center justify-center rounded-full hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current dark:hover:bg-white/10';
  const shownPercentage = sliderValue ?? location.percentage;
  const place = useMemo(
    () => ({ cfi: location.cfi, chapter: location.chapter, percentage: location.percentage }),
    [location],
  );

  return (
    <div
      className={`fixed inset-0 overflow-hidden ${dark ? 'dark' : ''}`}
      style={{ background: colours.background, color: colours.text }}
      data-testid="reader"
      data-theme={settings.theme}
      data-flow={settings.flow}
      data-chrome={chrome ? 'shown' : 'hidden'}
    >
      <header
        className={`absolute inset-x-0 top-0 z-10 flex h-14 items-center gap-1 border-b px-2 transition-transform ${chromeClass} ${
          chrome ? '' : '-translate-y-full'
        }`}
        inert={!chrome}
        data-testid="reader-top"
      >
        <a href={backHref} className={iconButton} aria-label={t('reader.back')} data-astro-reload>
          <Icon name="arrow-left" />
        </a>
        <h1 className="min-w-0 flex-1 truncate text-sm font-medium" data-testid="reader-title">
          {title}
        </h1>
        <nav aria-label={t('reader.toolbar')} className="flex items-center gap-0.5">
          <button
            type="button"
            className={iconButton}
            aria-label={t('reader.toc')}
            onClick={() => setPanel('toc')}
            data-testid="reader-open-toc"
          >
            <Icon name="list" />
          </button>
          <button
            type="button"
            className={iconButton}
            aria-label={t('reader.bookmarks')}
            onClick={() => setPanel('bookmarks')}
            data-testid="reader-open-bookmarks"
          >
            <Icon name="bookmark" />
          </button>
          <button
            type="button"
            className={iconButton}
            aria-label={t('reader.settings')}
            onClick={() => setPanel('settings')}
            data-testid="reader-open-settings"
          >
            <Icon name="sliders" />
          </button>
          <button
            type="button"
            className={iconButton}
            aria-label={fullscreen ? t('reader.exitFullscreen') : t('reader.fullscreen')}
            aria-pressed={fullscreen}
            onClick={() => void toggleFullscreen()}
            data-testid="reader-fullscreen"
          >
            <Icon name="monitor" />
          </button>
        </nav>
      </header>

      <section
        aria-label={t('reader.bookArea')}
        className={`absolute inset-x-0 top-0 bottom-0 ${chrome ? 'sm:top-14 sm:bottom-20' : ''}`}
      >
        <div ref={hostRef} className="size-full" data-testid="reader-book" />
        {status.kind === 'loading' && (
          <p role="status" className="absolute inset-0 flex items-center justify-center text-sm opacity-80">
            {t('reader.loading')}
          </p>
        )}
        {status.kind === 'failed' && (
          <div
            role="alert"
            className="absolute inset-0 flex flex-col items-center justify-center gap-4 p-6 text-center"
          >
            <p>{t('reader.loadFailed')}</p>
            <button type="button" className="hk-btn hk-btn-primary" onClick={() => setAttempt((n) => n + 1)}>
              {t('reader.retry')}
            </button>
          </div>
        )}
        {newer && (
          <div
            role="status"
            className={`absolute inset-x-3 top-3 z-20 mx-auto flex max-w-md flex-wrap items-center gap-2 rounded-lg border p-3 text-sm shadow-lg sm:top-4 ${chromeClass}`}
            data-testid="reader-newer"
          >
            <p className="min-w-0 flex-1">
              {t('reader.newer.text', { percent: percentText(newer.percentage, locale) })}
            </p>
            <button
              type="button"
              className="hk-btn hk-btn-primary"
              onClick={() => continueAtNewer(newer)}
              data-testid="reader-newer-continue"
            >
              {t('reader.newer.continue', { percent: percentText(newer.percentage, locale) })}
            </button>
            <button type="button" className="hk-btn" onClick={() => stayHere()} data-testid="reader-newer-stay">
              {t('reader.newer.stay')}
            </button>
          </div>
        )}
      </section>

      <footer
        className={`absolute inset-x-0 bottom-0 z-10 flex flex-col gap-1 border-t px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] transition-transform ${chromeClass} ${
          chrome ? '' : 'translate-y-full'
        }`}
        inert={!chrome}
        data-testid="reader-bottom"
      >
        <div className="flex items-center gap-2 text-xs">
          <button type="button" className={iconButton} aria-label={t('reader.prev')} onClick={() => move('backward')}>
            <Icon name={rtlRef.current ? 'chevron-right' : 'chevron-left'} />
          </button>
          <p className="min-w-0 flex-1 truncate" data-testid="reader-chapter">
            <span className="sr-only">{t('reader.chapter')}: </span>
            {location.chapter || t('reader.noChapter')}
          </p>
          <p className="shrink-0 tabular-nums" data-testid="reader-percentage" aria-live="off">
            {percentText(shownPercentage, locale)}
          </p>
          <button type="button" className={iconButton} aria-label={t('reader.next')} onClick={() => move('forward')}>
            <Icon name={rtlRef.current ? 'chevron-left' : 'chevron-right'} />
          </button>
        </div>
        <input
          type="range"
          min={0}
          max={PROGRESS_SCALE}
          step={10}
          value={shownPercentage}
          aria-label={t('reader.progress')}
          aria-valuetext={percentText(shownPercentage, locale)}
          className="w-full accent-current"
          dir={rtlRef.current ? 'rtl' : 'ltr'}
          disabled={status.kind !== 'ready'}
          onChange={(event) => setSliderValue(Number(event.target.value))}
          onPointerUp={() => commitSlider()}
          onKeyUp={() => commitSlider()}
          onBlur={() => commitSlider()}
          data-testid="reader-slider"
        />
      </footer>

      <ReaderPanel
        open={panel}
        onClose={() => setPanel(null)}
        toc={toc}
        currentHref={location.href}
        onNavigate={goTo}
        settings={settings}
        onSettings={(change) => changeReaderSettings(change, storage())}
        volumeId={volumeId}
        loggedIn={loggedIn}
        place={place}
        theme={settings.theme}
      />
    </div>
  );

  function continueAtNewer(position: LocalPosition) {
    setNewer(null);
    saverRef.current?.choose('jump');
    void viewRef.current?.goTo(position.cfi);
  }

  function stayHere() {
    setNewer(null);
    saverRef.current?.choose('stay');
  }

  function commitSlider() {
    if (sliderValue === null) return;
    const fraction = sliderValue / PROGRESS_SCALE;
    setSliderValue(null);
    void viewRef.current?.goToFraction(fraction);
  }
}

export default withLocale(Reader);
