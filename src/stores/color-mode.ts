import { atom } from 'nanostores';
import {
  COLOR_MODE_STORAGE_KEY,
  isColorMode,
  nextColorMode,
  parseForcedColorMode,
  resolveTheme,
  type ColorMode,
  type Theme,
} from '../shared/color-mode.ts';

function readPreference(): ColorMode {
  try {
    const stored = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return isColorMode(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

const systemQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The stored preference (system, light or dark). */
export const $colorMode = atom<ColorMode>(typeof window === 'undefined' ? 'system' : readPreference());
/** The theme actually painted. */
export const $theme = atom<Theme>('light');

/** Paints the document with the current preference, honouring a mode the page forces. */
export function applyColorMode(): void {
  const root = document.documentElement;
  const forced = parseForcedColorMode(root.getAttribute('data-force-color-mode'));
  const theme = resolveTheme($colorMode.get(), systemQuery().matches, forced);
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  root.setAttribute('data-color-mode', $colorMode.get());
  $theme.set(theme);
}

export function setColorMode(mode: ColorMode): void {
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, mode);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  $colorMode.set(mode);
  applyColorMode();
}

export function cycleColorMode(): ColorMode {
  const next = nextColorMode($colorMode.get());
  setColorMode(next);
  return next;
}

let listening = false;
/** Follows system changes and other tabs; call once on the client. */
export function watchColorMode(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  $colorMode.set(readPreference());
  applyColorMode();
  systemQuery().addEventListener('change', applyColorMode);
  window.addEventListener('storage', (event) => {
    if (event.key !== COLOR_MODE_STORAGE_KEY) return;
    $colorMode.set(readPreference());
    applyColorMode();
  });
  // A page swapped in by the client router may force a different mode.
  document.addEventListener('astro:after-swap', applyColorMode);
}
