import { sql } from 'kysely';
import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import { isAdminGroup, isEditorGroup, type EditType } from '../../../shared/creator/creator-model.ts';
import { diffDocs, EMPTY_DOCS, type EditDoc, type EditDocs, type FieldChange } from '../../../shared/creator/docs.ts';
import type {
  EditConflict,
  ItemDocument,
  RevisionDetail,
  RevisionPage,
  RevisionSummary,
} from '../../../shared/creator/items.contract.ts';
import type { LinkNames, MemberRef } from '../../../shared/creator/requests.contract.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { volumesOf } from '../lightnovel/lightnovel.service.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import type { UserRow } from '../users/users.tables.ts';
import {
  docTitle,
  editAgainst,
  itemPageTags,
  matchRowIds,
  normalizeDoc,
  readDoc,
  writeDoc,
  seenBy,
  type Publication,
  type StoredItem,
} from './docs.store.ts';
import { mergeEdit } from './edit-merge.ts';

/**
 * Revisions of catalogue items (decision 028). An item gets revision 1, a snapshot of what it is, the
 * first time anyone opens it for editing or proposes an edit, so every base is a real revision. Every
 * applied change writes revision n+1 with who, when, the note and the changed fields, in the
 * transaction of the change. Revision numbers are exact under concurrency: every writer of an item's
 * revisions holds the item's lock (PostgreSQL: an advisory lock; SQLite runs write transactions one at
 * a time), and the unique (item_type, item_id, number) index has the last word.
 */

export type Viewer = Pick<UserRow, 'id' | 'user_group' | 'status'>;

export const forbidden = () => new HttpError(403, 'FORBIDDEN', 'revision.error.forbidden');
const itemNotFound = () => new HttpError(404, 'NOT_FOUND', 'revision.error.itemNotFound');
const revisionNotFound = () => new HttpError(404, 'NOT_FOUND', 'revision.error.revisionNotFound');
export const nothingChanged = () => new HttpError(400, 'NOTHING_CHANGED', 'revision.error.nothingChanged');

/** Refuses banned members (their sessions normally ended already). */
export function assertMember(viewer: Viewer): void {
  if (viewer.status === 'banned') throw forbidden();
}

export const mayApply = (viewer: Viewer): boolean => isEditorGroup(viewer.user_group);
export const mayReadHistory = (viewer: Viewer): boolean => CREATOR_GROUPS.includes(viewer.user_group);

