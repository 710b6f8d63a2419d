import { useEffect, useId, useRef, useState } from 'react';
import { parseExcerpt, type ExcerptPart } from '../../shared/docs.ts';
import { useT } from './ui/use-t.ts';
import { withErrorBoundary } from './ErrorBoundary.tsx';
import { withLocale } from './ui/locale-context.tsx';

interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
}
interface Pagefind {
  options: (o: Record<string, unknown>) => Promise<void>;
  debouncedSearch: (
    q: string,
    o?: unknown,
    ms?: number,
  ) => Promise<{ results: { data: () => Promise<PagefindResultData> }[] } | null>;
}

interface Hit {
  url: string;
  title: string;
  excerpt: ExcerptPart[];
}

let pagefind: Promise<Pagefind> | null = null;
function loadPagefind(): Promise<Pagefind> {
  // The index is written next to the built site by `pagefind`, so it is loaded at run time, not bundled.
  const url = '/pagefind/pagefind.js';
  pagefind ??= (import(/* @vite-ignore */ url) as Promise<Pagefind>).then(async (pf) => {
    await pf.options({ excerptLength: 24 });
    return pf;
  });
  return pagefind;
}

/** Full-text search over the docs (pagefind, with Chinese word segmentation). */
function DocsSearch() {
  const t = useT();
  const id = useId();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [state, setState] = useState<'idle' | 'searching' | 'done' | 'unavailable'>('idle');
  const latest = useRef('');

  useEffect(() => {
    const q = query.trim();
    latest.current = q;
    if (!q) {
      setHits(null);
      setState('idle');
      return;
    }
    setState('searching');
    loadPagefind()
      .then((pf) => pf.debouncedSearch(q, {}, 150))
      .then(async (search) => {
        if (!search || latest.current !== q) return;
        const data = await Promise.all(search.results.slice(0, 8).map((r) => r.data()));
        if (latest.current !== q) return;
        setHits(
          data.map((d) => ({
            url: d.url.replace(/\/$/, '') || '/',
            title: d.meta.title ?? d.url,
            excerpt: parseExcerpt(d.excerpt),
          })),
        );
        setState('done');
      })
      .catch((error: unknown) => {
        console.warn('[docs] search unavailable', error);
        setState('unavailable');
      });
  }, [query]);

  return (
    <div className="relative" role="search">
      <label htmlFor={id} className="sr-only">
        {t('docs.searchLabel')}
      </label>
      <input
        id={id}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('docs.searchPlaceholder')}
        autoComplete="off"
        data-testid="docs-search"
        className="h-10 w-full rounded-lg border border-zinc-200 bg-white px-3 text-sm outline-none placeholder:text-zinc-500 focus:border-focus focus:ring-2 focus:ring-focus/25 dark:border-zinc-700 dark:bg-zinc-900"
      />
      {state !== 'idle' && (
        <div
          className="absolute inset-x-0 top-12 z-40 max-h-[70vh] overflow-y-auto rounded-xl bg-white p-2 shadow-xl ring-1 ring-black/5 dark:bg-zinc-900 dark:ring-white/10"
          aria-live="polite"
        >
          {state === 'searching' && <p className="px-3 py-2 text-sm text-zinc-500">{t('docs.searching')}</p>}
          {state === 'unavailable' && <p className="px-3 py-2 text-sm text-zinc-500">{t('docs.searchUnavailable')}</p>}
          {state === 'done' && hits?.length === 0 && (
            <p className="px-3 py-2 text-sm text-zinc-500">{t('docs.noResults', { query: query.trim() })}</p>
          )}
          {state === 'done' && hits && hits.length > 0 && (
            <ul data-testid="docs-search-results">
              {hits.map((hit) => (
                <li key={hit.url}>
                  <a href={hit.url} className="block rounded-lg px-3 py-2 hover:bg-primary/5">
                    <span className="block text-sm font-medium text-zinc-900 dark:text-zinc-100">{hit.title}</span>
                    <span className="mt-0.5 line-clamp-2 block text-xs text-zinc-500 dark:text-zinc-400">
                      {hit.excerpt.map((part, i) =>
                        part.mark ? (
                          <mark key={i} className="rounded bg-primary/20 px-0.5 text-zinc-900 dark:text-white">
                            {part.text}
                          </mark>
                        ) : (
                          <span key={i}>{part.text}</span>
                        ),
                      )}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

export default withLocale(withErrorBoundary(DocsSearch));
