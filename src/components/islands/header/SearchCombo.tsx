import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { searchStore } from '../../../stores/search.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import type { SearchHandoff } from './SearchBox.tsx';
import { SearchDropdown } from './SearchDropdown.tsx';

/** What the dropdown answers for a key pressed in the input: true when it used the key. */
export type SearchKeys = (event: KeyboardEvent<HTMLInputElement>) => boolean;

interface SearchComboProps {
  /** 'bar' in the header row (wide screens), 'menu' in the mobile menu. */
  variant: 'bar' | 'menu';
  /** What the plain form had when this took over: its text, and whether it had the focus. */
  handoff: SearchHandoff;
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
 * The header's search box once used (spec §2.3): a WAI-ARIA combobox whose dropdown shows history and
 * trending, or suggestions while typing. It takes over from SearchBox's plain form.
 */
export function SearchCombo({ variant, handoff }: SearchComboProps) {
  const t = useT();
  // One box of each variant at most on a page.
  const id = `hk-search-${variant}`;
  const listId = `${id}-list`;
  const [text, setText] = useState(handoff.text);
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const root = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const keys = useRef<SearchKeys | null>(null);

  const close = () => {
    setOpen(false);
    setActiveId(null);
    searchStore.reset();
  };
  const show = () => {
    if (!open) {
      searchStore.loadHistory();
      void searchStore.loadTrending();
    }
    setOpen(true);
  };
  // The history takes the search when the search page opens (its script), however it was opened.
  const run = (keyword: string) => {
    const clean = keyword.trim();
    if (!clean) return;
    setText('');
    close();
    void go(`/search?keyword=${encodeURIComponent(clean)}`);
  };

  // Taking over from the plain form: keep the reader where they were.
  useEffect(() => {
    if (!handoff.focused) return;
    input.current?.focus();
    show();
    if (handoff.text.trim()) searchStore.type(handoff.text);
  }, []);

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

  const expanded = open && shown;
  return (
    <form
      ref={root}
      action="/search"
      method="get"
      role="search"
      className={`hk-search-${variant}`}
      onSubmit={(event) => {
        event.preventDefault();
        run(text);
      }}
      // The focus leaving the box (Tab onwards) closes the dropdown, as a press outside does.
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) close();
      }}
      data-testid={`search-box-${variant}`}
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        {t('search.box.label')}
      </label>
      <input
        ref={input}
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
        aria-controls={expanded ? listId : undefined}
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
        className="hk-search-input"
      />
      <button type="submit" aria-label={t('search.box.submit')} className="hk-search-go">
        <Icon name="search" className="size-4" />
      </button>
      <SearchDropdown
        open={open}
        text={text}
        listId={listId}
        variant={variant}
        keys={keys}
        onActiveChange={setActiveId}
        onShownChange={setShown}
        onRun={run}
      />
    </form>
  );
}
