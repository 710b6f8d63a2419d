import { expect, type Locator, type Page } from '@playwright/test';

/** The comment section once hydrated (it hydrates when it comes into view). */
export async function openSection(page: Page): Promise<Locator> {
  const section = page.getByTestId('comment-section');
  await section.scrollIntoViewIfNeeded();
  await expect(section.locator('xpath=ancestor::astro-island[@ssr]')).toHaveCount(0);
  return section;
}

/** The root comment (with its replies) whose own text contains `text`. */
export const rootWith = (section: Locator, text: string) =>
  section.getByTestId('comment').filter({ has: section.page().getByText(text, { exact: true }) });

/**
 * Notes every comment marked as highlighted from now on, in every page this one loads, so a test can
 * check the mark however briefly it lasted (it fades after a few seconds, which a busy machine can
 * overrun between two checks).
 */
export async function recordHighlights(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { highlightedComments: string[] }).highlightedComments = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        const element = record.target as Element;
        if (element.getAttribute('data-highlighted') === 'true') seen.push(element.id);
      }
    }).observe(document, { attributes: true, attributeFilter: ['data-highlighted'], subtree: true });
  });
}

/** Whether the comment `#comment-{id}` has been highlighted since `recordHighlights`. */
export async function expectHighlighted(page: Page, commentId: string | number): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { highlightedComments?: string[] }).highlightedComments))
    .toContain(`comment-${commentId}`);
}
