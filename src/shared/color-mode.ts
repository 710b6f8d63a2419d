/** Colour mode (spec §1): the preference cycles system → light → dark → system. */
export const COLOR_MODES = ['system', 'light', 'dark'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
/** A page may force one of these; it can never force 'system'. */
export type ForcedColorMode = Exclude<ColorMode, 'system'>;
export type Theme = 'light' | 'dark';

export const COLOR_MODE_STORAGE_KEY = 'hikari-color-mode';

export function isColorMode(value: unknown): value is ColorMode {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value);
}

export function nextColorMode(mode: ColorMode): ColorMode {
  const index = COLOR_MODES.indexOf(mode);
  return COLOR_MODES[(index + 1) % COLOR_MODES.length] ?? 'system';
}

/** Only 'light' and 'dark' can be forced; anything else (including 'system') means "not forced". */
export function parseForcedColorMode(value: unknown): ForcedColorMode | null {
  return value === 'light' || value === 'dark' ? value : null;
}

/** The theme to paint: a page's forced mode wins, then the stored preference, then the system. */
export function resolveTheme(preference: ColorMode, systemPrefersDark: boolean, forced: ForcedColorMode | null): Theme {
  if (forced) return forced;
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/**
 * The blocking script placed first in <head>: applies the theme before the first paint so the page
 * never flashes the wrong colours. It repeats resolveTheme's rule in plain ES5 because it cannot
 * import modules; color-mode.test.ts checks both agree.
 */
export const colorModeBootScript = `(function(){try{var d=document.documentElement,f=d.getAttribute('data-force-color-mode'),p=localStorage.getItem('${COLOR_MODE_STORAGE_KEY}');if(p!=='light'&&p!=='dark')p='system';var t=(f==='light'||f==='dark')?f:(p==='system'?(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'):p);d.classList.toggle('dark',t==='dark');d.style.colorScheme=t;d.setAttribute('data-color-mode',p);}catch(e){}})();`;