/** Takes the lock of an item's revisions for the rest of the transaction (see the module comment). */
export async function lockItem(trx: Db, type: EditType, id: number): Promise<void> {
  if (dialectOf(trx) === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext(${`revision:${type}:${id}`}))`.execute(trx);
}

/** Takes a lock named by a key for the rest of the transaction (PostgreSQL; SQLite writes one at a time). */
export async function lockKey(trx: Db, key: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/** Whether members may see and propose edits to it: published games and series, volumes of those; all entities. */
export const isPublic = (item: StoredItem): boolean => item.status === null || item.status === 'published';

/** The number of an item's newest revision (its document is not read: a big game's is hundreds of kB). */
export async function latestRevision(db: Db, type: EditType, id: number): Promise<{ number: number } | undefined> {
  const row = await db
    .selectFrom('catalogue_revision')
    .select('number')
    .where('item_type', '=', type)
    .where('item_id', '=', id)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { number: Number(row.number) } : undefined;
}

export async function revisionDoc(db: Db, type: EditType, id: number, number: number): Promise<EditDoc | undefined> {
  const row = await db
    .selectFrom('catalogue_revision')
    .select('doc')
    .where('item_type', '=', type)
    .where('item_id', '=', id)
    .where('number', '=', number)
    .executeTakeFirst();
  return row ? (JSON.parse(row.doc) as EditDoc) : undefined;
}

interface RevisionInput {
  type: EditType;
  id: number;
  number: number;
  doc: EditDoc;
  changes: readonly string[];
  note: string;
  userId: string | null;
  requestId?: number | null;
  restoredFrom?: number | null;
  now: Date;
}

/** Writes one revision; a number taken meanwhile is a 409 (the unique index has the last word). */
export async function insertRevision(trx: Db, input: RevisionInput): Promise<void> {
  try {
    await trx
      .insertInto('catalogue_revision')
      .values({
        id: await nextId(trx, 'revision_id'),
        item_type: input.type,
        item_id: input.id,
        number: input.number,
        doc: JSON.stringify(input.doc),
        changes: JSON.stringify(input.changes),
        note: input.note,
        user_id: input.userId,
        request_id: input.requestId ?? null,
        restored_from: input.restoredFrom ?? null,
        created_at: input.now.toISOString(),
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'EDIT_CONFLICT', 'revision.error.concurrent');
    throw error;
  }
}

/**
 * The item and its latest revision, writing revision 1 (a snapshot, nobody's) when it has none yet.
 * Runs in its own short transaction when given the database.
 */
export async function ensureRevision<T extends EditType>(
  db: Db,
  type: T,
  id: number,
  now = new Date(),
): Promise<{ item: StoredItem<T>; revision: number } | undefined> {
  if (!db.isTransaction) {
    // Most items have their first revision already: opening them writes nothing.
    const latest = await latestRevision(db, type, id);
    const item = latest ? await readDoc(db, type, id) : undefined;
    if (latest && item) return { item, revision: latest.number };
    return db.transaction().execute((trx) => ensureRevision(trx, type, id, now));
  }
  await lockItem(db, type, id);
  const item = await readDoc(db, type, id);
  if (!item) return undefined;
  const latest = await latestRevision(db, type, id);
  if (latest) return { item, revision: latest.number };
  await insertRevision(db, { type, id, number: 1, doc: item.doc, changes: [], note: '', userId: null, now });
  return { item, revision: 1 };
}

/** The editor's view of an item: its document and revision, and what the caller may do with it. */
export async function itemDocument(db: Db, viewer: Viewer, type: EditType, id: number): Promise<ItemDocument> {
  assertMember(viewer);
  const found = await ensureRevision(db, type, id);
  if (!found || (!isPublic(found.item) && !mayApply(viewer))) throw itemNotFound();
  const open = await db
    .selectFrom('update_request')
    .select('id')
    .where('item_type', '=', type)
    .where('item_id', '=', id)
    .where('user_id', '=', viewer.id)
    .where('status', 'in', ['pending', 'changes_requested'])
    .executeTakeFirst();
  return {
    type,
    id,
    title: found.item.title,
    status: type === 'galgame' || type === 'lightnovel' ? found.item.status : null,
    doc: found.item.doc,
    revision: found.revision,
    canApply: mayApply(viewer),
    pendingRequestId: open?.id ?? null,
    volumes:
      type === 'lightnovel'
        ? (await volumesOf(db, id)).map(({ id, kind, number, title, titleZh, hasEpub }) => ({
            id,
            kind,
            number,
            title,
            titleZh,
            hasEpub,
          }))
        : [],
  };
}

export interface ApplyInput<T extends EditType> {
  type: T;
  id: number;
  baseRevision: number;
  doc: EditDocs[T];
  overwrite?: readonly string[] | undefined;
  note: string;
  userId: string | null;
  requestId?: number | null;
  /** An approval whose changes are all there already approves without a new revision. */
  allowEmpty?: boolean;
  now: Date;
}

export interface Applied {
  id: number;
  revision: number;
  changes: FieldChange[];
  title: string;
  tags: string[];
}

/**
 * Applies an edit made against `baseRevision` inside the caller's transaction: merged onto the item as
 * it is now field by field (mergeEdit), 409 EDIT_CONFLICT with the conflicting fields unless
 * `overwrite` names exactly them, 400 NOTHING_CHANGED when it changes nothing, otherwise the catalogue
 * is written and revision n+1 records it.
 */
export async function applyEdit<T extends EditType>(trx: Db, input: ApplyInput<T>): Promise<Applied> {
  await lockItem(trx, input.type, input.id);
  const item = await readDoc(trx, input.type, input.id);
  if (!item) throw itemNotFound();
  const latest = await latestRevision(trx, input.type, input.id);
  const currentNumber = latest?.number ?? 0;
  const base = (await revisionDoc(trx, input.type, input.id, input.baseRevision)) as EditDocs[T] | undefined;
  if (!base) throw new HttpError(400, 'VALIDATION_FAILED', 'revision.error.baseUnknown');
  const baseDoc = normalizeDoc(input.type, base);
  const proposed = editAgainst(input.type, baseDoc, item.doc as EditDocs[T], normalizeDoc(input.type, input.doc));
  const merged = mergeEdit(input.type, baseDoc, item.doc, proposed, input.overwrite);
  if (merged.conflicts.length > 0) {
    const data: EditConflict = { currentRevision: currentNumber, fields: merged.conflicts };
    throw new HttpError(409, 'EDIT_CONFLICT', 'revision.error.conflict', data);
  }
  if (merged.changes.length === 0) {
    if (input.allowEmpty) return { id: input.id, revision: currentNumber, changes: [], title: item.title, tags: [] };
    throw nothingChanged();
  }
  const written = await writeDoc(trx, input.type, input.id, merged.doc, input.userId, input.now);
  const revision = currentNumber + 1;
  await insertRevision(trx, {
    type: input.type,
    id: input.id,
    number: revision,
    doc: written.doc,
    changes: merged.changes.map((c) => c.field),
    note: input.note,
    userId: input.userId,
    requestId: input.requestId ?? null,
    now: input.now,
  });
  return {
    id: input.id,
    revision,
    changes: merged.changes,
    title: docTitle(input.type, merged.doc) || item.title,
    tags: itemPageTags(input.type, input.id, item.doc, merged.doc),
  };
}

/**
 * Records, as revision n+1, a change made to an item by other means than a document (a moderator
 * removing a dead link, a cover taken from an uploaded EPUB) inside the caller's transaction: the item
 * is snapshotted first when it has no revision yet, `change` runs under the item's lock, and the fields
 * it changed are recorded with who and why. Answers null when it changed nothing in the document.
 */
export async function recordChange(
  trx: Db,
  type: EditType,
  id: number,
  change: () => Promise<void>,
  input: { userId: string | null; note: string; now: Date },
): Promise<Applied | null> {
  const before = await ensureRevision(trx, type, id, input.now);
  if (!before) throw itemNotFound();
  await change();
  const after = await readDoc(trx, type, id);
  if (!after) throw itemNotFound();
  const changes = diffDocs(type, before.item.doc as never, after.doc as never);
  if (changes.length === 0) return null;
  const revision = before.revision + 1;
  await insertRevision(trx, {
    type,
    id,
    number: revision,
    doc: after.doc,
    changes: changes.map((c) => c.field),
    note: input.note,
    userId: input.userId,
    now: input.now,
  });
  return {
    id,
    revision,
    changes,
    title: after.title,
    tags: itemPageTags(type, id, before.item.doc, after.doc),
  };
}

/**
 * Runs a bulk writer's update of an item (an import) and records it as a revision when the item has a
 * history already; an item without one gets its first snapshot when someone first opens it, so an
 * import of thousands of entries writes no revisions of its own.
 */
export async function writeRecorded<R>(
  db: Db,
  type: EditType,
  id: number,
  write: (trx: Db) => Promise<R>,
  input: { userId: string | null; note: string; now: Date },
): Promise<R> {
  if (!db.isTransaction) return db.transaction().execute((trx) => writeRecorded(trx, type, id, write, input));
  await lockItem(db, type, id);
  if (!(await latestRevision(db, type, id))) return write(db);
  let result: R | undefined;
  await recordChange(
    db,
    type,
    id,
    async () => {
      result = await write(db);
    },
    input,
  );
  return result as R;
}

/** Creates an item from a document inside the caller's transaction, with revision 1 recording it. */
export async function createItem<T extends EditType>(
  trx: Db,
  input: { type: T; doc: EditDocs[T]; note: string; userId: string | null; requestId?: number | null; now: Date },
): Promise<Applied> {
  const { id, doc } = await writeDoc(trx, input.type, null, input.doc, input.userId, input.now);
  const changes = diffDocs(input.type, EMPTY_DOCS[input.type], input.doc);
  await insertRevision(trx, {
    type: input.type,
    id,
    number: 1,
    doc,
    changes: changes.map((c) => c.field),
    note: input.note,
    userId: input.userId,
    requestId: input.requestId ?? null,
    now: input.now,
  });
  return {
    id,
    revision: 1,
    changes,
    title: docTitle(input.type, input.doc),
    tags: itemPageTags(input.type, id, null, input.doc),
  };
}

/** Members by account id, as shown beside revisions and requests. */
export async function membersById(db: Db, ids: readonly (string | null)[]): Promise<Map<string, MemberRef>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'name', 'avatar'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, { userId: r.user_id, name: r.name, avatar: r.avatar }]));
}

/** May the viewer read this item's history? Creators and above; unpublished items only editors. */
async function historyItem(db: Db, viewer: Viewer, type: EditType, id: number): Promise<void> {
  assertMember(viewer);
  if (!mayReadHistory(viewer)) throw forbidden();
  const found = await ensureRevision(db, type, id);
  if (!found || (!isPublic(found.item) && !mayApply(viewer))) throw itemNotFound();
}

type RevisionRow = {
  number: number;
  user_id: string | null;
  note: string;
  changes: string;
  request_id: number | null;
  restored_from: number | null;
  created_at: string;
};

function summaryOf(row: RevisionRow, people: Map<string, MemberRef>): RevisionSummary {
  return {
    number: Number(row.number),
    user: row.user_id ? (people.get(row.user_id) ?? null) : null,
    note: row.note,
    changes: JSON.parse(row.changes) as string[],
    requestId: row.request_id,
    restoredFrom: row.restored_from,
    createdAt: row.created_at,
  };
}

export async function listRevisions(
  db: Db,
  viewer: Viewer,
  type: EditType,
  id: number,
  request: PageRequest,
): Promise<RevisionPage> {
  await historyItem(db, viewer, type, id);
  const base = db.selectFrom('catalogue_revision').where('item_type', '=', type).where('item_id', '=', id);
  const [rows, total] = await Promise.all([
    base
      .select(['number', 'user_id', 'note', 'changes', 'request_id', 'restored_from', 'created_at'])
      .orderBy('number', 'desc')
      .limit(request.limit)
      .offset((request.page - 1) * request.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const people = await membersById(
    db,
    rows.map((r) => r.user_id),
  );
  return { items: rows.map((row) => summaryOf(row, people)), pagination: pageInfo(request, Number(total.n)) };
}

export async function revisionDetail(
  db: Db,
  viewer: Viewer,
  type: EditType,
  id: number,
  number: number,
): Promise<RevisionDetail> {
  await historyItem(db, viewer, type, id);
  const rows = await db
    .selectFrom('catalogue_revision')
    .select(['number', 'user_id', 'note', 'changes', 'request_id', 'restored_from', 'created_at', 'doc'])
    .where('item_type', '=', type)
    .where('item_id', '=', id)
    .where('number', 'in', number > 1 ? [number, number - 1] : [number])
    .execute();
  const row = rows.find((r) => Number(r.number) === number);
  if (!row) throw revisionNotFound();
  const previous = rows.find((r) => Number(r.number) === number - 1);
  const doc = JSON.parse(row.doc) as EditDoc;
  const before = previous ? (JSON.parse(previous.doc) as EditDoc) : null;
  const people = await membersById(db, [row.user_id]);
  return {
    ...summaryOf(row, people),
    doc,
    diff: before ? diffDocs(type, before as never, doc as never) : [],
    names: await linkNames(db, [doc, ...(before ? [before] : [])], viewer),
  };
}

/** Admins: makes revision `number` current again as a new revision, audited. */
export async function restoreRevision(
  db: Db,
  viewer: Viewer,
  input: { type: EditType; id: number; number: number; note: string },
  now = new Date(),
): Promise<Applied> {
  assertMember(viewer);
  if (!isAdminGroup(viewer.user_group)) throw forbidden();
  return db.transaction().execute(async (trx) => {
    await lockItem(trx, input.type, input.id);
    const found = await ensureRevision(trx, input.type, input.id, now);
    if (!found) throw itemNotFound();
    const doc = await revisionDoc(trx, input.type, input.id, input.number);
    if (!doc) throw revisionNotFound();
    const restored = matchRowIds(input.type, found.item.doc, normalizeDoc(input.type, doc as never)) as EditDoc;
    const changes = diffDocs(input.type, found.item.doc as never, restored as never);
    if (changes.length === 0) throw nothingChanged();
    const written = await writeDoc(trx, input.type, input.id, restored as never, viewer.id, now);
    const revision = found.revision + 1;
    await insertRevision(trx, {
      type: input.type,
      id: input.id,
      number: revision,
      doc: written.doc,
      changes: changes.map((c) => c.field),
      note: input.note,
      userId: viewer.id,
      restoredFrom: input.number,
      now,
    });
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'revision.restore',
        targetType: input.type,
        targetId: input.id,
        detail: { restoredFrom: input.number, revision, changes: changes.map((c) => c.field) },
      },
      now,
    );
    return {
      id: input.id,
      revision,
      changes,
      title: docTitle(input.type, restored),
      tags: itemPageTags(input.type, input.id, found.item.doc, restored),
    };
  });
}

const LINK_KEYS: Record<string, keyof LinkNames> = {
  tagId: 'tag',
  producerId: 'producer',
  personId: 'person',
  voicePersonId: 'person',
  characterId: 'character',
  galgameId: 'galgame',
  lightnovelId: 'lightnovel',
};

/**
 * The names of everything these documents link to (tags, people, producers, games, series). For a
 * `viewer` who is not an editor, unpublished games and series other than their own stay unnamed.
 */
export async function linkNames(db: Db, docs: readonly unknown[], viewer?: Viewer): Promise<LinkNames> {
  const ids: Record<keyof LinkNames, Set<number>> = {
    tag: new Set(),
    producer: new Set(),
    person: new Set(),
    character: new Set(),
    galgame: new Set(),
    lightnovel: new Set(),
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        const kind = LINK_KEYS[key];
        if (kind && typeof v === 'number') ids[kind].add(v);
        else visit(v);
      }
  };
  docs.forEach(visit);
  const names: LinkNames = { tag: {}, producer: {}, person: {}, character: {}, galgame: {}, lightnovel: {} };
  for (const kind of ['tag', 'producer', 'person', 'character'] as const) {
    if (ids[kind].size === 0) continue;
    const rows = await db
      .selectFrom(kind)
      .select(['id', 'name', 'name_zh'])
      .where('id', 'in', [...ids[kind]])
      .execute();
    for (const r of rows) names[kind][String(r.id)] = r.name_zh || r.name;
  }
  const shown = (row: Publication) => !viewer || mayApply(viewer) || seenBy(row, viewer.id);
  if (ids.lightnovel.size > 0) {
    const rows = await db
      .selectFrom('lightnovel')
      .select(['id', 'name', 'name_zh', 'status', 'created_by'])
      .where('id', 'in', [...ids.lightnovel])
      .execute();
    for (const r of rows.filter(shown)) names.lightnovel[String(r.id)] = r.name_zh || r.name;
  }
  if (ids.galgame.size > 0) {
    const rows = await db
      .selectFrom('galgame')
      .select(['id', 'title', 'title_zh', 'status', 'created_by'])
      .where('id', 'in', [...ids.galgame])
      .execute();
    for (const r of rows.filter(shown)) names.galgame[String(r.id)] = r.title_zh || r.title;
  }
  return names;
}

/** Writes an edit or a creation and answers the outcome; used by the items routes. */
export async function saveAsEditor<T extends EditType>(
  db: Db,
  viewer: Viewer,
  input: Omit<ApplyInput<T>, 'userId' | 'now'>,
  now = new Date(),
): Promise<Applied> {
  if (!mayApply(viewer)) throw forbidden();
  return db.transaction().execute(async (trx) => {
    const found = await ensureRevision(trx, input.type, input.id, now);
    if (!found) throw itemNotFound();
    if (input.baseRevision > found.revision)
      throw new HttpError(400, 'VALIDATION_FAILED', 'revision.error.baseUnknown');
    return applyEdit(trx, { ...input, userId: viewer.id, now });
  });
}
