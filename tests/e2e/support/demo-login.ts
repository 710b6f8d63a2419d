import { expect, type BrowserContext, type Page } from '@playwright/test';

/** The demo account the test server seeds. */
export const DEMO = { account: 'hikari_demo', password: 'hikari-demo-2026' };
/** The demo creator (user group `creator`). */
export const DEMO_CREATOR = { account: 'hikari_creator', password: 'hikari-creator-2026' };
/** The demo administrator (user group `superAdmin`, so a moderator). */
export const DEMO_ADMIN = { account: 'hikari_admin', password: 'hikari-admin-2026' };
/** The demo editor (user group `editor`): reviews update requests and reports. */
export const DEMO_EDITOR = { account: 'hikari_editor', password: 'hikari-editor-2026' };
/** The demo admin below the super admin (user group `admin`): applications, bans, the audit log. */
export const DEMO_MODERATOR = { account: 'hikari_moderator', password: 'hikari-moderator-2026' };

/**
 * Logs in as the demo account through the Chinese login page and waits to land on `jumpTo`. Types
 * only once the form has hydrated (before that a submit would just reload the page).
 */
export async function logInAsDemo(
  page: Page,
  jumpTo = '/',
  who: { account: string; password: string } = DEMO,
): Promise<void> {
  await page.goto(jumpTo === '/' ? '/login' : `/login?jumpTo=${encodeURIComponent(jumpTo)}`);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('用户名或邮箱').fill(who.account);
  await page.getByLabel('密码').fill(who.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${jumpTo.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
}

const cookie = async (context: BrowserContext, name: string) =>
  (await context.cookies()).find((c) => c.name === name)?.value;

/**
 * Drops the access cookie, runs `visit` (a page load), and checks that the client refreshed the login
 * silently: a new access cookie and a rotated refresh token.
 */
export async function expectSilentRefresh(context: BrowserContext, visit: () => Promise<void>): Promise<void> {
  const before = await cookie(context, 'hikari-refresh-token');
  expect(before).toBeTruthy();
  await context.clearCookies({ name: 'hikari-access-token' });
  await visit();
  await expect.poll(async () => (await cookie(context, 'hikari-access-token')) ?? '', { timeout: 10_000 }).not.toBe('');
  const after = await cookie(context, 'hikari-refresh-token');
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
}
