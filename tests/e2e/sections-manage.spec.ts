import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_CREATOR, logInAsDemo } from './support/demo-login.ts';

// Section and topic management in the browser: a staff member creates a section, moves it up, and the
// community page shows it in that place at once; then merges one topic into another.

async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

async function accessToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'hikari-access-token');
  expect(cookie?.value).toBeTruthy();
  return decodeURIComponent(cookie?.value ?? '');
}

/** Section names in the order /community shows them (its first list of section links). */
async function communitySectionNames(page: Page): Promise<string[]> {
  await page.goto('/community');
  const names = await page.locator('main a[href^="/community/section/"]').allTextContents();
  return [...new Set(names.map((name) => name.replace(/\s+/g, ' ').trim()))];
}

test('an editor creates a section, moves it up, and /community shows it there', async ({ page }) => {
  const name = `浏览器版块${Date.now() % 100000}`;
  await logInAsDemo(page, '/create/section', DEMO_ADMIN);
  await hydrated(page);
  await page.getByLabel('名称').fill(name);
  await page.getByLabel('简介').fill('浏览器测试创建的版块。');
  await page.getByRole('radio', { name: 'star' }).check({ force: true });
  await page.getByRole('button', { name: '创建版块' }).click();
  await expect(page).toHaveURL(/\/create\/section\/manage\/allsections/);
  await hydrated(page);

  const rows = page.getByTestId('section-list').locator('li[data-section]');
  await expect(rows.last()).toHaveAttribute('data-section', name);
  const before = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-section') ?? ''));
  const previous = before.at(-2)!;

  await page.getByRole('button', { name: `上移 ${name}` }).click();
  await expect(page.getByText('版块顺序已保存')).toBeVisible();
  await expect(rows.nth(before.length - 2)).toHaveAttribute('data-section', name);
  await expect(rows.last()).toHaveAttribute('data-section', previous);

  const shown = await communitySectionNames(page);
  const at = shown.findIndex((text) => text.includes(name));
  const after = shown.findIndex((text) => text.includes(previous));
  expect(at, shown.join(' | ')).toBeGreaterThanOrEqual(0);
  expect(after).toBe(at + 1);
});

test('an editor merges one topic into another', async ({ page, context, request }) => {
  const suffix = Date.now() % 100000;
  const [from, into] = [`合并来源${suffix}`, `合并目标${suffix}`];
  await logInAsDemo(page, '/create/section/manage/topics', DEMO_ADMIN);
  const token = await accessToken(context);
  const sections = (await (await request.get('/api/community/sections')).json()).data as { id: number }[];
  for (const topics of [[from], [from, into], [into]]) {
    const answer = await request.post('/api/community/posts', {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        title: `话题 ${topics.join(' ')}`,
        content: '浏览器测试的帖子。',
        sectionId: sections[0]!.id,
        topics,
        publish: true,
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
  }

  await page.reload();
  await hydrated(page);
  await page.getByLabel('搜索话题').fill(from);
  const row = page.getByTestId('topic-list').locator(`li[data-topic="${from}"]`);
  await expect(row).toContainText('2 次使用');
  await row.getByRole('button', { name: '合并' }).click();
  await row.getByLabel(`把「${from}」合并到`).fill(into);
  await row.getByRole('button', { name: new RegExp(`#${into}`) }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`把「${from}」合并到「${into}」？`);
  await confirm.getByRole('button', { name: '合并' }).click();
  await expect(page.getByText('话题已合并')).toBeVisible();
  await expect(page.getByTestId('topic-list')).toHaveCount(0);

  await page.getByLabel('搜索话题').fill(into);
  await expect(page.getByTestId('topic-list').locator(`li[data-topic="${into}"]`)).toContainText('3 次使用');
});

test('the pages are for editors and above: visitors log in, creators get 403, other types 404', async ({
  page,
  request,
}) => {
  for (const path of ['/create/section', '/create/section/manage/allsections', '/create/section/manage/topics']) {
    const visitor = await request.get(path, { maxRedirects: 0 });
    expect(visitor.status()).toBe(302);
    expect(visitor.headers().location).toContain(`/login?jumpTo=${encodeURIComponent(path)}`);
  }
  expect((await request.get('/create/section/manage/nope', { maxRedirects: 0 })).status()).toBe(404);

  await logInAsDemo(page, '/', DEMO_CREATOR);
  for (const path of ['/create/section', '/create/section/manage/allsections', '/create/section/manage/topics']) {
    const answer = await page.goto(path);
    expect(answer?.status()).toBe(403);
    await expect(page.getByTestId('section-list')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/版块|话题/);
  }
});
