import { expect, type Page } from '@playwright/test';

/**
 * Waits until the client router's view transition has finished. While it runs, the browser's
 * transition overlay takes every pointer event, so a click made then lands on the page root instead of
 * its target (and Playwright scrolls the page while it retries).
 */
export const transitionDone = (page: Page) => expect(page.locator('html')).not.toHaveAttribute('data-astro-transition');
