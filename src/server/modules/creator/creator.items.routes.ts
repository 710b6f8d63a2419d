import { creatorItemsContract } from '../../../shared/creator/items.contract.ts';
import type { AppContext } from '../../context.ts';
import { contractRoutes } from '../../http/contract-route.ts';
import { pagesChanged } from '../../http/page-cache-policy.ts';
import { parseDoc } from './docs.store.ts';
import {
  itemDocument,
  listRevisions,
  mayApply,
  restoreRevision,
  revisionDetail,
  saveAsEditor,
} from './revisions.service.ts';
import { proposeEdit, proposeNew } from './update-requests.service.ts';

/** Item and entity editors: documents, saves (applied or requested), creations, revisions, restore. */
export function creatorItemsRoutes(ctx: AppContext) {
  const deps = { db: ctx.db, jobs: ctx.jobs };
  return contractRoutes(ctx, creatorItemsContract, {
    document: async (_c, { params, user }) => ({ data: await itemDocument(ctx.db, user, params.type, params.id) }),
    save: async (_c, { params, body, user }) => {
      if (!mayApply(user)) {
        const data = await proposeEdit(deps, user, { ...params, ...body, doc: body.doc });
        return { data, message: 'revision.requested' };
      }
      const applied = await saveAsEditor(ctx.db, user, {
        type: params.type,
        id: params.id,
        baseRevision: body.baseRevision,
        doc: parseDoc(params.type, body.doc),
        overwrite: body.overwrite,
        note: body.note,
      });
      await pagesChanged(ctx, applied.tags);
      return {
        data: { outcome: 'applied' as const, id: applied.id, revision: applied.revision },
        message: 'revision.applied',
      };
    },
    create: async (_c, { params, body, user }) => {
      const { applied, ...data } = await proposeNew(deps, user, { type: params.type, doc: body.doc, note: body.note });
      if (applied) await pagesChanged(ctx, applied.tags);
      return { data, status: 201, message: applied ? 'revision.created' : 'revision.requested' };
    },
    revisions: async (_c, { params, query, user }) => ({
      data: await listRevisions(ctx.db, user, params.type, params.id, query),
    }),
    revision: async (_c, { params, user }) => ({
      data: await revisionDetail(ctx.db, user, params.type, params.id, params.number),
    }),
    restore: async (_c, { params, body, user }) => {
      const applied = await restoreRevision(ctx.db, user, { ...params, note: body.note });
      await pagesChanged(ctx, applied.tags);
      return {
        data: { outcome: 'applied' as const, id: applied.id, revision: applied.revision },
        message: 'revision.restored',
      };
    },
  });
}
