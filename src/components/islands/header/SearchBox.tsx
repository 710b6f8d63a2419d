import { useRef, useState } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { onDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

/**
 * The combobox (dropdown, history, trending, suggestions) loads on the first focus, press or keystroke:
 * every page carries the header, so it carries only this form (decision 014).
 */
const combo = onDemand(() => import('./SearchCombo.tsx'));

/** What the plain form hands to the combobox taking over from it. */
export interface SearchHandoff {
  text: string;
  focused: boolean;
}

/**
 * The header's search box (spec §2.3) until it is used: a plain GET form to /search with `keyword`, so it
 * works before hydration and before its code arrives (a blank keyword is not sent once hydrated).
 */
export function SearchBox({ variant }: { variant: 'bar' | 'menu' }) {
  const t = useT();
  // A combobox loaded earlier in the tab (the other variant) is used at once.
  const [module, setModule] = useState(combo.loaded);
  const input = useRef<HTMLInputElement>(null);
  const handoff = useRef<SearchHandoff>({ text: '', focused: false });
  const take = () =>
    void combo.load().then(
      (ready) => {
        const field = input.current;
        handoff.current = { text: field?.value ?? '', focused: field !== null && document.activeElement === field };
        setModule(() => ready);
      },
      () => {},
    );

  if (module) return <module.SearchCombo variant={variant} handoff={handoff.current} />;
  const id = `hk-search-${variant}-input`;
  return (
    <form
      action="/search"
      method="get"
      role="search"
      className={`hk-search-${variant}`}
      onSubmit={(event) => {
        if (!input.current?.value.trim()) event.preventDefault();
      }}
      data-testid={`search-box-${variant}`}
    >
      <label htmlFor={id} className="sr-only">
        {t('search.box.label')}
      </label>
      <input
        ref={input}
        id={id}
        name="keyword"
        type="search"
        autoComplete="off"
        placeholder={t('search.box.placeholder')}
        className="hk-search-input"
        onFocus={take}
        onPointerDown={take}
        onInput={(event) => {
          // Text typed after the combobox's code arrived but before it replaced this form is handed over too.
          handoff.current = { ...handoff.current, text: event.currentTarget.value };
          take();
        }}
      />
      <button type="submit" aria-label={t('search.box.submit')} className="hk-search-go">
        <Icon name="search" className="size-4" />
      </button>
    </form>
  );
}
