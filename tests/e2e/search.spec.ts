import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { COLOR_MODE_STORAGE_KEY, type Theme } from '../../src/shared/color-mode.ts';
import { transitionDone } from './support/transitions.ts';

// The search box of the header and of the mobile menu, and the /search page (spec §2.3, §4), on the
// demo content: two demo games are called 雨声侦探事务所 (the second with 第二幕 ～雾笛之夜～).

const WORD = '雨声';
const GAME = '雨声侦探事务所';

async function ready(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

// The plain form's input until the combobox takes over from it on first use.
const headerBox = (page: Page) => page.getByTestId('search-box-bar').locator('input[name="keyword"]');

test('typing in the header suggests, the keyboard picks, and the search page shows and keeps the search', async ({
  page,
}) => {
  await ready(page, '/galgame');
  const box = headerBox(page);
  await box.click();
  await box.pressSequentially(WORD);
  const suggestions = page.getByRole('listbox');
  await expect(suggestions.getByRole('option', { name: GAME, exact: true })).toBeVisible();
  // Both demo games; a searched keyword starting with the text may follow them.
  await expect(suggestions.getByRole('option', { name: `${GAME} 第二幕`, exact: false })).toBeVisible();

  // ArrowDown highlights the first suggestion (aria-activedescendant), Enter runs it.
  await box.press('ArrowDown');
  const first = suggestions.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? '');
  const picked = (await first.textContent()) ?? '';
  await box.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('keyword') === picked);
  await transitionDone(page);
  await expect(page).toHaveTitle(new RegExp(`^${picked} - 搜索`));

  // Results with the match marked; no header box on /search; the page's form holds the keyword.
  const hits = page.getByTestId('search-hit');
  await expect(hits.first()).toBeVisible();
  await expect(hits.first().locator('mark').first()).toContainText(WORD);
  await expect(page.getByTestId('search-box-bar')).toHaveCount(0);
  await expect(page.getByTestId('search-page-form').getByRole('searchbox')).toHaveValue(picked);

  // Tabs with counts keep the keyword: games, light novels, producers, people.
  const tabs = page.getByRole('navigation', { name: '搜索类型' }).getByRole('link');
  await expect(tabs).toHaveCount(4);
  await expect(page.locator('[data-search-tab="galgame"]')).toHaveAttribute('aria-current', 'page');
  await page.locator('[data-search-tab="person"]').click();
  await expect(page).toHaveURL(
    (url) => url.searchParams.get('type') === 'person' && url.searchParams.get('keyword') === picked,
  );
  await expect(page.locator('[data-search-tab="person"]')).toHaveAttribute('aria-current', 'page');
  await transitionDone(page);
  await page.locator('[data-search-tab="galgame"]').click();
  await expect(page.locator('[data-search-tab="galgame"]')).toHaveAttribute('aria-current', 'page');
  await transitionDone(page);

  // Back on another page: the history has the search at the top; it can be deleted.
  await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: 'Galgame' }).click();
  await expect(page).toHaveURL(/\/galgame$/);
  await transitionDone(page);
  await headerBox(page).click();
  const history = page.getByRole('group', { name: '搜索历史' });
  await expect(history.getByRole('option').first()).toHaveText(picked);
  await expect(headerBox(page)).toHaveValue('');
  await history.getByRole('option').first().hover();
  await history.getByTestId('search-history-delete').first().click();
  await expect(page.getByRole('group', { name: '搜索历史' }).getByRole('option', { name: picked })).toHaveCount(0);
  const stored = await page.evaluate(() => window.localStorage.getItem('searchHistory'));
  expect(JSON.parse(stored ?? '[]')).toEqual([]);

  // Escape closes the dropdown; a blank submit goes nowhere.
  await headerBox(page).press('Escape');
  await expect(page.getByTestId('search-dropdown')).toHaveCount(0);
  await headerBox(page).fill('   ');
  await headerBox(page).press('Enter');
  await expect(page).toHaveURL(/\/galgame$/);
});

