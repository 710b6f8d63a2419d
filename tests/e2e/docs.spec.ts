import { expect, test } from '@playwright/test';

test('a docs page renders with its navigation', async ({ page }) => {
  const response = await page.goto('/docs/community/community-regulation');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: '社区规范' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: '文档目录' }).getByRole('link', { name: '社区规范' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('multi-segment slugs, the docs index and the static pages render', async ({ page }) => {
  for (const [path, title] of [
    ['/docs', '文档中心'],
    ['/docs/guide/getting-started', '新手指南'],
    ['/privacy-policy', '隐私政策'],
    ['/terms-of-service', '服务条款'],
    ['/friend-links', '友情链接'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
  }
});

test('docs search finds a two-character Chinese word', async ({ page }) => {
  await page.goto('/docs');
  await page.getByTestId('docs-search').fill('剧透');
  const results = page.getByTestId('docs-search-results');
  await expect(results).toBeVisible();
  const rules = results.locator('a[href="/docs/community/community-regulation"]');
  await expect(rules).toContainText('社区规范');
  await expect(rules.locator('mark').first()).toHaveText('剧透');
  await rules.click();
  await expect(page).toHaveURL(/\/docs\/community\/community-regulation/);
});
