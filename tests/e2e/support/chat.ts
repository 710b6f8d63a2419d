import { mkdirSync } from 'node:fs';
import { expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO, logInAsDemo } from './demo-login.ts';

/** Where screenshots of the chat's states go when `E2E_SCREENSHOTS` is set (outside the repository). */
const SHOTS = '/tmp/chat-shots';

/** A member logged in in a browser context of their own, on `jumpTo`. */
export async function memberPage(
  browser: Browser,
  jumpTo: string,
  who: { account: string; password: string } = DEMO,
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  await logInAsDemo(page, jumpTo, who);
  return { context, page };
}

/** The connection status beside the contact list reads connected (已连接). */
export async function expectConnected(page: Page): Promise<void> {
  const status = page.getByTestId('chat-connection').locator('[data-status]');
  await expect(status).toHaveAttribute('data-status', 'connected', { timeout: 10_000 });
  await expect(status).toHaveText('已连接');
}

/** The /message/private page on the conversation with `userId`, connected and ready to write. */
export async function openConversation(page: Page, userId: number): Promise<void> {
  if (!page.url().endsWith(`/message/private?userId=${userId}`)) await page.goto(`/message/private?userId=${userId}`);
  await expectConnected(page);
  await expect(page.getByTestId('chat-thread').getByTestId('chat-older')).toBeVisible();
}

/** The message bubbles of the open thread that contain `text`. */
export const messageWith = (scope: Page | Locator, text: string) =>
  scope.getByTestId('chat-message').filter({ hasText: text });

/** Types `text` into the chat composer in `scope` and sends it with the button; returns our bubble. */
export async function sendMessage(scope: Page | Locator, text: string): Promise<Locator> {
  const composer = scope.getByTestId('chat-composer');
  await composer.getByLabel('输入消息').fill(text);
  await expect(composer.getByTestId('chat-send')).toBeEnabled();
  await composer.getByTestId('chat-send').click();
  await expect(composer.getByLabel('输入消息')).toHaveValue('');
  const bubble = messageWith(scope, text);
  await expect(bubble).toHaveAttribute('data-mine', 'true');
  return bubble;
}

/**
 * With `E2E_SCREENSHOTS` set: the page as it is now at 1280 and 390 px wide, light and dark, under
 * /tmp/chat-shots/{name}-{width}-{mode}.png; the viewport and colour mode are put back after.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    // Colours fade between the modes: take the end state.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 720 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${dark ? 'dark' : 'light'}.png` });
    }
  }
  await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), wasDark);
  if (size) await page.setViewportSize(size);
}
