import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR, DEMO_EDITOR, logInAsDemo as logIn } from './support/demo-login.ts';

// The test server runs the demo seed: six sections, twelve topics, fourteen posts and six articles of the
// community, written by hikari_demo, hikari_creator and hikari_admin (a superAdmin, so a moderator).

const POST_TITLE = '《蝉雨回响》终于通关了，夏日祭那一晚真的绷不住';
const ARTICLE_TITLE = '《蝉雨回响》长评：一个关于“明天”的故事';
const ARTICLE_PATH = '/community/article/semi-ame-echo-review';

const communityNav = (page: Page) =>
  page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '社区', exact: true });

/** Waits until every island of the page has hydrated (a click before that does nothing). */
async function hydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

async function accessToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'hikari-access-token');
  expect(cookie?.value).toBeTruthy();
  return decodeURIComponent(cookie?.value ?? '');
}

/** Creates a post through the API as the logged-in member of `context` (published unless asked). */
async function createPost(
  request: APIRequestContext,
  context: BrowserContext,
  title: string,
  publish = true,
): Promise<number> {
  const sections = await (await request.get('/api/community/sections')).json();
  const response = await request.post('/api/community/posts', {
    headers: { Authorization: `Bearer ${await accessToken(context)}` },
    data: { title, content: `${title}：浏览器测试写下的正文。`, sectionId: sections.data[0].id, publish },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as number;
}

test('a visitor browses the community: front page, a section, a post and an article', async ({ page, request }) => {
  // Everything is in the server's HTML, before any script runs.
  const front = await (await request.get('/community')).text();
  expect(front).toContain('Galgame 讨论');
  expect(front).toContain(POST_TITLE);
  expect(front).toContain(ARTICLE_TITLE);

  await page.goto('/community');
  await expect(page.getByRole('heading', { level: 1, name: '社区' })).toBeVisible();
  await expect(communityNav(page)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('section-card')).toHaveCount(6);
  await expect(page.getByTestId('block-featured').getByTestId('feed-item').first()).toBeVisible();
  await expect(page.getByTestId('hot-list').getByRole('link').first()).toBeVisible();
  await expect(page.getByTestId('topic-list').getByRole('link', { name: /通关感想/ })).toBeVisible();
  // Visitors write after logging in, and come back to the editor.
  await expect(page.getByTestId('write-post')).toHaveAttribute('href', '/login?jumpTo=%2Fcreate%2Fcontent%2Fpost');
  await expect(page.getByTestId('write-article')).toHaveAttribute(
    'href',
    '/login?jumpTo=%2Fcreate%2Fcontent%2Farticle',
  );
  const feed = page.getByTestId('feed');
  await expect(feed.getByTestId('feed-item')).toHaveCount(20);
  await expect(feed.getByRole('navigation', { name: '排序' }).getByRole('link', { name: '最新' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // The feed's filters live in the address.
  await feed.getByRole('navigation', { name: '类型' }).getByRole('link', { name: '文章' }).click();
  await expect(page).toHaveURL(/\/community\?type=article#community-feed$/);
  await expect(page.getByTestId('feed').getByTestId('feed-item')).toHaveCount(6);
  await expect(page.getByTestId('feed').locator('[data-type="post"][data-testid="feed-item"]')).toHaveCount(0);
  await page.getByTestId('feed').getByRole('navigation', { name: '排序' }).getByRole('link', { name: '精选' }).click();
  await expect(page).toHaveURL(/\/community\?sort=featured&type=article#community-feed$/);
  await expect(page.getByTestId('feed').getByTestId('feed-item')).toHaveCount(2);

  // A section: its header, its feed with the pinned post marked, the way to follow it.
  await page.goto('/community');
  await page.getByTestId('section-card').filter({ hasText: '站务公告' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/community\/section\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: '站务公告' })).toBeVisible();
  await expect(communityNav(page)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('community-counts')).toContainText('帖子 2');
  const pinned = page.getByTestId('feed-item').first();
  await expect(pinned.getByTestId('pinned-badge')).toBeVisible();
  await expect(pinned).toContainText('社区版块说明与发帖须知');
  await hydrated(page);
  await expect(page.getByTestId('follow-login')).toHaveAttribute(
    'href',
    /^\/login\?jumpTo=%2Fcommunity%2Fsection%2F\d+$/,
  );

  // A post, from a section's feed.
  await page.goto('/community');
  await page.getByTestId('section-card').filter({ hasText: 'Galgame 讨论' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Galgame 讨论' })).toBeVisible();
  await page.getByTestId('feed').getByRole('link', { name: POST_TITLE }).click();
  await expect(page).toHaveURL(/\/community\/post\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: POST_TITLE })).toBeVisible();
  await expect(communityNav(page)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('author-link')).toHaveAttribute('href', /^\/space\/\d+$/);
  await expect(page.getByTestId('post').getByTestId('section-chip')).toHaveText('Galgame 讨论');
  await expect(page.getByTestId('post').getByTestId('topic-chip').first()).toBeVisible();
  await expect(page.getByTestId('related-works').getByTestId('work-card').first()).toHaveAttribute(
    'href',
    /^\/galgame\/\d+$/,
  );
  await expect(page.getByTestId('comment-section')).toBeVisible();
  const postHtml = await (await request.get(page.url())).text();
  expect(postHtml).toContain('整体节奏前期有点慢');
  expect(postHtml).toContain('data-testid="comment-list"');
  // The text's emoji are images in the server's HTML already, not markers waiting for the script.
  expect(postHtml).toContain('alt="表情:hikari/cry"');
  expect(postHtml.replace(/ props="[^"]*"/g, '')).not.toContain('[emoji:hikari/cry]');

  // An article: the review, its body with headings, lists and a spoiler that opens.
  await page.goto(ARTICLE_PATH);
  await expect(page.getByRole('heading', { level: 1, name: ARTICLE_TITLE })).toBeVisible();
  await expect(communityNav(page)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('review-box')).toContainText('蝉雨回响');
  await expect(page.getByTestId('review-score')).toContainText('9');
  const body = page.getByTestId('article-body');
  await expect(body.getByRole('heading', { level: 2, name: '写在前面' })).toBeVisible();
  await expect(body.locator('li').first()).toBeVisible();
  const spoiler = body.locator('details.hk-spoiler').first();
  const summary = spoiler.locator('summary');
  await expect(summary).toHaveAttribute('aria-label', '剧透内容');
  expect(await summary.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"剧透内容，点击展开"');
  await expect(spoiler.locator('.hk-spoiler-body')).toBeHidden();
  await summary.click();
  await expect(spoiler.locator('.hk-spoiler-body')).toBeVisible();
  expect(await summary.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"剧透内容，点击收起"');
  const articleHtml = await (await request.get(ARTICLE_PATH)).text();
  expect(articleHtml).toContain('写在前面');
  expect(articleHtml).not.toMatch(/<script[^>]*>[^<]*明天/);

  // The same article by its id.
  const id = await page.getByTestId('article').getAttribute('data-id');
  await page.goto(`/community/article/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: ARTICLE_TITLE })).toBeVisible();

  // A topic: everything tagged with it.
  await page.getByTestId('article').getByTestId('topic-chip').filter({ hasText: '通关感想' }).click();
  await expect(page).toHaveURL(/\/community\/topic\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: '#通关感想' })).toBeVisible();
  await expect(page.getByTestId('feed-item').filter({ hasText: ARTICLE_TITLE })).toBeVisible();
  await expect(communityNav(page)).toHaveAttribute('aria-current', 'page');
});

test('Back from a post returns to the list where it was left', async ({ page }) => {
  await page.goto('/community');
  await hydrated(page);
  const item = page.getByTestId('feed').getByTestId('feed-item').nth(15);
  await item.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(1000);
  const title = (await item.locator('h3').innerText()).trim();
  await item.locator('h3 a').click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/community$/);
  await expect(page.getByTestId('feed').getByTestId('feed-item').nth(15)).toBeInViewport();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 150);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(before + 150);
});

test('unknown ids answer the 404 page, and a page past the end shows the last page', async ({ page }) => {
  for (const path of [
    '/community/post/999999',
    '/community/post/abc',
    '/community/article/999999',
    '/community/article/no-such-article',
    '/community/article/Not_A_Slug',
    '/community/section/999999',
    '/community/section/0',
    '/community/topic/999999',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByText(`Page not found: ${path}`)).toBeVisible();
  }

  await page.goto('/community?type=article&page=7');
  await expect(page).toHaveURL(/\/community\?type=article$/);
  await expect(page.getByTestId('feed').getByTestId('feed-item')).toHaveCount(6);
  // Anything the address says that is not a filter reads as the default list.
  await page.goto('/community?sort=best&type=video&page=-1');
  await expect(page.getByTestId('feed').getByTestId('feed-item')).toHaveCount(20);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the pages fit the phone and keep their content', async ({ page }) => {
    for (const path of ['/community', ARTICLE_PATH]) {
      await page.goto(path);
      await hydrated(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await page.goto('/community');
    await expect(page.getByRole('heading', { level: 1, name: '社区' })).toBeVisible();
    await expect(page.getByTestId('section-card')).toHaveCount(6);
    // Side blocks come between the sections and the long feed, not after it.
    const hot = await page.getByTestId('hot-list').boundingBox();
    const feed = await page.getByTestId('feed').boundingBox();
    expect(hot && feed && hot.y < feed.y).toBe(true);
    await page.getByTestId('feed').getByRole('link', { name: POST_TITLE }).click();
    await expect(page.getByRole('heading', { level: 1, name: POST_TITLE })).toBeVisible();
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: '打开菜单' }).click();
    await expect(page.getByTestId('mobile-menu').getByRole('link', { name: '社区', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

test('a member follows a section and favourites a post; the author edits and deletes', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(60_000);
  await logIn(page, '/community');
  await page.getByTestId('section-card').filter({ hasText: '同人创作' }).getByRole('link').click();
  await hydrated(page);
  const follow = page.getByTestId('follow-button');
  await expect(follow).toHaveAttribute('data-state', 'off');
  const count = Number(await follow.getByTestId('follow-count').innerText());
  await follow.click();
  await expect(follow).toHaveAttribute('data-state', 'on');
  await expect(follow).toContainText('已关注');
  await expect(follow.getByTestId('follow-count')).toHaveText(String(count + 1));
  // The page itself is the same for everyone; the state comes from the API once hydrated.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('follow-button')).toHaveAttribute('data-state', 'on');
  await page.getByTestId('follow-button').click();
  await expect(page.getByTestId('follow-button')).toHaveAttribute('data-state', 'off');
  await expect(page.getByTestId('follow-count')).toHaveText(String(count));

  // Favouriting someone else's post; its author's actions are not offered.
  await page.goto('/community');
  await page.getByRole('link', { name: '雨声侦探事务所系列入坑指南' }).first().click();
  await hydrated(page);
  const favorite = page.getByTestId('favorite-button');
  await expect(favorite).toHaveAttribute('data-state', 'off');
  await favorite.click();
  await expect(favorite).toHaveAttribute('data-state', 'on');
  await favorite.click();
  await expect(favorite).toHaveAttribute('data-state', 'off');
  await expect(page.getByTestId('content-actions')).toHaveCount(0);

  // The author's own post: edit in the creator centre, or delete it after confirming.
  const id = await createPost(request, context, '浏览器测试：马上就删的帖子');
  await page.goto(`/community/post/${id}`);
  await hydrated(page);
  await expect(page.getByTestId('content-edit')).toHaveAttribute('href', `/create/content/post?id=${id}`);
  await expect(page.getByTestId('content-pin')).toHaveCount(0);
  await page.getByTestId('content-delete').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('确定要删除这篇帖子吗');
  await dialog.getByRole('button', { name: '删除' }).click();
  await expect(page).toHaveURL(/\/community$/);
  await expect(page.getByText('已删除')).toBeVisible();
  expect((await page.goto(`/community/post/${id}`))?.status()).toBe(404);
});

test('a draft is its author’s alone; moderators pin and feature', async ({ page, context, request, browser }) => {
  test.setTimeout(60_000);
  await logIn(page, '/community', DEMO);
  const draft = await createPost(request, context, '浏览器测试：还没写完的草稿', false);
  const visitor = await browser.newPage();
  expect((await visitor.goto(`/community/post/${draft}`))?.status()).toBe(404);
  await visitor.close();
  const response = await page.goto(`/community/post/${draft}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control']).toContain('no-store');
  await expect(page.getByTestId('draft-notice')).toBeVisible();
  await expect(page.getByTestId('comment-section')).toHaveCount(0);

  const published = await createPost(request, context, '浏览器测试：请版主置顶');
  await context.clearCookies();
  await logIn(page, `/community/post/${published}`, DEMO_ADMIN);
  await hydrated(page);
  await page.getByTestId('content-pin').click();
  await expect(page.getByTestId('content-pin')).toHaveText('取消置顶');
  await page.getByTestId('content-feature').click();
  await expect(page.getByTestId('content-feature')).toHaveText('取消精选');
  await page.reload();
  await expect(page.getByTestId('post').locator('.hk-badge-featured')).toBeVisible();
  await page.goto('/community?sort=featured');
  await expect(page.getByTestId('feed').getByRole('link', { name: '浏览器测试：请版主置顶' })).toBeVisible();
  // Moderators delete anyone's post (and so the test leaves the demo data as it was).
  await page.goto(`/community/post/${published}`);
  await hydrated(page);
  await page.getByTestId('content-delete').click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page).toHaveURL(/\/community$/);
  await context.clearCookies();
  await logIn(page, `/community/post/${draft}`, DEMO);
  await hydrated(page);
  await page.getByTestId('content-delete').click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page).toHaveURL(/\/community$/);
});

/** Logs `who` in through the API; answers their access token and public number. */
async function apiLogin(request: APIRequestContext, who: { account: string; password: string }) {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  const body = (await login.json()) as { data: { hikariAccessToken: string; user: { userId: number } } };
  return { token: body.data.hikariAccessToken, userId: body.data.user.userId };
}

test('a hidden post is its author’s to read, marked hidden; a section moderator gets the buttons in their section', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.setTimeout(60_000);
  const demo = await apiLogin(request, DEMO);
  const editor = await apiLogin(request, DEMO_EDITOR);
  const creator = await apiLogin(request, DEMO_CREATOR);
  const as = (who: { token: string }) => ({ Authorization: `Bearer ${who.token}` });
  const sections = (await (await request.get('/api/community/sections')).json()) as { data: { id: number }[] };
  const [mine, other] = [sections.data[0]!.id, sections.data[1]!.id];
  const publish = async (title: string, sectionId: number) => {
    const created = await request.post('/api/community/posts', {
      headers: as(demo),
      data: { title, content: `${title}：浏览器测试写下的正文。`, sectionId, publish: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    return ((await created.json()) as { data: { id: number } }).data.id;
  };
  const hidden = await publish('浏览器测试：会被隐藏的帖子', mine);
  const inSection = await publish('浏览器测试：版主的版块里', mine);
  const elsewhere = await publish('浏览器测试：别的版块里', other);
  const hide = await request.post(`/api/moderation/content/post/${hidden}/hide`, { headers: as(editor), data: {} });
  expect(hide.status(), await hide.text()).toBe(200);
  const appoint = await request.post(`/api/creator/sections/${mine}/moderators`, {
    headers: as(editor),
    data: { user: String(creator.userId) },
  });
  expect(appoint.status(), await appoint.text()).toBe(200);

  try {
    const visitor = await browser.newPage();
    expect((await visitor.goto(`/community/post/${hidden}`))?.status()).toBe(404);
    // The section's page names its moderators, with links to their spaces.
    await visitor.goto(`/community/section/${mine}`);
    await expect(visitor.getByTestId('section-moderators').locator(`a[href="/space/${creator.userId}"]`)).toBeVisible();
    await visitor.close();

    await logIn(page, `/community/post/${hidden}`, DEMO);
    await hydrated(page);
    await expect(page.getByTestId('hidden-notice')).toContainText('已被管理员隐藏');
    await expect(page.getByTestId('post').locator('.hk-badge-hidden')).toBeVisible();
    await expect(page.getByTestId('content-edit')).toHaveCount(0);
    await expect(page.getByTestId('content-delete')).toBeVisible();

    await context.clearCookies();
    await logIn(page, `/community/post/${inSection}`, DEMO_CREATOR);
    await hydrated(page);
    await expect(page.getByTestId('content-pin')).toBeVisible();
    await expect(page.getByTestId('content-feature')).toBeVisible();
    await expect(page.getByTestId('content-delete')).toBeVisible();
    await page.goto(`/community/post/${elsewhere}`);
    await hydrated(page);
    await expect(page.getByTestId('content-toolbar')).toBeVisible();
    await expect(page.getByTestId('content-actions')).toHaveCount(0);
  } finally {
    // The demo data as it was: no moderator, no test posts.
    await request.delete(`/api/creator/sections/${mine}/moderators/${creator.userId}`, { headers: as(editor) });
    for (const id of [hidden, inSection, elsewhere])
      await request.post(`/api/moderation/content/post/${id}/delete`, { headers: as(editor), data: {} });
  }
});
