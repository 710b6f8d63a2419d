import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { networkQuiet, trackRequests } from './support/network-quiet.ts';

// Every built route in both languages: rendered on the server in the request's language, hydrated
// without a mismatch, and (in English) with no Chinese left in the interface around the content.

const DEMO = { account: 'hikari_demo', password: 'hikari-demo-2026' };
type Locale = 'zh-CN' | 'en';

/** Han, kana and full-width forms: what an English interface must not show. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff01-\uff60]/;

async function setLocale(context: BrowserContext, baseURL: string | undefined, locale: Locale) {
  await context.addCookies([{ name: 'hikari_locale', value: locale, url: baseURL ?? 'http://localhost' }]);
}

/** Console errors and uncaught exceptions of a page (a hydration mismatch is reported as both kinds). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The 404 page answers with status 404, which Chromium logs for the document itself.
    if (/Failed to load resource: the server responded with a status of 404/.test(message.text())) {
      if (message.location().url === page.url()) return;
    }
    errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/**
 * The interface text of the page that contains CJK characters: site header and footer, every
 * navigation, button, label, form control text and label-like attribute. Content written in another
 * language is marked with its own `lang` (docs bodies, language names) and left out, as are the
 * catalogue's own data (tag names, entry names in links to their pages) and anything marked
 * `data-i18n-content`.
 */
async function chineseInChrome(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const cjk = new RegExp(source);
    const foreign = (node: Node) => {
      const el = node instanceof Element ? node : node.parentElement;
      const marked = el?.closest('[lang]:not(html), [data-i18n-content], select[name="tag"]');
      if (marked && marked.getAttribute('lang') !== 'en') return true;
      // A link to a catalogue entry shows that entry's name.
      const link = el?.closest('a[href]')?.getAttribute('href') ?? '';
      return /^\/(galgame|character|person|producer)\/\d+$/.test(link);
    };
    const found = new Set<string>();
    const regions = document.querySelectorAll(
      'header[data-header-variant], [data-site-footer], nav, button, label, select, [role="search"], [role="dialog"], [role="alertdialog"], [role="menu"]',
    );
    for (const region of regions) {
      const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        if (text && cjk.test(text) && !foreign(node)) found.add(text);
      }
    }
    const labelled = [...regions].flatMap((region) => [region, ...region.querySelectorAll('*')]);
    for (const el of [...labelled, ...document.querySelectorAll('input, textarea, [role="img"], section')]) {
      if (foreign(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = el.getAttribute(name);
        if (value && cjk.test(value)) found.add(`${name}=${value}`);
      }
    }
    return [...found];
  }, CJK.source);
}

interface Ids {
  game: number;
  character: number;
  person: number;
  producer: number;
  /** Community pages: a section, a topic, a post and an article, by their addresses. */
  community: { section: string; topic: string; post: string; article: string };
}

let ids: Ids;

/** The first link of each kind on the community's front page. */
async function communityPaths(page: Page): Promise<Ids['community']> {
  await page.goto('/community');
  const first = async (prefix: string) => {
    const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href');
    expect(href, prefix).toBeTruthy();
    return href ?? '';
  };
  return {
    section: await first('/community/section/'),
    topic: await first('/community/topic/'),
    post: await first('/community/post/'),
    article: await first('/community/article/'),
  };
}

test.beforeAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage({ baseURL });
  await page.goto('/galgame/list');
  const gameHref = await page
    .locator('a[href^="/galgame/"]')
    .evaluateAll((links) =>
      links.map((a) => a.getAttribute('href') ?? '').find((href) => /^\/galgame\/\d+$/.test(href)),
    );
  const game = Number(/\d+$/.exec(gameHref ?? '')?.[0]);
  expect(game).toBeGreaterThan(0);
  // A game with characters, staff and a producer: the demo seed links them all on its first game page found.
  const idOf = async (kind: string) => {
    for (const candidate of [game, ...Array.from({ length: 16 }, (_, i) => i + 1)]) {
      await page.goto(`/galgame/${candidate}`);
      const href = await page
        .locator(`a[href^="/${kind}/"]`)
        .first()
        .getAttribute('href', { timeout: 1000 })
        .catch(() => null);
      const id = Number(/\/(\d+)$/.exec(href ?? '')?.[1]);
      if (id > 0) return id;
    }
    throw new Error(`no ${kind} link on any demo game page`);
  };
  ids = {
    game,
    character: await idOf('character'),
    person: await idOf('person'),
    producer: await idOf('producer'),
    community: await communityPaths(page),
  };
  await page.close();
});

