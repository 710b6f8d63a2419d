import { map } from 'nanostores';
import {
  PLAY_STATUSES,
  RATING_TEXT_MAX,
  type PlayStatus,
  type RatingSummary,
  type RatingView,
} from '../shared/catalogue-model.ts';
import type { MessageKey } from '../shared/i18n/index.ts';
import {
  browserApi,
  failure,
  gameKey as key,
  loadCatalogueContract as loadContract,
  loadedCatalogueContract as contractHere,
  type CatalogueApi,
  type Outcome,
} from './catalogue-client.ts';

/**
 * Client logic of a game page: favourites and the viewer's rating. Islands render these stores and
 * call their actions; every action resolves to an outcome instead of throwing, so an island only has
 * to show it. (The download information is downloads.ts.)
 */

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
        const answer = await client.call((contractHere() ?? (await loadContract())).favoriteCheck, {
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
          ? await client.call((contractHere() ?? (await loadContract())).addFavorite, {
              body: { itemType: 'galgame', itemId: id },
            })
          : await client.call((contractHere() ?? (await loadContract())).removeFavorite, {
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
        const answer = await client.call((contractHere() ?? (await loadContract())).myRating, { params: { id } });
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
        const answer = await client.call((contractHere() ?? (await loadContract())).saveRating, {
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
        const answer = await client.call((contractHere() ?? (await loadContract())).deleteRating, { params: { id } });
        patch(id, { summary: answer.data.summary, mine: null, loaded: true, pending: false });
        return { ok: true };
      } catch (error) {
        patch(id, { pending: false });
        return failure(error);
      }
    },
  };
}

export const favorites = createFavorites(browserApi);
export const ratings = createRatings(browserApi);
