import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  COLOR_MODE_STORAGE_KEY,
  colorModeBootScript,
  nextColorMode,
  parseForcedColorMode,
  resolveTheme,
  type ColorMode,
} from './color-mode.ts';

describe('colour mode', () => {
  it('cycles system → light → dark → system', () => {
    expect(nextColorMode('system')).toBe('light');
    expect(nextColorMode('light')).toBe('dark');
    expect(nextColorMode('dark')).toBe('system');
  });

  it('lets a page force light or dark but never system', () => {
    expect(parseForcedColorMode('light')).toBe('light');
    expect(parseForcedColorMode('dark')).toBe('dark');
    expect(parseForcedColorMode('system')).toBeNull();
    expect(parseForcedColorMode(undefined)).toBeNull();
  });

  it('resolves the painted theme: forced, then preference, then system', () => {
    expect(resolveTheme('system', true, null)).toBe('dark');
    expect(resolveTheme('system', false, null)).toBe('light');
    expect(resolveTheme('light', true, null)).toBe('light');
    expect(resolveTheme('dark', false, 'light')).toBe('light');
    expect(resolveTheme('light', false, 'dark')).toBe('dark');
  });

  it('the first-paint script agrees with resolveTheme for every combination', () => {
    const stored: (ColorMode | null | 'bogus')[] = [null, 'system', 'light', 'dark', 'bogus'];
    for (const preference of stored) {
      for (const systemDark of [true, false]) {
        for (const forced of [null, 'light', 'dark'] as const) {
          const classes = new Set<string>();
          const attributes: Record<string, string> = forced ? { 'data-force-color-mode': forced } : {};
          const root = {
            style: { colorScheme: '' },
            classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
            getAttribute: (name: string) => attributes[name] ?? null,
            setAttribute: (name: string, value: string) => (attributes[name] = value),
          };
          runInNewContext(colorModeBootScript, {
            document: { documentElement: root },
            localStorage: { getItem: (key: string) => (key === COLOR_MODE_STORAGE_KEY ? preference : null) },
            matchMedia: () => ({ matches: systemDark }),
          });
          const pref: ColorMode = preference === 'light' || preference === 'dark' ? preference : 'system';
          const expected = resolveTheme(pref, systemDark, forced);
          expect(classes.has('dark'), `${preference}/${systemDark}/${forced}`).toBe(expected === 'dark');
          expect(root.style.colorScheme).toBe(expected);
        }
      }
    }
  });
});
