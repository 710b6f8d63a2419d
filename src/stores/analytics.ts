/** Page-view analytics (spec §7 "Other", §9): Umami's event format, sent 250 ms after a page finishes. */
export const PAGE_VIEW_DELAY_MS = 250;
/** Set to '1' in localStorage to opt out. */
export const ANALYTICS_OPT_OUT_KEY = 'hikari-analytics-disabled';

export interface PageViewEvent {
  type: 'event';
  payload: {
    website: string;
    url: string;
    title: string;
    referrer: string;
    hostname: string;
    language: string;
    screen: string;
  };
}

export interface PageContext {
  url: URL;
  title: string;
  referrer: string;
  language: string;
  screenWidth: number;
  screenHeight: number;
}

export function buildPageViewEvent(siteId: string, page: PageContext): PageViewEvent {
  return {
    type: 'event',
    payload: {
      website: siteId,
      url: `${page.url.pathname}${page.url.search}`,
      title: page.title,
      referrer: page.referrer,
      hostname: page.url.hostname,
      language: page.language,
      screen: `${page.screenWidth}x${page.screenHeight}`,
    },
  };
}

export function isOptedOut(storage: Pick<Storage, 'getItem'>): boolean {
  try {
    return storage.getItem(ANALYTICS_OPT_OUT_KEY) === '1';
  } catch {
    return false;
  }
}

export interface AnalyticsDeps {
  config: { url: string; siteId: string } | null;
  storage: Pick<Storage, 'getItem'>;
  send: (url: string, body: string) => Promise<unknown>;
  schedule: (fn: () => void, ms: number) => void;
}

/** Schedules one page view; nothing is sent when analytics is unconfigured or the visitor opted out. */
export function trackPageView(page: PageContext, deps: AnalyticsDeps): boolean {
  const { config } = deps;
  if (!config || isOptedOut(deps.storage)) return false;
  deps.schedule(() => {
    deps
      .send(config.url, JSON.stringify(buildPageViewEvent(config.siteId, page)))
      .catch((error: unknown) => console.warn('[analytics] page view not sent', error));
  }, PAGE_VIEW_DELAY_MS);
  return true;
}
