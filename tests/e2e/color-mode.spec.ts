import { expect, test } from '@playwright/test';

test.use({ colorScheme: 'light' });

test('colour mode cycles system → light → dark → system and survives a reload without a flash', async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  const toggle = page.getByTestId('color-mode-toggle');
  await expect(toggle).toHaveAttribute('data-mode', 'system');
  await expect(html).not.toHaveClass(/dark/);

  await toggle.click();
  await expect(toggle).toHaveAttribute('data-mode', 'light');
  await expect(html).not.toHaveClass(/dark/);

  await toggle.click();
  await expect(toggle).toHaveAttribute('data-mode', 'dark');
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('hikari-color-mode'))).toBe('dark');

  // With every bundled script blocked, only the inline first-paint script can apply the theme: if the
  // page is dark now, it was dark before anything else ran.
  await page.route('**/_astro/**/*.js', (route) => route.abort());
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(250, 250, 250)');
  await page.unroute('**/_astro/**/*.js');

  await page.reload();
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-mode', 'system');
  await expect(html).not.toHaveClass(/dark/);
});

test('system mode follows the operating system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});
