import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectHighlighted, openSection, recordHighlights, rootWith } from './support/comments.ts';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';

/** The demo moderator (user group `superAdmin`) the seed makes. */

// Comments on a game page (decision 018): two members talk with emoji, replies and likes; deleting keeps
// a thread's shape; sorting; a visitor reads the comments in the server HTML and is asked to log in.
// Each test writes on its own game with its own words, so the tests need no order and no clean database.

/** The id of a demo game, found through the list page like a visitor would. */
async function gameId(page: Page, title: string): Promise<number> {
  await page.goto('/galgame/list');
  const href = await page.getByRole('link', { name: title, exact: true }).getAttribute('href');
  const id = Number(/\/galgame\/(\d+)$/.exec(href ?? '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** A member's access token, through the API. */
async function tokenOf(request: APIRequestContext, who: { account: string; password: string }) {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  return ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
}

async function postComment(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const answer = await request.post('/api/comments', { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: { id: number } }).data.id;
}

test('members comment with an emoji, reply, like, delete and sort on a game page', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const id = await gameId(page, '潮声的记忆');
  const path = `/galgame/${id}`;

  // The first member comments with an emoji from the picker.
  await logIn(page, path);
  let section = await openSection(page);
  const count = Number(await section.getByTestId('comment-count').textContent());
  const send = section.getByRole('button', { name: '发布', exact: true });
  await expect(send).toBeDisabled();
  const box = section.getByLabel('发表评论');
  await box.fill(`第一次玩就哭了 ${run} `);
  await section.getByRole('button', { name: '表情', exact: true }).click();
  await page.getByRole('button', { name: '插入表情 hikari/smile' }).click();
  await expect(box).toHaveValue(`第一次玩就哭了 ${run} [emoji:hikari/smile]`);
  await expect(section.getByText(`${(await box.inputValue()).length} / 1000`)).toBeVisible();
  await send.click();
  await expect(page.getByText('评论成功')).toBeVisible();
  await expect(box).toHaveValue('');
  await expect(section.getByTestId('comment-count')).toHaveText(String(count + 1));
  const mine = rootWith(section, `第一次玩就哭了 ${run}`).first();
  await expect(mine).toBeVisible();
  await expect(mine.getByAltText('表情:hikari/smile')).toBeVisible();
  await expect(mine.getByRole('link', { name: 'hikari_demo' }).first()).toHaveAttribute('href', /^\/space\/\d+$/);

  // The second member answers it.
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await logIn(page2, path, DEMO_CREATOR);
  const section2 = await openSection(page2);
  const theirs = rootWith(section2, `第一次玩就哭了 ${run}`).first();
  await theirs.getByRole('button', { name: '回复', exact: true }).first().click();
  const replyBox = section2.getByLabel('回复 @hikari_demo');
  await expect(replyBox).toBeFocused();
  await replyBox.fill(`我也是 ${run}`);
  await section2.getByRole('button', { name: '发送回复' }).click();
  await expect(page2.getByText('回复成功')).toBeVisible();
  const reply = theirs.getByTestId('reply').filter({ hasText: `我也是 ${run}` });
  await expect(reply).toBeVisible();
  await expect(reply).toBeFocused();
  // The second member also writes a root of their own, newer and without replies.
  await section2.getByLabel('发表评论').fill(`配乐满分 ${run}`);
  await section2.getByRole('button', { name: '发布', exact: true }).click();
  await expect(rootWith(section2, `配乐满分 ${run}`)).toBeVisible();
  await other.close();

  // The first member likes the reply; it stays liked after a reload.
  await page.reload();
  section = await openSection(page);
  const thread = rootWith(section, `第一次玩就哭了 ${run}`).first();
  const answer = thread.getByTestId('reply').filter({ hasText: `我也是 ${run}` });
  const like = answer.getByRole('button', { name: /^点赞/ });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.dblclick();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('点赞，当前 1 个赞');
  await page.reload();
  section = await openSection(page);
  const liked = rootWith(section, `第一次玩就哭了 ${run}`)
    .first()
    .getByTestId('reply')
    .filter({ hasText: `我也是 ${run}` })
    .getByRole('button', { name: /^点赞/ });
  await expect(liked).toHaveAttribute('aria-pressed', 'true');
  await expect(liked).toHaveAccessibleName('点赞，当前 1 个赞');

  // Hot: the thread with a reply comes before the newer root without one; new: the other way round.
  /** Which of the two roots is listed first: 'mine' (the thread with a reply) or 'theirs' (newer, no reply). */
  const firstOfTwo = async () => {
    const texts = await section.getByTestId('comment').allTextContents();
    const mineAt = texts.findIndex((text) => text.includes(`第一次玩就哭了 ${run}`));
    const theirsAt = texts.findIndex((text) => text.includes(`配乐满分 ${run}`));
    if (mineAt < 0 || theirsAt < 0) return 'missing';
    return mineAt < theirsAt ? 'mine' : 'theirs';
  };
  const sorting = section.getByRole('group', { name: '评论排序' });
  const hot = sorting.getByRole('button', { name: '最热' });
  const latest = sorting.getByRole('button', { name: '最新' });
  await expect(hot).toHaveAttribute('aria-pressed', 'true');
  expect(await firstOfTwo()).toBe('mine');
  await latest.click();
  await expect(latest).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(firstOfTwo).toBe('theirs');
  await hot.click();
  await expect(hot).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(firstOfTwo).toBe('mine');

  // Deleting the comment keeps it in place as deleted, with its reply.
  const own = rootWith(section, `第一次玩就哭了 ${run}`).first();
  const before = Number(await section.getByTestId('comment-count').textContent());
  await own.getByTestId('delete-comment').first().click();
  const confirm = page.getByRole('alertdialog', { name: '删除评论' });
  await expect(confirm).toContainText('它下面的回复会保留');
  await confirm.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('评论已删除', { exact: true })).toBeVisible();
  await expect(section.getByTestId('comment-count')).toHaveText(String(before - 1));
  const deleted = section.getByTestId('comment').filter({ hasText: `我也是 ${run}` });
  await expect(deleted.getByTestId('comment-deleted').first()).toHaveText('该评论已删除');
  await expect(deleted.getByTestId('reply').filter({ hasText: `我也是 ${run}` })).toBeVisible();
  await page.reload();
  section = await openSection(page);
  const kept = section.getByTestId('comment').filter({ hasText: `我也是 ${run}` });
  await expect(kept.getByTestId('comment-deleted').first()).toBeVisible();
  await expect(section.getByText(`第一次玩就哭了 ${run}`)).toHaveCount(0);

  // At 390 px the section fits the screen, and a reply form opens under the thread.
  await page.setViewportSize({ width: 390, height: 844 });
  await kept.getByTestId('reply').first().getByRole('button', { name: '回复', exact: true }).click();
  await expect(section.getByTestId('reply-composer')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await section.getByRole('button', { name: '取消' }).click();
  await expect(section.getByTestId('reply-composer')).toHaveCount(0);
});

test('a link to a comment scrolls to it and marks it; the report dialog sends a report', async ({ page, request }) => {
  const run = randomUUID().slice(0, 8);
  const id = await gameId(page, '白银舞星');
  const token = await tokenOf(request, DEMO_CREATOR);
  const commentId = await postComment(request, token, {
    targetType: 'galgame',
    targetId: id,
    content: `请看这条 ${run}`,
  });

  await recordHighlights(page);
  await logIn(page);
  await page.goto(`/galgame/${id}#comment-${commentId}`);
  const target = page.locator(`#comment-${commentId}`);
  await expect(target).toBeInViewport();
  await expectHighlighted(page, commentId);
  await expect(target).toBeFocused();

  await target.getByRole('button', { name: '举报' }).click();
  const dialog = page.getByRole('dialog', { name: '举报内容' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '提交举报' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请选择举报原因');
  await dialog.getByRole('radio', { name: '垃圾广告' }).check();
  await dialog.getByLabel('补充说明（选填）').fill('广告链接');
  await expect(dialog.getByText('4 / 500')).toBeVisible();
  await dialog.getByRole('button', { name: '提交举报' }).click();
  await expect(page.getByText('举报已提交，感谢你的反馈')).toBeVisible();
  await expect(dialog).toBeHidden();
  // A second report of the same comment waits for the moderators.
  await target.getByRole('button', { name: '举报' }).click();
  await page.getByRole('dialog', { name: '举报内容' }).getByRole('radio', { name: '其他' }).check();
  await page.getByRole('dialog', { name: '举报内容' }).getByRole('button', { name: '提交举报' }).click();
  await expect(page.getByText(/已经举报过/)).toBeVisible();
});

test('a moderator pins a comment to the top and unpins it', async ({ page, request }) => {
  const run = randomUUID().slice(0, 8);
  const id = await gameId(page, '言灵信号');
  const token = await tokenOf(request, DEMO);
  await postComment(request, token, { targetType: 'galgame', targetId: id, content: `置顶候选 ${run}` });
  await postComment(request, token, { targetType: 'galgame', targetId: id, content: `更新的一条 ${run}` });

  await logIn(page, `/galgame/${id}`, DEMO_ADMIN);
  const section = await openSection(page);
  await section.getByRole('group', { name: '评论排序' }).getByRole('button', { name: '最新' }).click();
  const candidate = rootWith(section, `置顶候选 ${run}`);
  await candidate.getByRole('button', { name: '置顶', exact: true }).click();
  await expect(page.getByText('评论已置顶')).toBeVisible();
  await expect(section.getByTestId('comment').first()).toContainText(`置顶候选 ${run}`);
  await expect(candidate.getByTestId('pinned-badge')).toBeVisible();

  // Everyone sees it first, pinned, in either order.
  const html = await (await request.get(`/galgame/${id}`)).text();
  expect(html.indexOf(`置顶候选 ${run}`)).toBeLessThan(html.indexOf(`更新的一条 ${run}`));
  await page.reload();
  const again = await openSection(page);
  await expect(again.getByTestId('comment').first()).toContainText(`置顶候选 ${run}`);
  await rootWith(again, `置顶候选 ${run}`).getByRole('button', { name: '取消置顶' }).click();
  await expect(page.getByText('已取消置顶')).toBeVisible();
  await expect(rootWith(again, `置顶候选 ${run}`).getByTestId('pinned-badge')).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`a visitor reads the comments in the server HTML and is asked to log in (${width} px)`, async ({
    page,
    request,
  }) => {
    const run = randomUUID().slice(0, 8);
    const id = await gameId(page, '雪融前奏曲');
    const token = await tokenOf(request, DEMO);
    const rootId = await postComment(request, token, { targetType: 'galgame', targetId: id, content: `好评 ${run}` });
    await postComment(request, await tokenOf(request, DEMO_CREATOR), {
      targetType: 'galgame',
      targetId: id,
      content: `赞同 ${run}`,
      parentId: rootId,
    });

    // The HTML every visitor gets (and the page cache keeps) has the comments, and nothing of anyone's own.
    const html = await (await request.get(`/galgame/${id}`)).text();
    expect(html).toContain(`好评 ${run}`);
    expect(html).toContain(`赞同 ${run}`);
    expect(html).toContain('登录后才能发表评论');
    expect(html).toContain(`/login?jumpTo=${encodeURIComponent(`/galgame/${id}#comments`)}`);
    expect(html).not.toContain('data-testid="delete-comment"');

    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/galgame/${id}`);
    const section = await openSection(page);
    await expect(section.getByTestId('comment-login-prompt')).toContainText('登录后才能发表评论');
    await expect(section.getByRole('link', { name: '登录' })).toHaveAttribute(
      'href',
      `/login?jumpTo=${encodeURIComponent(`/galgame/${id}#comments`)}`,
    );
    await expect(section.getByLabel('发表评论')).toHaveCount(0);
    const thread = rootWith(section, `好评 ${run}`);
    await expect(thread.getByTestId('reply').filter({ hasText: `赞同 ${run}` })).toBeVisible();
    await thread.getByRole('button', { name: /^点赞/ }).first().click();
    await expect(page.getByText('请先登录').first()).toBeVisible();
    await expect(thread.getByRole('button', { name: /^点赞/ }).first()).toHaveAttribute('aria-pressed', 'false');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('ratings on a game page can be liked', async ({ page, request }) => {
  const id = await gameId(page, '雪融前奏曲');
  const token = await tokenOf(request, DEMO_CREATOR);
  const rated = await request.put(`/api/galgame/${id}/rating`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { score: 9, status: 'completed', text: '旋律很美' },
  });
  expect(rated.ok()).toBeTruthy();

  await logIn(page, `/galgame/${id}`);
  const rating = page.getByTestId('rating-item').filter({ hasText: 'hikari_creator' });
  await rating.scrollIntoViewIfNeeded();
  const like = rating.getByRole('button', { name: /^点赞/ });
  // Known once the island has asked the server.
  await expect(like).not.toHaveAttribute('data-state', 'unknown');
  const pressed = (await like.getAttribute('aria-pressed')) === 'true';
  const name = (await like.getAttribute('aria-label')) ?? '';
  const count = Number(/(\d+)/.exec(name)?.[1]);
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', String(!pressed));
  await expect(like).toHaveAccessibleName(`点赞，当前 ${count + (pressed ? -1 : 1)} 个赞`);
  await page.reload();
  const again = page
    .getByTestId('rating-item')
    .filter({ hasText: 'hikari_creator' })
    .getByRole('button', { name: /^点赞/ });
  await again.scrollIntoViewIfNeeded();
  await expect(again).toHaveAttribute('aria-pressed', String(!pressed));
});
