import { atom } from 'nanostores';

/**
 * The reader's settings, kept per device in localStorage: layout (pages or one scroll), type size,
 * line height, a system font family (nothing is downloaded) and the theme of the book area, which the
 * reader's own bars follow.
 */

export const READER_FLOWS = ['paginated', 'scrolled'] as const;
export type ReaderFlow = (typeof READER_FLOWS)[number];
export const READER_THEMES = ['light', 'sepia', 'dark'] as const;
export type ReaderTheme = (typeof READER_THEMES)[number];
export const READER_FONTS = ['serif', 'sans'] as const;
export type ReaderFont = (typeof READER_FONTS)[number];

export const FONT_SIZE = { min: 14, max: 32, step: 2 } as const;
export const LINE_HEIGHT = { min: 1.2, max: 2.4, step: 0.2 } as const;

export interface ReaderSettings {
  flow: ReaderFlow;
  /** CSS pixels */
  fontSize: number;
  lineHeight: number;
  font: ReaderFont;
  theme: ReaderTheme;
}

export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  flow: 'paginated',
  fontSize: 18,
  lineHeight: 1.8,
  font: 'serif',
  theme: 'light',
};

export const READER_SETTINGS_KEY = 'hikari-reader-settings';

const clamp = (value: number, { min, max }: { min: number; max: number }) => Math.min(max, Math.max(min, value));
/** One decimal place, so steps of 0.2 never drift into 1.7999999. */
const tenth = (value: number) => Math.round(value * 10) / 10;

const oneOf = <T extends string>(values: readonly T[], raw: unknown, fallback: T): T =>
  values.find((value) => value === raw) ?? fallback;
const numberOr = (raw: unknown, fallback: number) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : fallback);

/**
 * Settings read back from storage: anything unknown or out of range falls back to the default. A reader
 * who never chose a theme gets the one matching the site's colour mode (`siteTheme`).
 */
export function parseReaderSettings(raw: string | null, siteTheme: 'light' | 'dark' = 'light'): ReaderSettings {
  let value: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
  } catch {
    // A broken entry is the defaults.
  }
  const d = DEFAULT_READER_SETTINGS;
  return {
    flow: oneOf(READER_FLOWS, value.flow, d.flow),
    fontSize: clamp(Math.round(numberOr(value.fontSize, d.fontSize)), FONT_SIZE),
    lineHeight: tenth(clamp(numberOr(value.lineHeight, d.lineHeight), LINE_HEIGHT)),
    font: oneOf(READER_FONTS, value.font, d.font),
    theme: oneOf(READER_THEMES, value.theme, siteTheme === 'dark' ? 'dark' : d.theme),
  };
}

/** The colours of each theme: the page, its text, links, and the bars around it. */
export const THEME_COLOURS: Record<ReaderTheme, { background: string; text: string; link: string }> = {
  light: { background: '#ffffff', text: '#1f2328', link: '#0b6e69' },
  sepia: { background: '#f4ecd8', text: '#3b2f1e', link: '#7a4b0f' },
  dark: { background: '#18181b', text: '#d4d4d8', link: '#5eead4' },
};

const FONT_STACKS: Record<ReaderFont, string> = {
  serif: "'Noto Serif CJK SC', 'Source Han Serif SC', 'Songti SC', SimSun, 'Noto Serif', Georgia, serif",
  sans: "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', system-ui, sans-serif",
};

/**
 * The style sheet the reader adds to every section. It sets what the reader chose on the root and
 * body only and leaves the book's own rules (writing mode, ruby, image sizes) alone: no `!important`
 * on layout, and nothing that would turn a vertical book horizontal.
 */
export function readerCss(settings: ReaderSettings): string {
  const colours = THEME_COLOURS[settings.theme];
  return `
    @namespace epub "http://www.idpf.org/2007/ops";
    html {
      color-scheme: ${settings.theme === 'dark' ? 'dark' : 'light'};
      color: ${colours.text};
      background: ${colours.background};
      font-size: ${settings.fontSize}px;
    }
    body {
      font-family: ${FONT_STACKS[settings.font]};
      line-height: ${settings.lineHeight};
      color: inherit;
    }
    p, li, blockquote, dd {
      line-height: ${settings.lineHeight};
    }
    a:any-link { color: ${colours.link}; }
    img, svg { max-width: 100%; max-height: 100%; object-fit: contain; }
    ${settings.theme === 'dark' ? 'img { filter: brightness(0.9); }' : ''}
  `;
}

/** Settings of this device. */
export const $readerSettings = atom<ReaderSettings>(DEFAULT_READER_SETTINGS);

export interface SettingsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function loadReaderSettings(
  storage: SettingsStorage | null,
  siteTheme: 'light' | 'dark' = 'light',
): ReaderSettings {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(READER_SETTINGS_KEY) ?? null;
  } catch {
    // Storage refused (private mode): the defaults.
  }
  const settings = parseReaderSettings(raw, siteTheme);
  $readerSettings.set(settings);
  return settings;
}

/** Changes settings (each value brought into range) and keeps them on this device. */
export function changeReaderSettings(change: Partial<ReaderSettings>, storage: SettingsStorage | null): ReaderSettings {
  const next = parseReaderSettings(JSON.stringify({ ...$readerSettings.get(), ...change }));
  $readerSettings.set(next);
  try {
    storage?.setItem(READER_SETTINGS_KEY, JSON.stringify(next));
  } catch {
    // Kept for this page only.
  }
  return next;
}

/** One step larger or smaller type. */
export const stepFontSize = (settings: ReaderSettings, direction: 1 | -1) =>
  clamp(settings.fontSize + direction * FONT_SIZE.step, FONT_SIZE);
export const stepLineHeight = (settings: ReaderSettings, direction: 1 | -1) =>
  tenth(clamp(settings.lineHeight + direction * LINE_HEIGHT.step, LINE_HEIGHT));
