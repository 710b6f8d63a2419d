import { sql, type RawBuilder } from 'kysely';
import {
  NOTIFICATION_ACTORS_SHOWN,
  type NotificationActor,
  type NotificationKind,
  type NotificationPage,
  type NotificationView,
} from '../../../shared/notifications/notifications.ts';
import { isPageBuilt } from '../../../shared/navigation.ts';
import { isTargetType, type TargetType } from '../../../shared/targets.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import type { TargetInfo, TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';
import { commentExcerpt } from '../comments/comments.targets.ts';
import type { NotificationEvent } from './notifications.queue.ts';
import type { NotificationRow } from './notifications.tables.ts';

/**
 * Notifications (decision 021). Written once per event by the `notifications.event` job; read, counted
 * and marked read only by their recipient. Likes and follows are grouped while unread: the group is
 * counted again from the likes or follows themselves on every change, so a like taken back leaves no
 * notification claiming it, and 500 likes cost the same few queries as one.
 */

export interface NotificationDeps {
  db: Db;
  targets: TargetRegistry;
}

/** The kinds grouped while unread. */
const GROUPED: readonly NotificationKind[] = ['like', 'follow'];

/** An actor in a group the member read this recently opens no new group (follow/unfollow churn). */
export const REPEAT_QUIET_MS = 7 * 24 * 3600 * 1000;
/** How many of a group's read rows are checked for recent actors. */
const READ_GROUPS_CHECKED = 20;

const notFound = () => new HttpError(404, 'NOT_FOUND', 'server.notifications.notFound');

/** Handles one event of the queue (idempotent: a retried job changes nothing more). */
export async function handleNotificationEvent(
  deps: NotificationDeps,
  event: NotificationEvent,
  now = new Date(),
): Promise<void> {
  if (event.kind === 'comment') return notifyComment(deps, event.commentId, now);
  if (event.kind === 'like') {
    const target = (await deps.targets.find(deps.db, event.targetType, [event.targetId], null)).get(event.targetId);
    // An item gone or hidden meanwhile: its open group (if any) stays until read or removed with it.
    if (!target?.ownerId) return;
    const ownerId = target.ownerId;
    return refreshGroup(
      deps.db,
      {
        recipientId: ownerId,
        kind: 'like',
        groupKey: `like:${event.targetType}:${event.targetId}`,
        target: { type: event.targetType, id: event.targetId },
        actors: sql`select user_id as actor, created_at from reaction_like
          where target_type = ${event.targetType} and target_id = ${event.targetId} and user_id <> ${ownerId}`,
      },
      now,
    );
  }
  if (event.kind === 'follow') {
    return refreshGroup(
      deps.db,
      {
        recipientId: event.followeeId,
        kind: 'follow',
        groupKey: 'follow',
        target: null,
        actors: sql`select follower_id as actor, created_at from user_follow where followee_id = ${event.followeeId}`,
      },
      now,
    );
  }
  if (event.kind === 'review') return notifyReview(deps.db, event);
  if (event.recipientId === event.moderatorId) return;
  await deps.db
    .insertInto('notification')
    .values({
      id: newId(),
      user_id: event.recipientId,
      kind: 'moderation',
      group_key: `moderation:${event.targetType}:${event.targetId}:${event.action}:${event.at}`,
      open_key: `moderation:${event.targetType}:${event.targetId}:${event.action}:${event.at}`,
      target_type: event.targetType,
      target_id: event.targetId,
      action: event.action,
      excerpt: event.title,
      actor_ids: '[]',
      actor_count: 0,
      created_at: event.at,
      updated_at: event.at,
    })
    .onConflict((oc) => oc.columns(['user_id', 'open_key']).doNothing())
    .execute();
}

/**
 * A review of the member's update request or creator application: one row each, the reviewer not named
 * (staff act for the site, like moderators). The item's title and the reason are kept together in the
 * excerpt as JSON, so the sentence still reads right after the item is renamed or removed.
 */
