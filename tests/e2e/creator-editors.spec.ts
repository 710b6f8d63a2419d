import { expect, test, type Page } from '@playwright/test';
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
  await expect(page.locator('[data-edit-link]')).toHaveCount(0);
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
