import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { SEARCH_TRENDING_COLOURED } from '../../../shared/search/search-model.ts';
import { searchStore, setSuggestFailureHandler, suggestFailureText } from '../../../stores/search.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import type { SearchKeys } from './SearchCombo.tsx';

interface SearchDropdownProps {
  open: boolean;
  text: string;
  listId: string;
  variant: 'bar' | 'menu';
  keys: RefObject<SearchKeys | null>;
  onActiveChange: (id: string | null) => void;
  /** Whether the list is on screen (the input's aria-expanded). */
  onShownChange: (shown: boolean) => void;
  onRun: (keyword: string) => void;
}

interface Entry {
  id: string;
  keyword: string;
  kind: 'history' | 'trending' | 'suggestion';
  rank: number;
}

/** Spec §2.3: the top six trending keywords each have their own colour. */
const RANK_COLOURS = [
  'bg-rose-600 text-white',
  'bg-orange-600 text-white',
  'bg-amber-700 text-white',
  'bg-teal-700 text-white',
  'bg-sky-700 text-white',
  'bg-violet-600 text-white',
];
const rankClass = (rank: number) =>
  rank < SEARCH_TRENDING_COLOURED
    ? RANK_COLOURS[rank]
    : 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200';

const optionClass = (active: boolean) =>
  `flex w-full cursor-pointer items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm text-zinc-700 dark:text-zinc-200 ${
    active ? 'bg-primary-500/15 text-zinc-900 dark:text-white' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'
  }`;

/**
 * The search box's dropdown: with an empty input the history (each entry deletable, Delete removes the
 * highlighted one) and 'Everyone is searching'; while typing, suggestions. Options are chosen with the
 * arrow keys from the input (aria-activedescendant), Enter runs the highlighted one.
 */
