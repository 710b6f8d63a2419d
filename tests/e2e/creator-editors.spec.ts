import { expect, test, type Page } from '@playwright/test';
import { EMPTY_DOCS } from '../../src/shared/creator/docs-model.ts';
import { DEMO, DEMO_ADMIN, logInAsDemo } from './support/demo-login.ts';

// The item and entity editors in the browser: an editor creates a person and a game that links it, and
// the game page shows them; a member opens a game's editor from its page and sends a suggestion; a
// field's problem shows beside the field; the editor fits a 390 px phone.

async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

test('an editor creates a person and a game linking it, and the game page shows them', async ({ page }) => {
  const suffix = Date.now() % 100000;
  const person = `Browser Person ${suffix}`;
  const game = `Browser Game ${suffix}`;
  await logInAsDemo(page, '/create/entity/person', DEMO_ADMIN);
  await hydrated(page);
  await page.getByLabel('名称', { exact: true }).fill(person);
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await expect(page.locator('[data-save-outcome="applied"]')).toBeVisible();

  await page.goto('/create/item/galgame');
  await hydrated(page);
  await page.getByLabel('标题', { exact: true }).fill(game);
  await page.getByLabel('制作人员 · 添加').fill(person);
  await page.getByRole('button', { name: new RegExp(person) }).click();
  const staff = page.locator('[data-field="staff"]');
  await expect(staff.getByText(person, { exact: true })).toBeVisible();
  await staff.getByLabel(`${person} · 职务`).selectOption('music');
  await expect(page.locator('[data-changed-fields]')).toContainText('制作人员');
  await expect(page.locator('[data-preview]')).toContainText(game);
  await page.getByRole('button', { name: '创建', exact: true }).click();
  const outcome = page.locator('[data-save-outcome="applied"]');
  await expect(outcome).toBeVisible();
  await outcome.getByRole('link', { name: '查看页面' }).click();
  await expect(page).toHaveURL(/\/galgame\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: game })).toBeVisible();
  await expect(page.locator('main')).toContainText(person);

  // Taken back to draft, so the public lists keep the demo's games for the other browser tests.
  const gameId = /\/galgame\/(\d+)$/.exec(page.url())?.[1];
  const unpublished = await page.evaluate(async (id) => {
    const token = document.cookie.match(/(?:^|; )hikari-access-token=([^;]*)/)?.[1] ?? '';
    const res = await fetch(`/api/creator/manage/galgame/${id}/unpublish`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${decodeURIComponent(token)}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    return res.status;
  }, gameId);
  expect(unpublished).toBe(200);
});

test('a member opens a game editor from its page and sends a suggestion', async ({ page }) => {
  await logInAsDemo(page, '/galgame/list', DEMO);
  const href = await page
    .locator('main a[href^="/galgame/"]')
    .evaluateAll(
      (links) => links.map((a) => a.getAttribute('href')).find((h) => /^\/galgame\/\d+$/.test(h ?? '')) ?? null,
    );
  await page.goto(href ?? '/galgame/1');
  const link = page.locator('[data-edit-link="galgame"]');
  await expect(link).toHaveText('提出修改');
  await link.click();
  await expect(page).toHaveURL(/\/create\/item\/galgame\?id=\d+$/);
  await hydrated(page);
  await expect(page.getByText('你的修改会作为修改请求提交')).toBeVisible();
  const intro = page.getByLabel('简介', { exact: true });
  await expect(intro).not.toHaveValue('');
  await intro.fill(`${await intro.inputValue()}\n补充：浏览器测试 ${Date.now() % 100000}`);
  await page.getByLabel('修改说明').fill('补充简介');
  await expect(page.locator('[data-changed-fields]')).toContainText('简介');
  const submit = page.getByRole('button', { name: '提交修改请求' });
  await submit.dblclick();
  const outcome = page.locator('[data-save-outcome="requested"]');
  await expect(outcome).toBeVisible();
  await expect(outcome.getByRole('link', { name: '查看我的修改请求' })).toHaveAttribute(
    'href',
    '/create/update-request/requests',
  );
});

