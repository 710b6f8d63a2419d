import { sql } from 'kysely';
import type { ContentType } from '../../../shared/community/community-model.ts';
import type { ContentState, ModeratedStatus, ModeratedType } from '../../../shared/moderation/moderation.contract.ts';
import type { TargetRef } from '../../../shared/targets.ts';
import type { Db, Trx } from '../../db/database.ts';
import { pageTags } from '../../http/page-cache-policy.ts';
import { HttpError } from '../../platform/errors.ts';
import type { TargetRegistry } from '../../platform/targets/targets.ts';
import { commentPageTags } from '../comments/comments.service.ts';
import { commentExcerpt } from '../comments/comments.targets.ts';
import { moveCounts } from '../community/content.service.ts';
import { ensureTopics } from '../community/topics.service.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import { requireEditor, type Staff } from './moderation.access.ts';
import { writeAudit } from './audit-log.ts';

/*
 * Hiding, restoring and deleting posts, articles and comments (issue 18 §6). Hidden is a status of its
 * own ('hidden'): every list, feed, search and shared page shows only published posts and articles and
 * visible comments, so a hidden item is gone everywhere at once (only its author and the editors still
 * open a hidden post or article, marked hidden), and its counts leave its author, section, topics and
 * target exactly as an unpublish or a delete would take them. Restoring gives them back. Each action
 * runs inside the caller's transaction with its audit row and tells the author; the page-cache tags it
 * answers are for after the commit.
 */

const HIDDEN = 'hidden' as const;

export interface ContentDeps extends NotifyDeps {
  targets: TargetRegistry;
}

/** What an action did: the item's state, and the cached pages to drop once committed. */
export interface ContentOutcome {
  state: ContentState;
  tags: string[];
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'moderation.error.notFound');

interface ItemRow {
  id: number;
  user_id: string;
  status: string;
  section_id: number | null;
  title: string;
  topic_names: string;
}