async function notifyReview(db: Db, event: Extract<NotificationEvent, { kind: 'review' }>): Promise<void> {
  const subject = event.subject;
  const key = `review:${event.action}:${subject ? `${subject.type}:${subject.id}` : '-'}:${event.at}`;
  await db
    .insertInto('notification')
    .values({
      id: newId(),
      user_id: event.recipientId,
      kind: 'review',
      group_key: key,
      open_key: key,
      // Tags are no target type: they keep their id in the key and link to their list.
      target_type: subject && isTargetType(subject.type) ? subject.type : null,
      target_id: subject && isTargetType(subject.type) ? subject.id : null,
      action: event.action,
      excerpt: JSON.stringify({
        title: event.title,
        reason: event.reason,
        tag: subject?.type === 'tag' ? subject.id : null,
      }),
      actor_ids: '[]',
      actor_count: 0,
      created_at: event.at,
      updated_at: event.at,
    })
    .onConflict((oc) => oc.columns(['user_id', 'open_key']).doNothing())
    .execute();
}

/** A review row's excerpt: the item's title, the reason, and a tag's id (JSON, see notifyReview). */
function reviewExcerpt(excerpt: string): { title: string; reason: string; tag: number | null } {
  try {
    const parsed = JSON.parse(excerpt) as { title?: unknown; reason?: unknown; tag?: unknown };
    return {
      title: typeof parsed.title === 'string' ? parsed.title : '',
      reason: typeof parsed.reason === 'string' ? parsed.reason : '',
      tag: typeof parsed.tag === 'number' ? parsed.tag : null,
    };
  } catch {
    return { title: excerpt, reason: '', tag: null };
  }
}

/** Where a review leads: the item's page; a creator application's page; nowhere for a refused new item. */
function reviewUrl(row: NotificationRow, target: TargetInfo | undefined, tag: number | null): string | null {
  if (row.action === 'application_approved' || row.action === 'application_rejected')
    return isPageBuilt('/creator-application') ? '/creator-application' : null;
  if (tag !== null) return `/galgame/list?tag=${tag}`;
  return target?.url ?? null;
}

/** A comment's target owner (comment) and the author it answers (reply), never its own author. */
async function notifyComment(deps: NotificationDeps, commentId: number, now: Date): Promise<void> {
  const comment = await deps.db
    .selectFrom('comment')
    .select(['id', 'target_type', 'target_id', 'user_id', 'reply_to_user_id', 'content', 'status', 'created_at'])
    .where('id', '=', commentId)
    .executeTakeFirst();
  if (!comment || comment.status !== 'visible') return;
  const target = (await deps.targets.find(deps.db, comment.target_type, [comment.target_id], null)).get(
    comment.target_id,
  );
  const recipients = new Map<string, NotificationKind>();
  if (comment.reply_to_user_id && comment.reply_to_user_id !== comment.user_id)
    recipients.set(comment.reply_to_user_id, 'reply');
  if (target?.ownerId && target.ownerId !== comment.user_id && !recipients.has(target.ownerId))
    recipients.set(target.ownerId, 'comment');
  if (recipients.size === 0) return;
  const key = `comment:${comment.id}`;
  await deps.db
    .insertInto('notification')
    .values(
      [...recipients].map(([userId, kind]) => ({
        id: newId(),
        user_id: userId,
        kind,
        group_key: key,
        open_key: key,
        target_type: comment.target_type,
        target_id: comment.target_id,
        comment_id: comment.id,
        excerpt: commentExcerpt(comment.content, 80),
        actor_ids: JSON.stringify([comment.user_id]),
        actor_count: 1,
        created_at: now.toISOString(),
        updated_at: comment.created_at,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'open_key']).doNothing())
    .execute();
}

interface GroupSpec {
  recipientId: string;
  kind: 'like' | 'follow';
  groupKey: string;
  target: { type: TargetType; id: number } | null;
  /** The rows that make the group (`actor`, `created_at`): the likes or follows themselves. */
  actors: RawBuilder<unknown>;
}

/**
 * Counts a group again: the actors since the last group the recipient read (none: since ever). None
 * left (likes taken back) removes the open group; otherwise it is written with the count, the newest
 * actors and the newest time. A fixed number of queries whatever the number of actors.
 */
async function refreshGroup(db: Db, spec: GroupSpec, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Two recounts of one group in parallel would let the one that read first write last. SQLite runs
    // write transactions one at a time (BEGIN IMMEDIATE); PostgreSQL takes a lock on the group.
    await lockGroups(trx, spec.recipientId, [spec.groupKey]);
    // The groups already read, newest first: the newest ends what was read; the actors of those read in
    // the last week are not counted again, so unfollowing and following again (or unliking and liking)
    // cannot open a new unread group every time.
    const readGroups = await trx
      .selectFrom('notification')
      .select(['updated_at', 'read_at', 'actor_ids'])
      .where('user_id', '=', spec.recipientId)
      .where('group_key', '=', spec.groupKey)
      .where('open_key', 'is', null)
      .orderBy('updated_at', 'desc')
      .limit(READ_GROUPS_CHECKED)
      .execute();
    const since = readGroups[0]?.updated_at ?? '';
    const recentlyRead = new Date(now.getTime() - REPEAT_QUIET_MS).toISOString();
    const seen = [
      ...new Set(
        readGroups
          .filter((g) => g.read_at !== null && g.read_at >= recentlyRead)
          .flatMap((g) => JSON.parse(g.actor_ids) as string[]),
      ),
    ];
    const fresh = seen.length > 0 ? sql`and a.actor not in (${sql.join(seen)})` : sql``;
    const { rows: counted } = await sql<{ n: number | string; last: string | null }>`
      select count(*) as n, max(a.created_at) as last from (${spec.actors}) a
      where a.created_at > ${since} ${fresh}`.execute(trx);
    const count = Number(counted[0]?.n ?? 0);
    const last = counted[0]?.last ?? null;
    if (count === 0 || last === null) {
      await trx
        .deleteFrom('notification')
        .where('user_id', '=', spec.recipientId)
        .where('open_key', '=', spec.groupKey)
        .execute();
      return;
    }
    const { rows: latest } = await sql<{ actor: string }>`
      select a.actor from (${spec.actors}) a where a.created_at > ${since} ${fresh}
      order by a.created_at desc, a.actor desc limit ${NOTIFICATION_ACTORS_SHOWN}`.execute(trx);
    const actorIds = JSON.stringify(latest.map((row) => row.actor));
    await trx
      .insertInto('notification')
      .values({
        id: newId(),
        user_id: spec.recipientId,
        kind: spec.kind,
        group_key: spec.groupKey,
        open_key: spec.groupKey,
        target_type: spec.target?.type ?? null,
        target_id: spec.target?.id ?? null,
        actor_ids: actorIds,
        actor_count: count,
        created_at: now.toISOString(),
        updated_at: last,
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'open_key']).doUpdateSet({ actor_ids: actorIds, actor_count: count, updated_at: last }),
      )
      .execute();
  });
}

