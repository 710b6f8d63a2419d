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
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { AppContext } from '../../context.ts';
import { optionalLogin, requireLogin, type AuthVariables, type OptionalAuthVariables } from '../../http/auth-guard.ts';
import { ok } from '../../http/respond.ts';
import { jsonBody, queryOf } from '../../http/validate.ts';
import { HttpError } from '../../platform/errors.ts';
import { downloadsOf, reportLink } from './downloads.service.ts';
import { addFavorite, favoriteGalgamesOf, isFavorited, listFavorites, removeFavorite } from './favorites.service.ts';
import { galgameExists } from './galgame.service.ts';
import { deleteRating, myRating, ratingsOf, saveRating } from './ratings.service.ts';

// Ids and numbers in paths and queries are plain decimal digits: "12", never "012", " 12", "0x0C" or "1e1".
const idParam = decimalId('id');
const pageQuery = z.object({
  page: queryInt({ min: 1, max: 10_000, label: '页码' }).default(1),
  limit: queryInt({ min: 1, max: 100, label: '每页数量' }).default(20),
});

/** Favourites (spec §7), ratings, download information and link reports. */
export function catalogueRoutes(ctx: AppContext) {
  const app = new Hono<{ Variables: AuthVariables }>();
  const open = new Hono<{ Variables: OptionalAuthVariables }>();
  const db = ctx.db;
  const favorites = { db, targets: ctx.targets };
  const viewerOf = (user: { id: string; user_group: UserGroup }) => ({ id: user.id, group: user.user_group });

  app.get('/user/favorites', requireLogin(ctx), async (c) => {
    const { page, limit } = queryOf(c, pageQuery);
    return ok(c, await listFavorites(db, c.var.user.id, { page, limit }));
  });

  app.get('/user/favorites/check', requireLogin(ctx), async (c) => {
    const { itemType, itemId } = queryOf(c, favoriteCheckQuerySchema);
    return ok(c, await isFavorited(favorites, c.var.user.id, { type: itemType, id: itemId }));
  });

  app.post('/user/favorites', requireLogin(ctx), async (c) => {
    const { itemType, itemId } = await jsonBody(c, favoriteBodySchema);
    return ok(c, await addFavorite(favorites, viewerOf(c.var.user), { type: itemType, id: itemId }), '已收藏');
  });

  app.delete('/user/favorites/:itemType/:itemId', requireLogin(ctx), async (c) => {
    const itemType = z.enum(FAVORITE_ITEM_TYPES, { error: '收藏类型无效' }).parse(c.req.param('itemType'));
    const itemId = idParam.parse(c.req.param('itemId'));
    return ok(c, await removeFavorite(favorites, c.var.user.id, { type: itemType, id: itemId }), '已取消收藏');
  });

  open.get('/favorite/galgames', optionalLogin(ctx), async (c) => {
    const q = queryOf(
      c,
      pageQuery.extend({
        userId: z
          .string()
          .refine((v) => DECIMAL_ID.test(v) || OBJECT_ID.test(v), {
            error: '用户 id 无效：应为数字 userId 或 24 位 _id',
          })
          .optional(),
        keyword: safeText({ max: 100, label: '关键词' }).optional(),
      }),
    );
    let ownerId = c.var.user?.id ?? null;
    if (q.userId) {
      const owner = DECIMAL_ID.test(q.userId)
        ? await db.selectFrom('users').select('id').where('user_id', '=', Number(q.userId)).executeTakeFirst()
        : await db.selectFrom('users').select('id').where('id', '=', q.userId).executeTakeFirst();
      if (!owner) throw new HttpError(404, 'NOT_FOUND', '用户不存在');
      ownerId = owner.id;
    }
    if (!ownerId) throw new HttpError(400, 'VALIDATION_FAILED', '请指定用户');
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
    return ok(c, { summary, rating: await myRating(db, c.var.user.id, id) }, '评分已保存');
  });

  app.delete('/galgame/:id/rating', requireLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    return ok(c, { summary: await deleteRating(db, c.var.user.id, id), rating: null }, '评分已删除');
  });

  open.get('/galgame/:id/ratings', async (c) => {
    const id = idParam.parse(c.req.param('id'));
    const { page, limit } = queryOf(c, pageQuery);
    if (!(await galgameExists(db, id))) throw new HttpError(404, 'NOT_FOUND', `Galgame ${id} 不存在`);
    return ok(c, { ratings: await ratingsOf(db, id, { page, limit }) });
  });

  open.get('/galgame/:id/downloads', optionalLogin(ctx), async (c) => {
    const id = idParam.parse(c.req.param('id'));
    if (!(await galgameExists(db, id))) throw new HttpError(404, 'NOT_FOUND', `Galgame ${id} 不存在`);
    return ok(c, { downloads: await downloadsOf(db, id, c.var.user?.id ?? null) });
  });

  app.post('/galgame/download-link/:linkId/report', requireLogin(ctx), async (c) => {
    const linkId = idParam.parse(c.req.param('linkId'));
    const { reason } = await jsonBody(c, linkReportBodySchema);
    return ok(c, await reportLink(db, linkId, c.var.user.id, reason), '感谢反馈，我们会尽快核实');
  });

  const all = new Hono();
  all.route('/', app);
  all.route('/', open);
  return all;
}