async function lockItem(trx: Trx, type: ContentType, id: number): Promise<ItemRow> {
  const table = type as 'post';
  // Taking the item's lock first (as the community's writers do): a racing save or delete waits here.
  const locked = await trx
    .updateTable(table)
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) !== 1) throw notFound();
  return trx
    .selectFrom(table)
    .select(['id', 'user_id', 'status', 'section_id', 'title', 'topic_names'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function topicIdsOf(trx: Trx, type: ContentType, id: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('content_topic')
    .select('topic_id')
    .where('content_type', '=', type)
    .where('content_id', '=', id)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.topic_id);
}

const itemTags = (type: ContentType, row: ItemRow, topicIds: readonly number[]) => [
  type === 'post' ? pageTags.post(row.id) : pageTags.article(row.id),
  pageTags.community,
  ...(row.section_id !== null ? [pageTags.section(row.section_id)] : []),
  ...topicIds.map((id) => pageTags.topic(id)),
];

interface CommentRow {
  id: number;
  user_id: string;
  status: string;
  target_type: TargetRef['type'];
  target_id: number;
  root_id: number | null;
  reply_count: number;
  content: string;
}

async function lockComment(deps: ContentDeps, trx: Trx, id: number): Promise<CommentRow> {
  const comment = await trx
    .selectFrom('comment')
    .select(['id', 'user_id', 'status', 'target_type', 'target_id', 'root_id', 'reply_count', 'content'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!comment) throw notFound();
  // The target's count row first, then the comment, in the order the comment writers take them.
  const spec = deps.targets.counterColumn(comment.target_type, 'comment');
  if (spec) {
    const column = sql.ref(spec.column);
    await sql`update ${sql.table(spec.table)} set ${column} = ${column} where ${sql.ref(spec.idColumn)} = ${comment.target_id}`.execute(
      trx,
    );
  }
  await trx.updateTable('comment').set({ id }).where('id', '=', id).execute();
  return trx
    .selectFrom('comment')
    .select(['id', 'user_id', 'status', 'target_type', 'target_id', 'root_id', 'reply_count', 'content'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** A visible comment leaves (or comes back to) its target's count and its root's reply count. */
async function countComment(deps: ContentDeps, trx: Trx, comment: CommentRow, delta: 1 | -1): Promise<void> {
  await deps.targets.adjust(trx, { type: comment.target_type, id: comment.target_id }, 'comment', delta);
  if (comment.root_id !== null)
    await trx
      .updateTable('comment')
      .set({
        reply_count:
          delta > 0
            ? sql<number>`reply_count + 1`
            : sql<number>`case when reply_count > 0 then reply_count - 1 else 0 end`,
      })
      .where('id', '=', comment.root_id)
      .execute();
}

const commentItem = (comment: CommentRow) => ({
  type: 'comment' as const,
  id: comment.id,
  authorId: comment.user_id,
  title: commentExcerpt(comment.content, 40),
});

const rowItem = (type: ContentType, row: ItemRow) => ({ type, id: row.id, authorId: row.user_id, title: row.title });

const state = (targetType: ModeratedType, targetId: number, status: ModeratedStatus): ContentState => ({
  targetType,
  targetId,
  status,
});

/**
 * Tells the author what a moderator did to their item (their own actions tell nobody) and writes the
 * action's audit row, in the action's transaction.
 */
async function recordAction(
  deps: ContentDeps,
  trx: Trx,
  staff: Staff,
  item: { type: ModeratedType; id: number; authorId: string; title: string },
  action: ContentAction,
  detail: Record<string, unknown>,
  now: Date,
): Promise<void> {
  if (item.authorId !== staff.id)
    await notifyLater(deps, trx, {
      kind: 'moderation',
      recipientId: item.authorId,
      moderatorId: staff.id,
      targetType: item.type,
      targetId: item.id,
      action,
      title: item.title,
      at: now.toISOString(),
    });
  await writeAudit(
    trx,
    { actorId: staff.id, action: `content.${action}`, targetType: item.type, targetId: item.id, detail },
    now,
  );
}

/** A post or article leaves the published lists (or comes back): its status and every count with it. */
async function setPublished(
  trx: Trx,
  type: ContentType,
  row: ItemRow,
  published: boolean,
  topicIds: number[],
  now: Date,
): Promise<void> {
  await trx
    .updateTable(type as 'post')
    .set({ status: published ? 'published' : HIDDEN, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const shown = { published: true, sectionId: row.section_id, topicIds };
  const gone = { published: false, sectionId: null, topicIds: [] };
  await moveCounts(
    trx,
    { type, id: row.id, authorId: row.user_id },
    published ? gone : shown,
    published ? shown : gone,
    now,
  );
}

/** Hides a published post or article, or a visible comment (409 when already hidden). */
export async function hideContent(
  deps: ContentDeps,
  trx: Trx,
  staff: Staff,
  target: { type: ModeratedType; id: number },
  reason: string,
  now: Date,
): Promise<ContentOutcome> {
  if (target.type === 'comment') {
    const comment = await lockComment(deps, trx, target.id);
    if (comment.status === HIDDEN) throw new HttpError(409, 'CONFLICT', 'moderation.error.alreadyHidden');
    if (comment.status !== 'visible') throw notFound();
    // A root with visible replies stays in its thread as a placeholder, which would show a hidden text.
    if (comment.root_id === null && comment.reply_count > 0)
      throw new HttpError(409, 'CONFLICT', 'moderation.error.rootWithReplies');
    await trx.updateTable('comment').set({ status: HIDDEN }).where('id', '=', comment.id).execute();
    await countComment(deps, trx, comment, -1);
    await recordAction(deps, trx, staff, commentItem(comment), 'hide', { reason }, now);
    return {
      state: state('comment', comment.id, 'hidden'),
      tags: commentPageTags({ type: comment.target_type, id: comment.target_id }),
    };
  }
  const row = await lockItem(trx, target.type, target.id);
  if (row.status === HIDDEN) throw new HttpError(409, 'CONFLICT', 'moderation.error.alreadyHidden');
  if (row.status === 'deleted') throw notFound();
  if (row.status !== 'published') throw new HttpError(409, 'CONFLICT', 'moderation.error.notPublished');
  const topicIds = await topicIdsOf(trx, target.type, row.id);
  await setPublished(trx, target.type, row, false, topicIds, now);
  await recordAction(deps, trx, staff, rowItem(target.type, row), 'hide', { reason, title: row.title }, now);
  return { state: state(target.type, row.id, 'hidden'), tags: itemTags(target.type, row, topicIds) };
}

/** Brings hidden content back as it was: published, or visible, with its counts and topics. */
export async function restoreContent(
  deps: ContentDeps,
  trx: Trx,
  staff: Staff,
  target: { type: ModeratedType; id: number },
  reason: string,
  now: Date,
): Promise<ContentOutcome> {
  if (target.type === 'comment') {
    const comment = await lockComment(deps, trx, target.id);
    if (comment.status !== HIDDEN) throw new HttpError(409, 'CONFLICT', 'moderation.error.notHidden');
    await trx.updateTable('comment').set({ status: 'visible' }).where('id', '=', comment.id).execute();
    await countComment(deps, trx, comment, 1);
    await recordAction(deps, trx, staff, commentItem(comment), 'restore', { reason }, now);
    return {
      state: state('comment', comment.id, 'visible'),
      tags: commentPageTags({ type: comment.target_type, id: comment.target_id }),
    };
  }
  const row = await lockItem(trx, target.type, target.id);
  if (row.status !== HIDDEN)
    throw row.status === 'deleted' ? notFound() : new HttpError(409, 'CONFLICT', 'moderation.error.notHidden');
  const names = JSON.parse(row.topic_names) as string[];
  const topicIds = await ensureTopics(trx, names, now);
  await setPublished(trx, target.type, row, true, topicIds, now);
  await recordAction(deps, trx, staff, rowItem(target.type, row), 'restore', { reason, title: row.title }, now);
  return { state: state(target.type, row.id, 'published'), tags: itemTags(target.type, row, topicIds) };
}

/**
 * Deletes a post, article or comment, hidden or not (404 when already deleted); counts leave it when it
 * was still counted, and its author is told through the moderation notification.
 */
export async function deleteModerated(
  deps: ContentDeps,
  trx: Trx,
  staff: Staff,
  target: { type: ModeratedType; id: number },
  reason: string,
  now: Date,
): Promise<ContentOutcome> {
  const at = now.toISOString();
  if (target.type === 'comment') {
    const comment = await lockComment(deps, trx, target.id);
    if (comment.status === 'deleted') throw notFound();
    await trx
      .updateTable('comment')
      .set({ status: 'deleted', deleted_at: at, pinned: 0 })
      .where('id', '=', comment.id)
      .execute();
    if (comment.status === 'visible') await countComment(deps, trx, comment, -1);
    await recordAction(deps, trx, staff, commentItem(comment), 'delete', { reason, was: comment.status }, now);
    return {
      state: state('comment', comment.id, 'deleted'),
      tags: commentPageTags({ type: comment.target_type, id: comment.target_id }),
    };
  }
  const row = await lockItem(trx, target.type, target.id);
  if (row.status === 'deleted') throw notFound();
  const wasPublished = row.status === 'published';
  const topicIds = wasPublished ? await topicIdsOf(trx, target.type, row.id) : [];
  await trx
    .updateTable(target.type as 'post')
    .set({ status: 'deleted', updated_at: at })
    .where('id', '=', row.id)
    .execute();
  // A deleted article's slug becomes free, as when its author deletes it.
  if (target.type === 'article')
    await trx.updateTable('article').set({ slug: null }).where('id', '=', row.id).execute();
  await moveCounts(
    trx,
    { type: target.type, id: row.id, authorId: row.user_id },
    { published: wasPublished, sectionId: row.section_id, topicIds },
    { published: false, sectionId: null, topicIds: [] },
    now,
  );
  await recordAction(
    deps,
    trx,
    staff,
    rowItem(target.type, row),
    'delete',
    { reason, title: row.title, was: row.status },
    now,
  );
  return { state: state(target.type, row.id, 'deleted'), tags: itemTags(target.type, row, topicIds) };
}

export type ContentAction = 'hide' | 'restore' | 'delete';

/** Runs one content action in a transaction of its own. */
export async function moderateItem(
  deps: ContentDeps & { db: Db },
  staff: Staff,
  action: ContentAction,
  target: { type: ModeratedType; id: number },
  reason: string,
  now = new Date(),
): Promise<ContentOutcome> {
  requireEditor(staff);
  const run = action === 'hide' ? hideContent : action === 'restore' ? restoreContent : deleteModerated;
  const outcome = await deps.db.transaction().execute((trx) => run(deps, trx, staff, target, reason, now));
  deps.jobs.poke();
  return outcome;
}
