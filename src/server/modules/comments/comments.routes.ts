import type { UserGroup } from '../../../shared/auth-model.ts';
import { commentsContract } from '../../../shared/comments/comments.contract.ts';
import type { TargetRef } from '../../../shared/targets.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import {
  commentInThread,
  commentPageTags,
  createComment,
  deleteComment,
  listComments,
  listReplies,
  pinComment,
} from './comments.service.ts';

/** Comments on every target that keeps a comment count (decision 018). */
export function commentsRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, targets: ctx.targets, storage: ctx.storage, jobs: ctx.jobs };
  const viewerOf = (user: { id: string; user_group: UserGroup } | null) =>
    user ? { id: user.id, group: user.user_group } : null;
  /** The target's comment list and page show the change (visitors' cached pages are dropped). */
  const commentsChanged = (ref: TargetRef) => pagesChanged(ctx, commentPageTags(ref));

  return contractRoutes(ctx, commentsContract, {
    list: async (_c, { query, user }) => ({ data: await listComments(deps, viewerOf(user), query) }),

    replies: async (_c, { params, query, user }) => ({
      data: await listReplies(deps, viewerOf(user), params.id, query),
    }),

    thread: async (_c, { params, user }) => ({ data: await commentInThread(deps, viewerOf(user), params.id) }),

    create: async (_c, { body, user }) => {
      const data = await createComment(deps, { id: user.id, group: user.user_group }, body);
      await commentsChanged({ type: data.targetType, id: data.targetId });
      return {
        data,
        message: data.rootId === null ? 'server.comments.created' : 'server.comments.replied',
        code: 'CREATED',
        status: 201,
      };
    },

    remove: async (_c, { params, user }) => {
      const target = await deleteComment(deps, { id: user.id, group: user.user_group }, params.id);
      await commentsChanged(target);
      return { data: { deleted: true as const }, message: 'server.comments.deleted' };
    },

    pin: async (_c, { params, body, user }) => {
      const data = await pinComment(deps, { id: user.id, group: user.user_group }, params.id, body.pinned);
      await commentsChanged({ type: data.targetType, id: data.targetId });
      return { data, message: body.pinned ? 'server.comments.pinned' : 'server.comments.unpinned' };
    },
  });
}