/** Spec §7 GET /user/unread: the member's unread notifications. */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notification')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the member's notifications, newest activity first, with what they point at. */
export async function listNotifications(
  deps: NotificationDeps,
  userId: string,
  request: PageRequest & { unread?: boolean | undefined },
): Promise<NotificationPage> {
  let base = deps.db.selectFrom('notification').where('user_id', '=', userId);
  if (request.unread) base = base.where('read_at', 'is', null);
  const [rows, total, unread] = await Promise.all([
    base
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(request.limit)
      .offset((request.page - 1) * request.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    unreadCount(deps.db, userId),
  ]);
  return {
    items: await describe(deps, userId, rows),
    pagination: pageInfo(request, Number(total.n)),
    unreadCount: unread,
  };
}

/** The reader's own comments, visible or hidden, at their anchors on their targets' pages. */
async function ownCommentLinks(
  deps: NotificationDeps,
  ids: number[],
  userId: string,
  who: TargetViewer,
): Promise<Map<number, TargetInfo>> {
  const rows = await deps.db
    .selectFrom('comment')
    .select(['id', 'target_type', 'target_id', 'content'])
    .where('id', 'in', ids)
    .where('user_id', '=', userId)
    .where('status', 'in', ['visible', 'hidden'])
    .execute();
  const found = new Map<number, TargetInfo>();
  for (const row of rows) {
    const target = (await deps.targets.find(deps.db, row.target_type, [row.target_id], who)).get(row.target_id);
    if (target)
      found.set(row.id, {
        type: 'comment',
        id: row.id,
        title: commentExcerpt(row.content) || target.title,
        url: `${target.url}#comment-${row.id}`,
        ownerId: userId,
      });
  }
  return found;
}

/** Views of rows: their actors in one query, and their targets in one lookup per type. */
async function describe(deps: NotificationDeps, userId: string, rows: NotificationRow[]): Promise<NotificationView[]> {
  const actorIdsOf = new Map(rows.map((row) => [row.id, JSON.parse(row.actor_ids) as string[]]));
  const allActors = [...new Set([...actorIdsOf.values()].flat())];
  const people = new Map<string, NotificationActor>();
  if (allActors.length > 0) {
    const users = await deps.db
      .selectFrom('users')
      .select(['id', 'user_id', 'name', 'avatar'])
      .where('id', 'in', allActors)
      .execute();
    for (const u of users) people.set(u.id, { userId: u.user_id, name: u.name, avatar: u.avatar });
  }
  const viewer = await deps.db
    .selectFrom('users')
    .select(['id', 'user_group'])
    .where('id', '=', userId)
    .executeTakeFirst();
  const who = viewer ? { id: viewer.id, group: viewer.user_group } : null;
  const wanted = new Map<TargetType, number[]>();
  const want = (type: TargetType | null, id: number | null) => {
    if (type && id !== null) wanted.set(type, [...(wanted.get(type) ?? []), id]);
  };
  for (const row of rows) {
    want(row.target_type, row.target_id);
    want(row.comment_id === null ? null : 'comment', row.comment_id);
  }
  const found = new Map<string, TargetInfo>();
  for (const [type, ids] of wanted)
    for (const [id, info] of await deps.targets.find(deps.db, type, ids, who)) found.set(`${type}:${id}`, info);
  // A moderator's hide or restore of the reader's own comment links to it even while it is hidden:
  // its author still sees it there, marked (the comment target lists visible comments only).
  const ownComments = rows.flatMap((r) =>
    r.kind === 'moderation' && r.action !== 'delete' && r.target_type === 'comment' && r.target_id !== null
      ? !found.has(`comment:${r.target_id}`)
        ? [r.target_id]
        : []
      : [],
  );
  if (ownComments.length > 0)
    for (const [id, info] of await ownCommentLinks(deps, ownComments, userId, who)) found.set(`comment:${id}`, info);
  const announcements = rows.some((r) => r.announcement_id)
    ? new Map(
        (
          await deps.db
            .selectFrom('announcement')
            .select(['id', 'link'])
            .where(
              'id',
              'in',
              rows.flatMap((r) => r.announcement_id ?? []),
            )
            .execute()
        ).map((a) => [a.id, a.link]),
      )
    : new Map<string, string | null>();

  return rows.map((row): NotificationView => {
    const actors = (actorIdsOf.get(row.id) ?? []).flatMap((id) => people.get(id) ?? []);
    const target =
      row.target_type && row.target_id !== null ? found.get(`${row.target_type}:${row.target_id}`) : undefined;
    const comment = row.comment_id !== null ? found.get(`comment:${row.comment_id}`) : undefined;
    // The excerpt was copied when the comment was written: once the comment is deleted or hidden (or
    // its post or article is), its text is no longer shown (read-time check, decision 021).
    const gone = (row.kind === 'reply' || row.kind === 'comment') && !comment;
    const review = row.kind === 'review' ? reviewExcerpt(row.excerpt) : null;
    let url: string | null = null;
    if (row.kind === 'reply' || row.kind === 'comment') url = comment?.url ?? null;
    else if (row.kind === 'like' || (row.kind === 'moderation' && row.action !== 'delete')) url = target?.url ?? null;
    else if (row.kind === 'follow' && actors[0] && isPageBuilt(`/space/${actors[0].userId}`))
      url = `/space/${actors[0].userId}`;
    else if (row.kind === 'announcement') url = announcements.get(row.announcement_id ?? '') ?? null;
    else if (review) url = reviewUrl(row, target, review.tag);
    return {
      _id: row.id,
      kind: row.kind,
      actors,
      actorCount: row.actor_count,
      target:
        row.target_type && row.target_id !== null
          ? { type: row.target_type, id: row.target_id, title: target?.title ?? '' }
          : null,
      commentId: row.comment_id,
      action: row.action,
      excerpt: review ? review.title : gone ? '' : row.excerpt,
      reason: review?.reason ?? '',
      gone,
      url,
      isRead: row.read_at !== null,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  });
}

/** Marks these rows read: a group stops growing (the next like opens a new one). */
const readSet = (now: Date) => ({
  read_at: now.toISOString(),
  open_key: sql<string | null>`case when kind in (${sql.join(GROUPED)}) then null else open_key end`,
});

/**
 * Takes the per-group lock a recount takes (PostgreSQL; SQLite runs write transactions one at a time),
 * so marking a group read never interleaves with its recount: otherwise the recount could read "no
 * group read yet", the mark clear the open key, and the recount write the group back unread.
 */
async function lockGroups(trx: Db, userId: string, groupKeys: readonly string[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  // Always in the same order, so two callers never wait on each other crosswise.
  for (const key of [...new Set(groupKeys)].sort())
    await sql`select pg_advisory_xact_lock(hashtext(${`notification:${userId}:${key}`}))`.execute(trx);
}

/**
 * Marks one of the member's notifications read (idempotent: a second click changes nothing); someone
 * else's or an unknown id is a 404 and changes nothing. Answers the unread count after it.
 */
export async function markRead(db: Db, userId: string, id: string, now = new Date()): Promise<{ unreadCount: number }> {
  const row = await db
    .selectFrom('notification')
    .select(['read_at', 'kind', 'group_key'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  if (row.read_at === null)
    await db.transaction().execute(async (trx) => {
      if (GROUPED.includes(row.kind)) await lockGroups(trx, userId, [row.group_key]);
      await trx
        .updateTable('notification')
        .set(readSet(now))
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
    });
  return { unreadCount: await unreadCount(db, userId) };
}

/** Marks all of the member's notifications read. */
export async function markAllRead(db: Db, userId: string, now = new Date()): Promise<{ unreadCount: number }> {
  await db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') {
      const groups = await trx
        .selectFrom('notification')
        .select('group_key')
        .where('user_id', '=', userId)
        .where('open_key', 'is not', null)
        .where('kind', 'in', GROUPED)
        .execute();
      await lockGroups(
        trx,
        userId,
        groups.map((g) => g.group_key),
      );
    }
    await trx
      .updateTable('notification')
      .set(readSet(now))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .execute();
  });
  return { unreadCount: await unreadCount(db, userId) };
}

/** Announcements are written for this many members per transaction. */
const ANNOUNCEMENT_BATCH = 500;

/**
 * Hands announcements out: every member who joined before one was published gets it once. One short
 * transaction per 500 members, in id order: the rows written so far are the progress (a run that
 * stopped halfway resumes after the highest member holding the announcement, and a row written twice
 * changes nothing), and the announcement is marked done once every batch is in. Runs from housekeeping.
 */
export async function deliverAnnouncements(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('announcement')
    .select(['id', 'title', 'published_at'])
    .where('notified_at', 'is', null)
    .where('published_at', '<=', now.toISOString())
    .orderBy('published_at')
    .limit(20)
    .execute();
  let delivered = 0;
  for (const item of due) {
    const key = `announcement:${item.id}`;
    const progress = await db
      .selectFrom('notification')
      .select((eb) => eb.fn.max('user_id').as('last'))
      .where('group_key', '=', key)
      .executeTakeFirst();
    let after = progress?.last ?? '';
    for (;;) {
      const done = await db.transaction().execute(async (trx) => {
        const members = await trx
          .selectFrom('users')
          .select('id')
          .where('created_at', '<=', item.published_at)
          .where('status', '!=', 'banned')
          .where('id', '>', after)
          .orderBy('id')
          .limit(ANNOUNCEMENT_BATCH)
          .execute();
        if (members.length === 0) {
          const marked = await trx
            .updateTable('announcement')
            .set({ notified_at: now.toISOString() })
            .where('id', '=', item.id)
            .where('notified_at', 'is', null)
            .executeTakeFirst();
          if (Number(marked.numUpdatedRows) === 1) delivered += 1;
          return true;
        }
        await trx
          .insertInto('notification')
          .values(
            members.map((m) => ({
              id: newId(),
              user_id: m.id,
              kind: 'announcement' as const,
              group_key: key,
              open_key: key,
              announcement_id: item.id,
              excerpt: item.title,
              actor_ids: '[]',
              actor_count: 0,
              created_at: now.toISOString(),
              updated_at: item.published_at,
            })),
          )
          .onConflict((oc) => oc.columns(['user_id', 'open_key']).doNothing())
          .execute();
        after = members[members.length - 1]!.id;
        return false;
      });
      if (done) break;
    }
  }
  return delivered;
}
