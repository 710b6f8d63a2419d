import { lightnovelRatingsContract } from '../../../shared/lightnovel/ratings.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import { favoriteLightnovelsOf, favoriteListOwner } from '../catalogue/favorites.service.ts';
import {
  deleteLightnovelRating,
  ensurePublishedLightnovel,
  lightnovelRatingsOf,
  myLightnovelRating,
  saveLightnovelRating,
} from './lightnovel.ratings.ts';
import { lightnovelTags } from './lightnovel.targets.ts';

/** Ratings of series and members' favourite series (spec §7 /favorite/lightnovels). */
export function lightnovelRatingRoutes(ctx: AppContext) {
  const db = ctx.db;
  /** The cached pages showing the series: its page, its volumes' pages, lists with its card. */
  const seriesChanged = (id: number) => pagesChanged(ctx, [lightnovelTags.series(id)]);

  return contractRoutes(ctx, lightnovelRatingsContract, {
    myRating: async (_c, { params, user }) => ({
      data: { rating: await myLightnovelRating(db, user.id, params.id) },
    }),

    saveRating: async (_c, { params, body, user }) => {
      const summary = await saveLightnovelRating(db, user.id, params.id, body);
      await seriesChanged(params.id);
      return {
        data: { summary, rating: await myLightnovelRating(db, user.id, params.id) },
        message: 'server.ratingSaved',
      };
    },

    deleteRating: async (_c, { params, user }) => {
      const summary = await deleteLightnovelRating(db, user.id, params.id);
      await seriesChanged(params.id);
      return { data: { summary, rating: null }, message: 'server.ratingDeleted' };
    },

    ratings: async (_c, { params, query }) => {
      await ensurePublishedLightnovel(db, params.id);
      return { data: { ratings: await lightnovelRatingsOf(db, params.id, { page: query.page, limit: query.limit }) } };
    },

    favoriteLightnovels: async (_c, { query: q, user }) => {
      const ownerId = await favoriteListOwner(db, q.userId, user?.id ?? null);
      return {
        data: await favoriteLightnovelsOf(db, ownerId, {
          page: q.page,
          limit: q.limit,
          keyword: q.keyword || undefined,
        }),
      };
    },
  });
}
