import { expect, test } from '@playwright/test';

const DEMO = { account: 'hikari_demo', password: 'hikari-demo-2026' };

test('a page without the header still reads the session and refreshes a run-out access token', async ({
  page,
  context,
}) => {
  await page.goto('/login');
  // Typed into the form once it has hydrated (before that a submit would only reload the page).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('用户名或邮箱').fill(DEMO.account);
  await page.getByLabel('密码').fill(DEMO.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  const before = (await context.cookies()).find((c) => c.name === 'hikari-refresh-token')?.value;
  expect(before).toBeTruthy();
  await context.clearCookies({ name: 'hikari-access-token' });

  // The register page has no site header: the client shell alone keeps the login alive here.
  await page.goto('/register');
  await expect(page.locator('header')).toHaveCount(0);
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '', {
      timeout: 10_000,
    })
    .not.toBe('');
  const after = (await context.cookies()).find((c) => c.name === 'hikari-refresh-token')?.value;
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
});
