import { expect, test } from '@playwright/test';

test('a repeated toast merges into one with a repeat counter', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/guide/getting-started');
  const copy = page.getByTestId('copy-link');
  // The button hydrates when the browser is idle; wait for it like a person would see it respond.
  await expect(page.locator('astro-island:has([data-testid="copy-link"])')).not.toHaveAttribute('ssr', /.*/);
  await copy.click();
  const toast = page.getByRole('status').filter({ hasText: '已复制:' });
  await expect(toast).toHaveCount(1);
  await copy.click();
  await expect(toast).toHaveCount(1);
  await expect(toast.getByTestId('toast-repeat')).toHaveText('×2');
  // The toast closes by itself (3 s, then a 300 ms fade).
  await expect(toast).toHaveCount(0, { timeout: 6000 });
});

test('a confirm dialog resolves false on cancel, close and mask click, and true on confirm', async ({
  page,
  context,
}) => {
  await page.goto('/friend-links');
  const external = page.locator('[data-content-article] a[href^="https://example"]').first();
  const dialog = page.getByRole('alertdialog');
  let popups = 0;
  context.on('page', () => popups++);

  await external.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('即将离开 Hikari');
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toHaveCount(0);

  await external.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await external.click();
  await expect(dialog).toBeVisible();
  // The mask starts listening once the dialog has settled in, so the click is retried until it lands.
  await expect(async () => {
    await page.mouse.click(5, 5);
    await expect(dialog).toHaveCount(0, { timeout: 1000 });
  }).toPass();
  expect(popups).toBe(0);

  await external.click();
  const popup = context.waitForEvent('page');
  await dialog.getByRole('button', { name: '确定' }).click();
  await popup;
  expect(popups).toBe(1);
});
