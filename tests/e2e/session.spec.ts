import { expect, test } from '@playwright/test';
import { expectSilentRefresh, logInAsDemo } from './support/demo-login.ts';

test('a page without the header still reads the session and refreshes a run-out access token', async ({
  page,
  context,
}) => {
  await logInAsDemo(page);
  // The register page has no site header: the client shell alone keeps the login alive here.
  await expectSilentRefresh(context, async () => {
    await page.goto('/register');
    await expect(page.locator('header')).toHaveCount(0);
  });
});
