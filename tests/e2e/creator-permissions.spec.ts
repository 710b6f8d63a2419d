import { expect, test, type Browser } from '@playwright/test';
import { DEMO, DEMO_ADMIN, DEMO_CREATOR, DEMO_EDITOR, DEMO_MODERATOR, logInAsDemo } from './support/demo-login.ts';

// The creator centre's pages by role (issue 18): a visitor is sent to log in and back, a member of a
// group the page is for gets it, everyone else gets the 403 page. The API checks every call on its own
// (tests/api/creator-permissions.test.ts); this is what each role sees when opening the pages.

type Role = 'user' | 'creator' | 'editor' | 'admin' | 'superAdmin';
const ACCOUNTS: Record<Role, { account: string; password: string }> = {
  user: DEMO,
  creator: DEMO_CREATOR,
  editor: DEMO_EDITOR,
  admin: DEMO_MODERATOR,
  superAdmin: DEMO_ADMIN,
};
const MEMBERS: Role[] = ['user', 'creator', 'editor', 'admin', 'superAdmin'];
const CREATORS: Role[] = ['creator', 'editor', 'admin', 'superAdmin'];
const EDITORS: Role[] = ['editor', 'admin', 'superAdmin'];
const ADMINS: Role[] = ['admin', 'superAdmin'];

const PAGES: [path: string, allowed: Role[]][] = [
  ['/create/home', MEMBERS],
  ['/create/content/post', MEMBERS],
  ['/create/content/manage/home', MEMBERS],
  ['/creator-application', MEMBERS],
  ['/create/update-request/requests', MEMBERS],
  ['/create/item/galgame?id=1', MEMBERS],
  ['/create/item/manage/galgame', MEMBERS],
  ['/create/item/galgame', CREATORS],
  ['/create/item/lightnovel', CREATORS],
  ['/create/item/lightnovel/volume', CREATORS],
  ['/create/entity/person', CREATORS],
  ['/create/entity/manage/person', CREATORS],
  ['/create/emoji', CREATORS],
  ['/create/update-request/history?type=galgame&id=1', CREATORS],
  ['/create/update-request/audits', EDITORS],
  ['/create/section', EDITORS],
  ['/create/section/manage/allsections', EDITORS],
  ['/create/section/manage/topics', EDITORS],
  ['/create/moderation/reports', EDITORS],
  ['/create/moderation/applications', ADMINS],
  ['/create/moderation/users', ADMINS],
  ['/create/moderation/log', ADMINS],
];

test.describe.configure({ mode: 'serial' });

test('a visitor is sent to log in from every creator-centre page', async ({ page }) => {
  for (const [path] of PAGES) {
    await page.goto(path);
    await expect(page, path).toHaveURL(
      new RegExp(`/login\\?jumpTo=${encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  }
});

async function statuses(browser: Browser, role: Role): Promise<string[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await logInAsDemo(page, '/create/home', ACCOUNTS[role]);
    const wrong: string[] = [];
    for (const [path, allowed] of PAGES) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      const expected = allowed.includes(role) ? 200 : 403;
      if (answer.status() !== expected) wrong.push(`${path}: ${answer.status()}, expected ${expected}`);
    }
    return wrong;
  } finally {
    await context.close();
  }
}

for (const role of MEMBERS) {
  test(`${role}: each creator-centre page opens or answers 403 as its group says`, async ({ browser }) => {
    expect(await statuses(browser, role)).toEqual([]);
  });
}
