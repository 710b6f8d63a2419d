import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { COLOR_MODE_STORAGE_KEY, type Theme } from '../../src/shared/color-mode.ts';
import { DEMO_CREATOR, logInAsDemo as logIn } from './support/demo-login.ts';

// Every built route, in both colour modes, for a visitor and in the states only a member sees, is
// checked against the WCAG 2 A/AA rules of axe-core: no violation is allowed.

const MODES: readonly Theme[] = ['light', 'dark'];

interface Ids {
  game: number;
  character: number;
  person: number;
  producer: number;
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
      ids = { game: Number(href.split('/').pop()), character, person, producer };
      return ids;
    }
  }
  throw new Error('No demo game with characters, staff and a producer was found');
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
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
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
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(path === '/no-such-page' ? 500 : 400);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('html')).toHaveClass(new RegExp(mode === 'dark' ? '\\bdark\\b' : '^(?!.*\\bdark\\b)'));
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
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
  '/login',
  '/register',
  '/reset-password',
  '/docs/guide/getting-started',
  '/privacy-policy',
  '/terms-of-service',
  '/friend-links',
  '/test/rich-comment-input',
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

      await open(page, '/', mode);
      await page.getByTestId('user-menu-button').click();
      await expect(page.getByTestId('user-menu-nsfw')).toBeVisible();
      await expectNoViolations(page, `avatar menu open (${mode}, member)`);
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
