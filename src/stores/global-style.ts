import { map } from 'nanostores';

/** Inline style values for one area (React style object shape: camelCase keys). */
export type StyleObject = Record<string, string | number>;

/** Spec §3 "Global style state": per-area styles a page can set, and the header login flag. */
export interface GlobalStyleState {
  header: StyleObject;
  headerNav: StyleObject;
  headerPlaceholder: StyleObject;
  footer: StyleObject;
  /** Show the register and login buttons to visitors. */
  showHeaderLogin: boolean;
}

const initial = (): GlobalStyleState => ({
  header: {},
  headerNav: {},
  headerPlaceholder: {},
  footer: {},
  showHeaderLogin: true,
});

export const $globalStyle = map<GlobalStyleState>(initial());

export function setGlobalStyle(patch: Partial<GlobalStyleState>): void {
  $globalStyle.set({ ...$globalStyle.get(), ...patch });
}

/** Back to defaults; called on every navigation so one page's styles do not leak into the next. */
export function resetGlobalStyle(): void {
  $globalStyle.set(initial());
}

/** Turns a style object into a CSS declaration list for elements outside React (the footer). */
export function toCssText(style: StyleObject): string {
  return Object.entries(style)
    .map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${value}`)
    .join('; ');
}
