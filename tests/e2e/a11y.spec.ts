import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { COLOR_MODE_STORAGE_KEY, type Theme } from '../../src/shared/color-mode.ts';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';
import { networkQuiet, trackRequests } from './support/network-quiet.ts';

// Every built route, in both colour modes, for a visitor and in the states only a member sees, is
// checked against the WCAG 2 A/AA rules of axe-core: no violation is allowed.

const MODES: readonly Theme[] = ['light', 'dark'];

interface Ids {
  game: number;
  character: number;
  person: number;
  producer: number;
  /** Community pages: ids of a section, a topic and a post; an article's id or slug. */
  section: string;
  topic: string;
  post: string;
  article: string;
}

let ids: Ids | null = null;

/** Ids of demo entities, found through the pages like a visitor would. */
async function demoIds(page: Page): Promise<Ids> {
  if (ids) return ids;
  await page.goto('/galgame/list');
  const hrefs = await page
    .getByTestId('galgame-card')
    .locator('a[href^="/galgame/"]')
    .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href') ?? ''))]);
  const idIn = async (prefix: string) => {
    const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href', { timeout: 1000 });
    return Number(href?.slice(prefix.length));
  };
  for (const href of hrefs) {
    await page.goto(href);
    const [character, person, producer] = [
      await idIn('/character/').catch(() => 0),
      await idIn('/person/').catch(() => 0),
      await idIn('/producer/').catch(() => 0),
    ];
    if (character > 0 && person > 0 && producer > 0) {
      ids = { game: Number(href.split('/').pop()), character, person, producer, ...(await communityIds(page)) };
      return ids;
    }
  }
  throw new Error('No demo game with characters, staff and a producer was found');
}

/** The first section, topic, post and article the community's front page links (the article has a spoiler). */
async function communityIds(page: Page): Promise<Pick<Ids, 'section' | 'topic' | 'post' | 'article'>> {
  await page.goto('/community');
  const idAfter = async (prefix: string) =>
    ((await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href')) ?? '').slice(prefix.length);
  return {
    section: await idAfter('/community/section/'),
    topic: await idAfter('/community/topic/'),
    post: await idAfter('/community/post/'),
    article: await idAfter('/community/article/'),
  };
}

async function useMode(page: Page, mode: Theme) {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    COLOR_MODE_STORAGE_KEY,
    mode,
  ] as const);
}

/** Runs axe on the page as it is now and fails with a readable list of what is wrong. */
async function expectNoViolations(page: Page, label: string) {
  // A dialog or popover still fading in blends its colours with the page behind: measure the end state.
  // An animation inside a closed <details> (a spoiler) never advances, so no wait outlasts our longest.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1500)),
    ]),
  );
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` +
      v.nodes
        .slice(0, 8)
        .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? ''}`)
        .join('\n'),
  );
  expect.soft(found, `${label}\n${found.join('\n')}`).toEqual([]);
  // Colours axe cannot parse (e.g. an oklch hue of "none") silently turn contrast checks into
  // "incomplete": make sure contrast was really measured.
  const measured = result.passes.find((rule) => rule.id === 'color-contrast')?.nodes.length ?? 0;
  expect.soft(measured, `${label}: no text contrast could be measured`).toBeGreaterThan(0);
}

