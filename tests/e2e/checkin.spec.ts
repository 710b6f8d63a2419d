import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { COLOR_MODE_STORAGE_KEY, type Theme } from '../../src/shared/color-mode.ts';
import { siteToday } from '../../src/shared/site-day.ts';
import { DEMO_ADMIN, logInAsDemo } from './support/demo-login.ts';

// The daily check-in (spec §2.4, §4, §5, §8) as the demo administrator, whom the other browser tests
// never check in: the header button, the calendar modal, a make-up day and the points history. The
// tests of this file build on each other (one check-in a day), so they run in order.

test.describe.configure({ mode: 'serial' });

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const HAN = /\p{Script=Han}/u;

const checkInButton = (page: Page) => page.getByTestId('header-check-in');
const calendar = (page: Page) => page.getByRole('dialog', { name: /^连续签到 \d+ 天$/ });

async function ready(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** The balance the avatar menu shows (it reads the session), with the menu closed again. */
async function menuBalance(page: Page): Promise<number> {
  await page.getByTestId('user-menu-button').click();
  const hp = page.getByRole('menu').getByTestId('user-menu-hp');
  await expect(hp).toHaveText(/^HP \d+$/);
  const balance = Number(/\d+/.exec((await hp.textContent()) ?? '')?.[0]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  return balance;
}

async function expectNoViolations(page: Page, where: string, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(WCAG);
  if (include) builder.include(include);
  const result = await builder.analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    where,
  ).toEqual([]);
}

async function openCalendar(page: Page): Promise<Locator> {
  await expect(checkInButton(page)).toHaveText('已签到');
  await checkInButton(page).click();
  const dialog = calendar(page);
  await expect(dialog.getByTestId('check-in-cell')).toHaveCount(42);
  return dialog;
}

const today = siteToday();
const pastDayThisMonth = !today.endsWith('-01');

test('checks in from the header: toast, 已签到, and the balance rises by the points', async ({ page }) => {
  await logInAsDemo(page, '/', DEMO_ADMIN);
  await expect(checkInButton(page)).toHaveText('签到');
  const before = await menuBalance(page);

  await checkInButton(page).click();
  const toast = page.getByRole('status').filter({ hasText: /^签到成功，获得 \d+ HikariPoint/ });
  await expect(toast).toBeVisible();
  const points = Number(/获得 (\d+)/.exec((await toast.textContent()) ?? '')?.[1]);
  expect(points).toBeGreaterThanOrEqual(1);
  expect(points).toBeLessThanOrEqual(10);
  await expect(checkInButton(page)).toHaveText('已签到');
  expect(await menuBalance(page)).toBe(before + points);

  // A new page knows it too (cached for this member, then confirmed by the server).
  await ready(page, '/galgame');
  await expect(checkInButton(page)).toHaveText('已签到');
});

test('the modal shows this month, Monday first, with today checked in', async ({ page }) => {
  await logInAsDemo(page, '/', DEMO_ADMIN);
  const dialog = await openCalendar(page);
  await expect(dialog).toHaveAccessibleName('连续签到 1 天');
  const weekdays = dialog.getByTestId('check-in-weekday');
  await expect(weekdays).toHaveText(['周一', '周二', '周三', '周四', '周五', '周六', '周日']);
  await expect(dialog.getByText('已签到', { exact: true })).toBeVisible();
  await expect(dialog.getByText('补签', { exact: true }).first()).toBeVisible();
  await expect(dialog.getByText('今天', { exact: true })).toBeVisible();
  await expect(dialog.locator(`[data-date="${today}"]`)).toHaveAttribute('data-state', 'checked');
  await expect(dialog.locator(`[data-date="${today}"]`)).toHaveAttribute('data-today', 'true');
  // Today and later days are not buttons; neither are empty cells.
  await expect(dialog.getByRole('button', { name: new RegExp(today) })).toHaveCount(0);
  const first = `${today.slice(0, 7)}-01`;
  await expect(dialog.getByTestId('check-in-cell').nth(0)).toBeVisible();
  if (pastDayThisMonth) {
    await expect(dialog.getByRole('button', { name: `补签 ${first}` })).toBeVisible();
  }

  await expectNoViolations(page, 'open modal (light)', '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('makes up a past day of this month after confirming: toast, balance falls by 30, the day shows 补签', async ({
  page,
}) => {
  test.skip(
    !pastDayThisMonth,
    `Today (${today}) is the 1st of the month: there is no past day of this month to make up`,
  );
  await logInAsDemo(page, '/', DEMO_ADMIN);
  const before = await menuBalance(page);
  const dialog = await openCalendar(page);
  const day = dialog.locator('[data-state="can-make-up"]').first();
  const date = (await day.getAttribute('data-date')) ?? '';
  expect(date < today).toBe(true);

  // Cancelling changes nothing.
  await day.click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`确定要补签 ${date} 吗？ 此操作需要消耗 30 HikariPoint`);
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(dialog.locator(`[data-date="${date}"]`)).toHaveAttribute('data-state', 'can-make-up');

  await dialog.locator(`[data-date="${date}"]`).click();
  await expect(confirm).toContainText(`确定要补签 ${date} 吗？ 此操作需要消耗 30 HikariPoint`);
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(page.getByRole('status').filter({ hasText: '补签成功，消耗 30 HikariPoint' })).toBeVisible();
  const madeUp = dialog.locator(`[data-date="${date}"]`);
  await expect(madeUp).toHaveAttribute('data-state', 'makeUp');
  await expect(madeUp).toContainText('补签');
  // The next one costs 60 now.
  await expect(dialog.getByTestId('check-in-make-ups')).toContainText('1/3');
  await expect(dialog.getByTestId('check-in-make-ups')).toContainText('60 HikariPoint');
  await page.keyboard.press('Escape');
  expect(await menuBalance(page)).toBe(before - 30);
});

