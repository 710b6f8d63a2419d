import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO, logInAsDemo as logIn } from './support/demo-login.ts';

// The test server runs the demo seed: 16 fictional games, and the account hikari_demo.

/** The id of a demo game, found through the list page like a visitor would. */
async function gameId(page: Page, title: string): Promise<number> {
  await page.goto('/galgame/list');
  const href = await page.getByRole('link', { name: title, exact: true }).getAttribute('href');
  const id = Number(/\/galgame\/(\d+)$/.exec(href ?? '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Clicks a reveal button until it works: an island ignores clicks until it has hydrated. */
async function reveal(button: Locator, revealed: Locator) {
  await expect(async () => {
    if (await button.isVisible()) await button.click();
    await expect(revealed).toBeVisible({ timeout: 500 });
  }).toPass();
}

async function userIdFromCookie(context: BrowserContext): Promise<number> {
  const cookie = (await context.cookies()).find((c) => c.name === 'hikari-user-info');
  return (JSON.parse(decodeURIComponent(cookie?.value ?? '{}')) as { userId: number }).userId;
}

test('browse from /galgame to the list, filter through the URL, and reset an empty result', async ({ page }) => {
  await page.goto('/galgame');
  await expect(page.getByRole('heading', { level: 1, name: 'Galgame' })).toBeVisible();
  await expect(page.locator('header').getByRole('link', { name: 'Galgame' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: '新作' })).toBeVisible();
  const upcoming = page.getByTestId('block-upcoming');
  await expect(upcoming).toBeVisible();
  // Announced games without a date read 待定.
  await expect(upcoming.getByTestId('galgame-card').filter({ hasText: '待定' }).first()).toBeVisible();
  await expect(page.getByTestId('block-tags').getByRole('link', { name: /纯爱/ })).toHaveAttribute(
    'href',
    /\/galgame\/list\?tag=\d+$/,
  );

  await page.getByRole('link', { name: '全部作品' }).click();
  await expect(page).toHaveURL(/\/galgame\/list$/);
  await expect(page.getByTestId('list-total')).toHaveText('共 16 部作品');
  await expect(page.getByTestId('galgame-card')).toHaveCount(16);

  // A change applies at once; only the chosen filter lands in the URL.
  await page.getByLabel('平台').selectOption({ label: 'Nintendo Switch' });
  await expect(page).toHaveURL(/\/galgame\/list\?platform=switch$/);
  await expect(page.getByTestId('list-total')).toHaveText('共 6 部作品');
  const cards = page.getByTestId('galgame-card');
  await expect(cards).toHaveCount(6);
  await expect(cards.filter({ hasText: '蝉雨回响' }).first()).toBeVisible();
  await expect(cards.filter({ hasText: '放学后的电台不眠' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: '移除筛选：Nintendo Switch' })).toBeVisible();

  // Sorting keeps the filter.
  await page.getByText('评分', { exact: true }).click();
  await expect(page).toHaveURL(/\/galgame\/list\?platform=switch&sort=rating$/);
  await expect(page.getByTestId('galgame-card')).toHaveCount(6);

  // No NSFW game runs on Switch in the demo: the empty state, with a way back.
  await page.getByText('NSFW', { exact: true }).click();
  await expect(page).toHaveURL(/platform=switch&nsfw=nsfw&sort=rating$/);
  await expect(page.getByTestId('list-empty')).toContainText('没有找到符合条件的作品');
  await page.getByTestId('list-empty').getByRole('link', { name: '重置筛选' }).click();
  await expect(page).toHaveURL(/\/galgame\/list$/);
  await expect(page.getByTestId('galgame-card')).toHaveCount(16);

  // The URL alone is the state: a typed address shows the same list.
  await page.goto('/galgame/list?nsfw=nsfw');
  await expect(page.getByTestId('galgame-card')).toHaveCount(4);
  await expect(page.getByLabel('NSFW', { exact: true })).toBeChecked();
});

test('the release calendar shows a month by day and moves between months', async ({ page }) => {
  await page.goto('/galgame/releases?month=2026-11');
  await expect(page.getByTestId('releases-month')).toHaveText('2026 年 11 月');
  const days = page.getByTestId('release-day');
  await expect(days).toHaveCount(3);
  await expect(days.first()).toContainText('11 月 6 日');
  await expect(days.first()).toContainText('忘却都市阿卡迪亚');
  // A day with one release shows an entry of a readable width, not a lone tile in an empty row.
  const lone = days.first().getByTestId('galgame-card');
  await expect(lone).toHaveCount(1);
  await expect(lone).toHaveAttribute('data-layout', 'row');
  const box = await lone.boundingBox();
  expect(box?.width).toBeGreaterThan(280);
  expect(box?.width).toBeLessThan(560);
  await page.getByRole('link', { name: /下个月/ }).click();
  await expect(page).toHaveURL(/month=2026-12$/);
  await expect(page.getByTestId('releases-month')).toHaveText('2026 年 12 月');
  await expect(page.getByTestId('release-day').first()).toContainText('雪融前奏曲');
});

test('a game page: information, spoiler tags behind a button, entities, and login links for visitors', async ({
  page,
}) => {
  const id = await gameId(page, '蝉雨回响');
  await page.getByRole('link', { name: '蝉雨回响', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/galgame/${id}$`));
  await expect(page.locator('html')).toHaveAttribute('data-layout', 'galgame-detail');
  await expect(page.getByRole('heading', { level: 1, name: '蝉雨回响' })).toBeVisible();
  const info = page.getByTestId('galgame-info');
  await expect(info).toContainText('蝉時雨のリフレイン');
  await expect(info).toContainText('2019年8月23日');
  await expect(info.getByRole('link', { name: '月白工坊' })).toHaveAttribute('href', /^\/producer\/\d+$/);

  // Tags by votes; the spoiler tag stays hidden until asked for.
  const tags = page.getByTestId('galgame-tags');
  await expect(tags.getByTestId('tag').first()).toContainText('夏日');
  await expect(page.getByTestId('spoiler-tag')).toHaveCount(0);
  await expect(tags).not.toContainText('反转结局');
  await reveal(
    tags.getByRole('button', { name: '剧透标签 · 点击显示' }),
    page.getByTestId('spoiler-tag').filter({ hasText: '反转结局' }),
  );

  // Visitors are sent to log in, and come back here.
  await expect(page.getByTestId('favorite-login')).toHaveAttribute(
    'href',
    `/login?jumpTo=${encodeURIComponent(`/galgame/${id}`)}`,
  );
  await expect(page.getByTestId('rating-login')).toBeVisible();

  // Characters link to their page, voice actors to theirs.
  const characters = page.getByTestId('galgame-characters');
  await characters.getByRole('link', { name: '夏目日和' }).click();
  await expect(page).toHaveURL(/\/character\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: '夏目日和' })).toBeVisible();
  await expect(
    page.getByTestId('galgame-card').filter({ has: page.getByRole('link', { name: '蝉雨回响', exact: true }) }),
  ).toBeVisible();
  await page.getByTestId('entity-profile').getByRole('link', { name: '白濑实里' }).click();
  await expect(page).toHaveURL(/\/person\/\d+$/);
  await expect(page.getByTestId('voiced-characters')).toContainText('夏目日和');
});

test('logged in: favourite a game (seen on the public list) and rate it, with the spoiler text folded', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(page, '雨声侦探事务所');
  await logIn(page, `/galgame/${id}`);

  const favorite = page.getByTestId('favorite-button');
  await expect(favorite).toBeEnabled();
  // Once the server said whether it is favourited (a retried run may find it so): start from not favourited.
  await expect(favorite).toHaveAttribute('data-state', /^(on|off)$/);
  if ((await favorite.getAttribute('data-state')) === 'on') {
    await favorite.click();
    await expect(favorite).toHaveAttribute('aria-pressed', 'false');
  }
  const before = Number(/\d+$/.exec((await favorite.textContent()) ?? '')?.[0]);
  const look = () =>
    favorite.evaluate((button) => {
      // The painted colour over the white page, whatever colour syntax the style uses.
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = getComputedStyle(button).backgroundColor;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
      return {
        lightness: (r + g + b) / 3,
        heartFilled: getComputedStyle(button.querySelector('svg') as Element).fill !== 'none',
      };
    });
  const off = await look();
  await favorite.click();
  await expect(favorite).toHaveAttribute('aria-pressed', 'true');
  // "On" looks more active than "off": a filled, coloured button and a filled heart.
  expect(off.heartFilled).toBe(false);
  await expect.poll(async () => (await look()).heartFilled).toBe(true);
  await expect.poll(async () => (await look()).lightness).toBeLessThan(off.lightness - 60);
  await expect(favorite).toContainText('已收藏');
  await expect(favorite).toContainText(String(before + 1));
  await expect(favorite).toBeEnabled();

  const userId = await userIdFromCookie(context);
  const answer = await request.get(`/api/favorite/galgames?userId=${userId}`);
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { data: { items: { id: number }[] } };
  expect(body.data.items.map((g) => g.id)).toContain(id);

  // Rate it: score, status, text marked as a spoiler.
  const panel = page.getByTestId('rating-panel');
  await expect(panel.getByRole('heading', { name: '我的评分' })).toBeVisible();
  const mine = panel.getByTestId('my-rating');
  await expect(panel.getByRole('button', { name: '保存评分' }).or(mine)).toBeVisible();
  if (await mine.isVisible()) {
    await mine.getByRole('button', { name: '删除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('评分已删除')).toBeVisible();
  }
  // The hero's score follows the rating card without a reload.
  const bannerScore = page.getByTestId('banner-score');
  await expect(bannerScore).toHaveText('暂无评分');
  await panel.getByRole('button', { name: '保存评分' }).click();
  await expect(panel.getByText('请选择评分')).toBeVisible();
  await panel.getByLabel('8 分 力荐').check({ force: true });
  await panel.getByLabel('状态').selectOption({ label: '玩过' });
  await panel.getByLabel(/短评/).fill('雨天限定推理的设定很有意思。真凶竟然是委托人本人！');
  await panel.getByLabel('包含剧透').check();
  await panel.getByRole('button', { name: '保存评分' }).click();
  await expect(page.getByText('评分已保存')).toBeVisible();
  await expect(mine).toContainText('8 分');
  await expect(mine).toContainText('玩过');
  await expect(panel.getByTestId('rating-average')).toHaveText('8.0');
  await expect(panel.getByTestId('rating-count')).toHaveText('1 人评分');
  await expect(panel.getByTestId('score-histogram').getByLabel('8 分：1 人')).toBeVisible();
  await expect(bannerScore).toContainText('8.0');
  await expect(bannerScore).toContainText('1 人评分');

  // The server-rendered list shows it, its spoiler text folded until revealed.
  await page.reload();
  const item = page.getByTestId('rating-item').filter({ hasText: DEMO.account });
  await expect(item).toContainText('★ 8');
  await expect(item).not.toContainText('真凶');
  await reveal(item.getByRole('button', { name: '含剧透 · 点击显示' }), item.getByText(/真凶竟然是委托人本人/));
  await expect(page.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'true');
});

test('downloads: visitors see no passwords; logged in they do, copy them, report a link, and come back to a cached list', async ({
  page,
  context,
}) => {
  const id = await gameId(page, '蝉雨回响');
  const path = `/galgame/${id}/download`;
  await page.goto(path);
  await expect(page.getByRole('heading', { name: '简体中文' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '繁體中文' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '日本語' })).toBeVisible();
  const first = page.getByTestId('download-entry').first();
  await expect(first).toContainText('汉化组翻译');
  await expect(first).toContainText('萤火汉化组');
  await expect(first).toContainText('3.9 GB');
  await expect(page.getByTestId('password-login').first()).toHaveText('登录后查看提取码');
  await expect(page.getByTestId('link-password')).toHaveCount(0);
  expect(await page.content()).not.toContain('hk2026');

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page, path);
  const password = page.getByTestId('link-password').first();
  await expect(password).toContainText('hk2026');
  await expect(page.getByTestId('password-login')).toHaveCount(0);
  await password.getByRole('button', { name: '复制提取码 hk2026' }).click();
  await expect(page.getByText('已复制: hk2026')).toBeVisible();

  // Report a dead link: asks first, then reads as reported (and stays so: the server remembers).
  const row = page
    .getByTestId('download-link')
    .filter({ has: page.getByRole('button', { name: '举报失效' }) })
    .first();
  const linkId = await row.getAttribute('data-link-id');
  await row.getByRole('button', { name: '举报失效' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('举报失效链接');
  await dialog.getByRole('button', { name: '确定' }).click();
  const reported = page.locator(`[data-testid="download-link"][data-link-id="${linkId}"]`);
  await expect(reported).toContainText('已举报');
  await expect(page.getByText('感谢反馈，我们会尽快核实')).toBeVisible();
  await page.reload();
  await expect(reported).toContainText('已举报');
  await expect(password).toContainText('hk2026');

  // Kept alive: away and back, the cached list (with passwords) shows while the refetch is still out.
  await page.getByRole('link', { name: '返回作品页' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/galgame/${id}$`));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/galgame/${id}/downloads`, async (route) => {
    await held;
    await route.continue();
  });
  const refetched = page.waitForResponse((r) => r.url().endsWith(`/api/galgame/${id}/downloads`));
  await page.getByRole('link', { name: '下载信息' }).first().click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByTestId('link-password').first()).toContainText('hk2026', { timeout: 2000 });
  await expect(reported).toContainText('已举报');
  // …and the background refetch still goes out and lands.
  release();
  expect((await refetched).ok()).toBe(true);
  await expect(page.getByTestId('download-list')).toHaveAttribute('aria-busy', 'false');
});

test('unknown or malformed ids answer the 404 page', async ({ page, request }) => {
  for (const path of [
    '/galgame/999999',
    '/galgame/abc',
    '/galgame/0',
    '/galgame/01',
    '/galgame/999999/download',
    '/character/0',
    '/character/999999',
    '/person/abc',
    '/producer/999999',
  ]) {
    const answer = await request.get(path);
    expect(answer.status(), path).toBe(404);
  }
  const response = await page.goto('/galgame/abc');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('error-message')).toHaveText('404 | Page not found: /galgame/abc');
});

test('the home page links the Galgame section and shows the newest games', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Galgame\s*作品资料、评分与下载信息/ })).toHaveAttribute(
    'href',
    '/galgame',
  );
  const latest = page.getByTestId('home-latest-games');
  await expect(latest.getByTestId('galgame-card')).toHaveCount(6);
  await latest.getByTestId('galgame-card').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/galgame\/\d+$/);
  await expect(page.getByTestId('galgame-banner')).toBeVisible();
});

test('the NSFW cover setting is chosen in the avatar menu and kept', async ({ page, context, request }) => {
  // Start from the default whatever an earlier attempt left behind (the login below reads it).
  const login = await request.post('/api/v2/user/login', { data: DEMO });
  const { hikariAccessToken } = ((await login.json()) as { data: { hikariAccessToken: string } }).data;
  const reset = await request.put('/api/user/user-setting', {
    headers: { Authorization: `Bearer ${hikariAccessToken}` },
    data: { nsfw: 'blur' },
  });
  expect(reset.status()).toBe(200);
  await logIn(page, '/galgame');
  // The menu opens once the header has hydrated; a click before that is a click on plain HTML.
  const hydrated = () => expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await hydrated();
  const menu = page.getByTestId('user-menu-button');
  await menu.click();
  const group = page.getByTestId('user-menu-nsfw');
  await expect(group.getByRole('menuitemradio', { name: '模糊' })).toHaveAttribute('aria-checked', 'true');
  // Choosing saves the setting and loads the page again: wait for that new page, not the old one.
  let reloaded = page.waitForEvent('load');
  await group.getByRole('menuitemradio', { name: '隐藏' }).click();
  await reloaded;
  await expect
    .poll(async () =>
      decodeURIComponent((await context.cookies()).find((c) => c.name === 'hikari-user-info')?.value ?? ''),
    )
    .toContain('"nsfw":"hide"');
  await hydrated();
  await page.getByTestId('user-menu-button').click();
  await expect(page.getByTestId('user-menu-nsfw').getByRole('menuitemradio', { name: '隐藏' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  // Back to the default for other tests.
  reloaded = page.waitForEvent('load');
  await page.getByTestId('user-menu-nsfw').getByRole('menuitemradio', { name: '模糊' }).click();
  await reloaded;
  await expect
    .poll(async () =>
      decodeURIComponent((await context.cookies()).find((c) => c.name === 'hikari-user-info')?.value ?? ''),
    )
    .toContain('"nsfw":"blur"');
});

test('a page number past the end leads to the last page of the same list', async ({ page }) => {
  await page.goto('/galgame/list?page=999');
  await expect(page).toHaveURL(/\/galgame\/list$/);
  await expect(page.getByTestId('list-total')).toHaveText('共 16 部作品');
  await expect(page.getByTestId('galgame-card')).toHaveCount(16);
  await expect(page.getByTestId('list-empty')).toHaveCount(0);

  await page.goto('/galgame/list?platform=switch&sort=rating&page=7');
  await expect(page).toHaveURL(/\/galgame\/list\?platform=switch&sort=rating$/);
  await expect(page.getByTestId('galgame-card')).toHaveCount(6);
});

test('tag counts say what they count', async ({ page }) => {
  await page.goto('/galgame');
  await expect(page.getByTestId('block-tags').getByRole('link').first()).toHaveText(/\d+ 部作品$/);
  await page.goto(`/galgame/${await gameId(page, '雨声侦探事务所')}`);
  await expect(page.getByTestId('tag').first()).toHaveText(/\d+ 票$/);
});

test('badges on a generated cover keep clear of its watermark, initials and title', async ({ page }) => {
  await page.goto('/galgame/list?nsfw=nsfw');
  const cards = page.getByTestId('galgame-card');
  await expect(cards).toHaveCount(4);
  const overlaps = await cards.evaluateAll((all) =>
    all.flatMap((card) => {
      const badges = [...card.querySelectorAll('.hk-game-card-badges > span')].filter((b) => b.textContent?.trim());
      const cover = card.querySelector('[data-generated-cover]');
      if (!cover || badges.length === 0) return ['a card without a generated cover or a badge'];
      const marks = [...cover.querySelectorAll('span')].filter((s) => s.textContent?.trim());
      return badges.flatMap((badge) => {
        const b = badge.getBoundingClientRect();
        return marks
          .map((mark) => ({ mark, m: mark.getBoundingClientRect() }))
          .filter(({ m }) => b.left < m.right && m.left < b.right && b.top < m.bottom && m.top < b.bottom)
          .map(({ mark }) => `${badge.textContent} over "${mark.textContent?.trim()}"`);
      });
    }),
  );
  expect(overlaps).toEqual([]);
});

test.describe('a game page on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the rating card and downloads right after the facts, before intro and reviews', async ({ page }) => {
    await page.goto(`/galgame/${await gameId(page, '雨声侦探事务所')}`);
    const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? Number.NaN;
    const info = await top('panel-info');
    const rating = await top('panel-rating');
    const download = await top('download-card');
    expect(rating).toBeGreaterThan(info);
    expect(download).toBeGreaterThan(rating);
    expect(await top('panel-intro')).toBeGreaterThan(download);
    expect(await top('panel-ratings')).toBeGreaterThan(download);
  });
});
