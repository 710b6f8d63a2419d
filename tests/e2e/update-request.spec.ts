import { expect, test, type Page } from '@playwright/test';
import { DEMO, DEMO_CREATOR, DEMO_EDITOR, logInAsDemo } from './support/demo-login.ts';

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

/** A call of our API from the page, with its access token (as the site's own client sends it). */
async function apiCall(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([m, p, b]) => {
      const token = document.cookie.match(/(?:^|; )hikari-access-token=([^;]*)/)?.[1] ?? '';
      const res = await fetch(`/api${p}`, {
        method: m,
        headers: { Authorization: `Bearer ${decodeURIComponent(token)}`, 'Content-Type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    },
    [method, path, body] as const,
  );
}

test('a creator fixes a proposed new entry an editor sent back, in the editor, and sends it again', async ({
  page,
  browser,
}) => {
  const name = `退回测试人物 ${Date.now() % 100000}`;
  await logInAsDemo(page, '/create/update-request/requests', DEMO_CREATOR);
  const proposed = await apiCall(page, 'POST', '/creator/items/person', {
    doc: { name, nameZh: '', aliases: [], description: '', image: '', gender: '', birthday: '' },
    note: '新人物',
  });
  expect(proposed.status, JSON.stringify(proposed.body)).toBeLessThan(300);
  const requestId = Number(proposed.body.data.requestId);

  const staff = await browser.newContext();
  const editor = await staff.newPage();
  await logInAsDemo(editor, '/create/update-request/audits', DEMO_EDITOR);
  const sentBack = await apiCall(editor, 'POST', `/creator/update-requests/${requestId}/changes`, {
    reason: '请补上中文名',
  });
  expect(sentBack.status, JSON.stringify(sentBack.body)).toBeLessThan(300);
  await staff.close();

  await page.goto('/create/update-request/requests');
  await hydrated(page);
  const mine = page.locator(`[data-testid="request-item"][data-request-id="${requestId}"]`);
  await expect(mine).toHaveAttribute('data-status', 'changes_requested');
  await mine.getByTestId('request-open').click();
  await mine.getByTestId('request-edit').click();
  await expect(page).toHaveURL(new RegExp(`/create/entity/person\\?request=${requestId}$`));
  await hydrated(page);
  await expect(page.getByLabel('名称', { exact: true })).toHaveValue(name);
  await page.getByLabel('中文名', { exact: true }).fill('退回后补上的中文名');
  await page.getByRole('button', { name: '提交修改请求' }).click();
  await expect(page.locator('[data-save-outcome="requested"]')).toBeVisible();

  const after = await apiCall(page, 'GET', `/creator/update-requests/${requestId}`);
  expect(after.body.data).toMatchObject({ status: 'pending' });
  expect((after.body.data.doc as { nameZh: string }).nameZh).toBe('退回后补上的中文名');
});
