import { map } from 'nanostores';
import type { RatingSummary } from '../shared/catalogue-model.ts';
import type { MessageKey } from '../shared/i18n/index.ts';
import { LIGHTNOVEL_RATING_TEXT_MAX } from '../shared/lightnovel/lightnovel-model.ts';
import type { LightnovelRatingView, lightnovelRatingsContract } from '../shared/lightnovel/ratings.contract.ts';
import { browserApi, failure, type CatalogueApi, type Outcome } from './catalogue-client.ts';

/**
 * Client logic of a series' rating card: its summary and the viewer's rating (score 1–10 and a short
 * text), loaded, saved and deleted. Actions resolve to an outcome instead of throwing.
 */

type RatingsContract = typeof lightnovelRatingsContract;

// The contract carries its request schemas (zod): it loads with the first call, so a visitor's series
// page, which calls nothing, does without it. Once here, calls go out at once (`loaded ?? (await load())`).
let loaded: RatingsContract | null = null;
export async function loadLightnovelRatingsContract(): Promise<RatingsContract> {
  loaded ??= (await import('../shared/lightnovel/ratings.contract.ts')).lightnovelRatingsContract;
  return loaded;
}

export interface LightnovelRatingEntry {
  summary: RatingSummary;
  /** The viewer's rating; null when there is none (or not loaded yet, see `loaded`). */
  mine: LightnovelRatingView | null;
  loaded: boolean;
  pending: boolean;
}

export interface LightnovelRatingDraft {
  score: number | null;
  text: string;
}

export type LightnovelRatingErrors = Partial<Record<'score' | 'text', MessageKey>>;

/** The form's own checks, before anything is sent (the server checks the same). */
export function validateLightnovelRating(draft: LightnovelRatingDraft): LightnovelRatingErrors {
  const errors: LightnovelRatingErrors = {};
  if (draft.score === null || !Number.isInteger(draft.score) || draft.score < 1 || draft.score > 10)
    errors.score = 'galgame.rating.pickScore';
  if (draft.text.trim().length > LIGHTNOVEL_RATING_TEXT_MAX) errors.text = 'galgame.rating.textTooLong';
  return errors;
}

/** A draft to start editing from: the viewer's rating, or an empty form. */
export const lightnovelDraftFrom = (rating: LightnovelRatingView | null): LightnovelRatingDraft =>
  rating ? { score: rating.score, text: rating.text } : { score: null, text: '' };

const EMPTY_SUMMARY: RatingSummary = { ratingAvg: null, ratingCount: 0, scoreHistogram: Array(10).fill(0) };

export function createLightnovelRatings(client: CatalogueApi) {
  const $ratings = map<Record<string, LightnovelRatingEntry>>({});
  const entry = (id: number): LightnovelRatingEntry =>
    $ratings.get()[String(id)] ?? { summary: EMPTY_SUMMARY, mine: null, loaded: false, pending: false };
  const patch = (id: number, change: Partial<LightnovelRatingEntry>) =>
    $ratings.setKey(String(id), { ...entry(id), ...change });

  return {
    $ratings,
    entry,
    /** The summary the page was just rendered with, unless a save is out. */
    seed(id: number, summary: RatingSummary): void {
      if (!entry(id).pending) patch(id, { summary });
    },
    async loadMine(id: number): Promise<Outcome> {
      try {
        const answer = await client.call((loaded ?? (await loadLightnovelRatingsContract())).myRating, {
          params: { id },
        });
        patch(id, { mine: answer.data.rating, loaded: true });
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
    async save(
      id: number,
      draft: LightnovelRatingDraft,
    ): Promise<Outcome | { ok: false; errors: LightnovelRatingErrors }> {
      const errors = validateLightnovelRating(draft);
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      if (entry(id).pending) return { ok: false, message: '' };
      patch(id, { pending: true });
      try {
        const answer = await client.call((loaded ?? (await loadLightnovelRatingsContract())).saveRating, {
          params: { id },
          // validateLightnovelRating above has refused a missing score.
          body: { score: draft.score as number, text: draft.text.trim() },
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
        const answer = await client.call((loaded ?? (await loadLightnovelRatingsContract())).deleteRating, {
          params: { id },
        });
        patch(id, { summary: answer.data.summary, mine: null, loaded: true, pending: false });
        return { ok: true };
      } catch (error) {
        patch(id, { pending: false });
        return failure(error);
      }
    },
  };
}

export const lightnovelRatings = createLightnovelRatings(browserApi);
