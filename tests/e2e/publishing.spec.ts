import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { openSection, rootWith } from './support/comments.ts';
import { DEMO_CREATOR, logInAsDemo } from './support/demo-login.ts';

const png = (background: string) =>
  sharp({ create: { width: 480, height: 320, channels: 3, background } })
    .png()
    .toBuffer();

/** A unique title, so runs against one database never meet each other's content. */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

async function chooseFirstSection(page: Page): Promise<string> {
  const select = page.getByLabel('版块');
  await expect(select.locator('option')).not.toHaveCount(1);
  const name = (await select.locator('option').nth(1).textContent()) ?? '';
  await select.selectOption({ index: 1 });
  return name.trim();
}

/** Islands have hydrated: typing now reaches the editor's state. */
const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

/** The feed entry of `title` on a list page. */
const entry = (page: Page, title: string) => page.getByRole('link', { name: title, exact: true }).first();

test('a member writes a post with two images, an emoji and a topic; another comments and replies, the author likes the reply; it shows on /community and its section', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await logInAsDemo(page, '/create/content/post');
  await expect(page.getByRole('heading', { name: '发布帖子' })).toBeVisible();
  await hydrated(page);
  const title = unique('周末推完了一部神作');
  await page.getByLabel('标题', { exact: true }).fill(title);
  const section = await chooseFirstSection(page);

  const text = page.getByRole('textbox', { name: '正文' });
  await text.fill('强烈推荐，结局哭了 ');
  await page.getByRole('button', { name: '表情', exact: true }).click();
  await page.getByRole('dialog', { name: '选择表情' }).getByRole('button', { name: '插入表情 hikari/smile' }).click();
  await expect(text).toHaveValue('强烈推荐，结局哭了 [emoji:hikari/smile]');

  await page
    .getByRole('group', { name: '帖子图片' })
    .locator('input[type=file]')
    .setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: await png('#39c5bb') },
      { name: 'b.png', mimeType: 'image/png', buffer: await png('#f472b6') },
    ]);
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 30_000 });

  const topics = page.getByLabel('话题');
  await topics.fill('周末推完');
  await topics.press('Enter');
  await expect(page.getByText('#周末推完')).toBeVisible();

  await page.getByRole('button', { name: '发布', exact: true }).click();
  await expect(page).toHaveURL(/\/community\/post\/\d+$/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByAltText('表情:hikari/smile')).toBeVisible();
  await expect(page.getByRole('link', { name: '#周末推完' }).or(page.getByText('#周末推完')).first()).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(`^${title} 的第 \\d 张图片$`) })).toHaveCount(2);
  const postPath = new URL(page.url()).pathname;

  // Another member comments, then answers their own comment.
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await logInAsDemo(page2, postPath, DEMO_CREATOR);
  const section2 = await openSection(page2);
  await section2.getByLabel('发表评论').fill('同好！结局那段我也哭了');
  await section2.getByRole('button', { name: '发布', exact: true }).click();
  const thread2 = rootWith(section2, '同好！结局那段我也哭了');
  await expect(thread2).toBeVisible();
  await thread2.getByRole('button', { name: '回复', exact: true }).first().click();
  await section2.getByLabel('回复 @hikari_creator').fill('补充：二周目还有新台词');
  await section2.getByRole('button', { name: '发送回复' }).click();
  await expect(thread2.getByTestId('reply').filter({ hasText: '补充：二周目还有新台词' })).toBeVisible();
  await other.close();

  // The author likes the reply.
  await page.reload();
  const comments = await openSection(page);
  const like = rootWith(comments, '同好！结局那段我也哭了')
    .getByTestId('reply')
    .filter({ hasText: '补充：二周目还有新台词' })
    .getByRole('button', { name: /^点赞/ });
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('点赞，当前 1 个赞');

  await page.goto('/community');
  await expect(entry(page, title)).toBeVisible();
  await page.getByRole('link', { name: section, exact: true }).first().click();
  await expect(page).toHaveURL(/\/community\/section\/\d+/);
  await expect(entry(page, title)).toBeVisible();
});

test('an article is written on a phone, saves itself as a draft, and once published shows on /community and its section', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await logInAsDemo(page, '/create/content/article');
  await hydrated(page);
  const title = unique('春日物语全结局攻略');
  await page.getByLabel('标题', { exact: true }).fill(title);
  const section = await chooseFirstSection(page);
  const body = page.getByRole('textbox', { name: '文章正文' });
  await body.click();
  await page.keyboard.type('第一段：先走共通线。');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: '剧透块' }).click();
  await page.keyboard.type('真结局要先通关其他三条线。');
  await expect(page.getByTestId('save-status')).toContainText('草稿已自动保存', { timeout: 15_000 });
  await expect(page).toHaveURL(/\/create\/content\/article\?id=\d+$/);

  await page.goto('/create/content/draft/home');
  const item = page.getByTestId('my-content-item').filter({ hasText: title });
  await expect(item).toBeVisible();
  await item.getByRole('link', { name: '编辑' }).click();
  await hydrated(page);
  await expect(page.getByLabel('标题', { exact: true })).toHaveValue(title);
  await expect(page.getByRole('textbox', { name: '文章正文' })).toContainText('真结局要先通关其他三条线。');
  await page.getByRole('button', { name: '发布', exact: true }).click();
  await expect(page).toHaveURL(/\/community\/article\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  // The spoiler is closed until the reader opens it.
  const spoiler = page.locator('details.hk-spoiler');
  await expect(spoiler).not.toHaveAttribute('open');
  await spoiler.locator('summary').click();
  await expect(spoiler.getByText('真结局要先通关其他三条线。')).toBeVisible();

  await page.goto('/community');
  await expect(entry(page, title)).toBeVisible();
  await page.goto('/create/content/manage/home');
  await expect(page.getByTestId('my-content-item').filter({ hasText: title })).toBeVisible();
  await page.goto('/community');
  await page.getByRole('link', { name: section, exact: true }).first().click();
  await expect(entry(page, title)).toBeVisible();
});

test('two tabs editing one draft: the second save is refused instead of overwriting the first', async ({
  page,
  context,
}) => {
  await logInAsDemo(page, '/create/content/post');
  await hydrated(page);
  await page.getByLabel('标题', { exact: true }).fill(unique('两个窗口'));
  await expect(page.getByTestId('save-status')).toContainText('草稿已自动保存', { timeout: 15_000 });
  const address = page.url();

  const other = await context.newPage();
  await other.goto(address);
  await hydrated(other);
  await expect(other.getByLabel('标题', { exact: true })).toHaveValue(/两个窗口/);
  await other.getByLabel('标题', { exact: true }).fill(unique('另一个窗口改的'));
  await expect(other.getByTestId('save-status')).toContainText('草稿已自动保存', { timeout: 15_000 });

  await page.getByLabel('标题', { exact: true }).fill(unique('这个窗口改的'));
  await expect(page.getByTestId('save-status')).toContainText('已在其他窗口中修改', { timeout: 15_000 });
  await expect(page.getByRole('button', { name: '发布', exact: true })).toBeDisabled();
});