test('a visitor sees no edit link and is sent to log in from an editor', async ({ page }) => {
  await page.goto('/galgame/list');
  const href = await page
    .locator('main a[href^="/galgame/"]')
    .evaluateAll(
      (links) => links.map((a) => a.getAttribute('href')).find((h) => /^\/galgame\/\d+$/.test(h ?? '')) ?? null,
    );
  await page.goto(href ?? '/galgame/1');
  await hydrated(page);
  await expect(page.locator('[data-edit-link]')).toBeHidden();
  await page.goto('/create/item/galgame?id=1');
  await expect(page).toHaveURL(/\/login\?jumpTo=/);
});

test('a field problem shows beside the field, and the editor fits a 390 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logInAsDemo(page, '/create/entity/producer', DEMO_ADMIN);
  await hydrated(page);
  await page.getByLabel('官网').fill('javascript:alert(1)');
  await page.getByRole('button', { name: '创建', exact: true }).click();
  const nameError = page.locator('[data-field="name"] [data-field-error]');
  await expect(nameError).toBeVisible();
  await expect(page.getByLabel('名称', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[data-field="website"] [data-field-error]')).toContainText('http');
  await page.getByLabel('名称', { exact: true }).fill('Fixed name');
  await page.getByLabel('官网').fill('https://example.com');
  await expect(page.locator('[data-field-error]')).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

async function accessToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'hikari-access-token');
  expect(cookie?.value).toBeTruthy();
  return decodeURIComponent(cookie?.value ?? '');
}

test('a conflicting edit shows both sides, and an editor overwrites those fields', async ({ page, request }) => {
  await logInAsDemo(page, '/create/entity/person', DEMO_ADMIN);
  const headers = { Authorization: `Bearer ${await accessToken(page)}` };
  const name = `Conflict Person ${Date.now() % 100000}`;
  const created = await request.post('/api/creator/items/person', {
    headers,
    data: { doc: { name, nameZh: '', aliases: [], description: '', image: '', gender: '', birthday: '' } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { data: { id: number } }).data.id;

  await page.goto(`/create/entity/person?id=${id}`);
  await hydrated(page);
  await page.getByLabel('中文名', { exact: true }).fill('我的中文名');

  // Someone else saves the same field in between.
  const current = (await (await request.get(`/api/creator/items/person/${id}`, { headers })).json()) as {
    data: { doc: Record<string, unknown>; revision: number };
  };
  const other = await request.put(`/api/creator/items/person/${id}`, {
    headers,
    data: { doc: { ...current.data.doc, nameZh: '别人的中文名' }, baseRevision: current.data.revision },
  });
  expect(other.ok(), await other.text()).toBe(true);

  await page.getByRole('button', { name: '保存', exact: true }).click();
  const conflict = page.locator('[data-conflict]');
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText('我的中文名');
  await expect(conflict).toContainText('别人的中文名');
  await conflict.getByRole('button', { name: '用我的修改覆盖这些字段' }).click();
  await expect(page.locator('[data-save-outcome="applied"]')).toBeVisible();
  const after = (await (await request.get(`/api/creator/items/person/${id}`, { headers })).json()) as {
    data: { doc: { nameZh: string } };
  };
  expect(after.data.doc.nameZh).toBe('我的中文名');
});

test('members get the 403 page for new entries and entity lists, 404 for unknown types', async ({ page }) => {
  await logInAsDemo(page, '/create/item/manage/galgame', DEMO);
  await hydrated(page);
  await expect(page.locator('[data-manage-list] li').first()).toBeVisible();
  for (const path of ['/create/item/galgame', '/create/entity/person', '/create/entity/manage/person']) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(403);
  }
  expect((await page.goto('/create/entity/volume'))?.status()).toBe(404);
  expect((await page.goto('/create/item/manage/person'))?.status()).toBe(404);
  expect((await page.goto('/create/item/galgame?id=abc'))?.status()).toBe(404);
});

test('leaving the editor with unsaved changes asks first', async ({ page }) => {
  await logInAsDemo(page, '/create/entity/tag', DEMO_ADMIN);
  await hydrated(page);
  await page.getByLabel('名称', { exact: true }).fill('Unsaved tag');
  // The browser asks (beforeunload); dismissing it stays on the editor with the changes.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  await page.getByRole('link', { name: '创作首页' }).first().click();
  expect(await asked).toBe('beforeunload');
  await expect(page).toHaveURL(/\/create\/entity\/tag$/);
  await expect(page.getByLabel('名称', { exact: true })).toHaveValue('Unsaved tag');
});

test("an editor adds a game's download with its link, and the download page shows it", async ({ page, request }) => {
  await logInAsDemo(page, '/create/item/manage/galgame', DEMO_ADMIN);
  const headers = { Authorization: `Bearer ${await accessToken(page)}` };
  const title = `Download Game ${Date.now() % 100000}`;
  const created = await request.post('/api/creator/items/galgame', {
    headers,
    data: {
      doc: { ...EMPTY_DOCS.galgame, title, platforms: ['windows'] },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { data: { id: number } }).data.id;

  await page.goto(`/create/item/galgame?id=${id}`);
  await hydrated(page);
  const downloads = page.locator('[data-field="downloads"]');
  await expect(downloads).toContainText('还没有下载');
  await downloads.getByRole('button', { name: '添加下载文件' }).click();
  const file = downloads.locator('[data-download="0"]');
  await file.getByLabel('翻译类型').selectOption('official');
  await file.getByLabel('大小').fill('1.5');
  await file.getByLabel('单位').selectOption('GB');
  await file.getByLabel('文件 1 链接 1 的链接名称').fill('浏览器网盘');
  await file.getByLabel('文件 1 链接 1 的链接地址').fill('ftp://example.com/file');
  await file.getByLabel('文件 1 链接 1 的提取码').fill('e2e1');
  await expect(page.locator('[data-changed-fields]')).toContainText('下载');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  // A wrong address is marked on its own box, with the reason below the downloads.
  await expect(file.getByLabel('文件 1 链接 1 的链接地址')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[data-field-error="downloads"]')).toContainText('http');
  await file.getByLabel('文件 1 链接 1 的链接地址').fill('https://pan.example.com/s/e2e');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.locator('[data-save-outcome="applied"]')).toBeVisible();

  await page.goto(`/galgame/${id}/download`);
  const link = page.getByTestId('download-link').filter({ hasText: '浏览器网盘' });
  await expect(link).toBeVisible();
  await expect(link).toContainText('pan.example.com');
  await expect(page.getByTestId('download-entry').first()).toContainText('1.5 GB');
  await expect(link.getByTestId('link-password')).toContainText('e2e1');

  // Taken back to draft, so the public lists keep the demo's games for the other browser tests.
  const unpublished = await request.post(`/api/creator/manage/galgame/${id}/unpublish`, { headers, data: {} });
  expect(unpublished.status()).toBe(200);
});

/** The demo's first light-novel series. */
const SERIES = '星见坂图书室的四季';

test("a series' editor lists its volumes to open, and a creator starts a new volume in that series", async ({
  page,
}) => {
  await logInAsDemo(page, '/create/item/lightnovel?id=1', DEMO_ADMIN);
  await hydrated(page);
  const volumes = page.locator('[data-series-volumes]');
  await expect(volumes.getByRole('heading')).toContainText('分卷');
  await expect(volumes.locator('li').first()).toContainText('第 1 卷');
  await volumes.locator('li a').first().click();
  await expect(page).toHaveURL(/\/create\/item\/lightnovel\/volume\?id=\d+$/);
  await hydrated(page);
  const series = page.locator('[data-field="lightnovelId"]');
  await expect(series).toContainText(SERIES);

  await page.goBack();
  await hydrated(page);
  await page.locator('[data-series-volumes]').getByRole('link', { name: '添加分卷' }).click();
  await expect(page).toHaveURL(/\/create\/item\/lightnovel\/volume\?series=1$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('新建轻小说分卷');
  await expect(series).toContainText(SERIES);
});

test('a member sees the volumes of a series they suggest an edit to, without starting a new one', async ({ page }) => {
  await logInAsDemo(page, '/create/item/lightnovel?id=1', DEMO);
  await hydrated(page);
  const volumes = page.locator('[data-series-volumes]');
  await expect(volumes.locator('li').first()).toContainText('第 1 卷');
  await expect(volumes.getByRole('link', { name: '添加分卷' })).toHaveCount(0);
});
