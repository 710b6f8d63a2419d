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
    const note = (element: Element) => {
      if (element.getAttribute('data-highlighted') === 'true') seen.push(element.id);
    };
    // A comment may be marked as it changes, or arrive already marked (one loaded for the link).
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') note(record.target as Element);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          note(node);
          node.querySelectorAll('[data-highlighted="true"]').forEach(note);
        }
      }
    }).observe(document, { attributes: true, attributeFilter: ['data-highlighted'], childList: true, subtree: true });
  });
}

/** Whether the comment `#comment-{id}` has been highlighted since `recordHighlights`. */
export async function expectHighlighted(page: Page, commentId: string | number): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { highlightedComments?: string[] }).highlightedComments))
    .toContain(`comment-${commentId}`);
}
