import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { openSection, rootWith } from './support/comments.ts';
import { DEMO, DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';

// The user card (spec §2.6, decision 023) on a comment's author: it opens after 500 ms over the name and
// not before, a member follows from it and the follow and the follower count stay after a reload; the
// keyboard opens it, Tab enters it and Escape closes it; a visitor pressing follow is asked to log in;
// on a phone a tap just follows the name's link.

/** The address of the first post on the community's front page. */
async function firstPost(page: Page): Promise<string> {
  await page.goto('/community');
  const href = await page.locator('main a[href^="/community/post/"]').first().getAttribute('href');
  expect(href).toMatch(/^\/community\/post\/\d+$/);
  return href ?? '';
}

/** A comment by `who` on the post, with its own words: returns those words. */
async function commentAs(request: APIRequestContext, who: typeof DEMO, post: string): Promise<string> {
  const login = await request.post('/api/v2/user/login', { data: who });
  expect(login.ok()).toBeTruthy();
  const token = ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
  const text = `资料卡测试 ${randomUUID().slice(0, 8)}`;
  const answer = await request.post('/api/comments', {
    headers: { Authorization: `Bearer ${token}` },
    data: { targetType: 'post', targetId: Number(post.split('/').at(-1)), content: text },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return text;
}

/**
 * Opens the post as a visitor once it shows the new comment: the other server process may answer with its
 * kept copy of the page for the moment it takes to hear of the comment (visitors' pages follow a change
 * within a second).
 */
async function visitAfterComment(page: Page, post: string, text: string): Promise<void> {
  await expect(async () => {
    await page.goto(post);
    await expect(rootWith(page.getByTestId('comment-section'), text)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 7000 });
}

/**
 * The author name of the root comment with `text`, once the comment section has hydrated (for a member,
 * once its threads' code has taken over from the server's markup: the composer is there).
 */
async function authorOf(page: Page, text: string, member = true): Promise<Locator> {
  const section = await openSection(page);
  if (member) await expect(section.getByLabel('发表评论')).toBeVisible();
  const name = rootWith(section, text).getByTestId('comment-author').first();
  await expect(name).toBeVisible();
  return name;
}

const card = (page: Page) => page.getByTestId('user-card');

test('a member hovers a name: the card opens after the delay, and following from it lasts', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const post = await firstPost(page);
  const text = await commentAs(request, DEMO, post);
  const own = await commentAs(request, DEMO_CREATOR, post);
  await logIn(page, post, DEMO_CREATOR);

  let name = await authorOf(page, text);
  // When the pointer reached the name, and when the card appeared, as the page saw them.
  await name.evaluate((element) => {
    const times = ((window as unknown as { cardTimes: number[] }).cardTimes = [] as number[]);
    element.addEventListener('pointerover', () => times.push(performance.now()), { once: true });
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid="user-card"]')) return;
      times.push(performance.now());
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await name.hover();
  await expect(card(page)).toBeVisible();
  const [reached, shown] = await page.evaluate(() => (window as unknown as { cardTimes: number[] }).cardTimes);
  expect(shown! - reached!).toBeGreaterThanOrEqual(490);
  await expect(card(page).getByTestId('user-card-name')).toHaveText(DEMO.account);
  await expect(card(page).getByTestId('user-card-stats')).toContainText('粉丝');
  const profile = card(page).getByTestId('user-card-profile');
  await expect(profile).toHaveAttribute('target', '_blank');
  await expect(profile).toHaveAttribute('href', /^\/space\/\d+$/);

  const button = card(page).getByTestId('user-follow-button');
  await expect(button).toHaveAttribute('data-state', /^(on|off)$/);
  if ((await button.getAttribute('data-state')) === 'on') {
    await button.click();
    await expect(button).toHaveAttribute('data-state', 'off');
  }
  const followers = card(page).getByTestId('user-card-followers').locator('dd');
  const before = Number(await followers.textContent());
  await expect(button).toHaveText('关注');
  // A double click sends one toggle: the member ends up followed.
  await button.dblclick();
  await expect(button).toHaveText('已关注');
  await expect(button).toHaveAttribute('data-state', 'on');
  await expect(followers).toHaveText(String(before + 1));

  await page.reload();
  name = await authorOf(page, text);
  await name.hover();
  await expect(card(page).getByTestId('user-follow-button')).toHaveText('已关注');
  await expect(followers).toHaveText(String(before + 1));

  // Moving away closes it; one's own card has no follow button.
  await page.mouse.move(0, 0);
  await expect(card(page)).toHaveCount(0);
  const mine = await authorOf(page, own);
  await mine.hover();
  await expect(card(page).getByTestId('user-card-name')).toHaveText(DEMO_CREATOR.account);
  await expect(card(page).getByTestId('user-follow-button')).toHaveCount(0);

  // Unfollow again, as the test found it.
  await page.mouse.move(0, 0);
  await expect(card(page)).toHaveCount(0);
  await (await authorOf(page, text)).hover();
  await card(page).getByTestId('user-follow-button').click();
  await expect(card(page).getByTestId('user-follow-button')).toHaveText('关注');
  await expect(followers).toHaveText(String(before));
});

test('the keyboard opens the card on the name, Tab enters it and Escape closes it', async ({ page, request }) => {
  const post = await firstPost(page);
  const text = await commentAs(request, DEMO, post);
  await logIn(page, post, DEMO_CREATOR);
  const name = await authorOf(page, text);
  // Focus by keyboard: from the element before the name, Tab.
  await name.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  await expect(card(page)).toBeVisible();
  await expect(card(page)).toHaveAttribute('role', 'dialog');
  await expect(name).toHaveAttribute('aria-expanded', 'true');
  await expect(card(page).getByTestId('user-follow-button')).toBeVisible();
  const follow = card(page).getByTestId('user-follow-button');
  await page.keyboard.press('Tab');
  await expect(follow).toBeFocused();
  // Shift+Tab goes back to the name, Tab past the card's end goes on to what follows the name.
  await page.keyboard.press('Shift+Tab');
  await expect(name).toBeFocused();
  await expect(card(page)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(follow).toBeFocused();
  // On through the card's other controls (message, profile) and past its end.
  const controls = await card(page).locator('a[href], button').count();
  const followAt = await card(page)
    .locator('a[href], button')
    .evaluateAll((all) => all.findIndex((element) => element.getAttribute('data-testid') === 'user-follow-button'));
  for (let i = followAt + 1; i < controls; i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(card(page)).toHaveCount(0);
  const after = await page.evaluate(
    () => document.activeElement?.closest('[data-testid="comment"]')?.textContent ?? '',
  );
  expect(after).toContain(text);
  await expect(name).not.toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await expect(name).toBeFocused();
  await expect(card(page)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(follow).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(card(page)).toHaveCount(0);
  await expect(name).toBeFocused();
  await expect(name).not.toHaveAttribute('aria-expanded');

  // Escape also closes it while the focus is still on the name.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(card(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card(page)).toHaveCount(0);
});

test('a visitor pressing follow on the card is asked to log in', async ({ page, request }) => {
  const post = await firstPost(page);
  const text = await commentAs(request, DEMO, post);
  await visitAfterComment(page, post, text);
  const name = await authorOf(page, text, false);
  await name.hover();
  const login = card(page).getByTestId('user-follow-login');
  await expect(login).toHaveText('关注');
  await login.click();
  await expect(page.getByText('登录后才能使用关注功能')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/login\\?jumpTo=${encodeURIComponent(post).replace(/\//g, '%2F')}$`));
});

test.describe('on a phone (390 px, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a tap on a name follows its link without a card; the keyboard’s card fits the screen', async ({
    page,
    request,
  }) => {
    const post = await firstPost(page);
    const text = await commentAs(request, DEMO, post);
    await visitAfterComment(page, post, text);
    const name = await authorOf(page, text, false);
    await name.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(card(page)).toBeVisible();
    const box = await card(page).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page.keyboard.press('Escape');

    const href = await name.getAttribute('href');
    await name.tap();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(card(page)).toHaveCount(0);
  });
});
