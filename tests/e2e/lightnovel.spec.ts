import { expect, test } from '@playwright/test';
import { logInAsDemo as logIn } from './support/demo-login.ts';
import { transitionDone } from './support/transitions.ts';

// The test server runs the demo seed: eight fictional light novels (series ids 1…8), the first main
// volume of series 1–3 with an EPUB, and the account hikari_demo.

test('from the header to /lightnovel, the list filtered in the URL, a series, a volume and its read button', async ({
  page,
}) => {
  await page.goto('/');
  await page.locator('header').getByRole('link', { name: '轻小说' }).click();
  await expect(page).toHaveURL(/\/lightnovel$/);
  await expect(page.getByRole('heading', { level: 1, name: '轻小说' })).toBeVisible();
  await expect(page.locator('header').getByRole('link', { name: '轻小说' })).toHaveAttribute('aria-current', 'page');
  for (const block of ['block-new-volumes', 'block-serialising', 'block-labels'])
    await expect(page.getByTestId(block)).toBeVisible();

  // "More" of the serialising block: the filter is in the URL and in the form.
  await page.getByTestId('block-serialising').getByRole('link', { name: '查看更多' }).click();
  await expect(page).toHaveURL(/\/lightnovel\/list\?status=serialising$/);
  await expect(page.locator('select[name="status"]')).toHaveValue('serialising');
  const cards = page.getByTestId('lightnovel-card');
  await expect(cards).toHaveCount(4);
  // Ticking "readable only" submits at once and adds epub=1.
  await page.getByLabel('只看可阅读').check();
  await expect(page).toHaveURL(/\/lightnovel\/list\?status=serialising&epub=1$/);
  await expect(cards).toHaveCount(2);
  await expect(page.getByTestId('list-total')).toHaveText('共 2 部作品');

  await page.getByRole('link', { name: '星见坂图书室的四季', exact: true }).click();
  await expect(page).toHaveURL(/\/lightnovel\/1$/);
  await expect(page.getByRole('heading', { level: 1, name: '星见坂图书室的四季' })).toBeVisible();
  await expect(page.getByTestId('fact-author')).toContainText('雾谷萤');
  await expect(page.getByTestId('fact-label').getByRole('link')).toHaveAttribute('href', /^\/producer\/\d+$/);
  const volumes = page.getByTestId('panel-volumes').getByTestId('volume-card');
  await expect(volumes).toHaveCount(5);
  // Main volumes by number, then the extra; the first one can be read.
  await expect(volumes.locator('.hk-game-card-note')).toHaveText([
    '第 1 卷',
    '第 2 卷',
    '第 3 卷',
    '第 4 卷',
    '短篇集 1',
  ]);
  await expect(volumes.first().getByTestId('volume-readable')).toBeVisible();

  await volumes.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/lightnovel\/volumes\/\d+$/);
  const volumeId = Number(/(\d+)$/.exec(page.url())?.[1]);
  await expect(page.getByRole('heading', { level: 1, name: '春·借阅证上的名字' })).toBeVisible();
  const read = page.getByTestId('read-button');
  await expect(read).toHaveAttribute('href', `/lightnovel/read?volumeId=${volumeId}`);
  await expect(read).toHaveAttribute('data-astro-reload', '');

  // Moving to the next volume keeps the scroll position (spec §2.1). The scroll waits for the arrival's
  // transition: a click during it would make Playwright scroll the page back while it retries.
  await transitionDone(page);
  await page.evaluate(() => window.scrollTo(0, 120));
  await page.getByTestId('next-volume').click();
  await expect(page.getByRole('heading', { level: 1, name: '夏·蝉声与书签' })).toBeVisible();
  await expect(page.getByTestId('read-button')).toHaveCount(0);
  await expect(page.getByTestId('no-epub')).toBeVisible();
  // The position is put back once the new page is in place, which may be a moment after it shows.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.getByTestId('back-to-series').click();
  await expect(page).toHaveURL(/\/lightnovel\/1$/);
});

test('a member favourites a series, and it stays favourited', async ({ page }) => {
  await logIn(page, '/lightnovel/2');
  const favorite = page.getByTestId('favorite-button');
  await expect(favorite).toHaveAttribute('data-state', /^(on|off)$/);
  if ((await favorite.getAttribute('data-state')) === 'on') {
    await favorite.click();
    await expect(favorite).toHaveAttribute('aria-pressed', 'false');
  }
  const before = Number(/\d+$/.exec((await favorite.textContent()) ?? '')?.[0]);
  await favorite.click();
  await expect(favorite).toHaveAttribute('aria-pressed', 'true');
  await expect(favorite).toContainText('已收藏');
  await expect(favorite).toContainText(String(before + 1));
  await page.reload();
  await expect(page.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('favorite-button').click();
  await expect(page.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'false');
});

test('at 390 px the pages fit the screen, and the read button is in the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/lightnovel', '/lightnovel/list', '/lightnovel/1', '/lightnovel/volumes/1']) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await expect(page.getByTestId('read-button')).toBeInViewport();
});

test('the English pages say everything in English', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'hikari_locale', value: 'en', url: baseURL ?? 'http://localhost' }]);
  await page.goto('/lightnovel');
  await expect(page.getByRole('heading', { level: 1, name: 'Light novels' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New volumes' })).toBeVisible();
  await page.goto('/lightnovel/1');
  await expect(page.getByTestId('serial-status')).toHaveText('Serialising');
  await expect(page.getByTestId('panel-volumes').locator('.hk-game-card-note').first()).toHaveText('Volume 1');
  await page.goto('/lightnovel/volumes/1');
  await expect(page.getByTestId('read-button')).toHaveText('Start reading');
  await expect(page.getByTestId('volume-facts')).toContainText('Release date');
});
