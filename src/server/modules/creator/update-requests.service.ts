import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import type { EditType, RequestStatus } from '../../../shared/creator/creator-model.ts';
import { canonicalJson, diffDocs, type EditDoc, type EditDocs } from '../../../shared/creator/docs.ts';
import type { EditConflict, SaveOutcome } from '../../../shared/creator/items.contract.ts';
import type {
  RequestDetail,
  RequestField,
  RequestPage,
  RequestSummary,
} from '../../../shared/creator/requests.contract.ts';
import type { ReviewAction } from '../../../shared/notifications/notifications.ts';
import type { Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { enforceRateLimit, type RateRule } from '../../platform/rate-limit.ts';
import { HttpError } from '../../platform/errors.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import { checkLinks, docTitle, editAgainst, normalizeDoc, parseDoc, readDoc, withoutRowIds } from './docs.store.ts';
import type { UpdateRequestListRow, UpdateRequestRow } from './creator.tables.ts';
import { mergeEdit } from './edit-merge.ts';
import {
  applyEdit,
  assertMember,
  createItem,
  ensureRevision,
  forbidden,
  isPublic,
  latestRevision,
  linkNames,
  lockItem,
  lockKey,
  mayApply,
  mayReadHistory,
  membersById,
  nothingChanged,
  revisionDoc,
  type Applied,
  type Viewer,
} from './revisions.service.ts';

/**
 * Update requests (decision 028): members propose edits of published items (one open request per
 * member and item: saving again replaces it), creators propose new items; editors and above review
 * them. A review is one transaction: the item and its revision, the request's new state, the audit row
 * and the requester's notification; a request no longer pending answers 409 REQUEST_CLOSED.
 */

export interface RequestDeps extends NotifyDeps {
  db: Db;
}

const OPEN: RequestStatus[] = ['pending', 'changes_requested'];

/** Proposals (edits and new entries) one member may send in an hour: the editors' queue stays readable. */
export const PROPOSAL_LIMIT: RateRule = { limit: 60, windowMs: 60 * 60_000 };

/**
 * An identical entry this member created in the last two minutes, as `createItem` answers it: a create
 * sent twice makes one entry.
 */
async function recentlyCreated(
  trx: Db,
  type: EditType,
  userId: string,
  doc: EditDoc,
  now: Date,
): Promise<Applied | null> {
  const since = new Date(now.getTime() - 2 * 60_000).toISOString();
  const rows = await trx
    .selectFrom('catalogue_revision')
    .select(['item_id', 'doc'])
    .where('item_type', '=', type)
    .where('user_id', '=', userId)
    .where('number', '=', 1)
    .where('created_at', '>=', since)
    .execute();
  // Revision 1 holds the new rows' ids; the document sent twice has none.
  const sent = canonicalJson(withoutRowIds(type, doc));
  const same = rows.find((row) => canonicalJson(withoutRowIds(type, JSON.parse(row.doc) as EditDoc)) === sent);
  if (!same) return null;
  return { id: same.item_id, revision: 1, changes: [], title: docTitle(type, doc), tags: [] };
}
const requestNotFound = () => new HttpError(404, 'NOT_FOUND', 'revision.error.requestNotFound');
const closed = () => new HttpError(409, 'REQUEST_CLOSED', 'revision.error.requestClosed');
const itemNotFound = () => new HttpError(404, 'NOT_FOUND', 'revision.error.itemNotFound');

/** The columns lists read (everything but the document and its changes). */
export const LIST_COLUMNS = [
  'id',
  'item_type',
  'item_id',
  'base_revision',
  'title',
  'fields',
  'note',
  'status',
  'user_id',
  'reviewer_id',
  'review_note',
  'reviewed_at',
  'applied_revision',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UpdateRequestListRow)[];

/** The list columns of a request with this document and these changes. */
const listed = (type: EditType, doc: EditDoc, changes: readonly { field: string }[]) => ({
  title: docTitle(type, doc),
  fields: JSON.stringify(changes.map((c) => c.field)),
});

async function summaries(db: Db, rows: UpdateRequestListRow[]): Promise<RequestSummary[]> {
  const people = await membersById(
    db,
    rows.flatMap((r) => [r.user_id, r.reviewer_id]),
  );
  return rows.map((row) => summaryOf(row, people));
}

function summaryOf(row: UpdateRequestListRow, people: Map<string, RequestSummary['user'] & object>): RequestSummary {
  return {
    id: row.id,
    type: row.item_type,
    itemId: row.item_id,
    title: row.title,
    status: row.status,
    baseRevision: Number(row.base_revision),
    changes: JSON.parse(row.fields) as string[],
    note: row.note,
    user: people.get(row.user_id) ?? null,
    reviewer: row.reviewer_id ? (people.get(row.reviewer_id) ?? null) : null,
    reviewNote: row.review_note,
    reviewedAt: row.reviewed_at,
    appliedRevision: row.applied_revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function one(db: Db, id: number): Promise<RequestSummary> {
  const row = await db.selectFrom('update_request').select(LIST_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  return (await summaries(db, [row]))[0]!;
}

/**
 * A member's proposed edit of an existing item (any logged-in member, published items): written as
 * their open request for it, replacing the one they had. NOTHING_CHANGED when it equals its base.
 */
export async function proposeEdit(
  deps: RequestDeps,
  viewer: Viewer,
  input: { type: EditType; id: number; baseRevision: number; doc: unknown; note: string },
  now = new Date(),
): Promise<SaveOutcome> {
  assertMember(viewer);
  const sent = parseDoc(input.type, input.doc);
  await enforceRateLimit(deps.db, `proposal:${viewer.id}`, PROPOSAL_LIMIT, now.getTime());
  return deps.db.transaction().execute(async (trx) => {
    const found = await ensureRevision(trx, input.type, input.id, now);
    if (!found || !isPublic(found.item)) throw itemNotFound();
    const sentBase = await revisionDoc(trx, input.type, input.id, input.baseRevision);
    if (!sentBase) throw new HttpError(400, 'VALIDATION_FAILED', 'revision.error.baseUnknown');
    let base = normalizeDoc(input.type, sentBase as never) as EditDoc;
    let baseRevision = input.baseRevision;
    // Rows sent without their ids are the base's rows when they say the same (nothing changed then).
    let doc = editAgainst(input.type, base as never, base as never, sent as never) as EditDoc;
    if (!mayReadHistory(viewer) && baseRevision !== found.revision) {
      // Members who may not read the history propose against the item as it is: an edit made against an
      // older revision is merged onto the current one (a field both changed is a 409, without the old
      // values), so no request of theirs shows them a revision they could not open.
      const current = found.item.doc;
      const merged = mergeEdit(
        input.type,
        base as never,
        current as never,
        editAgainst(input.type, base as never, current as never, doc as never),
      );
      if (merged.conflicts.length > 0) {
        const fields = merged.conflicts.map((conflict) => ({ ...conflict, base: null }));
        const data: EditConflict = { currentRevision: found.revision, fields };
        throw new HttpError(409, 'EDIT_CONFLICT', 'revision.error.conflict', data);
      }
      doc = merged.doc as EditDoc;
      base = normalizeDoc(input.type, current as never) as EditDoc;
      baseRevision = found.revision;
    }
    const changes = diffDocs(input.type, base as never, doc as never);
    if (changes.length === 0) throw nothingChanged();
    await checkLinks(trx, input.type, doc, input.id, mayApply(viewer) ? undefined : { id: viewer.id, known: base });
    const open = await trx
      .selectFrom('update_request')
      .select('id')
      .where('item_type', '=', input.type)
      .where('item_id', '=', input.id)
      .where('user_id', '=', viewer.id)
      .where('status', 'in', OPEN)
      .executeTakeFirst();
    const values = {
      base_revision: baseRevision,
      doc: JSON.stringify(doc),
      changes: JSON.stringify(changes),
      ...listed(input.type, doc, changes),
      note: input.note,
      status: 'pending' as const,
      updated_at: now.toISOString(),
    };
    if (open) {
      await trx.updateTable('update_request').set(values).where('id', '=', open.id).execute();
      return { outcome: 'requested', requestId: open.id };
    }
    const id = await nextId(trx, 'update_request_id');
    await trx
      .insertInto('update_request')
      .values({
        id,
        item_type: input.type,
        item_id: input.id,
        user_id: viewer.id,
        created_at: now.toISOString(),
        ...values,
      })
      .execute();
    return { outcome: 'requested', requestId: id };
  });
}

/**
 * A new item: editors create it at once (revision 1), creators propose it for review, others 403. A
 * proposal identical to the member's own open one is that one (a double submit adds nothing).
 */
export async function proposeNew(
  deps: RequestDeps,
  viewer: Viewer,
  input: { type: EditType; doc: unknown; note: string },
  now = new Date(),
): Promise<SaveOutcome & { applied?: Applied }> {
  assertMember(viewer);
  if (!CREATOR_GROUPS.includes(viewer.user_group)) throw forbidden();
  const doc = parseDoc(input.type, input.doc);
  await checkLinks(deps.db, input.type, doc, null, mayApply(viewer) ? undefined : { id: viewer.id, known: null });
  if (mayApply(viewer)) {
    const applied = await deps.db.transaction().execute(async (trx) => {
      // The same new entry sent twice (a double click, a retry) is the one already made.
      await lockKey(trx, `new-item:${viewer.id}`);
      const again = await recentlyCreated(trx, input.type, viewer.id, doc, now);
      return again ?? createItem(trx, { type: input.type, doc, note: input.note, userId: viewer.id, now });
    });
    return { outcome: 'applied', id: applied.id, revision: applied.revision, applied };
  }
  await enforceRateLimit(deps.db, `proposal:${viewer.id}`, PROPOSAL_LIMIT, now.getTime());
  return deps.db.transaction().execute(async (trx) => {
    await lockKey(trx, `new-request:${viewer.id}`);
    const mine = await trx
      .selectFrom('update_request')
      .select(['id', 'doc'])
      .where('item_type', '=', input.type)
      .where('item_id', 'is', null)
      .where('user_id', '=', viewer.id)
      .where('status', 'in', OPEN)
      .execute();
    const same = mine.find((row) => canonicalJson(JSON.parse(row.doc)) === canonicalJson(doc));
    if (same) return { outcome: 'requested' as const, requestId: same.id };
    const id = await nextId(trx, 'update_request_id');
    const changes = diffDocs(input.type, null, doc as never);
    await trx
      .insertInto('update_request')
      .values({
        id,
        item_type: input.type,
        item_id: null,
        base_revision: 0,
        doc: JSON.stringify(doc),
        changes: JSON.stringify(changes),
        ...listed(input.type, doc, changes),
        note: input.note,
        status: 'pending',
        user_id: viewer.id,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    return { outcome: 'requested' as const, requestId: id };
  });
}

export async function myRequests(
  db: Db,
  viewer: Viewer,
  query: PageRequest & { status?: RequestStatus | undefined },
): Promise<RequestPage> {
  let base = db.selectFrom('update_request').where('user_id', '=', viewer.id);
  if (query.status) base = base.where('status', '=', query.status);
  const [rows, total] = await Promise.all([
    base
      .select(LIST_COLUMNS)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: await summaries(db, rows), pagination: pageInfo(query, Number(total.n)) };
}

/** Editors and above: requests by status (pending by default, oldest first) and type. */
export async function requestQueue(
  db: Db,
  viewer: Viewer,
  query: PageRequest & { status?: RequestStatus | undefined; type?: EditType | undefined },
): Promise<RequestPage> {
  assertMember(viewer);
  if (!mayApply(viewer)) throw forbidden();
  const status = query.status ?? 'pending';
  let base = db.selectFrom('update_request').where('status', '=', status);
  if (query.type) base = base.where('item_type', '=', query.type);
  const waiting = status === 'pending' || status === 'changes_requested';
  const [rows, total] = await Promise.all([
    base
      .select(LIST_COLUMNS)
      .orderBy('updated_at', waiting ? 'asc' : 'desc')
      .orderBy('id', waiting ? 'asc' : 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: await summaries(db, rows), pagination: pageInfo(query, Number(total.n)) };
}

async function visibleRow(db: Db, viewer: Viewer, id: number): Promise<UpdateRequestRow> {
  assertMember(viewer);
  const row = await db.selectFrom('update_request').selectAll().where('id', '=', id).executeTakeFirst();
  // Someone else's request is not there for a member (no hint that it exists).
  if (!row || (row.user_id !== viewer.id && !mayApply(viewer))) throw requestNotFound();
  return row;
}

/** One request with base, current and proposed values per changed field, and which conflict. */
export async function requestDetail(db: Db, viewer: Viewer, id: number): Promise<RequestDetail> {
  const row = await visibleRow(db, viewer, id);
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  let base: Record<string, unknown> | null = null;
  let current: Record<string, unknown> | null = null;
  let currentRevision = 0;
  if (row.item_id !== null) {
    base = (await revisionDoc(db, row.item_type, row.item_id, Number(row.base_revision))) as Record<
      string,
      unknown
    > | null;
    if (base) base = normalizeDoc(row.item_type, base as never) as Record<string, unknown>;
    const item = await readDoc(db, row.item_type, row.item_id);
    // An item taken back to draft since is no longer shown to a member who may not see drafts: their
    // request keeps what they sent and the base they saw.
    const shown = item !== undefined && (isPublic(item) || mayApply(viewer));
    current = shown ? (item.doc as Record<string, unknown>) : null;
    currentRevision = shown ? ((await latestRevision(db, row.item_type, row.item_id))?.number ?? 0) : 0;
  }
  const changed = diffDocs(row.item_type, base as never, doc as never);
  const fields: RequestField[] = changed.map((change) => {
    const now = current ? (current[change.field] ?? null) : null;
    const theirs = current !== null && canonicalJson(now) !== canonicalJson(change.before);
    return {
      field: change.field,
      base: change.before,
      current: now,
      proposed: change.after,
      conflict: row.status === 'pending' && theirs && canonicalJson(now) !== canonicalJson(change.after),
    };
  });
  const summary = (await summaries(db, [row]))[0]!;
  const mine = row.user_id === viewer.id;
  const open = OPEN.includes(row.status);
  return {
    ...summary,
    doc: doc as EditDoc,
    fields,
    currentRevision,
    names: await linkNames(db, [doc, base, current], viewer),
    can: {
      review: row.status === 'pending' && mayApply(viewer) && !mine,
      withdraw: mine && open,
      resubmit: mine && open,
    },
  };
}

interface Review {
  row: UpdateRequestRow;
  title: string;
}

/**
 * Runs one review step on a pending request inside a transaction: locks the request, checks it is still
 * pending (REQUEST_CLOSED otherwise) and that the reviewer is not its author, then `step`.
 */
async function review<T>(
  deps: RequestDeps,
  viewer: Viewer,
  id: number,
  step: (trx: Db, row: UpdateRequestRow) => Promise<T>,
): Promise<T> {
  assertMember(viewer);
  if (!mayApply(viewer)) throw forbidden();
  const result = await deps.db.transaction().execute(async (trx) => {
    await lockKey(trx, `update-request:${id}`);
    const row = await trx.selectFrom('update_request').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw requestNotFound();
    if (row.user_id === viewer.id) throw new HttpError(403, 'FORBIDDEN', 'revision.error.ownRequest');
    if (row.status !== 'pending') throw closed();
    return step(trx, row);
  });
  deps.jobs.poke();
  return result;
}

async function closeRequest(
  deps: RequestDeps,
  trx: Db,
  viewer: Viewer,
  row: UpdateRequestRow,
  change: { status: RequestStatus; reason: string; appliedRevision?: number; itemId?: number },
  outcome: Review & { action: ReviewAction },
  now: Date,
): Promise<void> {
  const done = await trx
    .updateTable('update_request')
    .set({
      status: change.status,
      reviewer_id: viewer.id,
      review_note: change.reason,
      reviewed_at: now.toISOString(),
      updated_at: now.toISOString(),
      ...(change.appliedRevision !== undefined ? { applied_revision: change.appliedRevision } : {}),
      ...(change.itemId !== undefined ? { item_id: change.itemId } : {}),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw closed();
  const auditAction =
    change.status === 'approved'
      ? 'request.approve'
      : change.status === 'rejected'
        ? 'request.reject'
        : 'request.changes';
  await writeAudit(
    trx,
    {
      actorId: viewer.id,
      action: auditAction,
      targetType: 'update_request',
      targetId: row.id,
      detail: {
        itemType: row.item_type,
        itemId: change.itemId ?? row.item_id,
        ...(change.reason ? { reason: change.reason } : {}),
        ...(change.appliedRevision !== undefined ? { revision: change.appliedRevision } : {}),
      },
    },
    now,
  );
  const itemId = change.itemId ?? row.item_id;
  await notifyLater(deps, trx, {
    kind: 'review',
    recipientId: row.user_id,
    reviewerId: viewer.id,
    action: outcome.action,
    subject: itemId === null ? null : { type: row.item_type, id: itemId },
    title: outcome.title,
    reason: change.reason,
    at: now.toISOString(),
  });
}

/**
 * Approves a pending request: applies it (a new revision with the request's id, or the new item with
 * revision 1), closes it with the revision, audits it and tells its author, in one transaction.
 */
export async function approveRequest(
  deps: RequestDeps,
  viewer: Viewer,
  id: number,
  overwrite: readonly string[] | undefined,
  now = new Date(),
): Promise<{ outcome: SaveOutcome; tags: string[] }> {
  return review(deps, viewer, id, async (trx, row) => {
    const doc = JSON.parse(row.doc) as EditDocs[EditType];
    let applied: Applied;
    if (row.item_id === null) {
      applied = await createItem(trx, {
        type: row.item_type,
        doc,
        note: row.note,
        userId: row.user_id,
        requestId: row.id,
        now,
      });
    } else {
      await lockItem(trx, row.item_type, row.item_id);
      applied = await applyEdit(trx, {
        type: row.item_type,
        id: row.item_id,
        baseRevision: Number(row.base_revision),
        doc,
        overwrite,
        note: row.note,
        userId: row.user_id,
        requestId: row.id,
        allowEmpty: true,
        now,
      });
    }
    await closeRequest(
      deps,
      trx,
      viewer,
      row,
      { status: 'approved', reason: '', appliedRevision: applied.revision, itemId: applied.id },
      { row, title: applied.title || docTitle(row.item_type, doc), action: 'request_approved' },
      now,
    );
    return {
      outcome: { outcome: 'applied' as const, id: applied.id, revision: applied.revision },
      tags: applied.tags,
    };
  });
}

/** Refuses (rejected) or sends back (changes_requested) a pending request with the reviewer's reason. */
export async function closeWithReason(
  deps: RequestDeps,
  viewer: Viewer,
  id: number,
  status: 'rejected' | 'changes_requested',
  reason: string,
  now = new Date(),
): Promise<RequestSummary> {
  await review(deps, viewer, id, async (trx, row) => {
    const title = docTitle(row.item_type, JSON.parse(row.doc) as EditDoc);
    await closeRequest(
      deps,
      trx,
      viewer,
      row,
      { status, reason },
      { row, title, action: status === 'rejected' ? 'request_rejected' : 'request_changes' },
      now,
    );
  });
  return one(deps.db, id);
}

/** Its author takes back a pending or sent-back request. */
export async function withdrawRequest(db: Db, viewer: Viewer, id: number, now = new Date()): Promise<RequestSummary> {
  const row = await visibleRow(db, viewer, id);
  if (row.user_id !== viewer.id) throw forbidden();
  const done = await db
    .updateTable('update_request')
    .set({ status: 'withdrawn', updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw closed();
  return one(db, id);
}

/** Its author edits a pending or sent-back request: the new document, back to pending. */
export async function resubmitRequest(
  db: Db,
  viewer: Viewer,
  id: number,
  input: { doc: unknown; baseRevision?: number | undefined; note: string },
  now = new Date(),
): Promise<RequestSummary> {
  const row = await visibleRow(db, viewer, id);
  if (row.user_id !== viewer.id) throw forbidden();
  let doc = parseDoc(row.item_type, input.doc);
  await db.transaction().execute(async (trx) => {
    await lockKey(trx, `update-request:${id}`);
    let baseRevision = Number(row.base_revision);
    let base: EditDoc | null = null;
    if (row.item_id !== null) {
      // An item taken back to draft since takes no more proposals from members who may not see it.
      const item = await readDoc(trx, row.item_type, row.item_id);
      if (!item || (!isPublic(item) && !mayApply(viewer))) throw itemNotFound();
      // Members who may not read the history move their request only to the item's newest revision.
      if (input.baseRevision !== undefined && !mayReadHistory(viewer)) {
        const newest = (await latestRevision(trx, row.item_type, row.item_id))?.number ?? 0;
        if (input.baseRevision !== newest) throw new HttpError(400, 'VALIDATION_FAILED', 'revision.error.baseUnknown');
      }
      const readBase = async (number: number) => {
        const found = await revisionDoc(trx, row.item_type, row.item_id!, number);
        if (!found) throw new HttpError(400, 'VALIDATION_FAILED', 'revision.error.baseUnknown');
        return normalizeDoc(row.item_type, found as never) as EditDoc;
      };
      base = await readBase(baseRevision);
      // The document is the request's, made against its base. Moving the request to a newer base merges
      // it onto that revision field by field (conflicts are a 409), so nothing changed since is undone.
      if (input.baseRevision !== undefined && input.baseRevision !== baseRevision) {
        const onto = await readBase(input.baseRevision);
        const merged = mergeEdit(row.item_type, base as never, onto as never, doc as never);
        if (merged.conflicts.length > 0) {
          const data: EditConflict = { currentRevision: input.baseRevision, fields: merged.conflicts };
          throw new HttpError(409, 'EDIT_CONFLICT', 'revision.error.conflict', data);
        }
        doc = merged.doc as EditDoc;
        base = onto;
        baseRevision = input.baseRevision;
      }
    }
    const changes = diffDocs(row.item_type, base as never, doc as never);
    if (changes.length === 0) throw nothingChanged();
    await checkLinks(
      trx,
      row.item_type,
      doc,
      row.item_id,
      mayApply(viewer) ? undefined : { id: viewer.id, known: base },
    );
    const done = await trx
      .updateTable('update_request')
      .set({
        doc: JSON.stringify(doc),
        base_revision: baseRevision,
        changes: JSON.stringify(changes),
        ...listed(row.item_type, doc, changes),
        note: input.note,
        status: 'pending',
        updated_at: now.toISOString(),
      })
      .where('id', '=', id)
      .where('status', 'in', OPEN)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw closed();
  });
  return one(db, id);
}
