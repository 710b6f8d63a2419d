import { describe, expect, it } from 'vitest';
import { GALGAME_HTML_BUDGET, PAGE_JS_BUDGET, overBudget, type PageWeight } from './page-weight.ts';

const page = (path: string, jsGzipBytes: number, htmlBytes: number): PageWeight => ({
  path,
  status: 200,
  htmlBytes,
  jsGzipBytes,
  jsFiles: 3,
  scripts: [],
});

describe('overBudget', () => {
  it('holds every page to the JavaScript budget, at its limit included', () => {
    expect(overBudget(page('/login', PAGE_JS_BUDGET, 200_000))).toEqual([]);
    expect(overBudget(page('/login', PAGE_JS_BUDGET + 1, 1000))).toEqual([
      `/login: ${PAGE_JS_BUDGET + 1} B of gzipped JS (budget ${PAGE_JS_BUDGET} B)`,
    ]);
  });

  it('holds /galgame (and only it) to the HTML budget, whatever its query', () => {
    expect(overBudget(page('/galgame', 1000, GALGAME_HTML_BUDGET))).toEqual([]);
    expect(overBudget(page('/galgame?x=1', 1000, GALGAME_HTML_BUDGET + 1))).toHaveLength(1);
    expect(overBudget(page('/galgame/list', 1000, GALGAME_HTML_BUDGET + 1))).toEqual([]);
    expect(overBudget(page('/galgame', PAGE_JS_BUDGET + 1, GALGAME_HTML_BUDGET + 1))).toHaveLength(2);
  });
});
