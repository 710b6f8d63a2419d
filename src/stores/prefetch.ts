/** Route prefetching (spec §9): at most 4 at once, none on slow connections or with data saver on. */
export const PREFETCH_CONCURRENCY = 4;

export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

export function canPrefetch(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return true;
  return !connection.saveData && !/2g/.test(connection.effectiveType ?? '');
}

/** The JavaScript chunks a page will need: island components, renderers and module scripts. */
export function extractChunkUrls(html: string, base: string): string[] {
  const urls = new Set<string>();
  const pattern = /\b(?:component-url|renderer-url|src)="(\/_astro\/[^"]+\.js)"/g;
  for (const match of html.matchAll(pattern)) {
    if (match[1]) urls.add(new URL(match[1], base).href);
  }
  return [...urls];
}

export interface PrefetchQueue {
  enqueue: (url: string) => void;
  /** URLs fetched or in flight. */
  seen: () => ReadonlySet<string>;
  active: () => number;
}

/** A de-duplicating queue that runs at most `limit` jobs at once. */
export function createPrefetchQueue(run: (url: string) => Promise<void>, limit = PREFETCH_CONCURRENCY): PrefetchQueue {
  const seen = new Set<string>();
  const waiting: string[] = [];
  let active = 0;
  const pump = () => {
    while (active < limit && waiting.length > 0) {
      const url = waiting.shift() as string;
      active++;
      void run(url)
        .catch(() => undefined)
        .finally(() => {
          active--;
          pump();
        });
    }
  };
  return {
    enqueue(url) {
      if (seen.has(url)) return;
      seen.add(url);
      waiting.push(url);
      pump();
    },
    seen: () => seen,
    active: () => active,
  };
}
