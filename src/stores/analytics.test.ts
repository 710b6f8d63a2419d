import { describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_OPT_OUT_KEY,
  PAGE_VIEW_DELAY_MS,
  buildPageViewEvent,
  trackPageView,
  type AnalyticsDeps,
} from './analytics.ts';

const page = {
  url: new URL('https://hikari.example/docs?a=1'),
  title: '文档中心 - Hikari',
  referrer: 'https://search.example/',
  language: 'zh-CN',
  screenWidth: 390,
  screenHeight: 844,
};

function deps(overrides: Partial<AnalyticsDeps> = {}) {
  const sent: [string, string][] = [];
  const scheduled: [() => void, number][] = [];
  const d: AnalyticsDeps = {
    config: { url: 'https://stats.example/api/send', siteId: 'site-1' },
    storage: { getItem: () => null },
    send: async (url, body) => void sent.push([url, body]),
    schedule: (fn, ms) => void scheduled.push([fn, ms]),
    ...overrides,
  };
  return { d, sent, scheduled };
}

describe('page-view analytics', () => {
  it('builds the Umami event with url, title, referrer, hostname, language, screen and site id', () => {
    expect(buildPageViewEvent('site-1', page)).toEqual({
      type: 'event',
      payload: {
        website: 'site-1',
        url: '/docs?a=1',
        title: '文档中心 - Hikari',
        referrer: 'https://search.example/',
        hostname: 'hikari.example',
        language: 'zh-CN',
        screen: '390x844',
      },
    });
  });

  it('sends 250 ms after the page finishes', () => {
    const { d, sent, scheduled } = deps();
    expect(trackPageView(page, d)).toBe(true);
    expect(sent).toHaveLength(0);
    expect(scheduled[0]?.[1]).toBe(PAGE_VIEW_DELAY_MS);
    scheduled[0]?.[0]();
    expect(sent[0]?.[0]).toBe('https://stats.example/api/send');
    expect(JSON.parse(sent[0]?.[1] ?? '{}').payload.website).toBe('site-1');
  });

  it('sends nothing when unconfigured or opted out', () => {
    const unconfigured = deps({ config: null });
    expect(trackPageView(page, unconfigured.d)).toBe(false);
    const optedOut = deps({ storage: { getItem: (k) => (k === ANALYTICS_OPT_OUT_KEY ? '1' : null) } });
    expect(trackPageView(page, optedOut.d)).toBe(false);
    expect(unconfigured.scheduled.length + optedOut.scheduled.length).toBe(0);
  });

  it('only logs a failed send', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { d, scheduled } = deps({ send: () => Promise.reject(new Error('offline')) });
    trackPageView(page, d);
    scheduled[0]?.[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
