import { atom, map } from 'nanostores';
import type { DownloadView } from '../shared/catalogue-model.ts';
import {
  browserApi,
  failure,
  gameKey as key,
  loadCatalogueContract as loadContract,
  loadedCatalogueContract as contractHere,
  type CatalogueApi,
  type Outcome,
} from './catalogue-client.ts';

export interface DownloadsEntry {
  downloads: DownloadView[];
  /** Whose view this is (user _id, or null for a visitor): passwords belong to a logged-in viewer only. */
  viewer: string | null;
  refreshing: boolean;
  error: string | null;
}

/**
 * The download page is kept alive (spec §2.1): what was fetched for a game stays here, so coming back
 * shows it at once, and a refetch in the background brings it up to date.
 */
export function createDownloads(client: CatalogueApi) {
  const $downloads = map<Record<string, DownloadsEntry>>({});
  const inFlight = new Map<string, Promise<Outcome>>();
  /** Links whose report is being sent (their buttons are disabled). */
  const $reporting = atom<ReadonlySet<number>>(new Set());
  const setReporting = (linkId: number, on: boolean) => {
    const next = new Set($reporting.get());
    if (on) next.add(linkId);
    else next.delete(linkId);
    $reporting.set(next);
  };

  const patch = (id: number, change: Partial<DownloadsEntry>) => {
    const current = $downloads.get()[key(id)] ?? { downloads: [], viewer: null, refreshing: false, error: null };
    $downloads.setKey(key(id), { ...current, ...change });
  };

  return {
    $downloads,
    $reporting,
    /** The cached downloads for this viewer, or null (never another viewer's, so no password outlives a logout). */
    cached(id: number, viewer: string | null): DownloadView[] | null {
      const entry = $downloads.get()[key(id)];
      return entry && entry.viewer === viewer ? entry.downloads : null;
    },
    /**
     * Takes the list a page was just rendered with, for the viewer it was rendered for (the server
     * renders a visitor's view): nothing cached is newer, so there is nothing to fetch.
     */
    seed(id: number, viewer: string | null, list: DownloadView[]): void {
      patch(id, { downloads: list, viewer, refreshing: false, error: null });
    },
    /** Fetches the downloads; concurrent calls for the same game and viewer share one request. */
    load(id: number, viewer: string | null): Promise<Outcome> {
      const flight = `${id}:${viewer ?? ''}`;
      const running = inFlight.get(flight);
      if (running) return running;
      const current = $downloads.get()[key(id)];
      if (current?.viewer === viewer) patch(id, { refreshing: true });
      type Contract = Awaited<ReturnType<typeof loadContract>>;
      const send = (contract: Contract) => client.call(contract.downloads, { params: { id } });
      const here = contractHere();
      const request = (here ? send(here) : loadContract().then(send))
        .then((answer): Outcome => {
          patch(id, { downloads: answer.data.downloads, viewer, refreshing: false, error: null });
          return { ok: true };
        })
        .catch((error: unknown): Outcome => {
          const outcome = failure(error);
          if ($downloads.get()[key(id)]) patch(id, { refreshing: false, error: outcome.ok ? null : outcome.message });
          return outcome;
        })
        .finally(() => inFlight.delete(flight));
      inFlight.set(flight, request);
      return request;
    },
    /** Reports a dead link (idempotent on the server); the link then reads as reported. */
    async report(id: number, linkId: number): Promise<Outcome | { ok: false; busy: true }> {
      if ($reporting.get().has(linkId)) return { ok: false, busy: true };
      setReporting(linkId, true);
      try {
        const answer = await client.call((contractHere() ?? (await loadContract())).reportLink, {
          params: { linkId },
          body: { reason: '' },
        });
        const entry = $downloads.get()[key(id)];
        if (entry) {
          patch(id, {
            downloads: entry.downloads.map((d) => ({
              ...d,
              links: d.links.map((l) =>
                l.id === linkId
                  ? { ...l, reportedByMe: true, reportCount: answer.data.reportCount, suspect: answer.data.suspect }
                  : l,
              ),
            })),
          });
        }
        return { ok: true };
      } catch (error) {
        return failure(error);
      } finally {
        setReporting(linkId, false);
      }
    },
  };
}

export const downloads = createDownloads(browserApi);
