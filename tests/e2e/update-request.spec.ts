import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_EDITOR, logInAsDemo } from './support/demo-login.ts';

// Update requests end to end: a member proposes an edit of a game in its editor, an editor approves it
// from the audits page in a second browser, the game page shows the change and the member is notified.

async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

test('a member proposes an edit, an editor approves it, the game shows it and the member is told', async ({
  page,
  browser,
}) => {
  const line = `浏览器审核测试 ${Date.now() % 100000}`;
  await logInAsDemo(page, '/galgame/list', DEMO);
  // Not the first game: the editors' browser test proposes edits of that one.
  const href = (await page.locator('main a[href^="/galgame/"]').nth(2).getAttribute('href')) ?? '/galgame/2';
  const gameId = Number(/\/galgame\/(\d+)/.exec(href)?.[1] ?? 2);
  await page.goto(`/create/item/galgame?id=${gameId}`);
  await hydrated(page);
  const intro = page.getByLabel('简介', { exact: true });
  await intro.fill(`${await intro.inputValue()}\n${line}`);
  await page.getByLabel('修改说明').fill('补充一行简介');
  await page.getByRole('button', { name: '提交修改请求' }).click();
  await expect(page.locator('[data-save-outcome="requested"]')).toBeVisible();

  await page.goto('/create/update-request/requests');
  await hydrated(page);
  const mine = page.locator('[data-testid="request-item"][data-status="pending"]').first();
  await expect(mine).toBeVisible();
  const requestId = await mine.getAttribute('data-request-id');

  const staff = await browser.newContext();
  const editor = await staff.newPage();
  await logInAsDemo(editor, '/create/update-request/audits', DEMO_EDITOR);
  await hydrated(editor);
  const queued = editor.locator(`[data-testid="request-item"][data-request-id="${requestId}"]`);
  await queued.getByTestId('request-open').click();
  const diff = queued.getByTestId('doc-diff');
  await expect(diff.locator('[data-field="intro"]')).toContainText(line);
  await queued.getByTestId('request-approve').click();
  await expect(editor.locator(`[data-testid="request-item"][data-request-id="${requestId}"]`)).toHaveCount(0);

  await editor.goto(`/galgame/${gameId}`);
  await expect(editor.locator('main')).toContainText(line);
  await staff.close();

  await page.goto('/create/update-request/requests');
  await expect(page.locator(`[data-testid="request-item"][data-request-id="${requestId}"]`)).toHaveAttribute(
    'data-status',
    'approved',
  );
  await expect(async () => {
    await page.goto('/message/system');
    await expect(page.getByTestId('system-message').first()).toContainText('更新请求已通过审核', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await page.getByTestId('system-message').first().click();
  await expect(page).toHaveURL(new RegExp(`/galgame/${gameId}$`));
});