test('light novels have their tab: found by Chinese, original and part names, each card opening its series', async ({
  page,
}) => {
  await ready(page, `/search?keyword=${encodeURIComponent('雨夜')}`);
  const tab = page.locator('[data-search-tab="novel"]');
  await expect(tab).toHaveText(/轻小说\s*1/);
  await tab.click();
  await expect(page).toHaveURL((url) => url.searchParams.get('type') === 'novel');
  await expect(tab).toHaveAttribute('aria-current', 'page');
  const hit = page.getByTestId('search-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit).toHaveAttribute('data-hit-type', 'novel');
  await expect(hit.locator('mark').first()).toHaveText('雨夜');
  await expect(hit).toContainText('雨夜の手紙');
  await transitionDone(page);
  await hit.getByRole('link', { name: '雨夜信笺' }).click();
  await expect(page).toHaveURL(/\/lightnovel\/2$/);

  // The original (Japanese) name finds the same series; so do the first characters of it in the box.
  await ready(page, `/search?keyword=${encodeURIComponent('終着駅の猫')}&type=novel`);
  await expect(page.getByTestId('search-hit').first()).toContainText('终点站的猫');
  await headerBoxOn(page, '/lightnovel');
  const box = headerBox(page);
  await box.pressSequentially('星见坂');
  await expect(page.getByRole('listbox').getByRole('option', { name: '星见坂图书室的四季' })).toBeVisible();
});

/** Opens a page with the header's search box ready. */
async function headerBoxOn(page: Page, path: string) {
  await ready(page, path);
  await headerBox(page).click();
}

test('a typed keyword runs with Enter, joins the history and the box empties', async ({ page }) => {
  await ready(page, '/galgame');
  await headerBox(page).fill(WORD);
  await headerBox(page).press('Enter');
  await expect(page).toHaveURL(/\/search\?keyword=/);
  await expect(page.getByTestId('search-total')).toContainText('2');
  await expect(headerBox(page)).toHaveCount(0);
  await expect
    .poll(async () => {
      const stored = await page.evaluate(() => window.localStorage.getItem('searchHistory'));
      return (JSON.parse(stored ?? '[]') as { keyword: string }[])[0]?.keyword;
    })
    .toBe(WORD);
});

test('an empty box shows what everyone searches, the top six in their own colours, and runs one', async ({ page }) => {
  await ready(page, '/galgame');
  await headerBox(page).click();
  const trending = page.getByRole('group', { name: '大家都在搜' }).getByRole('option');
  // The demo's searches lead (searches by this browser's address count once each).
  await expect(trending.first()).toHaveText(/雨声侦探事务所/);
  expect(await trending.count()).toBeGreaterThanOrEqual(6);
  const colours = await trending.evaluateAll((items) =>
    items.slice(0, 7).map((item) => getComputedStyle(item.querySelector('span') ?? item).backgroundColor),
  );
  expect(new Set(colours.slice(0, 6)).size).toBe(6);
  expect(colours.slice(0, 6)).not.toContain(colours[6]);
  const third = (await trending.nth(2).innerText()).replace(/^\d+\s*/, '').trim();
  await trending.nth(2).click();
  await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('keyword') === third);
  await expect(page.getByTestId('search-hit').first()).toBeVisible();
});

test('a failed suggestion request is told in a toast', async ({ page }) => {
  await page.route('**/api/search/suggest**', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, code: 'SERVICE_UNAVAILABLE', message: '服务暂时不可用', data: null }),
    }),
  );
  await ready(page, '/galgame');
  await headerBox(page).pressSequentially(WORD);
  await expect(page.getByText(/^获取搜索建议失败: /)).toBeVisible();
});

test('a nothing-found search suggests nearby keywords or says so, and a bad address does not fail', async ({
  page,
}) => {
  const empty = await page.goto(`/search?keyword=${encodeURIComponent('雨声侦探事務所XYZ')}`);
  expect(empty?.status()).toBe(200);
  await expect(page.getByTestId('search-empty')).toBeVisible();
  const prompt = await page.goto('/search');
  expect(prompt?.status()).toBe(200);
  await expect(page.getByTestId('search-prompt')).toBeVisible();
  const bad = await page.goto(`/search?keyword=${encodeURIComponent(WORD)}&type=foo&page=0`);
  expect(bad?.status()).toBe(200);
  await expect(page.getByTestId('search-hit').first()).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu has the search box, and searching from it closes the menu', async ({ page }) => {
    await ready(page, '/galgame');
    await page.getByRole('button', { name: '打开菜单' }).click();
    const menu = page.getByTestId('mobile-menu');
    const box = menu.locator('input[name="keyword"]');
    await box.fill(WORD);
    await expect(menu.getByRole('option', { name: GAME, exact: true })).toBeVisible();
    await box.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('keyword') === WORD);
    await expect(menu).toBeHidden();
    await expect(page.getByTestId('search-hit')).toHaveCount(2);

    // Not on /search itself.
    await page.getByRole('button', { name: '打开菜单' }).click();
    await expect(page.getByTestId('mobile-menu').locator('input[name="keyword"]')).toHaveCount(0);
  });
});

for (const mode of ['light', 'dark'] as const satisfies readonly Theme[]) {
  test(`the search page passes axe in ${mode} mode`, async ({ page }) => {
    await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
      COLOR_MODE_STORAGE_KEY,
      mode,
    ] as const);
    for (const path of [`/search?keyword=${encodeURIComponent(WORD)}`, '/search?keyword=zzzz', '/search']) {
      await ready(page, path);
      await expect(page.locator('html')).toHaveClass(mode === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const found = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(found, path).toEqual([]);
    }
  });
}

test('the open dropdown passes axe', async ({ page }) => {
  await ready(page, '/galgame');
  await page.evaluate(() =>
    window.localStorage.setItem('searchHistory', JSON.stringify([{ keyword: '雨声', createdAt: Date.now() }])),
  );
  await headerBox(page).click();
  await expect(page.getByTestId('search-dropdown')).toBeVisible();
  const result = await new AxeBuilder({ page })
    .include('[data-testid="search-box-bar"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