export function SearchDropdown({
  open,
  text,
  listId,
  variant,
  keys,
  onActiveChange,
  onShownChange,
  onRun,
}: SearchDropdownProps) {
  const t = useT();
  const history = useStore(searchStore.$history);
  const trending = useStore(searchStore.$trending);
  const suggest = useStore(searchStore.$suggest);
  const typing = text.trim() !== '';
  const [active, setActive] = useState(-1);

  useEffect(() => {
    setSuggestFailureHandler((error) =>
      toast.error(
        suggestFailureText(error, (reason) =>
          t('search.box.suggestFailed', { reason: reason ?? t('search.box.unknownError') }),
        ),
      ),
    );
    return () => setSuggestFailureHandler(() => {});
  }, [t]);

  const entries = useMemo<Entry[]>(() => {
    if (typing) {
      const keywords = suggest.status === 'ready' ? suggest.keywords : [];
      return keywords.map((keyword, rank) => ({ id: `${listId}-s${rank}`, keyword, kind: 'suggestion', rank }));
    }
    return [
      ...history.map((entry, rank) => ({
        id: `${listId}-h${rank}`,
        keyword: entry.keyword,
        kind: 'history' as const,
        rank,
      })),
      ...trending.map((item, rank) => ({
        id: `${listId}-t${rank}`,
        keyword: item.keyword,
        kind: 'trending' as const,
        rank,
      })),
    ];
  }, [typing, suggest, history, trending, listId]);

  // A new list (typing, deleting) starts without a highlighted entry.
  useEffect(() => setActive(-1), [entries]);
  useEffect(() => {
    onActiveChange(open ? (entries[active]?.id ?? null) : null);
  }, [open, active, entries, onActiveChange]);
  useEffect(() => {
    if (!open) setActive(-1);
  }, [open]);

  useEffect(() => {
    keys.current = (event) => {
      if (!open) return false;
      const count = entries.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (count === 0) return true;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current < 0 && step < 0 ? count - 1 : (current + step + count) % count));
        return true;
      }
      const entry = entries[active];
      if (event.key === 'Enter' && entry) {
        onRun(entry.keyword);
        return true;
      }
      if (event.key === 'Delete' && entry?.kind === 'history') {
        searchStore.forget(entry.keyword);
        return true;
      }
      return false;
    };
    return () => {
      keys.current = null;
    };
  }, [keys, open, entries, active, onRun]);

  const shown = open && (typing || entries.length > 0);
  useEffect(() => {
    onShownChange(shown);
    return () => onShownChange(false);
  }, [shown, onShownChange]);

  if (!shown) return null;

  const option = (entry: Entry, index: number) => (
    <li
      key={entry.id}
      id={entry.id}
      role="option"
      aria-selected={index === active}
      aria-keyshortcuts={entry.kind === 'history' ? 'Delete' : undefined}
      className={optionClass(index === active)}
      // Keep the focus in the input: the entry runs on click.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={() => index !== active && setActive(index)}
      onClick={() => onRun(entry.keyword)}
      data-search-entry={entry.kind}
    >
      {entry.kind === 'trending' && (
        <span
          className={`inline-flex size-5 shrink-0 items-center justify-center rounded text-xs font-semibold ${rankClass(entry.rank)}`}
          aria-hidden="true"
        >
          {entry.rank + 1}
        </span>
      )}
      {entry.kind === 'history' && <Icon name="clock" className="size-4 shrink-0 text-zinc-400" />}
      {entry.kind === 'suggestion' && <Icon name="search" className="size-4 shrink-0 text-zinc-400" />}
      <span className="min-w-0 flex-1 truncate">{entry.keyword}</span>
      {entry.kind === 'history' && (
        // For the pointer; the keyboard uses Delete on the highlighted entry (an option holds no controls).
        <span
          aria-hidden="true"
          title={t('search.box.forget', { keyword: entry.keyword })}
          className="inline-flex size-6 shrink-0 items-center justify-center rounded text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
          onClick={(event) => {
            event.stopPropagation();
            searchStore.forget(entry.keyword);
          }}
          data-testid="search-history-delete"
        >
          <Icon name="x" className="size-3.5" />
        </span>
      )}
    </li>
  );

  const historyEntries = entries.filter((e) => e.kind === 'history');
  const trendingEntries = entries.filter((e) => e.kind === 'trending');
  const heading = 'px-2.5 pt-1 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400';
  const panel =
    variant === 'bar'
      ? 'absolute top-full right-0 z-[60] mt-2 w-80 rounded-xl border border-zinc-200 bg-white p-2 shadow-xl dark:border-zinc-700 dark:bg-zinc-900'
      : // Over the menu, not in its flow: the links below never move while a tap closes it.
        'absolute top-full right-0 left-0 z-20 mt-2 max-h-[60vh] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-2 shadow-xl dark:border-zinc-700 dark:bg-zinc-900';

  if (typing) {
    return (
      <div className={panel} data-testid="search-dropdown">
        <p id={`${listId}-label`} className={heading}>
          {t('search.box.suggestions')}
        </p>
        <ul id={listId} role="listbox" aria-labelledby={`${listId}-label`} className="flex flex-col">
          {entries.map(option)}
        </ul>
        {entries.length === 0 && (
          <p className="px-2.5 py-2 text-sm text-zinc-500 dark:text-zinc-400" role="status">
            {suggest.status === 'ready' ? t('search.box.noSuggestions') : t('search.box.loading')}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className={panel} data-testid="search-dropdown">
      <div id={listId} role="listbox" aria-label={t('search.box.label')} className="flex flex-col gap-2">
        {historyEntries.length > 0 && (
          <ul role="group" aria-labelledby={`${listId}-hl`} className="flex flex-col">
            <li role="presentation" className="flex items-center justify-between">
              <span id={`${listId}-hl`} className={heading}>
                {t('search.box.history')}
              </span>
            </li>
            {historyEntries.map((entry) => option(entry, entries.indexOf(entry)))}
          </ul>
        )}
        {trendingEntries.length > 0 && (
          <ul role="group" aria-labelledby={`${listId}-tl`} className="flex flex-col">
            <li role="presentation" id={`${listId}-tl`} className={`${heading} flex items-center gap-1`}>
              <Icon name="flame" className="size-3.5 text-rose-500" />
              {t('search.box.trending')}
            </li>
            {trendingEntries.map((entry) => option(entry, entries.indexOf(entry)))}
          </ul>
        )}
      </div>
      {historyEntries.length > 0 && (
        <button
          type="button"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => searchStore.clearHistory()}
          className="absolute top-2 right-3 rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-accent dark:text-zinc-400 dark:hover:bg-zinc-800"
          data-testid="search-history-clear"
        >
          <Icon name="trash" className="mr-1 inline size-3.5 align-[-2px]" />
          {t('search.box.clearHistory')}
        </button>
      )}
    </div>
  );
}
