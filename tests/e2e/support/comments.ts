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
