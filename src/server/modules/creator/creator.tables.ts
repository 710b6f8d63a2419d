import type { Generated, Selectable } from 'kysely';
import type { EditType, RequestStatus } from '../../../shared/creator/creator-model.ts';

/** One saved version of a catalogue item or entity: its whole document after the change. */
export interface CatalogueRevisionTable {
  id: number;
  item_type: EditType;
  item_id: number;
  /** 1, 2, … per item; unique with (item_type, item_id). */
  number: number;
  /** JSON of the item's document (shared/creator/docs.ts). */
  doc: string;
  /** JSON string[]: the fields this revision changed. */
  changes: Generated<string>;
  note: Generated<string>;
  /** Who made it; null for the first snapshot of an item that existed before revisions, or a removed account. */
  user_id: string | null;
  request_id: number | null;
  restored_from: number | null;
  created_at: string;
}
export type CatalogueRevisionRow = Selectable<CatalogueRevisionTable>;

/** An edit a member proposes; an editor applies it, refuses it or sends it back. */
export interface UpdateRequestTable {
  id: number;
  item_type: EditType;
  /** null for a proposed new item until it is approved. */
  item_id: number | null;
  /** The revision number the edit was made against (0 for a new item). */
  base_revision: Generated<number>;
  /** JSON of the proposed document. */
  doc: string;
  /** JSON FieldChange[] against the base revision. */
  changes: Generated<string>;
  /** The proposed title or name, and JSON string[] of the changed fields: what lists show of it. */
  title: Generated<string>;
  fields: Generated<string>;
  note: Generated<string>;
  status: Generated<RequestStatus>;
  user_id: string;
  reviewer_id: string | null;
  review_note: Generated<string>;
  reviewed_at: string | null;
  applied_revision: number | null;
  created_at: string;
  updated_at: string;
}
export type UpdateRequestRow = Selectable<UpdateRequestTable>;
/** A request as lists read it: without its document and changes (tens of kilobytes on a large game). */
export type UpdateRequestListRow = Omit<UpdateRequestRow, 'doc' | 'changes'>;

declare module '../../db/database.ts' {
  interface Database {
    catalogue_revision: CatalogueRevisionTable;
    update_request: UpdateRequestTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    revision_id: true;
    update_request_id: true;
  }
}
