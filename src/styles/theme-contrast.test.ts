import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import theme from '../../tailwind.config.ts';

// The teal tokens of global.css must pass WCAG AA wherever they are used: text on the page and on
// cards, white (or dark) text on filled buttons, and focus rings against the page.
const css = readFileSync(new URL('./global.css', import.meta.url), 'utf8');

function block(selector: string): Record<string, string> {
  const body = new RegExp(`(?:^|\\n)${selector.replace('.', '\\.')} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
  return Object.fromEntries([...body.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6});/gi)].map((m) => [m[1], m[2]]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
};

/** Page, card and tinted-chip backgrounds of each mode (white, zinc-50/100, primary-50; zinc-800/900/950). */
const backgrounds = {
  light: ['#ffffff', '#fafafa', '#f4f4f5', '#effcfa'],
  dark: ['#27272a', '#18181b', '#09090b'],
};

describe('theme colour tokens', () => {
  const modes = { light: block(':root'), dark: block('.dark') };

  it('defines every token in both modes', () => {
    for (const tokens of Object.values(modes))
      expect(Object.keys(tokens).sort()).toEqual(
        ['hk-accent', 'hk-accent-strong', 'hk-accent-strong-hover', 'hk-focus', 'hk-on-accent'].sort(),
      );
  });

  for (const [mode, tokens] of Object.entries(modes) as [keyof typeof backgrounds, Record<string, string>][]) {
    it(`passes AA in ${mode} mode`, () => {
      for (const bg of backgrounds[mode]) {
        expect(contrast(tokens['hk-accent'] ?? '', bg), `accent text on ${bg}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(tokens['hk-focus'] ?? '', bg), `focus ring on ${bg}`).toBeGreaterThanOrEqual(3);
      }
      for (const fill of [tokens['hk-accent-strong'], tokens['hk-accent-strong-hover']])
        expect(contrast(tokens['hk-on-accent'] ?? '', fill ?? ''), `button text on ${fill}`).toBeGreaterThanOrEqual(
          4.5,
        );
    });
  }

  it('keeps #39c5bb as the brand colour, which alone would fail as text or under white text', () => {
    expect(theme.theme.extend.colors.primary.DEFAULT).toBe('#39c5bb');
    expect(contrast('#ffffff', '#39c5bb')).toBeLessThan(4.5);
    expect(contrast('#ffffff', '#2aa39b')).toBeLessThan(4.5);
  });
});
