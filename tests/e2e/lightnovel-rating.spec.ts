import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO, logInAsDemo } from './support/demo-login.ts';

// Rating a light-novel series on its page (issue 17), and the series in the member's favourites.
// Demo series 3 is 《终点站的猫》, which nobody else rates in these tests.

const SERIES = '/lightnovel/3';
const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

async function userIdFromCookie(context: BrowserContext): Promise<number> {
  const cookie = (await context.cookies()).find((c) => c.name === 'hikari-user-info');
  return (JSON.parse(decodeURIComponent(cookie?.value ?? '{}')) as { userId: number }).userId;
}

test('a visitor sees the rating card with a way to log in', async ({ page }) => {
  await page.goto(SERIES);
  const panel = page.getByTestId('rating-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('rating-login')).toHaveAttribute('href', /\/login\?jumpTo=/);
});

/** Accessibility problems axe finds in the rating card and the list of ratings. */
async function axeProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('[data-testid="panel-rating"]')
    .include('[data-testid="panel-ratings"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a member rates a series, sees the card follow, finds it in the list, and deletes it', async ({
  page,
  context,
  request,
}) => {
  await logInAsDemo(page, SERIES);
  await hydrated(page);
  const panel = page.getByTestId('rating-panel');
  const mine = panel.getByTestId('my-rating');
  await expect(panel.getByRole('button', { name: '保存评分' }).or(mine)).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  if (await mine.isVisible()) {
    await mine.getByRole('button', { name: '删除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('评分已删除')).toBeVisible();
  }
  await panel.getByRole('button', { name: '保存评分' }).click();
  await expect(panel.getByText('请选择评分')).toBeVisible();
  await panel.getByLabel('9 分 神作').check({ force: true });
  await panel.getByLabel(/短评/).fill('六个短篇，每一站都有一只猫在等人。');
  await panel.getByRole('button', { name: '保存评分' }).click();
  await expect(page.getByText('评分已保存')).toBeVisible();
  await expect(mine).toContainText('9 分');
  await expect(panel.getByTestId('rating-average')).toHaveText('9.0');
  await expect(panel.getByTestId('rating-count')).toHaveText('1 人评分');
  await expect(panel.getByTestId('score-histogram').getByLabel('9 分：1 人')).toBeVisible();

  // The server-rendered list has it after a reload.
  await page.reload();
  const item = page.getByTestId('rating-item').filter({ hasText: DEMO.account });
  await expect(item).toContainText('★ 9');
  await expect(item).toContainText('每一站都有一只猫');
  await hydrated(page);
  expect(await axeProblems(page)).toEqual([]);

  // The member's favourite series: public by userId, and a tab of their space.
  const userId = await userIdFromCookie(context);
  const list = await request.get(`/api/favorite/lightnovels?userId=${userId}&limit=5`);
  expect(list.ok()).toBe(true);
  await page.goto(`/space/${userId}/favorite?type=lightnovel`);
  await expect(page.getByTestId('space-favorite-types').getByRole('link', { name: '轻小说' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByTestId('space-favorite-lightnovels').or(page.getByText('这里还没有收藏'))).toBeVisible();

  // Delete it again: the card says nobody has rated the series.
  await page.goto(SERIES);
  await hydrated(page);
  await page.getByTestId('my-rating').getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('评分已删除')).toBeVisible();
  await expect(page.getByTestId('rating-panel').getByTestId('rating-empty')).toBeVisible();
});
