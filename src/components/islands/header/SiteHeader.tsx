import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  MOBILE_BREAKPOINT,
  NAV_RESIZE_THROTTLE_MS,
  computeNavOverflow,
  showHeaderSearch,
} from '../../../shared/header.ts';
import type { SessionUser } from '../../../shared/auth-model.ts';
import { activeRoute } from '../../../shared/navigation.ts';
import { throttle } from '../../../shared/throttle.ts';
import { $globalStyle } from '../../../stores/global-style.ts';
import { $headerLocation, updateHeaderLocation } from '../../../stores/header.ts';
import { $publicConfig, loadPublicConfig } from '../../../stores/public-config.ts';
import { $session } from '../../../stores/session.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { HeaderActions } from './HeaderActions.tsx';
import { MoreMenu } from './MoreMenu.tsx';
import { NavLink } from './NavLink.tsx';
import { SearchBox } from './SearchBox.tsx';
import { authHref, navItemViews } from './nav-view.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface SiteHeaderProps {
  /** The ad link when the server knows it (server-rendered pages); prerendered pages learn it in the browser. */
  adUrl: string | null;
  /** The path, query and layout the server rendered, used until the browser takes over. */
  pathname: string;
  search?: string;
  layout: string;
  /**
   * The user of the user-info cookie as the server read it (display only), used until hydrated; 'member'
   * on a page all members share.
   */
  initialUser: SessionUser | 'member' | null;
}

/** The mobile menu (Radix Dialog) loads when its button is first hovered, focused or pressed. */
const mobileMenu = onDemand(() => import('./MobileMenu.tsx'));

const useIsoLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The site header (spec §2.2): variants, navigation with a 'More' overflow, Back button, mobile menu
 * and the user's (or visitor's) actions. It persists across client-side navigation and follows the location itself.
 */
