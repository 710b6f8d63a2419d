import { expect, test } from '@playwright/test';

test('home renders in zh-CN with the header, the site guide and announcements', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator('html')).toHaveAttribute('data-layout', 'home');
  const header = page.locator('header[data-header-variant="default"]');
  await expect(header).toBeVisible();
  await expect(header.getByRole('link', { name: '首页' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: '站点公告' })).toBeVisible();
  await expect(page.getByTestId('announcement').first()).toContainText('置顶');
  await expect(page.getByRole('link', { name: /社区规范/ }).first()).toBeVisible();
});

test('the header and toasts persist across client-side navigation', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    (document.querySelector('header') as HTMLElement & { __marker?: string }).__marker = 'same-node';
  });
  await page.locator('header').getByRole('link', { name: '社区规范' }).click();
  await expect(page).toHaveURL(/\/docs\/community\/community-regulation$/);
  await expect(page.getByRole('heading', { level: 1, name: '社区规范' })).toBeVisible();
  const marker = await page.evaluate(
    () => (document.querySelector('header') as HTMLElement & { __marker?: string }).__marker,
  );
  expect(marker).toBe('same-node');
  await expect(page.locator('header').getByRole('link', { name: '社区规范' })).toHaveAttribute('aria-current', 'page');
});

test('an unknown path answers 404 with "Page not found: {path}"', async ({ page }) => {
  const response = await page.goto('/nope');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('error-message')).toHaveText('404 | Page not found: /nope');
  await expect(page.getByRole('heading', { name: '出错了' })).toBeVisible();
  // The status code is shown once.
  expect((await page.getByTestId('error-page').innerText()).match(/404/g)).toHaveLength(1);
  // A fresh tab has one history entry: the button leads home.
  await expect(page.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '/');
});

test('the error button goes back when there is history to go back to', async ({ page }) => {
  await page.goto('/');
  await page.goto('/docs');
  await page.goto('/docs/missing/page');
  await expect(page.getByTestId('error-message')).toHaveText('404 | Page not found: /docs/missing/page');
  await page.getByRole('button', { name: '返回上一页' }).click();
  await expect(page).toHaveURL(/\/docs$/);
});
