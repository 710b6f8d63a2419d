import { atom, map } from 'nanostores';
import {
  PLAY_STATUSES,
  RATING_TEXT_MAX,
  type DownloadView,
  type PlayStatus,
  type RatingSummary,
  type RatingView,
} from '../shared/catalogue-model.ts';
import type { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import type { MessageKey } from '../shared/i18n/index.ts';
import type { ApiClient } from './api-client.ts';

type CatalogueContract = typeof catalogueContract;

/**
 * The catalogue contract carries its request schemas (zod): it loads with the first call (or an
 * island's `loadCatalogueContract` for a logged-in viewer), so a visitor's game page does without it.
 * Once here, calls go out at once.
 */
let loaded: CatalogueContract | null = null;
export async function loadCatalogueContract(): Promise<CatalogueContract> {
  loaded ??= (await import('../shared/catalogue/catalogue.contract.ts')).catalogueContract;
  return loaded;
}

/**
 * Client logic of the Galgame pages: favourites, the viewer's rating, and the download information
 * kept per game while the visitor moves around the site. Islands render these stores and call their
 * actions; every action resolves to an outcome instead of throwing, so an island only has to show it.
 */

export type CatalogueApi = Pick<ApiClient, 'call'>;

export type Outcome = { ok: true } | { ok: false; message: string };

const failure = (error: unknown): Outcome => ({
  ok: false,
  message: error instanceof Error && error.message ? error.message : String(error),
});

const key = (id: number) => String(id);

// ---------------------------------------------------------------------------------------------------
// Favourites

export interface FavoriteEntry {
  /** null until the server has said (logged-out viewers never learn it). */
  favorited: boolean | null;
  count: number;
  /** A request is out: the button is disabled so a double click cannot send twice. */
  pending: boolean;
}

export function createFavorites(client: CatalogueApi) {
  const $favorites = map<Record<string, FavoriteEntry>>({});
  const entry = (id: number): FavoriteEntry =>
    $favorites.get()[key(id)] ?? { favorited: null, count: 0, pending: false };
  const patch = (id: number, change: Partial<FavoriteEntry>) => $favorites.setKey(key(id), { ...entry(id), ...change });

  return {
    $favorites,
    entry,
    /** The count the page was just rendered with (fresh from the server), unless a toggle is out. */
    seed(id: number, count: number): void {
      if (!entry(id).pending) patch(id, { count });
    },
    /** Asks whether the viewer has favourited the game. */
    async check(id: number): Promise<Outcome> {
      try {
        const answer = await client.call((loaded ?? (await loadCatalogueContract())).favoriteCheck, {
          query: { itemType: 'galgame', itemId: id },
        });
        // A toggle that started meanwhile knows better.
        if (!entry(id).pending) patch(id, { favorited: answer.data.isFavorited, count: answer.data.favoriteCount });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    /** Optimistic toggle: flips at once, sends one request, settles on the server's answer or rolls back. */
    async toggle(id: number): Promise<Outcome | { ok: false; busy: true }> {
      const before = entry(id);
      if (before.pending) return { ok: false, busy: true };
      const adding = before.favorited !== true;
      patch(id, {
        favorited: adding,
        count: Math.max(0, before.count + (adding ? 1 : before.favorited ? -1 : 0)),
        pending: true,
      });
      try {
        const answer = adding
          ? await client.call((loaded ?? (await loadCatalogueContract())).addFavorite, {
              body: { itemType: 'galgame', itemId: id },
            })
          : await client.call((loaded ?? (await loadCatalogueContract())).removeFavorite, {
              params: { itemType: 'galgame', itemId: id },
            });
        patch(id, { favorited: answer.data.isFavorited, count: answer.data.favoriteCount, pending: false });
        return { ok: true };
      } catch (error) {
        patch(id, { favorited: before.favorited, count: before.count, pending: false });
        return failure(error);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Ratings

export interface RatingEntry {
  summary: RatingSummary;
  /** The viewer's rating; null when there is none (or not loaded yet, see `loaded`). */
  mine: RatingView | null;
  loaded: boolean;
  pending: boolean;
}

export interface RatingDraft {
  score: number | null;
  status: PlayStatus | '';
  text: string;
  spoiler: boolean;
}

export type RatingErrors = Partial<Record<'score' | 'status' | 'text', MessageKey>>;

/** The form's own checks, before anything is sent (the server checks the same). */
export function validateRating(draft: RatingDraft): RatingErrors {
  const errors: RatingErrors = {};
  if (draft.score === null || !Number.isInteger(draft.score) || draft.score < 1 || draft.score > 10)
    errors.score = 'galgame.rating.pickScore';
  if (!(PLAY_STATUSES as readonly string[]).includes(draft.status)) errors.status = 'galgame.rating.pickStatus';
  if ([...draft.text.trim()].length > RATING_TEXT_MAX) errors.text = 'galgame.rating.textTooLong';
  return errors;
}

/** A draft to start editing from: the viewer's rating, or an empty form. */
export function draftFrom(rating: RatingView | null): RatingDraft {
  return rating
    ? { score: rating.score, status: rating.status, text: rating.text, spoiler: rating.spoiler }
    : { score: null, status: '', text: '', spoiler: false };
}

const EMPTY_SUMMARY: RatingSummary = { ratingAvg: null, ratingCount: 0, scoreHistogram: Array(10).fill(0) };

/**
 * The summary every island of a game page shows (the hero's score and the rating card): the store's,
 * which a save or delete updates, or the server-rendered one until the store knows the game.
 */
export function ratingSummaryFor(
  entries: Readonly<Record<string, RatingEntry>>,
  id: number,
  rendered: RatingSummary,
): RatingSummary {
  return entries[key(id)]?.summary ?? rendered;
}

/** The average to show, or null when nobody has rated the game yet (shown as "no ratings"). */
export function scoreLine(summary: RatingSummary): { average: number; count: number } | null {
  return summary.ratingAvg === null || summary.ratingCount === 0
    ? null
    : { average: summary.ratingAvg, count: summary.ratingCount };
}

export function createRatings(client: CatalogueApi) {
  const $ratings = map<Record<string, RatingEntry>>({});
  const entry = (id: number): RatingEntry =>
    $ratings.get()[key(id)] ?? { summary: EMPTY_SUMMARY, mine: null, loaded: false, pending: false };
  const patch = (id: number, change: Partial<RatingEntry>) => $ratings.setKey(key(id), { ...entry(id), ...change });

  return {
    $ratings,
    entry,
    /** The summary the page was just rendered with (fresh from the server), unless a save is out. */
    seed(id: number, summary: RatingSummary): void {
      if (!entry(id).pending) patch(id, { summary });
    },
    async loadMine(id: number): Promise<Outcome> {
      try {
        const answer = await client.call((loaded ?? (await loadCatalogueContract())).myRating, { params: { id } });
        patch(id, { mine: answer.data.rating, loaded: true });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    async save(id: number, draft: RatingDraft): Promise<Outcome | { ok: false; errors: RatingErrors }> {
      const errors = validateRating(draft);
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      if (entry(id).pending) return { ok: false, message: '' };
      patch(id, { pending: true });
      try {
        const answer = await client.call((loaded ?? (await loadCatalogueContract())).saveRating, {
          params: { id },
          // validateRating above has refused a missing score or status.
          body: {
            score: draft.score as number,
            status: draft.status as PlayStatus,
            text: draft.text.trim(),
            spoiler: draft.spoiler,
          },
        });
        patch(id, { summary: answer.data.summary, mine: answer.data.rating, loaded: true, pending: false });
        return { ok: true };
      } catch (error) {
        patch(id, { pending: false });
        return failure(error);
      }
    },
    async remove(id: number): Promise<Outcome> {
      if (entry(id).pending) return { ok: false, message: '' };
      patch(id, { pending: true });
      try {
        const answer = await client.call((loaded ?? (await loadCatalogueContract())).deleteRating, { params: { id } });
        patch(id, { summary: answer.data.summary, mine: null, loaded: true, pending: false });
        return { ok: true };
      } catch (error) {
        patch(id, { pending: false });
        return failure(error);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Download information

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
      const send = (contract: CatalogueContract) => client.call(contract.downloads, { params: { id } });
      const request = (loaded ? send(loaded) : loadCatalogueContract().then(send))
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
        const answer = await client.call((loaded ?? (await loadCatalogueContract())).reportLink, {
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

/** The page's API client, loaded with the first call as well. */
const browserApi: CatalogueApi = {
  call: async (endpoint, ...input) => (await import('./api-client.ts')).api.call(endpoint, ...input),
};

export const favorites = createFavorites(browserApi);
export const ratings = createRatings(browserApi);
export const downloads = createDownloads(browserApi);
