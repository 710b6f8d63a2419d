import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR } from './support/demo-login.ts';
import { addMember, signedIn } from './support/members.ts';

// Moderation : a member reports a post; an editor hides it from the report queue; the post
// is gone from the community list (the cached copy too); an admin bans the post's author, whose open tab
// is refused on its next call and logged out when its login is next checked.

/** A post published through the API by `who`, in the first section. */
async function publishPost(request: APIRequestContext, who: { account: string; password: string }, title: string) {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
  const sections = (await (await request.get('/api/community/sections')).json()) as { data: { id: number }[] };
  const created = await request.post('/api/community/posts', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      title,
      content: '这里有违规的广告内容',
      images: [],
      sectionId: sections.data[0]!.id,
      topics: [],
      works: [],
      publish: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: number } }).data.id;
}

test('a reported post is hidden from the queue and leaves the list; its banned author is logged out', async ({
  browser,
  request,
}) => {
  // Four browsers and three logins: more than the default allowance on a busy two-core machine.
  test.slow();
  const name = `md${Date.now().toString(36).slice(-8)}`;
  const title = `违规帖子 ${name}`;
  addMember(name, 'md');
  const author = await browser.newContext();
  const reporter = await browser.newContext();
  const admin = await browser.newContext();
  const visitor = await browser.newContext();
  try {
    const authorPage = await signedIn(author, '/community', { account: name, password: DEMO.password });
    const postId = await publishPost(request, { account: name, password: DEMO.password }, title);

    // A visitor's copy of the list is cached with the post in it.
    const list = await visitor.newPage();
    await list.goto('/community');
    await expect(list.getByTestId('feed-list').getByRole('link', { name: title })).toBeVisible();

    // A member reports it.
    const page = await signedIn(reporter, `/community/post/${postId}`, DEMO);
    await page.getByRole('button', { name: '举报' }).first().click();
    const dialog = page.getByRole('dialog', { name: '举报内容' });
    await dialog.getByRole('radio', { name: '垃圾广告' }).check();
    await dialog.getByRole('button', { name: '提交举报' }).click();
    await expect(page.getByText('举报已提交，感谢你的反馈')).toBeVisible();

    // An editor (the demo superAdmin) hides it from the queue.
    const queue = await signedIn(admin, '/create/moderation/reports', DEMO_ADMIN);
    const entry = queue.locator(`[data-target="post:${postId}"]`);
    await expect(entry.getByRole('link', { name: title })).toBeVisible();
    await expect(entry.getByText('垃圾广告 × 1')).toBeVisible();
    await entry.getByRole('button', { name: `隐藏 ${title}` }).click();
    await expect(queue.getByText('已处理 1 条举报')).toBeVisible();
    await expect(entry).toHaveCount(0);

    // Gone from the community list and its page, the cached copy included.
    await list.goto('/community');
    await expect(list.getByTestId('feed-list')).toBeVisible();
    await expect(list.getByText(title)).toHaveCount(0);
    const gone = await request.get(`/api/community/posts/${postId}`);
    expect(gone.status()).toBe(404);

    // An admin bans the author.
    await queue.goto('/create/moderation/users');
    await expect(queue.locator('astro-island[ssr]')).toHaveCount(0);
    await queue.getByLabel('查找用户').fill(name);
    await queue.getByRole('button', { name: '查找', exact: true }).click();
    const member = queue.getByTestId('member').filter({ hasText: name });
    await member.getByRole('button', { name: `封禁 ${name}` }).click();
    await member.getByLabel('封禁期限').selectOption('7d');
    await member.getByLabel('理由').fill('发布广告');
    await member.getByRole('button', { name: '确认封禁' }).click();
    await queue.getByRole('alertdialog').or(queue.getByRole('dialog')).getByRole('button', { name: '确定' }).click();
    await expect(queue.getByText(`已封禁 ${name}`)).toBeVisible();
    await expect(member.getByText('已封禁', { exact: true })).toBeVisible();

    // The author's open tab: its next call is refused, and the next check of its login ends it.
    const token = (await author.cookies()).find((c) => c.name === 'hikari-access-token')?.value ?? '';
    const refused = await authorPage.request.get('/api/user/sessions', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('ACCOUNT_BANNED');
    await author.clearCookies({ name: 'hikari-access-token' });
    await authorPage.goto('/community');
    await expect(authorPage).toHaveURL(/\/login/, { timeout: 15_000 });
  } finally {
    await author.close();
    await reporter.close();
    await admin.close();
    await visitor.close();
  }
});

test('the moderation pages follow the group: visitors log in, members below it get the 403 page', async ({
  browser,
}) => {
  const visitor = await browser.newContext();
  const member = await browser.newContext();
  const creator = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto('/create/moderation/reports');
    await expect(page).toHaveURL(/\/login\?jumpTo=%2Fcreate%2Fmoderation%2Freports$/);

    const plain = await signedIn(member, '/create/home', DEMO);
    const reports = await plain.goto('/create/moderation/reports');
    expect(reports?.status()).toBe(403);
    await expect(plain.getByRole('heading', { name: '需要管理权限' })).toBeVisible();

    const maker = await signedIn(creator, '/create/home', DEMO_CREATOR);
    for (const path of ['/create/moderation/reports', '/create/moderation/users', '/create/moderation/log']) {
      const answer = await maker.goto(path);
      expect(answer?.status(), path).toBe(403);
      await expect(maker.getByRole('heading', { name: '需要管理权限' })).toBeVisible();
    }
  } finally {
    await visitor.close();
    await member.close();
    await creator.close();
  }
});
