import { z } from 'zod';
import {
  FAVORITE_ITEM_TYPES,
  favoriteBodySchema,
  favoriteCheckQuerySchema,
  linkReportBodySchema,
  ratingBodySchema,
  type DownloadView,
  type FavoriteItemType,
  type GalgameCard,
  type Pagination,
  type RatingSummary,
  type RatingView,
} from '../catalogue.ts';
import { as, endpoint } from '../contract.ts';
import type { LightnovelCard } from '../lightnovel/lightnovel.ts';
import { decimalId, queryInt, safeText } from '../input-rules.ts';
import { userIdField } from '../users/users.contract.ts';

/** Whether the caller has favourited an item, and how many have. */
export interface FavoriteState {
  isFavorited: boolean;
  favoriteCount: number;
}

/** One of the caller's favourites; `galgame` or `lightnovel` is the card when the item is a game or a series. */
export interface FavoriteListItem {
  itemType: FavoriteItemType;
  itemId: number;
  createdAt: string;
  galgame: GalgameCard | null;
  lightnovel: LightnovelCard | null;
}

export interface FavoriteList {
  items: FavoriteListItem[];
  pagination: Pagination;
}

export interface GalgameCardPage {
  items: GalgameCard[];
  pagination: Pagination;
}

/** A link report: the link's report count now, and whether it is marked suspect. */
export interface ReportResult {
  reportCount: number;
  suspect: boolean;
  reported: true;
}

// Ids and numbers in paths and queries are plain decimal digits: "12", never "012", " 12", "0x0C" or "1e1".
const gameParams = z.object({ id: decimalId() });
const pageQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: 100, label: 'validation.label.pageSize' }).default(20),
});

/** Favourites (spec §7), ratings, download information and link reports. */
export const catalogueContract = {
  favorites: endpoint({
    method: 'GET',
    path: '/user/favorites',
    query: pageQuery,
    response: as<FavoriteList>(),
    auth: 'required',
    summary: "The caller's favourites, newest first",
  }),
  favoriteCheck: endpoint({
    method: 'GET',
    path: '/user/favorites/check',
    query: favoriteCheckQuerySchema,
    response: as<FavoriteState>(),
    auth: 'required',
    summary: 'Whether the caller has favourited an item, and its favourite count',
  }),
  addFavorite: endpoint({
    method: 'POST',
    path: '/user/favorites',
    body: favoriteBodySchema,
    response: as<FavoriteState>(),
    auth: 'required',
    summary: 'Favourites an item (idempotent)',
  }),
  removeFavorite: endpoint({
    method: 'DELETE',
    path: '/user/favorites/:itemType/:itemId',
    params: z.object({
      itemType: z.enum(FAVORITE_ITEM_TYPES, { error: 'validation.favoriteType.invalid' }),
      itemId: decimalId(),
    }),
    response: as<FavoriteState>(),
    auth: 'required',
    summary: 'Removes a favourite (idempotent)',
  }),
  favoriteGalgames: endpoint({
    method: 'GET',
    path: '/favorite/galgames',
    query: pageQuery.extend({
      userId: userIdField.optional(),
      keyword: safeText({ max: 100, label: 'validation.label.keyword' }).optional(),
    }),
    response: as<GalgameCardPage>(),
    auth: 'optional',
    summary: "A user's favourite games (public; the caller's own when `userId` is left out)",
  }),
  lookup: endpoint({
    method: 'GET',
    path: '/galgame/lookup',
    query: z.object({ keyword: safeText({ max: 100, label: 'validation.label.keyword' }) }),
    response: as<GalgameCard[]>(),
    summary: 'Up to 10 published games whose title, Chinese title or an alias contains `keyword` (pickers)',
  }),
  myRating: endpoint({
    method: 'GET',
    path: '/galgame/:id/rating',
    params: gameParams,
    response: as<{ rating: RatingView | null }>(),
    auth: 'required',
    summary: "The caller's rating of a game, or null",
  }),
  saveRating: endpoint({
    method: 'PUT',
    path: '/galgame/:id/rating',
    params: gameParams,
    body: ratingBodySchema,
    response: as<{ summary: RatingSummary; rating: RatingView | null }>(),
    auth: 'required',
    summary: "Saves the caller's score (1–10), play status, text and spoiler flag; answers the new summary",
  }),
  deleteRating: endpoint({
    method: 'DELETE',
    path: '/galgame/:id/rating',
    params: gameParams,
    response: as<{ summary: RatingSummary; rating: null }>(),
    auth: 'required',
    summary: "Deletes the caller's rating; answers the new summary",
  }),
  ratings: endpoint({
    method: 'GET',
    path: '/galgame/:id/ratings',
    params: gameParams,
    query: pageQuery,
    response: as<{ ratings: RatingView[] }>(),
    summary: "A game's ratings, newest first",
  }),
  downloads: endpoint({
    method: 'GET',
    path: '/galgame/:id/downloads',
    params: gameParams,
    response: as<{ downloads: DownloadView[] }>(),
    auth: 'optional',
    summary: "A game's download information; extraction passwords only for logged-in callers",
  }),
  reportLink: endpoint({
    method: 'POST',
    path: '/galgame/download-link/:linkId/report',
    params: z.object({ linkId: decimalId() }),
    body: linkReportBodySchema,
    response: as<ReportResult>(),
    auth: 'required',
    summary: 'Reports a dead download link (once per user; 3 reports mark it suspect)',
  }),
} as const;
