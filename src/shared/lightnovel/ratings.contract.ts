import { z } from 'zod';
import type { RatingSummary } from '../catalogue-model.ts';
import { as, endpoint } from '../contract.ts';
import { bodyInt, decimalId, queryInt, safeText } from '../input-rules.ts';
import { userIdField } from '../users/users.contract.ts';
import type { LightnovelCardPage } from './lightnovel.ts';
import { LIGHTNOVEL_RATING_TEXT_MAX } from './lightnovel-model.ts';

/** A member's rating of a series: a score of 1–10 and an optional short text. */
export interface LightnovelRatingView {
  id: number;
  lightnovelId: number;
  score: number;
  text: string;
  createdAt: string;
  updatedAt: string;
  user: { _id: string; userId: number; name: string; avatar: string };
}

/** What saving or deleting answers: the series' new summary and the caller's rating. */
export interface LightnovelRatingResult {
  summary: RatingSummary;
  rating: LightnovelRatingView | null;
}

/** PUT /api/lightnovel/{id}/rating: the score a JSON integer 1–10 ("7", 7.5 and 0 are refused). */
export const lightnovelRatingBodySchema = z.object({
  score: bodyInt({ min: 1, max: 10, label: 'validation.label.score', required: 'validation.score.required' }),
  text: safeText({ kind: 'multiline', max: LIGHTNOVEL_RATING_TEXT_MAX, label: 'validation.label.ratingText' }).default(
    '',
  ),
});
export type LightnovelRatingBody = z.input<typeof lightnovelRatingBodySchema>;

const seriesParams = z.object({ id: decimalId() });
const pageQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: 100, label: 'validation.label.pageSize' }).default(20),
});

/** Ratings of light-novel series, and members' favourite series (spec §7 /favorite/lightnovels). */
export const lightnovelRatingsContract = {
  myRating: endpoint({
    method: 'GET',
    path: '/lightnovel/:id/rating',
    params: seriesParams,
    response: as<{ rating: LightnovelRatingView | null }>(),
    auth: 'required',
    summary: "The caller's rating of a series, or null",
  }),
  saveRating: endpoint({
    method: 'PUT',
    path: '/lightnovel/:id/rating',
    params: seriesParams,
    body: lightnovelRatingBodySchema,
    response: as<LightnovelRatingResult>(),
    auth: 'required',
    summary: "Saves the caller's score (1–10) and short text of a published series; answers the new summary",
  }),
  deleteRating: endpoint({
    method: 'DELETE',
    path: '/lightnovel/:id/rating',
    params: seriesParams,
    response: as<LightnovelRatingResult>(),
    auth: 'required',
    summary: "Deletes the caller's rating of a series; answers the new summary",
  }),
  ratings: endpoint({
    method: 'GET',
    path: '/lightnovel/:id/ratings',
    params: seriesParams,
    query: pageQuery,
    response: as<{ ratings: LightnovelRatingView[] }>(),
    summary: "A published series' ratings, newest first",
  }),
  favoriteLightnovels: endpoint({
    method: 'GET',
    path: '/favorite/lightnovels',
    query: pageQuery.extend({
      userId: userIdField.optional(),
      keyword: safeText({ max: 100, label: 'validation.label.keyword' }).optional(),
    }),
    response: as<LightnovelCardPage>(),
    auth: 'optional',
    summary:
      "A member's favourite light novels (public with `userId`; the caller's own without it), `keyword` in any of their names",
  }),
} as const;
