import { z } from 'zod';
import { GALGAME_STATUSES, type GalgameStatus, type Pagination } from '../catalogue-model.ts';
import { as, endpoint, type Contract } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { decimalId, queryInt, safeText } from '../input-rules.ts';
import { EDIT_TYPES } from './creator-model.ts';
import { LOOKUP_LIMIT, PUBLISHABLE_TYPES } from './items-model.ts';

/**
 * The API of the creator centre's manage pages and pickers: lists of items and entities to open,
 * look-ups for relation pickers, publishing, unpublishing and deleting.
 */

export {
  isPublishable,
  LOOKUP_LIMIT,
  MANAGE_PAGE_SIZE,
  PUBLISHABLE_TYPES,
  type PublishableType,
} from './items-model.ts';

const typeParam = z.enum(EDIT_TYPES, { error: messageRef('revision.error.type') });
const keyword = safeText({ max: 100, label: 'validation.label.keyword' });

/** One row of a manage list. */
export interface ManageRow {
  id: number;
  /** Title or name as stored (original language). */
  name: string;
  /** Chinese title or name; '' when none. */
  nameZh: string;
  image: string;
  /** galgame and lightnovel only. */
  status: GalgameStatus | null;
  /** Volumes: the series' id and name, the volume's number. */
  series: { id: number; name: string } | null;
  number: number | null;
  updatedAt: string | null;
}

export interface ManagePage {
  items: ManageRow[];
  pagination: Pagination;
  /** May the caller publish, unpublish and delete here (editor and above)? */
  canModerate: boolean;
}

/** A picker's suggestion. */
export interface LookupHit {
  id: number;
  name: string;
  nameZh: string;
  image: string;
}

export const manageListQuerySchema = z.object({
  keyword: keyword.optional(),
  status: z.enum(GALGAME_STATUSES, { error: messageRef('itemEditor.error.status') }).optional(),
  page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
});

export const creatorManageContract = {
  list: endpoint({
    method: 'GET',
    path: '/creator/manage/:type',
    params: z.object({ type: typeParam }),
    query: manageListQuerySchema,
    response: as<ManagePage>(),
    auth: 'required',
    summary:
      'Manage list of one type, newest first: `keyword` in any name, `status` (galgame, lightnovel), `page`; members see published items and their own, creators and above every entity, editors and above everything',
  }),
  lookup: endpoint({
    method: 'GET',
    path: '/creator/lookup/:type',
    params: z.object({ type: typeParam }),
    query: z.object({ keyword }),
    response: as<LookupHit[]>(),
    auth: 'required',
    summary: `Up to ${LOOKUP_LIMIT} entries of a type whose name or Chinese name contains \`keyword\` (relation pickers)`,
  }),
  names: endpoint({
    method: 'GET',
    path: '/creator/names/:type',
    params: z.object({ type: typeParam }),
    query: z.object({
      ids: z
        .string({ error: messageRef('itemEditor.error.ids') })
        .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,199}$/, { error: messageRef('itemEditor.error.ids') }),
    }),
    response: as<LookupHit[]>(),
    auth: 'required',
    summary: "The names of up to 200 entries of a type by id (`ids=1,2,3`), for the editors' relation lists",
  }),
  publish: endpoint({
    method: 'POST',
    path: '/creator/manage/:type/:id/publish',
    params: z.object({
      type: z.enum(PUBLISHABLE_TYPES, { error: messageRef('revision.error.type') }),
      id: decimalId(),
    }),
    response: as<{ id: number; status: GalgameStatus }>(),
    auth: 'required',
    summary: 'Editors and above: publishes a game or a light-novel series (public lists and search show it)',
  }),
  unpublish: endpoint({
    method: 'POST',
    path: '/creator/manage/:type/:id/unpublish',
    params: z.object({
      type: z.enum(PUBLISHABLE_TYPES, { error: messageRef('revision.error.type') }),
      id: decimalId(),
    }),
    response: as<{ id: number; status: GalgameStatus }>(),
    auth: 'required',
    summary:
      'Editors and above: takes a game or a light-novel series back to draft (gone from public lists and search)',
  }),
  deleteVolume: endpoint({
    method: 'DELETE',
    path: '/creator/manage/volume/:id',
    params: z.object({ id: decimalId() }),
    response: as<{ id: number; lightnovelId: number }>(),
    auth: 'required',
    summary: 'Editors and above: deletes a light-novel volume with its EPUB, reading positions and bookmarks',
  }),
} as const satisfies Contract;
