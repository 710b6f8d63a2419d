import type { UserGroup } from '../../../shared/auth-model.ts';
import { reactionsContract } from '../../../shared/reactions/reactions.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pageTags, pagesChanged } from '../../http/page-cache-policy.ts';
import { commentPageTagsOf } from '../comments/comments.service.ts';
import { like, likedIds, unlike, type LikeRef } from './likes.service.ts';
import { createReport } from './reports.service.ts';

/** Likes and reports (decision 018). */
export function reactionsRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, targets: ctx.targets, jobs: ctx.jobs };
  const viewerOf = (user: { id: string; user_group: UserGroup }) => ({ id: user.id, group: user.user_group });

  /** The cached pages that show the item's like count. */
  const likeChanged = async (ref: LikeRef) => {
    let tags: string[] = [];
    if (ref.type === 'comment') tags = await commentPageTagsOf(ctx.db, ref.id);
    else if (ref.type === 'post') tags = [pageTags.post(ref.id)];
    else if (ref.type === 'article') tags = [pageTags.article(ref.id)];
    else {
      const rating = await ctx.db.selectFrom('rating').select('galgame_id').where('id', '=', ref.id).executeTakeFirst();
      if (rating) tags = [pageTags.galgame(rating.galgame_id)];
    }
    await pagesChanged(ctx, tags);
  };

  return contractRoutes(ctx, reactionsContract, {
    like: async (_c, { body, user }) => {
      const ref = { type: body.targetType, id: body.targetId };
      const data = await like(deps, viewerOf(user), ref);
      await likeChanged(ref);
      return { data, message: 'server.likes.liked' };
    },

    unlike: async (_c, { params, user }) => {
      const ref = { type: params.targetType, id: params.targetId };
      const data = await unlike(deps, user.id, ref);
      await likeChanged(ref);
      return { data, message: 'server.likes.unliked' };
    },

    check: async (_c, { query, user }) => ({
      data: { liked: [...(await likedIds(ctx.db, user.id, query.targetType, query.ids))].sort((a, b) => a - b) },
    }),

    report: async (_c, { body, user }) => ({
      data: await createReport(deps, viewerOf(user), body),
      message: 'server.reports.created',
      code: 'CREATED',
      status: 201,
    }),
  });
}
