import { z } from 'zod';
import type { Pagination } from '../catalogue-model.ts';
import { as, endpoint, type Contract } from '../contract.ts';
import { messageRef } from '../i18n/index.ts';
import { bodyInt, decimalId, queryInt, safeText } from '../input-rules.ts';
import type { VolumeCard } from '../lightnovel/lightnovel.ts';
import { EDIT_TYPES, type EditType } from './creator-model.ts';
import type { EditDoc, FieldChange } from './docs.ts';
import { EDIT_NOTE_MAX } from './items-model.ts';
import type { LinkNames } from './requests.contract.ts';

/*
 * The catalogue editors' API (decision 028). Editors and admins apply an edit at once (a new revision);
 * everyone else who may edit sends it as an update request for review. The body's `doc` is checked
 * against the document schema of the path's type (shared/creator/docs.ts): a wrong field answers 400
 * with the field named.
 */

export { EDIT_NOTE_MAX } from './items-model.ts';

const typeParam = z.enum(EDIT_TYPES, { error: messageRef('revision.error.type') });
const itemParams = z.object({ type: typeParam, id: decimalId() });
const revisionParams = z.object({
  type: typeParam,
  id: decimalId(),
  number: decimalId('revision.label.number'),
});
const noteField = safeText({ kind: 'multiline', max: EDIT_NOTE_MAX, label: 'revision.label.note' });

/** An item's document as the editor opens it. */
export interface ItemDocument {
  type: EditType;
  id: number;
  /** Shown in headings: the title or name. */
  title: string;
  /** The catalogue status of items that have one (galgame, lightnovel); null for the others. */
  status: string | null;
  doc: EditDoc;
  /** The number of the revision `doc` is (send it back as `baseRevision`). */
  revision: number;
  /** May the caller apply edits directly (editor and above)? Otherwise a save is an update request. */
  canApply: boolean;
  /** The caller's own open request for this item, if any: a save replaces it. */
  pendingRequestId: number | null;
  /** A series' volumes in reading order (each edited on its own page); empty for the other types. */
  volumes: ItemVolume[];
}

/** A volume as the series editor lists it, linking to the volume's editor. */
export type ItemVolume = Pick<VolumeCard, 'id' | 'kind' | 'number' | 'title' | 'titleZh' | 'hasEpub'>;

/** What a save did: applied (a new revision) or sent for review (an update request). */
export type SaveOutcome =
  { outcome: 'applied'; id: number; revision: number } | { outcome: 'requested'; requestId: number };

/**
 * `data` of a 409 EDIT_CONFLICT: the item changed since `baseRevision` in fields the edit also changes.
 * The editor shows them (theirs, the current value, the base) and never overwrites them silently.
 */
export interface EditConflict {
  currentRevision: number;
  fields: { field: string; base: unknown; current: unknown; proposed: unknown }[];
}

export interface RevisionSummary {
  number: number;
  user: { userId: number; name: string; avatar: string } | null;
  note: string;
  /** The fields it changed. */
  changes: string[];
  requestId: number | null;
  restoredFrom: number | null;
  createdAt: string;
}

export interface RevisionPage {
  items: RevisionSummary[];
  pagination: Pagination;
}

export interface RevisionDetail extends RevisionSummary {
  doc: EditDoc;
  /** Against the revision before it (empty for the first). */
  diff: FieldChange[];
  /** Names of the tags, people, producers, games and series the document and the one before link to. */
  names: LinkNames;
}

export const saveBodySchema = z.object({
  doc: z.unknown(),
  baseRevision: bodyInt({ min: 1, max: 1_000_000, label: 'revision.label.number' }),
  note: noteField.default(''),
  /**
   * Editors only: apply even though the item changed since baseRevision, over these fields (the ones
   * the conflict answer named). Without it a conflict answers 409.
   */
  overwrite: z
    .array(
      z
        .string({ error: messageRef('revision.error.overwrite') })
        .max(40, { error: messageRef('revision.error.overwrite') }),
      {
        error: messageRef('revision.error.overwrite'),
      },
    )
    .max(40, { error: messageRef('revision.error.overwrite') })
    .optional(),
});
export type SaveBody = z.input<typeof saveBodySchema>;

export const createBodySchema = z.object({ doc: z.unknown(), note: noteField.default('') });
export type CreateBody = z.input<typeof createBodySchema>;

export const creatorItemsContract = {
  document: endpoint({
    method: 'GET',
    path: '/creator/items/:type/:id',
    params: itemParams,
    response: as<ItemDocument>(),
    auth: 'required',
    summary: "An item's editable document and its revision number",
  }),
  save: endpoint({
    method: 'PUT',
    path: '/creator/items/:type/:id',
    params: itemParams,
    body: saveBodySchema,
    response: as<SaveOutcome>(),
    auth: 'required',
    summary:
      'Saves an edit: applied by editors and above, otherwise sent as an update request; 409 EDIT_CONFLICT on a conflict',
  }),
  create: endpoint({
    method: 'POST',
    path: '/creator/items/:type',
    params: z.object({ type: typeParam }),
    body: createBodySchema,
    response: as<SaveOutcome>(),
    auth: 'required',
    summary: 'Creates an item (editors and above) or proposes it for review (creators)',
  }),
  revisions: endpoint({
    method: 'GET',
    path: '/creator/items/:type/:id/revisions',
    params: itemParams,
    query: z.object({
      page: queryInt({ min: 1, max: 10_000, label: 'validation.label.page' }).default(1),
      limit: queryInt({ min: 1, max: 50, label: 'validation.label.pageSize' }).default(20),
    }),
    response: as<RevisionPage>(),
    auth: 'required',
    summary: "An item's revision history, newest first",
  }),
  revision: endpoint({
    method: 'GET',
    path: '/creator/items/:type/:id/revisions/:number',
    params: revisionParams,
    response: as<RevisionDetail>(),
    auth: 'required',
    summary: 'One revision: its document and what it changed',
  }),
  restore: endpoint({
    method: 'POST',
    path: '/creator/items/:type/:id/revisions/:number/restore',
    params: revisionParams,
    body: z.object({ note: noteField.default('') }),
    response: as<SaveOutcome>(),
    auth: 'required',
    summary: 'Admins: makes an old revision current again (as a new revision)',
  }),
} as const satisfies Contract;