/** Loads a route and waits until the islands have hydrated and fonts and images have settled. */
async function open(page: Page, path: string, mode: Theme) {
  trackRequests(page);
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(path === '/no-such-page' ? 500 : 400);
  await networkQuiet(page);
  await expect(page.locator('html')).toHaveClass(new RegExp(mode === 'dark' ? '\\bdark\\b' : '^(?!.*\\bdark\\b)'));
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

const THREAD_TEXT = '画面和配乐都很用心';

/** A comment of the demo creator (with an emoji) answered by the demo account, on the game, once per run. */
async function commentThread(request: APIRequestContext, game: number) {
  const listed = await request.get(`/api/comments?targetType=galgame&targetId=${game}`);
  const { items } = ((await listed.json()) as { data: { items: { content: string; replyCount: number }[] } }).data;
  if (items.some((item) => item.content.startsWith(THREAD_TEXT) && item.replyCount > 0)) return;
  const post = async (who: typeof DEMO, data: Record<string, unknown>) => {
    const login = await request.post('/api/v2/user/login', { data: who });
    const token = ((await login.json()) as { data: { hikariAccessToken: string } }).data.hikariAccessToken;
    const answer = await request.post('/api/comments', { headers: { Authorization: `Bearer ${token}` }, data });
    expect(answer.status()).toBe(201);
    return ((await answer.json()) as { data: { id: number } }).data.id;
  };
  const root = await post(DEMO_CREATOR, {
    targetType: 'galgame',
    targetId: game,
    content: `${THREAD_TEXT} [emoji:hikari/smile]`,
  });
  await post(DEMO, { targetType: 'galgame', targetId: game, content: '同感', parentId: root });
}

/** Every built route; `{...}` parts are filled with demo ids. */
const ROUTES = [
  '/',
  '/galgame',
  '/galgame/list',
  '/galgame/releases',
  '/galgame/{game}',
  '/galgame/{game}/download',
  '/character/{character}',
  '/person/{person}',
  '/producer/{producer}',
  // Demo light novels: series 1 and its first volume (fixed ids of the demo seed).
  '/lightnovel',
  '/lightnovel/list?status=serialising',
  '/lightnovel/1',
  '/lightnovel/volumes/1',
  '/login',
  '/register',
  '/reset-password',
  '/docs/guide/getting-started',
  '/privacy-policy',
  '/terms-of-service',
  '/friend-links',
  '/search?keyword=%E9%9B%A8%E5%A3%B0',
  '/test/rich-comment-input',
  '/community',
  '/community/section/{section}',
  '/community/topic/{topic}',
  '/community/post/{post}',
  '/community/article/{article}',
  // The demo member's space (the seed's first account) and its public tabs.
  '/space/1',
  '/space/1/comment',
  '/space/1/dynamic',
  '/space/1/favorite',
  '/space/1/favorite?type=article',
  '/space/1/rate',
  '/no-such-page',
] as const;

const fill = (route: string, i: Ids) => route.replace(/\{(\w+)\}/g, (_, key: keyof Ids) => String(i[key]));

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    for (const route of ROUTES) {
      test(`${route} passes axe for a visitor (${mode})`, async ({ page }) => {
        const path = fill(route, await demoIds(page));
        await useMode(page, mode);
        await open(page, path, mode);
        await expectNoViolations(page, `${path} (${mode}, visitor)`);
      });
    }

    test(`the owner's space settings pass axe (${mode})`, async ({ page }) => {
      await useMode(page, mode);
      await logIn(page);
      await open(page, '/space/1/setting', mode);
      await expect(page.getByTestId('session-list')).toBeVisible();
      await expectNoViolations(page, `/space/1/setting (${mode}, owner)`);
      await page.setViewportSize({ width: 390, height: 844 });
      await open(page, '/space/1', mode);
      await expectNoViolations(page, `/space/1 at 390 px (${mode}, owner)`);
    });

    test(`the reader and the reading history pass axe (${mode})`, async ({ page }) => {
      test.setTimeout(60_000);
      await useMode(page, mode);
      // The book area follows: the reader's own theme matches the site's mode.
      await page.addInitScript(
        (theme) => window.localStorage.setItem('hikari-reader-settings', JSON.stringify({ theme })),
        mode,
      );
      await logIn(page);
      await open(page, '/lightnovel/read?volumeId=1', mode);
      await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
      await expectNoViolations(page, `/lightnovel/read (${mode}, member)`);
      for (const panel of ['settings', 'toc', 'bookmarks'] as const) {
        await page.getByTestId(`reader-open-${panel}`).click();
        await expect(page.getByTestId(`reader-panel-${panel}`)).toBeVisible();
        await expectNoViolations(page, `/lightnovel/read with its ${panel} panel (${mode}, member)`);
        await page.keyboard.press('Escape');
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await open(page, '/lightnovel/read?volumeId=1', mode);
      await expect(page.locator('html[data-reader-ready]')).toHaveCount(1, { timeout: 15_000 });
      // On a phone the bars hide while reading; Tab brings them back for keyboard users.
      await expect(page.getByTestId('reader')).toHaveAttribute('data-chrome', 'hidden');
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('reader')).toHaveAttribute('data-chrome', 'shown');
      // Past the page's skip link, into the bars.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: '返回本卷' })).toBeFocused();
      await expectNoViolations(page, `/lightnovel/read at 390 px (${mode}, member)`);
      await open(page, '/space/1/read', mode);
      await expect(page.getByTestId('space-reading')).toBeVisible();
      await expectNoViolations(page, `/space/1/read (${mode}, owner)`);
    });

    test(`the mobile menu passes axe at 390 px (${mode})`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await useMode(page, mode);
      await open(page, '/galgame', mode);
      await page.getByRole('button', { name: '打开菜单' }).click();
      await expect(page.getByTestId('mobile-menu')).toBeVisible();
      await expectNoViolations(page, `mobile menu (${mode})`);
    });

    test(`member pages and states pass axe (${mode})`, async ({ page }) => {
      test.setTimeout(90_000);
      const found = await demoIds(page);
      await useMode(page, mode);
      await logIn(page);

      await open(page, `/galgame/${found.game}`, mode);
      await expect(
        page
          .getByTestId('rating-panel')
          .getByRole('button', { name: /保存|修改/ })
          .first(),
      ).toBeVisible();
      await expectNoViolations(page, `/galgame/{id} with the rating panel (${mode}, member)`);

      await open(page, `/galgame/${found.game}/download`, mode);
      await expectNoViolations(page, `/galgame/{id}/download (${mode}, member)`);

      // A section the member can follow, and a post with its actions and the comment composer.
      await open(page, `/community/section/${found.section}`, mode);
      await expect(page.getByTestId('follow-button')).toHaveAttribute('data-state', /^(on|off)$/);
      await expectNoViolations(page, `/community/section/{id} with the follow button (${mode}, member)`);
      await open(page, `/community/post/${found.post}`, mode);
      await expect(page.getByTestId('favorite-button')).toHaveAttribute('data-state', /^(on|off)$/);
      await expect(page.getByTestId('comment-composer')).toBeVisible();
      await expectNoViolations(page, `/community/post/{id} with its actions (${mode}, member)`);

      // The member's notifications (decision 021), as a list or as the empty state.
      await open(page, '/message/system', mode);
      await expect(
        page.getByTestId('system-messages-list').or(page.getByTestId('system-messages-empty')),
      ).toBeVisible();
      await expectNoViolations(page, `/message/system (${mode}, member)`);

      // Private messages (issue 16): the conversation with the demo creator open, a message of ours in it.
      await open(page, '/message/private?userId=2', mode);
      await expect(page.getByTestId('chat-connection').locator('[data-status]')).toHaveAttribute(
        'data-status',
        'connected',
      );
      const chat = page.getByTestId('chat-thread');
      await chat.getByLabel('输入消息').fill(`无障碍检查 ${mode}`);
      await chat.getByTestId('chat-send').click();
      await expect(
        chat
          .getByTestId('chat-message')
          .filter({ hasText: `无障碍检查 ${mode}` })
          .getByTestId('chat-message-state'),
      ).toHaveText(/^(已发送|已送达|已读)$/);
      await expectNoViolations(page, `/message/private with a conversation (${mode}, member)`);

      await open(page, '/', mode);
      await page.getByTestId('user-menu-button').click();
      await expect(page.getByTestId('user-menu-nsfw')).toBeVisible();
      await expectNoViolations(page, `avatar menu open (${mode}, member)`);
    });

    test(`the comment section passes axe for a visitor and a member (${mode})`, async ({ page, request }) => {
      test.setTimeout(90_000);
      const found = await demoIds(page);
      await commentThread(request, found.game);
      await useMode(page, mode);

      await open(page, `/galgame/${found.game}`, mode);
      let comments = page.getByTestId('comment-section');
      await comments.scrollIntoViewIfNeeded();
      await expect(comments.getByTestId('comment-login-prompt')).toBeVisible();
      // The threads hydrate on first use: point at them, then check the live section.
      await comments.getByTestId('comment').first().hover();
      await expect(comments.getByTestId('like-button').first()).toBeVisible();
      await expectNoViolations(page, `/galgame/{id} comments (${mode}, visitor)`);
      // A comment author's user card, open.
      await comments.getByTestId('comment-author').first().hover();
      await expect(page.getByTestId('user-card').getByTestId('user-follow-login')).toBeVisible();
      await expectNoViolations(page, `user card (${mode}, visitor)`);

      await logIn(page);
      await open(page, `/galgame/${found.game}`, mode);
      comments = page.getByTestId('comment-section');
      await comments.scrollIntoViewIfNeeded();
      await expect(comments.getByLabel('发表评论')).toBeVisible();
      const theirs = comments.getByTestId('comment').filter({ hasText: THREAD_TEXT }).first();
      await theirs.getByRole('button', { name: '回复', exact: true }).first().click();
      await expect(comments.getByLabel(`回复 @${DEMO_CREATOR.account}`)).toBeFocused();
      await expectNoViolations(page, `/galgame/{id} comments with a reply form (${mode}, member)`);
      await theirs.getByRole('button', { name: '举报' }).first().click();
      await expect(page.getByRole('dialog', { name: '举报内容' })).toBeVisible();
      await expectNoViolations(page, `report dialog (${mode}, member)`);
      await page.keyboard.press('Escape');
      await theirs.getByTestId('reply').first().getByTestId('delete-comment').click();
      await expect(page.getByRole('alertdialog', { name: '删除评论' })).toBeVisible();
      await expectNoViolations(page, `delete confirmation (${mode}, member)`);
      await page.getByRole('alertdialog', { name: '删除评论' }).getByRole('button', { name: '取消' }).click();
      await page.mouse.move(0, 0);
      await theirs.getByTestId('comment-author').first().hover();
      await expect(page.getByTestId('user-card').getByTestId('user-follow-button')).toHaveAttribute(
        'data-state',
        /^(on|off)$/,
      );
      await expectNoViolations(page, `user card (${mode}, member)`);
    });

    test(`the content pages of the creator centre pass axe (${mode})`, async ({ page }) => {
      test.setTimeout(90_000);
      await useMode(page, mode);
      await logIn(page);
      await open(page, '/create/home', mode);
      await expect(page.getByText('最近的草稿')).toBeVisible();
      await expectNoViolations(page, `/create/home (${mode}, member)`);
      await open(page, '/create/content/post', mode);
      await expect(page.getByRole('option', { name: '选择版块' })).toBeAttached();
      await expectNoViolations(page, `/create/content/post (${mode}, member)`);
      await open(page, '/create/content/article', mode);
      await expect(page.getByRole('toolbar', { name: '格式工具栏' })).toBeVisible();
      await expectNoViolations(page, `/create/content/article (${mode}, member)`);
      await page.getByRole('button', { name: '链接', exact: true }).click();
      await expect(page.getByRole('dialog', { name: '链接' })).toBeVisible();
      await expectNoViolations(page, `link dialog (${mode}, member)`);
      await page.keyboard.press('Escape');
      for (const path of ['/create/content/draft/home', '/create/content/manage/home']) {
        await open(page, path, mode);
        await expect(page.getByTestId('my-content-list').or(page.getByRole('link', { name: '写帖子' }))).toBeVisible();
        await expectNoViolations(page, `${path} (${mode}, member)`);
      }
    });

    test(`the catalogue editors, update requests, section and moderation pages pass axe (${mode})`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await useMode(page, mode);
      const { game } = await demoIds(page);
      // The super admin opens every staff page (editors' and admins' pages alike).
      await logIn(page, '/', DEMO_ADMIN);
      for (const path of [
        '/create/home',
        '/create/update-request/requests',
        '/create/update-request/audits',
        '/create/update-request/history?type=lightnovel&id=8',
        '/create/item/galgame',
        `/create/item/galgame?id=${game}`,
        '/create/item/lightnovel',
        '/create/item/lightnovel?id=1',
        '/create/item/lightnovel/volume',
        '/create/item/manage/galgame',
        '/create/entity/person',
        '/create/entity/tag',
        '/create/entity/manage/person',
        '/create/section',
        '/create/section/manage/allsections',
        '/create/section/manage/topics',
        '/create/moderation/reports',
        '/create/moderation/applications',
        '/create/moderation/users',
        '/create/moderation/log',
        '/creator-application',
      ]) {
        await open(page, path, mode);
        await expectNoViolations(page, `${path} (${mode}, superAdmin)`);
      }
      // The demo request waiting for review, opened with its side-by-side diff.
      await open(page, '/create/update-request/audits', mode);
      await page.getByTestId('request-open').first().click();
      await expect(page.getByTestId('doc-diff').first()).toBeVisible();
      await expectNoViolations(page, `/create/update-request/audits with a request open (${mode}, superAdmin)`);
    });

    test(`the creator application form passes axe for a member (${mode})`, async ({ page }) => {
      await useMode(page, mode);
      await logIn(page, '/', DEMO);
      await open(page, '/creator-application', mode);
      await expectNoViolations(page, `/creator-application (${mode}, member)`);
      await open(page, `/create/item/galgame?id=${(await demoIds(page)).game}`, mode);
      await expectNoViolations(page, `/create/item/galgame?id= as a suggestion (${mode}, member)`);
    });

    test(`the creator's emoji pages, the emoji picker and the image dialog pass axe (${mode})`, async ({ page }) => {
      test.setTimeout(90_000);
      await useMode(page, mode);
      await logIn(page, '/', DEMO_CREATOR);

      await open(page, '/create/emoji', mode);
      await expectNoViolations(page, `/create/emoji (${mode}, creator)`);

      await open(page, '/create/emoji/manage', mode);
      await page.getByRole('button', { name: '展开 hikari' }).click();
      await expect(page.getByText('smile', { exact: true })).toBeVisible();
      await expectNoViolations(page, `/create/emoji/manage with a set open (${mode}, creator)`);

      await open(page, '/test/rich-comment-input', mode);
      await page.getByRole('button', { name: '表情', exact: true }).click();
      await expect(page.getByRole('button', { name: '插入表情 hikari/smile' })).toBeVisible();
      await expectNoViolations(page, `emoji picker open (${mode}, creator)`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: '插入图片' }).click();
      await expect(page.getByRole('dialog', { name: '插入图片' })).toBeVisible();
      await expectNoViolations(page, `image insert dialog (${mode}, creator)`);
    });
  });
}
