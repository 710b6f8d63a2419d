import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { openSection } from './support/comments.ts';
import { DEMO, DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';

// Notifications (decision 021): one member comments on another's post; the author, in a second
// browser, sees the bell's badge come up, opens /message/system, follows the notification to the
// exact comment (shown and highlighted) and the badge goes down.

async function tokenOf(request: APIRequestContext, who: { account: string; password: string }) {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
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
  const sections = (await (await request.get('/api/community/sections')).json()) as { data: { id: number }[] };
  const created = await request.post('/api/community/posts', {
    headers: auth,
    data: {
      title: `通知测试 ${run}`,
      content: '欢迎留言',
      images: [],
      sectionId: sections.data[0]!.id,
      topics: [],
      works: [],
      publish: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { data: { id: number } }).data.id;
  const cleared = await request.post('/api/v2/user/notifications/read-all', { headers: auth, data: {} });
  expect(cleared.ok(), await cleared.text()).toBeTruthy();

  // The author's browser, open on the home page: no badge yet.
  const authorContext = await browser.newContext();
  const author = await authorContext.newPage();
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
  await expect
    .poll(
      async () => {
        await author.evaluate(() => window.dispatchEvent(new Event('focus')));
        return author
          .getByTestId('header-bell-badge')
          .textContent({ timeout: 500 })
          .catch(() => null);
      },
      { timeout: 15_000 },
    )
    .toBe('1');
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
  // The highlight lasts a few seconds: checked first.
  await expect(comment).toHaveAttribute('data-highlighted', 'true');
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
  test.setTimeout(90_000);
  const run = randomUUID().slice(0, 8);
  const author = { Authorization: `Bearer ${await tokenOf(request, DEMO)}` };
  const other = { Authorization: `Bearer ${await tokenOf(request, DEMO_CREATOR)}` };
  const sections = (await (await request.get('/api/community/sections')).json()) as { data: { id: number }[] };
  const created = await request.post('/api/community/posts', {
    headers: author,
    data: {
      title: `长楼 ${run}`,
      content: '盖楼',
      images: [],
      sectionId: sections.data[0]!.id,
      topics: [],
      works: [],
      publish: true,
    },
  });
  const postId = ((await created.json()) as { data: { id: number } }).data.id;
  const write = async (headers: Record<string, string>, content: string, parentId?: number) => {
    const answer = await request.post('/api/comments', {
      headers,
      data: { targetType: 'post', targetId: postId, content, ...(parentId ? { parentId } : {}) },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { data: { id: number } }).data.id;
  };
  const root = await write(author, `一楼 ${run}`);
  // The thread shows its first three replies; the fourth is only found through the link.
  for (let i = 1; i <= 4; i++) await write(other, `第 ${i} 条回复 ${run}`, root);

  await logIn(page, '/message/system');
  const item = page.getByTestId('system-message').filter({ hasText: `第 4 条回复 ${run}` });
  await expect(item).toContainText(`hikari_creator 回复了你的评论：第 4 条回复 ${run}`);
  await item.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/community/post/${postId}#comment-\\d+$`));
  const id = /#comment-(\d+)$/.exec(page.url())![1];
  const reply = page.locator(`#comment-${id}`);
  await expect(reply).toHaveAttribute('data-highlighted', 'true');
  await expect(reply).toBeVisible();
  await expect(reply).toContainText(`第 4 条回复 ${run}`);
});

test('a visitor is sent to log in before /message/system', async ({ page }) => {
  await page.goto('/message/system');
  await expect(page).toHaveURL(/\/login\?jumpTo=%2Fmessage%2Fsystem$/);
});
