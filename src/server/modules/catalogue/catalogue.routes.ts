import { Hono } from 'hono';
import { z } from 'zod';
import {
  FAVORITE_ITEM_TYPES,
  favoriteBodySchema,
  favoriteCheckQuerySchema,
  linkReportBodySchema,
  ratingBodySchema,
} from '../../../shared/catalogue.ts';
import { DECIMAL_ID, OBJECT_ID, decimalId, queryInt, safeText } from '../../../shared/input-rules.ts';
import type { AppContext } from '../../context.ts';
import { optionalLogin, requireLogin, type AuthVariables, type OptionalAuthVariables } from '../../http/auth-guard.ts';
import { ok } from '../../http/respond.ts';
import { jsonBody, queryOf } from '../../http/validate.ts';
import { HttpError } from '../../platform/errors.ts';
import { downloadsOf, reportLink } from './downloads.service.ts';
import { addFavorite, favoriteGalgamesOf, isFavorited, listFavorites, removeFavorite } from './favorites.service.ts';
import { galgameExists } from './galgame.service.ts';
import { deleteRating, myRating, ratingsOf, saveRating } from './ratings.service.ts';
import { messageRef } from '../../../shared/i18n/index.ts';

// Ids and numbers in paths and queries are plain decimal digits: "12", never "012", " 12", "0x0C" or "1e1".
const idParam = decimalId();
const pageQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
  limit: queryInt({ min: 1, max: 100, label: 'validation.label.pageSize' }).default(20),
});

/** Favourites (spec §7), ratings, download information and link reports. */
export function catalogueRoutes(ctx: AppContext) {
  const app = new Hono<{ Variables: AuthVariables }>();
  const open = new Hono<{ Variables: OptionalAuthVariables }>();
  const db = ctx.db;

  app.get('/user/favorites', requireLogin(ctx), async (c) => {
    const { page, limit } = queryOf(c, pageQuery);
    return ok(c, await listFavorites(db, c.var.user.id, page, limit));
  });

  app.get('/user/favorites/check', requireLogin(ctx), async (c) => {
    const { itemType, itemId } = queryOf(c, favoriteCheckQuerySchema);
    return ok(c, await isFavorited(db, c.var.user.id, itemType, itemId));
  });

  app.post('/user/favorites', requireLogin(ctx), async (c) => {
    const { itemType, itemId } = await jsonBody(c, favoriteBodySchema);
    return ok(c, await addFavorite(db, c.var.user.id, itemType, itemId), 'server.favorited');
  });

  app.delete('/user/favorites/:itemType/:itemId', requireLogin(ctx), async (c) => {
    const itemType = z
      .enum(FAVORITE_ITEM_TYPES, { error: 'validation.favoriteType.invalid' })
      .parse(c.req.param('itemType'));
    const itemId = idParam.parse(c.req.param('itemId'));
    return ok(c, await removeFavorite(db, c.var.user.id, itemType, itemId), 'server.unfavorited');
  });

  open.get('/favorite/galgames', optionalLogin(ctx), async (c) => {
    const q = queryOf(
      c,
      pageQuery.extend({
        userId: z
          .string()
          .refine((v) => DECIMAL_ID.test(v) || OBJECT_ID.test(v), {
            error: 'validation.userId.invalid',
          })
          .optional(),
        keyword: safeText({ max: 100, label: 'validation.label.keyword' }).optional(),
      }),
    );
    let ownerId = c.var.user?.id ?? null;
    if (q.userId) {
      const owner = DECIMAL_ID.test(q.userId)
        ? await db.selectFrom('users').select('id').where('user_id', '=', Number(q.userId)).executeTakeFirst()
        : await db.selectFrom('users').select('id').where('id', '=', q.userId).executeTakeFirst();
      if (!owner) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
      ownerId = owner.id;
    }
    if (!ownerId) throw new HttpError(400, 'VALIDATION_FAILED', 'server.userRequired');
    return ok(
      c,
      await favoriteGalgamesOf(db, ownerId, { page: q.page, limit: q.limit, keyword: q.keyword || undefined }),
    );
  });

  app.get('/galgame/:id/rating', requireLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    return ok(c, { rating: await myRating(db, c.var.user.id, id) });
  });

  app.put('/galgame/:id/rating', requireLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    const body = await jsonBody(c, ratingBodySchema);
    const summary = await saveRating(db, c.var.user.id, id, body);
    return ok(c, { summary, rating: await myRating(db, c.var.user.id, id) }, 'server.ratingSaved');
  });

  app.delete('/galgame/:id/rating', requireLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    return ok(c, { summary: await deleteRating(db, c.var.user.id, id), rating: null }, 'server.ratingDeleted');
  });

  open.get('/galgame/:id/ratings', async (c) => {
    const id = idParam.parse(c.req.param('id'));
    const { page, limit } = queryOf(c, pageQuery);
    if (!(await galgameExists(db, id)))
      throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id }));
    return ok(c, { ratings: await ratingsOf(db, id, limit, (page - 1) * limit) });
  });

  open.get('/galgame/:id/downloads', optionalLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    if (!(await galgameExists(db, id)))
      throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id }));
    return ok(c, { downloads: await downloadsOf(db, id, c.var.user?.id ?? null) });
  });

  app.post('/galgame/download-link/:linkId/report', requireLogin(ctx), async (c) => {
    const linkId = idParam.parse(c.req.param('linkId'));
    const { reason } = await jsonBody(c, linkReportBodySchema);
    return ok(c, await reportLink(db, linkId, c.var.user.id, reason), 'server.linkReported');
  });

  const all = new Hono();
  all.route('/', app);
  all.route('/', open);
  return all;
}
