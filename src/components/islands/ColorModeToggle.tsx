import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { ColorMode } from '../../shared/color-mode.ts';
import { $colorMode, cycleColorMode } from '../../stores/color-mode.ts';
import { useT } from './ui/use-t.ts';

const paths: Record<ColorMode, string> = {
  system: 'M4 5h16v11H4zM8 20h8M12 16v4',
  light:
    'M12 4V2M12 22v-2M4.9 4.9 3.5 3.5M20.5 20.5l-1.4-1.4M4 12H2M22 12h-2M4.9 19.1l-1.4 1.4M20.5 3.5l-1.4 1.4M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10z',
  dark: 'M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z',
};

/** Cycles the colour mode system → light → dark → system. */
export default function ColorModeToggle() {
  const stored = useStore($colorMode);
  const t = useT();
  // Server HTML cannot know the stored mode; render the neutral icon until hydrated.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const mode: ColorMode = hydrated ? stored : 'system';
  const label = t('colorMode.toggle', { mode: t(`colorMode.${mode}`) });
  return (
    <button
      type="button"
      onClick={() => cycleColorMode()}
      aria-label={label}
      title={label}
      data-mode={mode}
      data-testid="color-mode-toggle"
      className="inline-flex size-9 items-center justify-center rounded-full text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-accent dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
        <path
          d={paths[mode]}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
