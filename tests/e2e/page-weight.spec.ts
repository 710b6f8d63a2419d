import { expect, test } from '@playwright/test';
import { measurePageWeight, overBudget, visitorPagePaths } from '../../scripts/page-weight.ts';

// The weight budgets of the visitor pages (sizes only, no timing): at most 100 kB of gzipped JavaScript
// on any of them as Chromium loads it on a first visit, and at most 60 kB of HTML for /galgame. The
// same measurement as `npm run size:pages`, here on the demo content.

test.describe.configure({ timeout: 120_000 });

for (const locale of ['zh-CN', 'en'] as const) {
  test(`visitor pages stay within their weight budgets (${locale})`, async ({ browser, baseURL }) => {
    const base = baseURL ?? 'http://localhost';
    const paths = await visitorPagePaths(base);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/galgame', '/galgame/list', '/login', expect.stringMatching(/^\/character\/\d+$/)]),
    );
    const weights = await measurePageWeight(base, paths, { browser, locale });
    for (const weight of weights) {
      expect(weight.status, weight.path).toBe(weight.path === '/this-page-does-not-exist' ? 404 : 200);
      // Every page loads some JavaScript (the header, the overlays): zero would mean nothing was measured.
      expect(weight.jsFiles, weight.path).toBeGreaterThan(0);
      expect(weight.htmlBytes, weight.path).toBeGreaterThan(1000);
    }
    expect(weights.flatMap(overBudget)).toEqual([]);
  });
}
