import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectHighlighted, openSection, recordHighlights, rootWith } from './support/comments.ts';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';

// Notifications (decision 021): one member comments on another's post; the author, in a second
// browser, sees the bell's badge come up, opens /message/system, follows the notification to the
// exact comment (shown and highlighted) and the badge goes down.

/** The Authorization header of `who`, logged in through the API. */
async function bearer(request: APIRequestContext, who: { account: string; password: string }) {
  return { Authorization: `Bearer ${await tokenOf(request, who)}` };
}

async function tokenOf(request: APIRequestContext, who: { account: string; password: string }) {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
}

/** A published post in the first section, by the holder of `headers`: its id. */
async function publishPost(
  request: APIRequestContext,
  headers: Record<string, string>,
  title: string,
  content: string,
) {
  const sections = (await (await request.get('/api/community/sections')).json()) as { data: { id: number }[] };
  const created = await request.post('/api/community/posts', {
    headers,
    data: { title, content, images: [], sectionId: sections.data[0]!.id, topics: [], works: [], publish: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: number } }).data.id;
}

/** The bell's badge reads `text`, the tab being brought back into focus (which refreshes it) meanwhile. */
async function expectBadge(page: Page, text: string) {
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return page
          .getByTestId('header-bell-badge')
          .textContent({ timeout: 500 })
          .catch(() => null);
      },
      { timeout: 15_000 },
    )
    .toBe(text);
}

test('a comment on a member’s post reaches them: badge, /message/system, the exact comment, badge down', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);

  // The author (demo account) publishes a post and starts with nothing unread.
  const token = await tokenOf(request, DEMO);
  const auth = { Authorization: `Bearer ${token}` };
  const postId = await publishPost(request, auth, `通知测试 ${run}`, '欢迎留言');
  const cleared = await request.post('/api/v2/user/notifications/read-all', { headers: auth, data: {} });
  expect(cleared.ok(), await cleared.text()).toBeTruthy();

  // The author's browser, open on the home page: no badge yet.
  const authorContext = await browser.newContext();
  const author = await authorContext.newPage();
  await recordHighlights(author);
  await logIn(author, '/');
  const bell = author.getByTestId('header-bell');
  await expect(bell).toBeVisible();
  await expect(author.getByTestId('header-bell-badge')).toHaveCount(0);

  // Another member comments on the post in their own browser.
  await logIn(page, `/community/post/${postId}`, DEMO_CREATOR);
  const section = await openSection(page);
  await section.getByLabel('发表评论').fill(`写得真好 ${run}`);
  await section.getByRole('button', { name: '发布', exact: true }).click();
  await expect(page.getByText('评论成功')).toBeVisible();

  // The author's tab refreshes its count when it comes back into focus.
  await expectBadge(author, '1');
  await expect(bell).toHaveAccessibleName('系统消息（1 条未读）');

  // The bell opens /message/system: the comment is there, unread.
  await bell.click();
  await expect(author).toHaveURL(/\/message\/system$/);
  const item = author.getByTestId('system-message').filter({ hasText: `写得真好 ${run}` });
  await expect(item).toBeVisible();
  await expect(item).toContainText(`hikari_creator 评论了你的《通知测试 ${run}》`);
  await expect(item.getByTestId('system-message-unread')).toBeVisible();

  // Following it leads to the exact comment, shown and highlighted; the badge is gone.
  await item.getByRole('link').click();
  await expect(author).toHaveURL(new RegExp(`/community/post/${postId}#comment-\\d+$`));
  const commentId = /#comment-(\d+)$/.exec(author.url())![1];
  const comment = author.locator(`#comment-${commentId}`);
  await expectHighlighted(author, commentId!);
  await expect(comment).toBeVisible();
  await expect(comment).toContainText(`写得真好 ${run}`);
  await expect(author.getByTestId('header-bell-badge')).toHaveCount(0);

  // Back on the list it reads as read, and the server agrees.
  await author.goto('/message/system');
  await expect(author.getByTestId('system-message').filter({ hasText: `写得真好 ${run}` })).toHaveAttribute(
    'data-read',
    'true',
  );
  const unread = await request.get('/api/v2/user/unread', { headers: auth });
  expect(((await unread.json()) as { data: { unreadCount: number } }).data.unreadCount).toBe(0);
  await authorContext.close();
});

