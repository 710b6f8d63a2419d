import { useState, type ReactNode } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';

interface SpoilerRevealProps {
  /** The button text, e.g. '剧透标签 · 点击显示'. */
  label: string;
  /** What stays hidden until asked for (server-rendered HTML passed in as the default slot). */
  children?: ReactNode;
}

/** Hides spoilers (tags, rating texts) behind a small button until the reader asks for them. */
function SpoilerReveal({ label, children }: SpoilerRevealProps) {
  const [shown, setShown] = useState(false);
  if (shown) return <>{children}</>;
  return (
    <button
      type="button"
      onClick={() => setShown(true)}
      className="inline-flex h-7 items-center gap-1.5 rounded-full border border-dashed border-amber-400/70 bg-amber-50 px-3 text-xs font-medium text-amber-700 transition-colors hover:bg-amber-100 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-300 dark:hover:bg-amber-500/20"
      data-testid="spoiler-reveal"
    >
      <Icon name="eye" className="size-3.5" />
      {label}
    </button>
  );
}

export default withLocale(SpoilerReveal);
