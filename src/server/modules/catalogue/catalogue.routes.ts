import { catalogueContract } from '../../../shared/catalogue/catalogue.contract.ts';
import { DECIMAL_ID } from '../../../shared/input-rules.ts';
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { HttpError } from '../../platform/errors.ts';
import { downloadsOf, galgameOfLink, reportLink } from './downloads.service.ts';
import { addFavorite, favoriteGalgamesOf, isFavorited, listFavorites, removeFavorite } from './favorites.service.ts';
import { galgameExists, lookupGalgames } from './galgame.service.ts';
import { deleteRating, myRating, ratingsOf, saveRating } from './ratings.service.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { pageTags, pagesChanged } from '../../http/page-cache-policy.ts';

/** Favourites (spec §7), ratings, download information and link reports. */
export function catalogueRoutes(ctx: AppContext) {
  const db = ctx.db;
  const favorites = { db, targets: ctx.targets };
  const viewerOf = (user: { id: string; user_group: UserGroup }) => ({ id: user.id, group: user.user_group });
  /** The cached visitor pages showing this game (its page, its download page, lists showing its card). */
  const gameChanged = (id: number) => pagesChanged(ctx, [pageTags.galgame(id)]);
  const itemChanged = (item: { type: string; id: number }) => pagesChanged(ctx, [`${item.type}:${item.id}`]);
  const ensureGame = async (id: number) => {
    if (!(await galgameExists(db, id)))
      throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id }));
  };

  return contractRoutes(ctx, catalogueContract, {
    favorites: async (_c, { query, user }) => ({
      data: await listFavorites(db, user.id, { page: query.page, limit: query.limit }),
    }),

    favoriteCheck: async (_c, { query, user }) => ({
      data: await isFavorited(favorites, user.id, { type: query.itemType, id: query.itemId }),
    }),

    addFavorite: async (_c, { body, user }) => {
      const item = { type: body.itemType, id: body.itemId };
      const data = await addFavorite(favorites, viewerOf(user), item);
      await itemChanged(item);
      return { data, message: 'server.favorited' };
    },

    removeFavorite: async (_c, { params, user }) => {
      const item = { type: params.itemType, id: params.itemId };
      const data = await removeFavorite(favorites, user.id, item);
      await itemChanged(item);
      return { data, message: 'server.unfavorited' };
    },

    favoriteGalgames: async (_c, { query: q, user }) => {
      let ownerId = user?.id ?? null;
      if (q.userId) {
        const owner = DECIMAL_ID.test(q.userId)
          ? await db.selectFrom('users').select('id').where('user_id', '=', Number(q.userId)).executeTakeFirst()
          : await db.selectFrom('users').select('id').where('id', '=', q.userId).executeTakeFirst();
        if (!owner) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
        ownerId = owner.id;
      }
      if (!ownerId) throw new HttpError(400, 'VALIDATION_FAILED', 'server.userRequired');
      return {
        data: await favoriteGalgamesOf(db, ownerId, { page: q.page, limit: q.limit, keyword: q.keyword || undefined }),
      };
    },

    lookup: async (c, { query }) => {
      c.header('Cache-Control', 'public, max-age=60');
      return { data: await lookupGalgames(db, query.keyword) };
    },

    myRating: async (_c, { params, user }) => ({ data: { rating: await myRating(db, user.id, params.id) } }),

    saveRating: async (_c, { params, body, user }) => {
      const summary = await saveRating(db, user.id, params.id, body);
      await gameChanged(params.id);
      return { data: { summary, rating: await myRating(db, user.id, params.id) }, message: 'server.ratingSaved' };
    },

    deleteRating: async (_c, { params, user }) => {
      const summary = await deleteRating(db, user.id, params.id);
      await gameChanged(params.id);
      return { data: { summary, rating: null }, message: 'server.ratingDeleted' };
    },

    ratings: async (_c, { params, query }) => {
      await ensureGame(params.id);
      return { data: { ratings: await ratingsOf(db, params.id, { page: query.page, limit: query.limit }) } };
    },

    downloads: async (_c, { params, user }) => {
      await ensureGame(params.id);
      return { data: { downloads: await downloadsOf(db, params.id, user?.id ?? null) } };
    },

    reportLink: async (_c, { params, body, user }) => {
      const data = await reportLink(db, params.linkId, user.id, body.reason);
      const game = await galgameOfLink(db, params.linkId);
      if (game !== null) await gameChanged(game);
      return { data, message: 'server.linkReported' };
    },
  });
}
