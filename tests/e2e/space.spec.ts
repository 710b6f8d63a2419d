import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { logInAsDemo } from './support/demo-login.ts';
import { transitionDone } from './support/transitions.ts';

// A member's space (issue 13): reached from the avatar menu, tabs that keep the scroll position, the
// owner's settings (signature, avatar upload, logging out other devices), what a visitor sees, and the
// notice on a banned member's space.

/** The demo member's public number, from the header's avatar menu. */
async function openOwnSpace(page: Page): Promise<string> {
  // A click on the avatar before its island hydrates, or during the arrival's transition, opens nothing.
  await transitionDone(page);
  await hydrated(page);
  await page.getByTestId('user-menu-button').click();
  await page.getByRole('menuitem', { name: '个人主页' }).click();
  await expect(page).toHaveURL(/\/space\/\d+$/);
  await expect(page.getByTestId('space-name')).toHaveText('hikari_demo');
  return new URL(page.url()).pathname;
}

const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

test('a member opens their space from the avatar menu and moves between tabs without jumping to the top', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await logInAsDemo(page);
  const home = await openOwnSpace(page);
  await expect(page.getByTestId('dynamic-item').first()).toBeVisible();
  // The client router takes over links once the page's scripts run.
  await page.waitForLoadState('networkidle');
  await hydrated(page);

  await page.evaluate(() => window.scrollTo({ top: 200, behavior: 'instant' }));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(200);
  await page.getByTestId('space-tab-link-comment').click();
  await expect(page).toHaveURL(`${home}/comment`);
  await expect(page.getByTestId('space-comment').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(150);
  await transitionDone(page);

  await page.getByTestId('space-tab-link-rate').click();
  await expect(page).toHaveURL(`${home}/rate`);
  await expect(page.getByTestId('space-rating').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(150);
  // The status filter keeps only ratings of that status.
  await page.getByTestId('space-rate-filter').getByRole('link', { name: '抛弃' }).click();
  await expect(page.getByText('还没有这类评分')).toBeVisible();

  await page.getByTestId('space-tab-link-dynamic').click();
  await expect(page.getByTestId('space-dynamic')).toBeVisible();
  await page.getByTestId('space-tab-link-favorite').click();
  await expect(page.getByTestId('space-favorite-types')).toBeVisible();
  // The owner also has the reading history and the settings.
  await expect(page.getByTestId('space-tabs').getByRole('link')).toHaveCount(7);
  await expect(page.getByTestId('space-tab-link-read')).toBeVisible();
});

test('the owner edits their signature and avatar, and sees them in the space', async ({ page }) => {
  test.setTimeout(60_000);
  await logInAsDemo(page);
  const home = await openOwnSpace(page);
  await page.getByTestId('space-tab-link-setting').click();
  await expect(page).toHaveURL(`${home}/setting`);
  await hydrated(page);
  const settings = page.getByTestId('space-settings');
  await expect(settings.getByLabel('个人简介')).toHaveValue(/夏日/);

  const signature = `今天补完了第 ${Date.now() % 1000} 部作品`;
  await settings.getByLabel('签名').fill(signature);
  await settings.getByTestId('save-profile').click();
  await expect(page.getByText('资料已保存')).toBeVisible();

  const avatar = await sharp({ create: { width: 160, height: 160, channels: 4, background: '#39c5bb' } })
    .png()
    .toBuffer();
  await page
    .getByTestId('picture-avatar')
    .locator('input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatar });
  await expect(page.getByText('图片已更新')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('space-tab-link-home').click();
  await page.reload();
  await expect(page.getByTestId('space-signature')).toHaveText(signature);
  await expect(page.getByTestId('space-avatar').locator('img')).toHaveAttribute('src', /avatar/);
});

test('logging out other devices ends the other login but keeps this one', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const other = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const second = await other.newPage();
  await logInAsDemo(second);
  await logInAsDemo(page);
  await openOwnSpace(page);
  await page.getByTestId('space-tab-link-setting').click();
  await hydrated(page);
  const sessions = page.getByTestId('session-list');
  await expect(sessions.locator('li[data-current="true"]')).toHaveCount(1);
  await expect(sessions.locator('li[data-current="false"]').first()).toBeVisible();

  await page.getByTestId('logout-others').click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText(/已退出 \d+ 个其他设备/)).toBeVisible();
  await expect(sessions.locator('li')).toHaveCount(1);
  await expect(page.getByText('没有其他设备登录')).toBeVisible();

  // The other browser's next call is refused and it is sent to the login page.
  await second.goto('/');
  await second.evaluate(async () => {
    const token = document.cookie.match(/hikari-access-token=([^;]+)/)?.[1] ?? '';
    const res = await fetch('/api/v2/user/profile', { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
  });
  await second.goto(new URL(page.url()).pathname);
  await expect(second).toHaveURL(/\/login/, { timeout: 15_000 });

  // This device is still logged in.
  await page.reload();
  await expect(page.getByTestId('space-settings')).toBeVisible();
  await other.close();
});

test('a visitor sees a public space without its settings', async ({ page }) => {
  const answer = await page.request.get('/api/user/profile/1');
  const { user } = (await answer.json()).data as { user: { userId: number; name: string } };
  await page.goto(`/space/${user.userId}`);
  await expect(page.getByTestId('space-name')).toHaveText(user.name);
  await expect(page.getByTestId('space-counts')).toBeVisible();
  await expect(page.getByTestId('space-tab-link-setting')).toHaveCount(0);
  await page.goto(`/space/${user.userId}/setting`);
  await expect(page).toHaveURL(`/login?jumpTo=${encodeURIComponent(`/space/${user.userId}/setting`)}`);
  // A page past the end of a list goes to its last page.
  const comments = await page.request.get(`/api/v2/user/${user.userId}/comments`);
  const { totalPages } = (await comments.json()).data.pagination as { totalPages: number };
  await page.goto(`/space/${user.userId}/comment?page=999`);
  await expect(page).toHaveURL(
    new RegExp(`/space/${user.userId}/comment${totalPages > 1 ? `\\?page=${totalPages}` : ''}$`),
  );
  await expect(page.getByTestId('space-comment').first()).toBeVisible();
  expect((await page.goto('/space/99999999'))?.status()).toBe(404);
  // The reading history is its owner's alone: others get a page that says so, and no tab.
  await expect(page.getByTestId('space-tab-link-read')).toHaveCount(0);
  expect((await page.goto(`/space/${user.userId}/read`))?.status()).toBe(403);
  await expect(page.getByTestId('space-read-private')).toBeVisible();
});

test('a banned member’s space shows a notice instead of their content', async ({ page }) => {
  // The demo seed's banned account (README): find it by name among the first accounts.
  let bannedId = 0;
  for (let id = 1; id <= 10 && bannedId === 0; id += 1) {
    const answer = await page.request.get(`/api/user/profile/${id}`);
    if (answer.ok() && (await answer.json()).data.user.name === 'hikari_banned') bannedId = id;
  }
  expect(bannedId).toBeGreaterThan(0);
  await page.goto(`/space/${bannedId}`);
  await expect(page.getByTestId('space-banned')).toContainText('该用户已被封禁');
  await expect(page.getByTestId('space-tabs')).toHaveCount(0);
  await expect(page.getByTestId('space-signature')).toHaveCount(0);
  await page.goto(`/space/${bannedId}/comment`);
  await expect(page.getByTestId('space-banned')).toBeVisible();
});
