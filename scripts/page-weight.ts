// The weight of visitor pages as Chromium loads them on a first visit (no session, empty cache): the
// gzipped JavaScript it fetched and the bytes of the HTML document. Used by `npm run size:pages`
// (size-pages.ts), the page-weight e2e guard (tests/e2e/page-weight.spec.ts) and the page benchmark;
// importing it starts nothing.
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from '@playwright/test';

/** Budgets (bytes; 1 kB = 1000 B): gzipped JavaScript on any visitor page, and the /galgame document. */
export const PAGE_JS_BUDGET = 100_000;
export const GALGAME_HTML_BUDGET = 60_000;

export interface PageWeight {
  path: string;
  /** HTTP status of the document. */
  status: number;
  /** Uncompressed bytes of the HTML document. */
  htmlBytes: number;
  /** Sum of the gzipped bodies of the JavaScript files the page loaded, each file counted once. */
  jsGzipBytes: number;
  jsFiles: number;
  /** Each JavaScript file (path and gzipped bytes), largest first. */
  scripts: { url: string; gzipBytes: number }[];
}

export interface MeasureOptions {
  /** A browser to reuse (the e2e guard passes Playwright's); otherwise Chromium is launched and closed. */
  browser?: Browser;
  /** `zh-CN` (default) or `en`: the page language, chosen with the locale cookie. */
  locale?: 'zh-CN' | 'en';
  viewport?: { width: number; height: number };
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Budget check for one measured page: the list of what is over (empty when within budget). */
export function overBudget(weight: PageWeight): string[] {
  const over: string[] = [];
  if (weight.jsGzipBytes > PAGE_JS_BUDGET)
    over.push(`${weight.path}: ${weight.jsGzipBytes} B of gzipped JS (budget ${PAGE_JS_BUDGET} B)`);
  if (new URL(weight.path, 'http://x').pathname === '/galgame' && weight.htmlBytes > GALGAME_HTML_BUDGET)
    over.push(`${weight.path}: ${weight.htmlBytes} B of HTML (budget ${GALGAME_HTML_BUDGET} B)`);
  return over;
}

const isScript = (response: Response) => {
  const type = response.request().resourceType();
  if (type === 'script') return true;
  return /javascript|ecmascript/.test(response.headers()['content-type'] ?? '');
};

/**
 * Loads each path in a fresh browser context (no cookies but the locale, no cache) and waits until the
 * network is quiet, so islands hydrated on load and on idle are counted.
 */
export async function measurePageWeight(
  baseUrl: string,
  paths: string[],
  options: MeasureOptions = {},
): Promise<PageWeight[]> {
  const browser =
    options.browser ??
    (await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] }));
  const results: PageWeight[] = [];
  try {
    for (const path of paths) {
      const context = await browser.newContext({
        viewport: options.viewport ?? { width: 1280, height: 800 },
        locale: options.locale ?? 'zh-CN',
      });
      if (options.locale) await context.addCookies([{ name: 'hikari_locale', value: options.locale, url: baseUrl }]);
      try {
        const page = await context.newPage();
        const bodies = new Map<string, Promise<number>>();
        page.on('response', (response) => {
          if (!isScript(response) || bodies.has(response.url())) return;
          bodies.set(
            response.url(),
            response.body().then(
              (body) => gzipSync(body).length,
              () => 0,
            ),
          );
        });
        const document = await page.goto(new URL(path, baseUrl).href, { waitUntil: 'load' });
        if (!document) throw new Error(`${path}: no document response`);
        await page.waitForLoadState('networkidle');
        const scripts = await Promise.all(
          [...bodies].map(async ([url, size]) => ({ url: new URL(url).pathname, gzipBytes: await size })),
        );
        scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
        results.push({
          path,
          status: document.status(),
          htmlBytes: (await document.body()).length,
          jsGzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0),
          jsFiles: scripts.length,
          scripts,
        });
      } finally {
        await context.close();
      }
    }
  } finally {
    if (!options.browser) await browser.close();
  }
  return results;
}

const firstMatch = async (baseUrl: string, path: string, pattern: RegExp): Promise<string | undefined> => {
  const res = await fetch(new URL(path, baseUrl));
  if (!res.ok) return undefined;
  return pattern.exec(await res.text())?.[0];
};

/**
 * The visitor pages to measure, with ids taken from the running site: its first listed game, and the
 * first character, person and producer linked from the first games that have them.
 */
export async function visitorPagePaths(baseUrl: string): Promise<string[]> {
  const game = await firstMatch(baseUrl, '/galgame/list', /\/galgame\/\d+(?=")/);
  if (!game) throw new Error(`no game listed on ${baseUrl}/galgame/list`);
  const linked: Record<'character' | 'person' | 'producer', string | undefined> = {
    character: undefined,
    person: undefined,
    producer: undefined,
  };
  const listed = await fetch(new URL('/galgame/list', baseUrl)).then((r) => r.text());
  const games = [...new Set(listed.match(/\/galgame\/\d+(?=")/g) ?? [])].slice(0, 10);
  for (const id of games) {
    const html = await fetch(new URL(id, baseUrl)).then((r) => r.text());
    for (const kind of Object.keys(linked) as (keyof typeof linked)[])
      linked[kind] ??= new RegExp(`/${kind}/\\d+(?=")`).exec(html)?.[0];
    if (Object.values(linked).every(Boolean)) break;
  }
  const docs = (await firstMatch(baseUrl, '/docs', /\/docs\/[\w-]+\/[\w-]+(?=")/)) ?? '/docs';
  return [
    '/',
    '/galgame',
    '/galgame/list',
    '/galgame/list?tag=1&platform=windows',
    game,
    `${game}/download`,
    '/galgame/releases',
    ...Object.values(linked).filter((p): p is string => Boolean(p)),
    docs,
    '/login',
    '/register',
    '/reset-password',
    '/privacy-policy',
    '/this-page-does-not-exist',
  ];
}