function routes(): { path: string; status?: number }[] {
  return [
    { path: '/' },
    { path: '/galgame' },
    { path: '/galgame/list' },
    { path: '/galgame/releases' },
    { path: `/galgame/${ids.game}` },
    { path: `/galgame/${ids.game}/download` },
    { path: `/character/${ids.character}` },
    { path: `/person/${ids.person}` },
    { path: `/producer/${ids.producer}` },
    { path: '/lightnovel' },
    { path: '/lightnovel/list?epub=1' },
    { path: '/lightnovel/1' },
    { path: '/lightnovel/volumes/1' },
    // The reader (series 1, volume 1 has an EPUB in the demo seed).
    { path: '/lightnovel/read?volumeId=1' },
    { path: '/login' },
    { path: '/register' },
    { path: '/reset-password' },
    { path: '/docs' },
    { path: '/docs/guide/getting-started' },
    { path: '/docs/community/community-regulation' },
    { path: '/privacy-policy' },
    { path: '/terms-of-service' },
    { path: '/friend-links' },
    { path: '/test/rich-comment-input' },
    { path: '/community' },
    { path: '/community?sort=hot&type=article' },
    { path: ids.community.section },
    { path: ids.community.topic },
    { path: ids.community.post },
    { path: ids.community.article },
    { path: '/community/post/999999', status: 404 },
    { path: '/space/1' },
    { path: '/space/1/comment' },
    { path: '/space/1/dynamic' },
    { path: '/space/1/favorite' },
    { path: '/space/1/rate' },
    { path: '/space/999999', status: 404 },
    { path: '/no-such-page', status: 404 },
  ];
}

/** Loads a page and waits until every island on it has hydrated. */
async function visit(page: Page, path: string) {
  trackRequests(page);
  const response = await page.goto(path);
  await networkQuiet(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  return response;
}

test('every page renders and hydrates in English, with an English interface', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await setLocale(context, baseURL, 'en');
  const errors = watchErrors(page);
  for (const { path, status = 200 } of routes()) {
    const response = await visit(page, path);
    expect(response?.status(), path).toBe(status);
    await expect(page.locator('html'), path).toHaveAttribute('lang', 'en');
    expect.soft(await chineseInChrome(page), path).toEqual([]);
    expect.soft(errors.splice(0), path).toEqual([]);
  }
});

test('every page renders and hydrates in Chinese', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await setLocale(context, baseURL, 'zh-CN');
  const errors = watchErrors(page);
  for (const { path, status = 200 } of routes()) {
    const response = await visit(page, path);
    expect(response?.status(), path).toBe(status);
    await expect(page.locator('html'), path).toHaveAttribute('lang', 'zh-CN');
    expect.soft(await chineseInChrome(page), path).not.toEqual([]);
    expect.soft(errors.splice(0), path).toEqual([]);
  }
});

test('prerendered pages answer in the cookie language at the same address', async ({ page, context, baseURL }) => {
  await setLocale(context, baseURL, 'en');
  const response = await page.goto('/docs/guide/getting-started');
  expect(response?.headers()['vary']).toMatch(/Cookie/);
  expect(page.url()).toMatch(/\/docs\/guide\/getting-started$/);
  await expect(page).toHaveTitle('Getting started - Hikari');
  await expect(page.locator('nav[aria-label="Docs"]').first()).toContainText('Getting started');
  await expect(page.getByTestId('docs-search')).toHaveAttribute('placeholder', 'Search the docs…');
  // The hidden folder of the English build is not an address of its own.
  expect((await page.goto('/_en/docs/guide/getting-started'))?.status()).toBe(404);

  // A message made in the browser by a store (the leave-site confirmation) is English too.
  await page.goto('/friend-links');
  await page.locator('[data-content-article] .prose a[href^="http"]').first().click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Leaving Hikari');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Switching the language in the footer reloads the same address in Chinese.
  await page.goto('/privacy-policy');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.locator('[data-set-locale="zh-CN"]').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('隐私政策');
  expect(page.url()).toMatch(/\/privacy-policy$/);
});

test('docs search still finds Chinese content from the English build', async ({ page, context, baseURL }) => {
  await setLocale(context, baseURL, 'en');
  await page.goto('/docs');
  await page.getByTestId('docs-search').fill('剧透');
  const results = page.getByTestId('docs-search-results');
  await expect(results.locator('a[href="/docs/community/community-regulation"]')).toBeVisible();
  // Only the canonical pages are indexed, never the English build's folder.
  await expect(results.locator('a[href^="/_en"]')).toHaveCount(0);
});

