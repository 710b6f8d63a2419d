import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { isPageBuilt } from '../../src/shared/navigation.ts';
import { DEMO, DEMO_ADMIN } from './support/demo-login.ts';
import { addMember, signedIn } from './support/members.ts';

// A member applies to become a creator; an admin approves in a second browser; the member's avatar
// menu loses the application entry and the creator sidebar shows the creator groups without logging out.

/** The entries of the avatar menu, opened and closed again. */
async function menuEntries(page: Page): Promise<string[]> {
  await page.getByTestId('user-menu-button').click();
  const menu = page.getByRole('menu', { name: '用户菜单' });
  await expect(menu).toBeVisible();
  const names = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  return names.map((name) => name.trim());
}

const claimedGroup = async (context: BrowserContext) => {
  const token = (await context.cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '';
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    hikariUserGroup?: string;
  };
  return claims.hikariUserGroup;
};

test('a member applies, an admin approves in another browser, and the member becomes a creator without logging out', async ({
  browser,
}) => {
  const name = `ca${Date.now().toString(36).slice(-8)}`;
  addMember(name, 'ca');
  const member = await browser.newContext();
  const admin = await browser.newContext();
  try {
    // The member's creator centre: overview and content publishing only.
    const page = await signedIn(member, '/create/home', { account: name, password: DEMO.password });
    const sidebar = page.getByRole('navigation', { name: '创作中心导航' }).first();
    await expect(sidebar.getByRole('link', { name: '创作首页' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: '添加表情' })).toHaveCount(0);
    if (isPageBuilt('/creator-application')) expect(await menuEntries(page)).toContain('创作者申请');

    // Apply.
    await page.goto('/creator-application');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('申请理由').fill('太短');
    await page.getByRole('button', { name: '提交申请' }).click();
    await expect(page.getByRole('alert')).toContainText('至少 10 个字');
    await page.getByLabel('申请理由').fill('我整理过很多视觉小说的资料，也做过翻译，想帮忙完善作品条目。');
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#39c5bb' } })
      .png()
      .toBuffer();
    await page
      .getByRole('group', { name: '申请附图' })
      .locator('input[type=file]')
      .setInputFiles({ name: 'work.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 30_000 });
    await page.getByRole('button', { name: '提交申请' }).click();
    await expect(page.getByText('审核中', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: '附图 1' })).toBeVisible();
    await expect(page.getByRole('button', { name: '撤回申请' })).toBeVisible();

    // An admin approves it in another browser.
    const review = await signedIn(admin, '/create/moderation/applications', DEMO_ADMIN);
    const item = review.getByTestId('application-item').filter({ hasText: name });
    await expect(item.getByText('审核中', { exact: true })).toBeVisible();
    await expect(item.getByRole('img', { name: '附图 1' })).toBeVisible();
    // The images open in the preview.
    await item.getByRole('img', { name: '附图 1' }).click();
    const preview = review.getByRole('dialog', { name: '图片预览' });
    await expect(preview).toBeVisible();
    await review.keyboard.press('Escape');
    await expect(preview).toHaveCount(0);
    await item.getByRole('button', { name: `通过 ${name}` }).click();
    await review.getByRole('alertdialog').or(review.getByRole('dialog')).getByRole('button', { name: '确定' }).click();
    await expect(item.getByText('已通过', { exact: true })).toBeVisible();

    // The member's next page follows: the token is refreshed, the menu and the sidebar change.
    await page.goto('/create/home');
    await expect(sidebar.getByRole('link', { name: '添加表情' })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    expect(await menuEntries(page)).not.toContain('创作者申请');
    expect(await claimedGroup(member)).toBe('creator');
    await page.goto('/creator-application');
    await expect(page.getByTestId('already-creator')).toBeVisible();
    await expect(page.getByRole('link', { name: '前往创作中心' })).toHaveAttribute('href', '/create/home');
  } finally {
    await member.close();
    await admin.close();
  }
});

test('the review page is for admins only, and /creator-application asks visitors to log in', async ({ browser }) => {
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto('/creator-application');
    await expect(page).toHaveURL(/\/login\?jumpTo=%2Fcreator-application$/);
  } finally {
    await visitor.close();
  }
  const member = await browser.newContext();
  try {
    const page = await signedIn(member, '/create/home', DEMO);
    const answer = await page.goto('/create/moderation/applications');
    expect(answer?.status()).toBe(403);
    await expect(page.getByTestId('application-item')).toHaveCount(0);
  } finally {
    await member.close();
  }
});
