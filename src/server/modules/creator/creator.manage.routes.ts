import { creatorManageContract } from '../../../shared/creator/manage.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import type { UserRow } from '../users/users.tables.ts';
import {
  deleteVolumeAsEditor,
  listForManage,
  lookupNames,
  namesByIds,
  setPublished,
  type ManageViewer,
} from './creator.manage.service.ts';

const viewerOf = (user: UserRow): ManageViewer => ({ id: user.id, group: user.user_group });

/** The manage pages' lists, the pickers' look-ups, publishing and deleting. */
export function creatorManageRoutes(ctx: AppContext) {
  const db = ctx.db;
  /** Shared reads (search) drop at once in this process, the other processes through the bus. */
  const changed = async (tags: string[]) => {
    if (tags.length === 0) return;
    ctx.reads.invalidate(tags);
    await pagesChanged(ctx, tags);
  };
  return contractRoutes(ctx, creatorManageContract, {
    list: async (_c, { params, query, user }) => ({
      data: await listForManage(db, viewerOf(user), params.type, query),
    }),
    lookup: async (_c, { params, query, user }) => ({
      data: await lookupNames(db, viewerOf(user), params.type, query.keyword),
    }),
    names: async (_c, { params, query, user }) => ({
      data: await namesByIds(db, viewerOf(user), params.type, query.ids.split(',').map(Number)),
    }),
    publish: async (_c, { params, user }) => {
      const { tags, ...data } = await setPublished(db, viewerOf(user), params.type, params.id, true);
      await changed(tags);
      return { data, message: 'itemEditor.published' };
    },
    unpublish: async (_c, { params, user }) => {
      const { tags, ...data } = await setPublished(db, viewerOf(user), params.type, params.id, false);
      await changed(tags);
      return { data, message: 'itemEditor.unpublished' };
    },
    deleteVolume: async (_c, { params, user }) => {
      const data = await deleteVolumeAsEditor(db, ctx.storage, viewerOf(user), params.id);
      await changed(['lightnovels', `lightnovel:${data.lightnovelId}`, `volume:${data.id}`]);
      return { data, message: 'itemEditor.volumeDeleted' };
    },
  });
}
