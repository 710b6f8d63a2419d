import { describe, expect, it } from 'vitest';
import { HEADER_RESERVED, computeNavOverflow, showBackButton, showHeaderSearch } from './header.ts';
import { NAV_ITEMS, navItemsFor } from './navigation.ts';

const item = (id: string, width: number, ad = false) => ({ id, width, ad });

describe('nav overflow', () => {
  const items = [
    item('home', 64),
    item('community', 64),
    item('galgame', 90),
    item('novel', 76),
    item('rules', 92),
    item('ad', 120, true),
  ];

  it('keeps everything when it fits', () => {
    expect(computeNavOverflow({ headerWidth: 1536, items, showSearch: true, loggedIn: true })).toEqual({
      visible: ['home', 'community', 'galgame', 'novel', 'rules', 'ad'],
      overflow: [],
    });
  });

  it('uses the reserved widths of the logo, search and actions areas', () => {
    const total = items.reduce((s, i) => s + i.width, 0);
    const exact = HEADER_RESERVED.logo + HEADER_RESERVED.search + HEADER_RESERVED.visitorActions + total + 0.001; // float slack
    expect(computeNavOverflow({ headerWidth: exact, items, showSearch: true, loggedIn: false }).overflow).toEqual([]);
    expect(
      computeNavOverflow({ headerWidth: exact - 1, items, showSearch: true, loggedIn: false }).overflow.length,
    ).toBeGreaterThan(0);
    // Logged-in actions take more room than the visitor's.
    expect(
      computeNavOverflow({ headerWidth: exact, items, showSearch: true, loggedIn: true }).overflow.length,
    ).toBeGreaterThan(0);
    // Without the search box there is more room.
    expect(computeNavOverflow({ headerWidth: exact - 1, items, showSearch: false, loggedIn: false }).overflow).toEqual(
      [],
    );
  });

  it('moves trailing normal items into More, reserving room for the More button; ads always stay', () => {
    const result = computeNavOverflow({ headerWidth: 1100, items, showSearch: true, loggedIn: true });
    // 1100 - 216.39 - 250 - 220 = 413.61; minus ad 120 and More 120 leaves 173.61: home + community fit.
    expect(result).toEqual({ visible: ['home', 'community', 'ad'], overflow: ['galgame', 'novel', 'rules'] });
  });

  it('keeps order: once an item does not fit, later ones do not jump ahead', () => {
    const result = computeNavOverflow({
      headerWidth: HEADER_RESERVED.logo + HEADER_RESERVED.visitorActions + HEADER_RESERVED.more + 100,
      items: [item('a', 50), item('wide', 80), item('b', 10), item('c', 100)],
      showSearch: false,
      loggedIn: false,
    });
    expect(result).toEqual({ visible: ['a'], overflow: ['wide', 'b', 'c'] });
  });

  it('keeps ads visible even when nothing else fits', () => {
    const result = computeNavOverflow({ headerWidth: 700, items, showSearch: true, loggedIn: true });
    expect(result.visible).toEqual(['ad']);
    expect(result.overflow).toHaveLength(5);
  });
});

describe('Back button', () => {
  it('needs more than one history entry', () => {
    expect(showBackButton('/docs', 1)).toBe(false);
    expect(showBackButton('/docs', 2)).toBe(true);
  });

  it('never shows on the top-level pages', () => {
    for (const path of ['/', '/login', '/register', '/create', '/community', '/galgame', '/lightnovel', '/galgame/']) {
      expect(showBackButton(path, 5), path).toBe(false);
    }
    expect(showBackButton('/galgame/12', 5)).toBe(true);
    expect(showBackButton('/create/home', 5)).toBe(true);
  });
});

describe('navigation items', () => {
  it('lists the spec items in order, typed', () => {
    expect(NAV_ITEMS.map((i) => [i.id, i.route, i.type])).toEqual([
      ['home', '/', 'normal'],
      ['community', '/community', 'normal'],
      ['galgame', '/galgame', 'normal'],
      ['lightnovel', '/lightnovel', 'normal'],
      ['rules', '/docs/community/community-regulation', 'normal'],
      ['ai-girlfriend', '', 'ad'],
    ]);
    expect(NAV_ITEMS.find((i) => i.type === 'ad')?.adStyle).toBe('v1');
  });

  it('shows only built sections, and the ad only when its link is configured', () => {
    const built = new Set(['/', '/galgame']);
    expect(navItemsFor(null, built).map((i) => i.id)).toEqual(['home', 'galgame']);
    const withAd = navItemsFor('https://ad.example/x', built);
    expect(withAd.map((i) => i.id)).toEqual(['home', 'galgame', 'ai-girlfriend']);
    expect(withAd.at(-1)?.route).toBe('https://ad.example/x');
  });

  it('shows the header search only in the default variant and not on /search', () => {
    expect(showHeaderSearch('default', '/')).toBe(true);
    expect(showHeaderSearch('default', '/search')).toBe(false);
    expect(showHeaderSearch('create', '/create/home')).toBe(false);
    expect(showHeaderSearch('community', '/community')).toBe(false);
  });
});
