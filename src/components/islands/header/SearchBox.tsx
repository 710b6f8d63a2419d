import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { searchHref, searchStore } from '../../../stores/search.ts';
import { Icon } from '../ui/Icon.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

/** The dropdown (history, trending, suggestions) loads on the first focus, press or keystroke. */
const dropdown = onDemand(() => import('./SearchDropdown.tsx'));

/** What the dropdown answers for a key pressed in the input: true when it used the key. */
export type SearchKeys = (event: KeyboardEvent<HTMLInputElement>) => boolean;

interface SearchBoxProps {
  /** 'bar' in the header row (wide screens), 'menu' in the mobile menu. */
  variant: 'bar' | 'menu';
}

/** Goes to the search page through the client router, or with a plain load when it is not there. */
async function go(href: string) {
  try {
    const { navigate } = await import('astro:transitions/client');
    await navigate(href);
  } catch {
    window.location.assign(href);
  }
}

/**
 * The header's search box (spec §2.3): a plain GET form to /search, so it works before hydration; once
 * hydrated a WAI-ARIA combobox whose dropdown shows history and trending, or suggestions while typing.
 */
export function SearchBox({ variant }: SearchBoxProps) {
  const t = useT();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [module, load] = useOnDemand(dropdown);
  const root = useRef<HTMLFormElement>(null);
  const keys = useRef<SearchKeys | null>(null);

  const close = () => {
    setOpen(false);
    setActiveId(null);
    searchStore.reset();
  };
  const show = () => {
    void load().catch(() => {});
    if (!open) {
      searchStore.loadHistory();
      void searchStore.loadTrending();
    }
    setOpen(true);
  };
  const run = (keyword: string) => {
    const clean = keyword.trim();
    if (!clean) return;
    searchStore.remember(clean);
    setText('');
    close();
    void go(searchHref(clean));
  };

  // Spec §2.3: any route change closes the dropdown and clears the input.
  useEffect(() => {
    const reset = () => {
      setText('');
      setOpen(false);
      setActiveId(null);
    };
    document.addEventListener('astro:page-load', reset);
    return () => document.removeEventListener('astro:page-load', reset);
  }, []);

  // A press outside the box closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const expanded = open && module !== null;
  return (
    <form
      ref={root}
      action="/search"
      method="get"
      role="search"
      className={variant === 'bar' ? 'relative hidden w-56 shrink-0 desk:block' : 'relative w-full'}
      onSubmit={(event) => {
        event.preventDefault();
        run(text);
      }}
      data-testid={`search-box-${variant}`}
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        {t('search.box.label')}
      </label>
      <input
        id={`${id}-input`}
        name="keyword"
        type="search"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={100}
        value={text}
        placeholder={t('search.box.placeholder')}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && activeId ? activeId : undefined}
        onFocus={show}
        onPointerDown={show}
        onChange={(event) => {
          setText(event.target.value);
          searchStore.type(event.target.value);
          show();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.preventDefault();
            event.stopPropagation();
            return close();
          }
          if (event.nativeEvent.isComposing) return;
          if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) return show();
          if (keys.current?.(event)) event.preventDefault();
        }}
        className="h-9 w-full rounded-full border border-zinc-200 bg-zinc-100/80 pr-10 pl-4 text-sm text-zinc-900 placeholder:text-zinc-500 focus:border-primary-500 focus:bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-primary-500/40 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:focus:bg-zinc-900 [&::-webkit-search-cancel-button]:hidden"
      />
      <button
        type="submit"
        aria-label={t('search.box.submit')}
        className="absolute top-0.5 right-1 inline-flex size-8 items-center justify-center rounded-full text-zinc-500 hover:text-accent dark:text-zinc-400"
      >
        <Icon name="search" className="size-4" />
      </button>
      {module && (
        <module.SearchDropdown
          open={open}
          text={text}
          listId={listId}
          variant={variant}
          keys={keys}
          onActiveChange={setActiveId}
          onRun={run}
        />
      )}
    </form>
  );
}