test('the points history lists the check-in and the make-up', async ({ page }) => {
  await logInAsDemo(page, '/', DEMO_ADMIN);
  // From the avatar menu's HP line.
  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menu').getByTestId('user-menu-hp-link').click();
  await expect(page).toHaveURL(/\/space\/\d+\/setting\/points$/);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const history = page.getByTestId('points-history');
  const rows = history.getByTestId('points-entry');
  await expect(rows.filter({ hasText: `签到 ${today}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `签到 ${today}` }).getByTestId('points-amount')).toHaveText(/^\+\d+$/);
  if (pastDayThisMonth) {
    const makeUp = rows.filter({ hasText: /补签 \d{4}-\d{2}-\d{2}/ });
    await expect(makeUp).toHaveCount(1);
    await expect(makeUp.getByTestId('points-amount')).toHaveText('−30');
    // Newest first: the make-up came after the check-in.
    await expect(rows.first()).toHaveAttribute('data-reason', 'make_up');
  }
  await expect(
    rows
      .filter({ hasText: '初始余额' })
      .or(rows.filter({ hasText: '系统发放' }))
      .first(),
  ).toBeVisible();

  // And from the settings page.
  const path = new URL(page.url()).pathname;
  await ready(page, path.replace(/\/points$/, ''));
  await page.getByTestId('points-history-link').click();
  await expect(page).toHaveURL(/\/setting\/points$/);
});

for (const mode of ['light', 'dark'] as const satisfies readonly Theme[]) {
  test(`the open modal and the points history pass axe in ${mode} mode`, async ({ page }) => {
    await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
      COLOR_MODE_STORAGE_KEY,
      mode,
    ] as const);
    await logInAsDemo(page, '/', DEMO_ADMIN);
    await expect(page.locator('html')).toHaveClass(mode === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await openCalendar(page);
    await expectNoViolations(page, `modal (${mode})`, '[role="dialog"]');
    await page.keyboard.press('Escape');

    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menu').getByTestId('user-menu-hp-link').click();
    await expect(page.getByTestId('points-entry').first()).toBeVisible();
    await expectNoViolations(page, `points history (${mode})`);
  });
}

test('at 390 px the button is an icon with its name and the modal fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logInAsDemo(page, '/', DEMO_ADMIN);
  const button = checkInButton(page);
  await expect(button).toHaveAccessibleName('已签到');
  const box = await button.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(40);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const dialog = await openCalendar(page);
  const panel = await dialog.boundingBox();
  expect(panel?.x).toBeGreaterThanOrEqual(0);
  expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(390);
  // Every day cell lies inside the panel.
  const cells = await dialog
    .locator('[data-date]')
    .evaluateAll((nodes) =>
      nodes.map((node) => node.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })),
    );
  for (const cell of cells) {
    expect(cell.left).toBeGreaterThanOrEqual(panel?.x ?? 0);
    expect(cell.right).toBeLessThanOrEqual((panel?.x ?? 0) + (panel?.width ?? 0));
  }
  await expectNoViolations(page, 'modal at 390 px', '[role="dialog"]');
});

async function setEnglish(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: 'hikari_locale', value: 'en', url: baseURL ?? 'http://localhost' }]);
}

test('in English: the button, the modal and the points history carry no Chinese', async ({
  page,
  context,
  baseURL,
}) => {
  await logInAsDemo(page, '/', DEMO_ADMIN);
  await setEnglish(context, baseURL);
  await ready(page, '/galgame');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(checkInButton(page)).toHaveText('Checked in');
  await checkInButton(page).click();
  const dialog = page.getByRole('dialog', { name: /^Checked in \d+ days? in a row$/ });
  await expect(dialog.getByTestId('check-in-cell')).toHaveCount(42);
  await expect(dialog.getByTestId('check-in-weekday').first()).toHaveText('Mon');
  expect(HAN.test(await dialog.innerText())).toBe(false);
  const labels = await dialog
    .locator('[aria-label], [title]')
    .evaluateAll((nodes) =>
      nodes.map((node) => `${node.getAttribute('aria-label') ?? ''} ${node.getAttribute('title') ?? ''}`),
    );
  expect(labels.filter((label) => HAN.test(label))).toEqual([]);
  expect(HAN.test(await page.locator('header').first().innerText())).toBe(false);
  await page.keyboard.press('Escape');

  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menu').getByTestId('user-menu-hp-link').click();
  const history = page.getByTestId('points-history');
  await expect(history.getByTestId('points-entry').first()).toBeVisible();
  await expect(history.getByTestId('points-reason').filter({ hasText: `Check-in ${today}` })).toHaveCount(1);
  expect(HAN.test(await history.innerText())).toBe(false);
});
