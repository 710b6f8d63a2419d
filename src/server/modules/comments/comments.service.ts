import { sql, type ExpressionBuilder } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import {
  COMMENT_PREVIEW_REPLIES,
  COMMENT_REPLY_PAGE_DEFAULT,
  type CommentInThread,
  type CommentListQuery,
  type CommentPage,
  type CommentReplyPage,
  type CommentSort,
  type CommentStatus,
  type CommentView,
  type CreateCommentBody,
  type UserCommentPage,
} from '../../../shared/comments/comments.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import type { TargetRef, TargetType } from '../../../shared/targets.ts';
import type { Database, Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { pageTags } from '../../http/page-cache-policy.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { hitRateLimit, rateLimited, releaseRateLimit, type RateRule } from '../../platform/rate-limit.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { CounterColumn, TargetInfo, TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { likedIds } from '../reactions/likes.service.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import { checkCommentImages } from './comment-images.ts';
import { commentExcerpt } from './comments.targets.ts';

/**
 * Comments (decision 018): two levels on every target that keeps a comment count. The target's count
 * is its visible comments and each root's reply_count its visible replies; both move in the transaction
 * that adds or deletes the comment, with atomic updates, so concurrent writes leave them exact. Deleting
 * is a status change: a deleted root keeps its place while it has visible replies, and is left out once
 * it has none. One root per target is pinned (a unique partial index, and pins of one target wait for
 * each other on the target's row).
 */

/** Who is reading or writing: a member ({ id, group }) or a visitor (null). */
export type CommentViewer = TargetViewer;

export interface CommentDeps {
  db: Db;
  targets: TargetRegistry;
}

/** Writing also checks images against the storage they were uploaded to. */
export interface CommentWriteDeps extends CommentDeps, NotifyDeps {
  storage: Storage;
}

/** Groups that may delete and pin any comment. */
export const MODERATORS: readonly UserGroup[] = ['editor', 'admin', 'superAdmin'];

/** 6 comments a minute and 300 a day per member. */
export const COMMENT_LIMITS = {
  perMinute: { limit: 6, windowMs: 60_000 },
  perDay: { limit: 300, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, RateRule>;

const isModerator = (viewer: CommentViewer) => viewer !== null && MODERATORS.includes(viewer.group);

/**
 * The comments a viewer reads in a thread: visible ones, and those moderators hid for their author and
 * the moderators (marked hidden); everyone else never learns of them.
 */
function seenBy(viewer: CommentViewer) {
  return (eb: ExpressionBuilder<Database & { c: Database['comment'] }, 'c'>) => {
    if (viewer === null) return eb('c.status', '=', 'visible');
    if (isModerator(viewer)) return eb('c.status', 'in', ['visible', 'hidden']);
    return eb.or([
      eb('c.status', '=', 'visible'),
      eb.and([eb('c.status', '=', 'hidden'), eb('c.user_id', '=', viewer.id)]),
    ]);
  };
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'server.comments.notFound');
const targetNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.comments.targetNotFound');

/** The page-cache tag of a target's own page, for the types that have one. */
const OWN_PAGE_TAGS: Partial<Record<TargetType, (id: number) => string>> = {
  galgame: pageTags.galgame,
  person: pageTags.person,
  character: pageTags.character,
  producer: pageTags.producer,
  post: pageTags.post,
  article: pageTags.article,
};

/** The cached pages showing a target's comments: its comment list, and its own page. */
export function commentPageTags(ref: TargetRef): string[] {
  const own = OWN_PAGE_TAGS[ref.type];
  return own ? [pageTags.comments(ref.type, ref.id), own(ref.id)] : [pageTags.comments(ref.type, ref.id)];
}

/** The cached pages showing one comment (where its like count shows), or none when it does not exist. */
export async function commentPageTagsOf(db: Db, commentId: number): Promise<string[]> {
  const row = await db
    .selectFrom('comment')
    .select(['target_type', 'target_id'])
    .where('id', '=', commentId)
    .executeTakeFirst();
  return row ? commentPageTags({ type: row.target_type, id: row.target_id }) : [];
}

/** The target, when it keeps a comment count and the viewer may see it; else 404. */
async function commentableTarget(deps: CommentDeps, viewer: CommentViewer, ref: TargetRef): Promise<TargetInfo> {
  if (!deps.targets.keeps(ref.type, 'comment')) throw targetNotFound();
  const found = (await deps.targets.find(deps.db, ref.type, [ref.id], viewer)).get(ref.id);
  if (!found) throw targetNotFound();
  return found;
}

function withPeople(db: Db) {
  return db
    .selectFrom('comment as c')
    .innerJoin('users as a', 'a.id', 'c.user_id')
    .leftJoin('users as r', 'r.id', 'c.reply_to_user_id');
}

const viewColumns = [
  'c.id',
  'c.target_type',
  'c.target_id',
  'c.user_id',
  'c.root_id',
  'c.parent_id',
  'c.content',
  'c.like_count',
  'c.reply_count',
  'c.status',
  'c.pinned',
  'c.created_at',
  'a.user_id as author_user_id',
  'a.name as author_name',
  'a.avatar as author_avatar',
  'r.user_id as reply_user_id',
  'r.name as reply_name',
  'r.avatar as reply_avatar',
] as const;

interface ViewRow {
  id: number;
  target_type: TargetType;
  target_id: number;
  user_id: string;
  root_id: number | null;
  parent_id: number | null;
  content: string;
  like_count: number;
  reply_count: number;
  status: CommentStatus;
  pinned: number;
  created_at: string;
  author_user_id: number;
  author_name: string;
  author_avatar: string;
  reply_user_id: number | null;
  reply_name: string | null;
  reply_avatar: string | null;
}

/** What the viewer may do, given what it has liked and who owns the comment's target. */
interface ViewContext {
  viewer: CommentViewer;
  liked: ReadonlySet<number>;
  /** Owner of the target of each comment (by target key `type:id`), for pinning. */
  ownerOf: (row: ViewRow) => string | null;
}

function toView(row: ViewRow, context: ViewContext): CommentView {
  const { viewer } = context;
  const deleted = row.status === 'deleted';
  const hidden = row.status === 'hidden';
  const isRoot = row.root_id === null;
  return {
    id: row.id,
    targetType: row.target_type,
    targetId: row.target_id,
    rootId: row.root_id,
    parentId: row.parent_id,
    author: { userId: row.author_user_id, name: row.author_name, avatar: row.author_avatar },
    replyTo:
      row.reply_user_id !== null && row.reply_name !== null
        ? { userId: row.reply_user_id, name: row.reply_name, avatar: row.reply_avatar ?? '' }
        : null,
    content: deleted ? '' : row.content,
    deleted,
    hidden,
    likeCount: row.like_count,
    replyCount: isRoot ? row.reply_count : 0,
    pinned: row.pinned === 1,
    createdAt: row.created_at,
    viewer: {
      isLiked: context.liked.has(row.id),
      canDelete: !deleted && !hidden && viewer !== null && (viewer.id === row.user_id || isModerator(viewer)),
      canPin:
        !deleted &&
        !hidden &&
        isRoot &&
        viewer !== null &&
        (isModerator(viewer) || (context.ownerOf(row) !== null && context.ownerOf(row) === viewer.id)),
    },
  };
}

async function likedBy(db: Db, viewer: CommentViewer, ids: readonly number[]): Promise<Set<number>> {
  return viewer === null || ids.length === 0 ? new Set() : likedIds(db, viewer.id, 'comment', ids);
}

/**
 * The roots the viewer reads: visible ones (and hidden ones they may see), and deleted ones that still
 * have visible replies (they keep the thread's place).
 */
function shownRoots(db: Db, ref: TargetRef, viewer: CommentViewer) {
  return db
    .selectFrom('comment as c')
    .where('c.target_type', '=', ref.type)
    .where('c.target_id', '=', ref.id)
    .where('c.root_id', 'is', null)
    .where((eb) => eb.or([seenBy(viewer)(eb), eb('c.reply_count', '>', 0)]));
}

/** The first `limit` replies the viewer reads of each root, oldest first, in one query. */
async function firstReplies(
  db: Db,
  viewer: CommentViewer,
  rootIds: readonly number[],
  limit: number,
): Promise<ViewRow[]> {
  if (rootIds.length === 0) return [];
  const ranked = db
    .selectFrom('comment as c')
    .select([
      'c.id',
      sql<number>`row_number() over (partition by c.root_id order by c.created_at, c.id)`.as('position'),
    ])
    .where('c.root_id', 'in', rootIds)
    .where(seenBy(viewer))
    .as('p');
  return withPeople(db)
    .innerJoin(ranked, 'p.id', 'c.id')
    .select(viewColumns)
    .where('p.position', '<=', limit)
    .orderBy('c.root_id')
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}

/**
 * One page of a target's comments: roots in `sort` order with the pinned one first, each with its first
 * replies. Pages render it directly; GET /api/comments answers it. 404 when the target cannot be
 * commented on or the viewer may not see it.
 */
export async function listComments(
  deps: CommentDeps,
  viewer: CommentViewer,
  query: Pick<CommentListQuery, 'targetType' | 'targetId'> & Partial<Pick<CommentListQuery, 'sort'>> & PageRequest,
): Promise<CommentPage> {
  const ref: TargetRef = { type: query.targetType, id: query.targetId };
  const target = await commentableTarget(deps, viewer, ref);
  const sort: CommentSort = query.sort ?? 'hot';
  let rows = withPeople(deps.db)
    .select(viewColumns)
    .where('c.target_type', '=', ref.type)
    .where('c.target_id', '=', ref.id)
    .where('c.root_id', 'is', null)
    .where((eb) => eb.or([seenBy(viewer)(eb), eb('c.reply_count', '>', 0)]))
    .orderBy('c.pinned', 'desc');
  rows =
    sort === 'hot'
      ? rows.orderBy('c.like_count', 'desc').orderBy('c.reply_count', 'desc').orderBy('c.created_at', 'desc')
      : rows.orderBy('c.created_at', 'desc');
  const { items: roots, pagination } = await paginate(
    query,
    rows.orderBy('c.id', 'desc'),
    shownRoots(deps.db, ref, viewer).select((eb) => eb.fn.countAll<number>().as('total')),
  );
  const replies = await firstReplies(
    deps.db,
    viewer,
    roots.map((root) => root.id),
    COMMENT_PREVIEW_REPLIES,
  );
  const liked = await likedBy(
    deps.db,
    viewer,
    [...roots, ...replies].map((row) => row.id),
  );
  const context: ViewContext = { viewer, liked, ownerOf: () => target.ownerId };
  return {
    items: roots.map((root) => ({
      ...toView(root, context),
      replies: replies.filter((reply) => reply.root_id === root.id).map((reply) => toView(reply, context)),
    })),
    pagination,
    total: await deps.targets.read(deps.db, ref, 'comment'),
  };
}

/** One page of a root's visible replies, oldest first; 404 for a reply, a root no longer shown or a hidden target. */
export async function listReplies(
  deps: CommentDeps,
  viewer: CommentViewer,
  rootId: number,
  request: PageRequest,
): Promise<CommentReplyPage> {
  const root = await deps.db
    .selectFrom('comment')
    .select(['id', 'target_type', 'target_id', 'root_id', 'status', 'reply_count', 'user_id'])
    .where('id', '=', rootId)
    .executeTakeFirst();
  if (!root || root.root_id !== null || (root.status === 'deleted' && root.reply_count === 0)) throw notFound();
  if (root.status === 'hidden' && !(viewer !== null && (viewer.id === root.user_id || isModerator(viewer))))
    throw notFound();
  const target = await commentableTarget(deps, viewer, { type: root.target_type, id: root.target_id }).catch(
    (error: unknown) => {
      throw error instanceof HttpError && error.status === 404 ? notFound() : error;
    },
  );
  const { items, pagination } = await paginate(
    request,
    withPeople(deps.db)
      .select(viewColumns)
      .where('c.root_id', '=', rootId)
      .where(seenBy(viewer))
      .orderBy('c.created_at')
      .orderBy('c.id'),
    deps.db
      .selectFrom('comment as c')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('c.root_id', '=', rootId)
      .where(seenBy(viewer)),
  );
  const liked = await likedBy(
    deps.db,
    viewer,
    items.map((row) => row.id),
  );
  return { items: items.map((row) => toView(row, { viewer, liked, ownerOf: () => target.ownerId })), pagination };
}

/**
 * The thread holding a visible comment, for a link to that comment: its root, with the root's first
 * replies, or (for a reply) the page of replies holding it. 404 like the comment's own list would.
 */
export async function commentInThread(deps: CommentDeps, viewer: CommentViewer, id: number): Promise<CommentInThread> {
  const comment = await deps.db
    .selectFrom('comment')
    .select(['id', 'root_id', 'status', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!comment || comment.status !== 'visible') throw notFound();
  const rootId = comment.root_id ?? comment.id;
  let replies: CommentView[];
  if (comment.root_id === null) {
    replies = (await listReplies(deps, viewer, rootId, { page: 1, limit: COMMENT_PREVIEW_REPLIES })).items;
  } else {
    const before = await deps.db
      .selectFrom('comment')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('root_id', '=', rootId)
      .where('status', '=', 'visible')
      .where((eb) =>
        eb.or([
          eb('created_at', '<', comment.created_at),
          eb.and([eb('created_at', '=', comment.created_at), eb('id', '<', comment.id)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    const page = Math.floor(Number(before.n) / COMMENT_REPLY_PAGE_DEFAULT) + 1;
    replies = (await listReplies(deps, viewer, rootId, { page, limit: COMMENT_REPLY_PAGE_DEFAULT })).items;
  }
  const root = await withPeople(deps.db).select(viewColumns).where('c.id', '=', rootId).executeTakeFirstOrThrow();
  const target = await commentableTarget(deps, viewer, { type: root.target_type, id: root.target_id });
  const liked = await likedBy(deps.db, viewer, [root.id]);
  return { thread: { ...toView(root, { viewer, liked, ownerOf: () => target.ownerId }), replies } };
}

/**
 * A user's visible comments, newest first, each with the item it is about. Comments on items the viewer
 * may not see (a draft, a hidden post) are left out of the page.
 */
export async function listUserComments(
  deps: CommentDeps,
  viewer: CommentViewer,
  userId: string,
  request: PageRequest,
): Promise<UserCommentPage> {
  const { items: rows, pagination } = await paginate(
    request,
    withPeople(deps.db)
      .select(viewColumns)
      .where('c.user_id', '=', userId)
      .where('c.status', '=', 'visible')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc'),
    deps.db
      .selectFrom('comment')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('user_id', '=', userId)
      .where('status', '=', 'visible'),
  );
  const targets = new Map<string, TargetInfo>();
  const byType = new Map<TargetType, number[]>();
  for (const row of rows) byType.set(row.target_type, [...(byType.get(row.target_type) ?? []), row.target_id]);
  for (const [type, ids] of byType) {
    for (const [id, info] of await deps.targets.find(deps.db, type, ids, viewer)) targets.set(`${type}:${id}`, info);
  }
  const keyOf = (row: ViewRow) => `${row.target_type}:${row.target_id}`;
  const shown = rows.filter((row) => targets.has(keyOf(row)));
  const liked = await likedBy(
    deps.db,
    viewer,
    shown.map((row) => row.id),
  );
  const context: ViewContext = { viewer, liked, ownerOf: (row) => targets.get(keyOf(row))?.ownerId ?? null };
  return {
    items: shown.map((row) => {
      const info = targets.get(keyOf(row));
      return {
        ...toView(row, context),
        target: { type: row.target_type, id: row.target_id, title: info?.title ?? '', url: info?.url ?? '' },
      };
    }),
    pagination,
  };
}

/** One comment as the viewer sees it (after a write). */
async function readComment(db: Db, viewer: CommentViewer, id: number, target: TargetInfo): Promise<CommentView> {
  const row = await withPeople(db).select(viewColumns).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toView(row, { viewer, liked: await likedBy(db, viewer, [id]), ownerOf: () => target.ownerId });
}

/** Counts one comment against the member's minute and day allowance (429 with Retry-After past either). */
async function countComment(db: Db, userId: string, now: Date): Promise<void> {
  const minuteKey = `comment:minute:${userId}`;
  const minute = await hitRateLimit(db, minuteKey, COMMENT_LIMITS.perMinute, now.getTime());
  if (minute.count > COMMENT_LIMITS.perMinute.limit) throw rateLimited(minute.retryAfter, 'server.comments.tooFast');
  const day = await hitRateLimit(db, `comment:day:${userId}`, COMMENT_LIMITS.perDay, now.getTime());
  if (day.count > COMMENT_LIMITS.perDay.limit) {
    // Refused for the day: this attempt does not use up the minute as well.
    await releaseRateLimit(db, minuteKey, COMMENT_LIMITS.perMinute, now.getTime());
    throw rateLimited(day.retryAfter, messageRef('server.comments.dailyLimit', { max: COMMENT_LIMITS.perDay.limit }));
  }
}

/**
 * Adds a comment on a target, or a reply: `parentId` names a visible comment of the same target (a root,
 * or a reply, whose root the new reply joins and whose author it answers).
 */
export async function createComment(
  deps: CommentWriteDeps,
  viewer: NonNullable<CommentViewer>,
  body: CreateCommentBody,
  now = new Date(),
): Promise<CommentView> {
  const author = await deps.db.selectFrom('users').select('status').where('id', '=', viewer.id).executeTakeFirst();
  if (!author) throw new HttpError(401, 'UNAUTHORIZED', 'server.unauthorized');
  if (author.status === 'banned') throw new HttpError(403, 'ACCOUNT_BANNED', 'server.banned');
  const ref: TargetRef = { type: body.targetType, id: body.targetId };
  const target = await commentableTarget(deps, viewer, ref);

  let thread: { rootId: number; parentId: number; replyTo: string } | null = null;
  if (body.parentId !== undefined) {
    const parent = await deps.db
      .selectFrom('comment')
      .select(['id', 'target_type', 'target_id', 'root_id', 'user_id', 'status'])
      .where('id', '=', body.parentId)
      .executeTakeFirst();
    if (!parent || parent.status !== 'visible')
      throw new HttpError(
        404,
        'NOT_FOUND',
        'server.comments.parentNotFound',
        fieldIssue('parentId', 'server.comments.parentNotFound'),
      );
    if (parent.target_type !== ref.type || parent.target_id !== ref.id)
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        'server.comments.parentElsewhere',
        fieldIssue('parentId', 'server.comments.parentElsewhere'),
      );
    thread = { rootId: parent.root_id ?? parent.id, parentId: parent.id, replyTo: parent.user_id };
  }

  await countComment(deps.db, viewer.id, now);
  await checkCommentImages(deps.storage, body.content);

  const id = await deps.db.transaction().execute(async (trx) => {
    const commentId = await nextId(trx, 'comment_id');
    await trx
      .insertInto('comment')
      .values({
        id: commentId,
        target_type: ref.type,
        target_id: ref.id,
        user_id: viewer.id,
        root_id: thread?.rootId ?? null,
        parent_id: thread?.parentId ?? null,
        reply_to_user_id: thread?.replyTo ?? null,
        content: body.content,
        created_at: now.toISOString(),
        deleted_at: null,
      })
      .execute();
    await deps.targets.adjust(trx, ref, 'comment', 1);
    if (thread)
      await trx
        .updateTable('comment')
        .set((eb) => ({ reply_count: eb('reply_count', '+', 1) }))
        .where('id', '=', thread.rootId)
        .execute();
    await notifyLater(deps, trx, { kind: 'comment', commentId });
    return commentId;
  });
  deps.jobs.poke();
  return readComment(deps.db, viewer, id, target);
}

/**
 * Deletes a comment (its author, or a moderator); answers the target it was on. Deleting a deleted or
 * unknown comment answers 404, so two deletes at once count once.
 */
export async function deleteComment(
  deps: CommentDeps & NotifyDeps,
  viewer: NonNullable<CommentViewer>,
  id: number,
  now = new Date(),
): Promise<TargetRef> {
  const comment = await deps.db
    .selectFrom('comment')
    .select(['id', 'target_type', 'target_id', 'root_id', 'user_id', 'status', 'content'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!comment || comment.status !== 'visible') throw notFound();
  const ref: TargetRef = { type: comment.target_type, id: comment.target_id };
  if (comment.user_id !== viewer.id && !isModerator(viewer)) {
    // Someone else's comment: forbidden where the viewer can see it, unknown where they cannot.
    const seen = await deps.targets.find(deps.db, ref.type, [ref.id], viewer);
    if (!seen.has(ref.id)) throw notFound();
    throw new HttpError(403, 'FORBIDDEN', 'server.comments.notYours');
  }
  const spec = deps.targets.counterColumn(ref.type, 'comment');
  await deps.db.transaction().execute(async (trx) => {
    // The target's row first, then the comments, as pins and new replies take them: taken the other way
    // round, a delete racing a pin or a reply would deadlock with it.
    if (spec) await lockTarget(trx, spec, ref.id);
    const updated = await trx
      .updateTable('comment')
      .set({ status: 'deleted', deleted_at: now.toISOString(), pinned: 0 })
      .where('id', '=', id)
      .where('status', '=', 'visible')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw notFound();
    await deps.targets.adjust(trx, ref, 'comment', -1);
    if (comment.root_id !== null)
      await trx
        .updateTable('comment')
        .set({ reply_count: sql<number>`case when reply_count > 0 then reply_count - 1 else 0 end` })
        .where('id', '=', comment.root_id)
        .execute();
    // A moderator removing someone's comment tells its author (their own deletes tell nobody), and
    // the audit log keeps it.
    if (comment.user_id !== viewer.id) {
      await notifyLater(deps, trx, {
        kind: 'moderation',
        recipientId: comment.user_id,
        moderatorId: viewer.id,
        targetType: 'comment',
        targetId: comment.id,
        action: 'delete',
        title: commentExcerpt(comment.content, 40),
        at: now.toISOString(),
      });
      await writeAudit(
        trx,
        {
          actorId: viewer.id,
          action: 'content.delete',
          targetType: 'comment',
          targetId: comment.id,
          detail: { title: commentExcerpt(comment.content, 40) },
        },
        now,
      );
    }
  });
  deps.jobs.poke();
  return ref;
}

/** Takes the row lock of a target's comment count: writes that must not interleave per target wait here. */
async function lockTarget(db: Db, spec: CounterColumn, id: number): Promise<void> {
  const column = sql.ref(spec.column);
  await sql`update ${sql.table(spec.table)} set ${column} = ${column} where ${sql.ref(spec.idColumn)} = ${id}`.execute(
    db,
  );
}

/**
 * Pins (or unpins) a visible root: the target's owner or a moderator. Pinning one unpins the target's
 * other pinned root in the same transaction.
 */
export async function pinComment(
  deps: CommentDeps,
  viewer: NonNullable<CommentViewer>,
  id: number,
  pinned: boolean,
): Promise<CommentView> {
  const comment = await deps.db
    .selectFrom('comment')
    .select(['id', 'target_type', 'target_id', 'root_id', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!comment || comment.status !== 'visible') throw notFound();
  const ref: TargetRef = { type: comment.target_type, id: comment.target_id };
  const target = (await deps.targets.find(deps.db, ref.type, [ref.id], viewer)).get(ref.id);
  if (!target) throw notFound();
  if (!isModerator(viewer) && target.ownerId !== viewer.id)
    throw new HttpError(403, 'FORBIDDEN', 'server.comments.pinNotAllowed');
  if (comment.root_id !== null) throw new HttpError(400, 'VALIDATION_FAILED', 'server.comments.pinRootsOnly');
  const spec = deps.targets.counterColumn(ref.type, 'comment');
  await deps.db.transaction().execute(async (trx) => {
    if (spec) await lockTarget(trx, spec, ref.id);
    if (pinned)
      await trx
        .updateTable('comment')
        .set({ pinned: 0 })
        .where('target_type', '=', ref.type)
        .where('target_id', '=', ref.id)
        .where('pinned', '=', 1)
        .where('id', '!=', id)
        .execute();
    const updated = await trx
      .updateTable('comment')
      .set({ pinned: pinned ? 1 : 0 })
      .where('id', '=', id)
      .where('status', '=', 'visible')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw notFound();
  });
  return readComment(deps.db, viewer, id, target);
}

/** Calls `run` per target type that keeps a comment count, with its ids sorted, 500 at a time. */
async function eachCountedChunk(
  targets: TargetRegistry,
  refs: readonly { target_type: TargetType; target_id: number }[],
  run: (spec: CounterColumn, chunk: number[], type: TargetType) => Promise<void>,
): Promise<void> {
  const groups = new Map<TargetType, Set<number>>();
  for (const ref of refs) groups.set(ref.target_type, (groups.get(ref.target_type) ?? new Set()).add(ref.target_id));
  for (const [type, idSet] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = targets.counterColumn(type, 'comment');
    if (!spec) continue;
    const ids = [...idSet].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += 500) await run(spec, ids.slice(i, i + 500), type);
  }
}

/**
 * Removes a user's comments with their account, and the replies under their roots (a thread goes with
 * its root), then sets every count they were part of to a recount: the targets' comment counts and the
 * reply counts of the roots that stay. Likes of the removed comments go too; reports of them stay for
 * the moderators. The counted rows are locked first (targets in type and id order, then roots), so a
 * comment written meanwhile waits and the recount sees it. Run inside the removal's transaction.
 */
export async function removeCommentsOf(db: Db, targets: TargetRegistry, userId: string): Promise<number> {
  const own = await db.selectFrom('comment').select(['id', 'root_id']).where('user_id', '=', userId).execute();
  const ownRoots = own.filter((row) => row.root_id === null).map((row) => row.id);
  const removed = new Set(own.map((row) => row.id));
  for (let i = 0; i < ownRoots.length; i += 500) {
    const replies = await db
      .selectFrom('comment')
      .select('id')
      .where('root_id', 'in', ownRoots.slice(i, i + 500))
      .execute();
    for (const reply of replies) removed.add(reply.id);
  }
  if (removed.size === 0) return 0;
  const ids = [...removed].sort((a, b) => a - b);
  const affected: { id: number; target_type: TargetType; target_id: number; root_id: number | null }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    affected.push(
      ...(await db
        .selectFrom('comment')
        .select(['id', 'target_type', 'target_id', 'root_id'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  }
  const keptRoots = [
    ...new Set(affected.flatMap((row) => (row.root_id !== null && !removed.has(row.root_id) ? [row.root_id] : []))),
  ].sort((a, b) => a - b);

  await eachCountedChunk(targets, affected, async (spec, chunk) => {
    const column = sql.ref(spec.column);
    await sql`update ${sql.table(spec.table)} set ${column} = ${column} where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(
      db,
    );
  });
  for (let i = 0; i < keptRoots.length; i += 500) {
    await db
      .updateTable('comment')
      .set((eb) => ({ reply_count: eb.ref('reply_count') }))
      .where('id', 'in', keptRoots.slice(i, i + 500))
      .execute();
  }

  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.deleteFrom('reaction_like').where('target_type', '=', 'comment').where('target_id', 'in', chunk).execute();
    // Replies first: they point at their roots.
    await db.deleteFrom('comment').where('id', 'in', chunk).where('root_id', 'is not', null).execute();
  }
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom('comment')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }

  await eachCountedChunk(targets, affected, async (spec, chunk, type) => {
    await sql`update ${sql.table(spec.table)} set ${sql.ref(spec.column)} = (
        select count(*) from comment
        where comment.target_type = ${type} and comment.target_id = ${sql.ref(`${spec.table}.${spec.idColumn}`)}
          and comment.status = 'visible'
      ) where ${sql.ref(spec.idColumn)} in (${sql.join(chunk)})`.execute(db);
  });
  for (let i = 0; i < keptRoots.length; i += 500) {
    await db
      .updateTable('comment as kept')
      .set({
        reply_count: sql<number>`(select count(*) from comment as reply where reply.root_id = kept.id and reply.status = 'visible')`,
      })
      .where('kept.id', 'in', keptRoots.slice(i, i + 500))
      .execute();
  }
  return removed.size;
}