test('the user card speaks English', async ({ page, context, baseURL, request }) => {
  const login = await request.post('/api/v2/user/login', { data: DEMO });
  const token = ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
  const text = `English card ${Date.now()}`;
  const answer = await request.post('/api/comments', {
    headers: { Authorization: `Bearer ${token}` },
    data: { targetType: 'post', targetId: Number(ids.community.post.split('/').at(-1)), content: text },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  await setLocale(context, baseURL, 'en');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await visit(page, ids.community.post);
  const section = page.getByTestId('comment-section');
  await section.scrollIntoViewIfNeeded();
  await expect(section.locator('xpath=ancestor::astro-island[@ssr]')).toHaveCount(0);
  const comment = section.getByTestId('comment').filter({ has: page.getByText(text, { exact: true }) });
  await comment.getByTestId('comment-author').first().hover();
  const card = page.getByTestId('user-card');
  await expect(card.getByTestId('user-follow-login')).toHaveText('Follow');
  await expect(card).toContainText('Followers');
  expect.soft(await chineseInChrome(page), 'user card').toEqual([]);
  expect(errors).toEqual([]);
});

test('counts are pluralised in English', async ({ page, context, baseURL }) => {
  await setLocale(context, baseURL, 'en');
  await visit(page, '/galgame/list');
  await expect(page.getByText(/^\d+ games?$/).first()).toBeVisible();
  const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
  expect(text).not.toMatch(/\b1 (ratings|games|favourites|versions|votes)\b/);
});

test('logged in, every page keeps to English and messages from the browser are English too', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await setLocale(context, baseURL, 'en');
  const errors = watchErrors(page);
  await page.goto('/login?jumpTo=%2Fgalgame');
  await page.getByLabel('User name or email').fill(DEMO.account);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/galgame$/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  for (const path of [
    '/',
    '/galgame',
    '/community',
    ids.community.post,
    ids.community.article,
    `/galgame/${ids.game}`,
    `/galgame/${ids.game}/download`,
    '/docs',
    '/friend-links',
    '/create/home',
    '/create/content/post',
    '/create/content/article',
    '/create/content/draft/home',
    '/create/content/manage/home',
    '/message/system',
    // Private messages with the conversation with the demo creator open.
    '/message/private?userId=2',
    // The demo member's own space (the seed's first account) and its settings.
    '/space/1',
    '/space/1/setting',
    // The reader for a member, and the member's reading history.
    '/lightnovel/read?volumeId=1',
    '/space/1/read',
  ]) {
    await visit(page, path);
    await expect(page.locator('html'), path).toHaveAttribute('lang', 'en');
    expect.soft(await chineseInChrome(page), path).toEqual([]);
  }

  // A creator page answers members with a 403 page, in English (the browser logs the status).
  await visit(page, '/create/emoji');
  await expect(page.getByRole('heading', { name: 'Creator permission needed' })).toBeVisible();
  expect.soft(await chineseInChrome(page), '/create/emoji').toEqual([]);
  expect(errors.splice(0).map((error) => /status of (\d+)/.exec(error)?.[1])).toEqual(['403']);

  // The comment input's emoji picker and image dialog.
  await visit(page, '/test/rich-comment-input');
  await page.getByRole('button', { name: 'Emoji', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Insert emoji hikari/smile' })).toBeVisible();
  expect.soft(await chineseInChrome(page), 'emoji picker').toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await expect(page.getByRole('dialog', { name: 'Insert images' })).toBeVisible();
  await page.getByRole('button', { name: 'Add link' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('please enter the image link');
  expect.soft(await chineseInChrome(page), 'image dialog').toEqual([]);
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The user menu and the logout confirmation (a store-driven dialog) speak English.
  await page.getByRole('button', { name: 'User menu' }).click();
  expect(await chineseInChrome(page)).toEqual([]);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('are you sure you want to log out?');
  expect(await chineseInChrome(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(errors).toEqual([]);
});

test('the creator centre keeps to English for staff, with its data left as written', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await setLocale(context, baseURL, 'en');
  const errors = watchErrors(page);
  await page.goto('/login?jumpTo=%2Fcreate%2Fhome');
  await page.getByLabel('User name or email').fill('hikari_admin');
  await page.getByLabel('Password').fill('hikari-admin-2026');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/create\/home$/);
  for (const path of [
    '/create/home',
    '/create/update-request/requests',
    '/create/update-request/audits',
    '/create/update-request/history?type=lightnovel&id=8',
    '/create/item/galgame',
    '/create/item/galgame?id=1',
    '/create/item/lightnovel?id=1',
    '/create/item/lightnovel/volume',
    '/create/item/manage/galgame',
    '/create/entity/person',
    '/create/entity/manage/tag',
    '/create/section',
    '/create/section/manage/allsections',
    '/create/section/manage/topics',
    '/create/moderation/reports',
    '/create/moderation/applications',
    '/create/moderation/users',
    '/create/moderation/log',
    '/creator-application',
  ]) {
    await visit(page, path);
    await expect(page.locator('html'), path).toHaveAttribute('lang', 'en');
    // Controls named after the data they act on keep its name: the order buttons ("Move 综合讨论 up"), and
    // the editors' linked rows ("Remove 蝉雨", "月白工房 · Role").
    const named = /^aria-label=(Move .+ (up|down)|Remove .+|.+ · (Role|Note|Voice|Relation))$/;
    const chrome = (await chineseInChrome(page)).filter((text) => !named.test(text));
    expect.soft(chrome, path).toEqual([]);
  }
  expect(errors).toEqual([]);
});