test('a reply beyond the thread’s first replies is found, shown and highlighted from its notification', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const run = randomUUID().slice(0, 8);
  const author = await bearer(request, DEMO);
  const other = await bearer(request, DEMO_CREATOR);
  const admin = await bearer(request, DEMO_ADMIN);
  const postId = await publishPost(request, author, `长楼 ${run}`, '盖楼');
  const write = async (headers: Record<string, string>, content: string, parentId?: number) => {
    const send = () =>
      request.post('/api/comments', {
        headers,
        data: { targetType: 'post', targetId: postId, content, ...(parentId ? { parentId } : {}) },
      });
    let answer = await send();
    // Other tests' comments by the same demo account may have used up this minute's allowance.
    if (answer.status() === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers()['retry-after'] ?? 60) * 1000));
      answer = await send();
    }
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { data: { id: number } }).data.id;
  };
  const root = await write(author, `一楼 ${run}`);
  // The thread shows its first three replies; the fourth is only found through the link.
  for (let i = 1; i <= 3; i++) await write(admin, `第 ${i} 条回复 ${run}`, root);
  await write(other, `第 4 条回复 ${run}`, root);

  await recordHighlights(page);
  await logIn(page, '/message/system');
  const item = page.getByTestId('system-message').filter({ hasText: `第 4 条回复 ${run}` });
  await expect(item).toContainText(`hikari_creator 回复了你的评论：第 4 条回复 ${run}`);
  await item.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/community/post/${postId}#comment-\\d+$`));
  const id = /#comment-(\d+)$/.exec(page.url())![1];
  const reply = page.locator(`#comment-${id}`);
  await expectHighlighted(page, id!);
  await expect(reply).toBeVisible();
  await expect(reply).toContainText(`第 4 条回复 ${run}`);
});

test('a follow from a user card reaches the member: badge, /message/system, the follower’s space, badge down', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const author = await bearer(request, DEMO);
  const follower = await bearer(request, DEMO_CREATOR);
  const me = async (headers: Record<string, string>) =>
    ((await (await request.get('/api/v2/user/profile', { headers })).json()) as { data: { userId: number } }).data
      .userId;
  const [authorId, followerId] = [await me(author), await me(follower)];
  // The follower starts not following the author, and the author with nothing unread.
  const status = await request.post('/api/user/follow/status', { headers: follower, data: { userId: authorId } });
  if (((await status.json()) as { data: { isFollowing: boolean } }).data.isFollowing)
    await request.post('/api/user/follow', { headers: follower, data: { userId: authorId } });
  await request.post('/api/v2/user/notifications/read-all', { headers: author, data: {} });

  // A comment of the author's on a post, whose name the follower will point at.
  const postId = await publishPost(request, author, `关注测试 ${run}`, '你好');
  const comment = await request.post('/api/comments', {
    headers: author,
    data: { targetType: 'post', targetId: postId, content: `楼主在此 ${run}` },
  });
  expect(comment.status(), await comment.text()).toBe(201);

  const authorContext = await browser.newContext();
  const authorPage = await authorContext.newPage();
  await logIn(authorPage, '/');
  await expect(authorPage.getByTestId('header-bell-badge')).toHaveCount(0);

  // The follower opens the user card from the author's name and follows.
  await logIn(page, `/community/post/${postId}`, DEMO_CREATOR);
  const section = await openSection(page);
  await expect(section.getByLabel('发表评论')).toBeVisible();
  await rootWith(section, `楼主在此 ${run}`).getByTestId('comment-author').first().hover();
  const card = page.getByTestId('user-card');
  await expect(card).toBeVisible();
  const button = card.getByTestId('user-follow-button');
  await expect(button).toHaveText('关注');
  await button.click();
  await expect(button).toHaveText('已关注');

  // The author's bell shows it; the list says who followed and leads to their space.
  await expectBadge(authorPage, '1');
  await authorPage.getByTestId('header-bell').click();
  const item = authorPage.getByTestId('system-message').filter({ hasText: 'hikari_creator 关注了你' }).first();
  await expect(item.getByTestId('system-message-unread')).toBeVisible();
  await item.getByRole('link').click();
  await expect(authorPage).toHaveURL(new RegExp(`/space/${followerId}$`));
  await expect(authorPage.getByTestId('space-name')).toHaveText('hikari_creator');
  await expect(authorPage.getByTestId('header-bell-badge')).toHaveCount(0);
  await authorContext.close();
});

test('a visitor is sent to log in before /message/system', async ({ page }) => {
  await page.goto('/message/system');
  await expect(page).toHaveURL(/\/login\?jumpTo=%2Fmessage%2Fsystem$/);
});