function SiteHeader({ adUrl, pathname, search = '', layout, initialUser }: SiteHeaderProps) {
  const t = useT();
  // Built here from the page's messages rather than sent as props: the page stays lighter.
  const { items: baseItems, adItem } = useMemo(() => navItemViews(t), [t]);
  const style = useStore($globalStyle);
  const location = useStore($headerLocation);
  const config = useStore($publicConfig);
  const sessionUser = useStore($session);
  // Read the fetched configuration and the session only after hydration, so the first render matches
  // the server's HTML.
  const [ready, setReady] = useState(false);
  const user = ready ? sessionUser : initialUser;
  const loggedIn = user !== null;
  const adLink = adUrl ?? (ready ? config.navAdUrl : null);
  const items = useMemo(
    () => (adItem && adLink ? [...baseItems, { ...adItem, route: adLink }] : baseItems),
    [baseItems, adItem, adLink],
  );
  const [overflowIds, setOverflowIds] = useState<string[]>([]);
  const [menuOpen, setMenuOpen] = useState(false);
  const [mobile, loadMobile] = useOnDemand(mobileMenu);
  const prepareMobile = () => void loadMobile().catch(() => {});
  const rowRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const [here, setHere] = useState({ pathname, search });
  const measureRef = useRef<HTMLDivElement>(null);

  useIsoLayoutEffect(() => {
    updateHeaderLocation(pathname, 1, layout);
  }, []);

  useEffect(() => {
    const sync = () => {
      updateHeaderLocation(window.location.pathname, window.history.length, document.documentElement.dataset.layout);
      setMenuOpen(false);
      setHere({ pathname: window.location.pathname, search: window.location.search });
    };
    sync();
    setReady(true);
    void loadPublicConfig();
    document.addEventListener('astro:page-load', sync);
    return () => document.removeEventListener('astro:page-load', sync);
  }, []);

  const current = ready ? location : { pathname, variant: location.variant, showBack: false };
  const variant = current.variant;
  const normalRoutes = items.filter((i) => i.type === 'normal').map((i) => i.route);
  const activeRouteValue = activeRoute(normalRoutes, current.pathname);
  const activeId = items.find((i) => i.type === 'normal' && i.route === activeRouteValue)?.id ?? null;
  const showSearch = showHeaderSearch(variant, current.pathname);
  // Login and register come back here.
  const authHrefs = { login: authHref('/login', here), register: authHref('/register', here) };

  const recompute = useCallback(() => {
    const row = rowRef.current;
    const measure = measureRef.current;
    if (!row || !measure || window.innerWidth < MOBILE_BREAKPOINT) return setOverflowIds([]);
    const widths = [...measure.children].map((el) => (el as HTMLElement).offsetWidth + 4);
    const result = computeNavOverflow({
      headerWidth: row.clientWidth,
      items: items.map((item, i) => ({ id: item.id, width: widths[i] ?? 0, ad: item.type === 'ad' })),
      showSearch,
      loggedIn,
    });
    setOverflowIds(result.overflow);
  }, [items, showSearch, loggedIn]);

  useEffect(() => {
    recompute();
    const onResize = throttle(recompute, NAV_RESIZE_THROTTLE_MS);
    window.addEventListener('resize', onResize);
    void document.fonts?.ready.then(recompute);
    return () => {
      onResize.cancel();
      window.removeEventListener('resize', onResize);
    };
  }, [recompute]);

  const visible = useMemo(() => items.filter((i) => !overflowIds.includes(i.id)), [items, overflowIds]);
  const hidden = useMemo(() => items.filter((i) => overflowIds.includes(i.id)), [items, overflowIds]);

  return (
    <>
      <header
        data-header-variant={variant}
        style={style.header}
        className="fixed inset-x-0 top-0 z-50 border-b border-zinc-200/70 bg-white/85 backdrop-blur-md dark:border-zinc-800 dark:bg-zinc-900/85"
      >
        <div ref={rowRef} className="mx-auto flex h-14 max-w-[1536px] items-center gap-2 px-3 sm:px-4">
          {current.showBack && (
            <button
              type="button"
              onClick={() => window.history.back()}
              aria-label={t('nav.back')}
              className="inline-flex h-9 shrink-0 items-center gap-1 rounded-lg px-2 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
              data-testid="header-back"
            >
              <Icon name="arrow-left" className="size-4" />
              <span className="hidden sm:inline">{t('nav.back')}</span>
            </button>
          )}
          <button
            ref={menuButtonRef}
            type="button"
            aria-label={t('nav.openMenu')}
            aria-expanded={menuOpen && mobile !== null}
            onPointerEnter={prepareMobile}
            onPointerDown={prepareMobile}
            onFocus={prepareMobile}
            onClick={() => {
              void loadMobile();
              setMenuOpen(true);
            }}
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-zinc-700 hover:bg-zinc-100 desk:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            <Icon name="menu" />
          </button>
          <a
            href="/"
            className="flex shrink-0 items-center gap-2 pr-2 font-semibold tracking-wide text-zinc-900 dark:text-white"
          >
            <img src="/favicon.svg" alt="" width={32} height={32} className="size-8" />
            <span className="text-lg">{t('site.name')}</span>
          </a>
          {variant === 'create' ? (
            <span
              className="truncate border-l border-zinc-200 pl-3 text-base font-medium text-zinc-700 dark:border-zinc-700 dark:text-zinc-200"
              data-testid="header-title"
            >
              {t('nav.creatorCenter')}
            </span>
          ) : (
            <nav
              aria-label={t('nav.main')}
              style={style.headerNav}
              className="relative hidden min-w-0 flex-1 items-center gap-1 desk:flex"
            >
              {visible.map((item) => (
                <NavLink key={item.id} item={item} active={item.id === activeId} variant="bar" />
              ))}
              {hidden.length > 0 && <MoreMenu label={t('nav.more')} items={hidden} activeId={activeId} />}
              {/* Off-screen copy of every item, measured to decide what fits. */}
              <div ref={measureRef} aria-hidden="true" className="invisible absolute -left-[9999px] flex gap-1" inert>
                {items.map((item) => (
                  <NavLink key={item.id} item={item} active={false} variant="bar" />
                ))}
              </div>
            </nav>
          )}
          <div className="ml-auto" />
          {showSearch && <SearchBox variant="bar" />}
          <HeaderActions
            showLogin={style.showHeaderLogin}
            labels={{ login: t('nav.login'), register: t('nav.register') }}
            hrefs={authHrefs}
            user={user}
          />
        </div>
      </header>
      <div aria-hidden="true" style={{ height: 56, ...style.headerPlaceholder }} />
      {mobile && (
        <mobile.MobileMenu
          open={menuOpen}
          onOpenChange={setMenuOpen}
          items={items}
          activeId={activeId}
          labels={{ title: t('nav.menu'), close: t('nav.closeMenu'), brand: t('site.name') }}
          visitorLinks={
            loggedIn || !style.showHeaderLogin
              ? null
              : {
                  login: { href: authHrefs.login, label: t('nav.login') },
                  register: { href: authHrefs.register, label: t('nav.register') },
                }
          }
          returnFocusTo={menuButtonRef}
          search={showSearch ? <SearchBox variant="menu" /> : undefined}
        />
      )}
    </>
  );
}

export default withLocale(SiteHeader);
