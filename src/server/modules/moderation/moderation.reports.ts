import { sql } from 'kysely';
import type {
  ModeratedStatus,
  ModeratedType,
  QueueType,
  ReportedItem,
  ReportedLink,
  ReportQueue,
  ResolveAction,
} from '../../../shared/moderation/moderation.contract.ts';
import type { ReportReason } from '../../../shared/reactions/reactions-model.ts';
import type { Db, Trx } from '../../db/database.ts';
import { pageInfo, type PageRequest } from '../../db/paginate.ts';
import { pageTags } from '../../http/page-cache-policy.ts';
import { HttpError } from '../../platform/errors.ts';
import { commentExcerpt } from '../comments/comments.targets.ts';
import { recordChange } from '../creator/revisions.service.ts';
import { requireEditor, type Staff } from './moderation.access.ts';
import { deleteModerated, hideContent, type ContentDeps } from './moderation.content.ts';
import { writeAudit } from './audit-log.ts';

/*
 * The report queue (issue 18 §6): open reports of posts, articles and comments gathered per item, and
 * reports of download links gathered per link. Closing an item's reports — resolved with an action, or
 * dismissed — closes every open one at once; a second close finds none open and answers 409
 * REPORT_CLOSED, however the two raced (the update only takes rows still open).
 */

const NOTES_MAX = 5;
const reportClosed = () => new HttpError(409, 'REPORT_CLOSED', 'moderation.error.reportClosed');

/** The page of each item type, where it has one. */
function pageOf(type: string, id: number): string | null {
  if (type === 'post' || type === 'article') return `/community/${type}/${id}`;
  if (type === 'galgame') return `/galgame/${id}`;
  return null;
}

interface Described {
  title: string;
  url: string | null;
  status: ModeratedStatus;
  author: { userId: number; name: string; avatar: string } | null;
}

async function describe(db: Db, type: ModeratedType, ids: readonly number[]): Promise<Map<number, Described>> {
  const found = new Map<number, Described>();
  if (ids.length === 0) return found;
  if (type === 'comment') {
    const rows = await db
      .selectFrom('comment as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.content', 'c.status', 'c.target_type', 'c.target_id', 'u.user_id', 'u.name', 'u.avatar'])
      .where('c.id', 'in', ids)
      .execute();
    for (const row of rows)
      found.set(row.id, {
        title: commentExcerpt(row.content, 60),
        url: pageOf(row.target_type, row.target_id),
        status: row.status as ModeratedStatus,
        author: { userId: row.user_id, name: row.name, avatar: row.avatar },
      });
    return found;
  }
  const rows = await db
    .selectFrom(`${type as 'post'} as x`)
    .innerJoin('users as u', 'u.id', 'x.user_id')
    .select(['x.id', 'x.title', 'x.status', 'u.user_id', 'u.name', 'u.avatar'])
    .where('x.id', 'in', ids)
    .execute();
  for (const row of rows)
    found.set(row.id, {
      title: row.title,
      url: pageOf(type, row.id),
      status: row.status as ModeratedStatus,
      author: { userId: row.user_id, name: row.name, avatar: row.avatar },
    });
  return found;
}

/** Open content reports, one entry per item, the most recently reported first. */
export async function contentQueue(db: Db, staff: Staff, page: PageRequest): Promise<ReportQueue<ReportedItem>> {
  requireEditor(staff);
  const groups = await db
    .selectFrom('report')
    .select((eb) => [
      'target_type',
      'target_id',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min('created_at').as('first_at'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .where('status', '=', 'open')
    .groupBy(['target_type', 'target_id'])
    .orderBy('last_at', 'desc')
    .orderBy('target_type')
    .orderBy('target_id')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  const counted = await db
    .selectFrom(
      db
        .selectFrom('report')
        .select(['target_type', 'target_id'])
        .where('status', '=', 'open')
        .groupBy(['target_type', 'target_id'])
        .as('g'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();

  const byType = new Map<ModeratedType, number[]>();
  for (const group of groups)
    byType.set(group.target_type, [...(byType.get(group.target_type) ?? []), group.target_id]);
  const described = new Map<string, Described>();
  for (const [type, ids] of byType)
    for (const [id, item] of await describe(db, type, ids)) described.set(`${type}:${id}`, item);

  const items: ReportedItem[] = [];
  for (const group of groups) {
    const key = { type: group.target_type, id: group.target_id };
    const reports = await db
      .selectFrom('report as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.reason', 'r.text', 'u.name'])
      .where('r.status', '=', 'open')
      .where('r.target_type', '=', key.type)
      .where('r.target_id', '=', key.id)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .execute();
    const reasons = new Map<ReportReason, number>();
    for (const report of reports) reasons.set(report.reason, (reasons.get(report.reason) ?? 0) + 1);
    const item = described.get(`${key.type}:${key.id}`);
    items.push({
      targetType: key.type,
      targetId: key.id,
      title: item?.title ?? '',
      url: item?.url ?? null,
      status: item?.status ?? 'deleted',
      author: item?.author ?? null,
      count: Number(group.n),
      reasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
      notes: reports
        .filter((report) => report.text !== '')
        .slice(0, NOTES_MAX)
        .map((report) => ({ text: report.text, reporter: report.name })),
      firstAt: group.first_at,
      lastAt: group.last_at,
    });
  }
  return { items, pagination: pageInfo(page, Number(counted.total)) };
}

/** Reported download links, the most recently reported first. */
export async function linkQueue(db: Db, staff: Staff, page: PageRequest): Promise<ReportQueue<ReportedLink>> {
  requireEditor(staff);
  const groups = await db
    .selectFrom('link_report as r')
    .innerJoin('download_link as l', 'l.id', 'r.link_id')
    .innerJoin('galgame_download as d', 'd.id', 'l.download_id')
    .innerJoin('galgame as g', 'g.id', 'd.galgame_id')
    .select((eb) => [
      'l.id',
      'l.label',
      'l.url',
      'g.id as galgame_id',
      'g.title',
      'g.title_zh',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.max('r.created_at').as('last_at'),
    ])
    .groupBy(['l.id', 'l.label', 'l.url', 'g.id', 'g.title', 'g.title_zh'])
    .orderBy('last_at', 'desc')
    .orderBy('l.id')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  const counted = await db
    .selectFrom('link_report')
    .select(sql<number | string>`count(distinct link_id)`.as('total'))
    .executeTakeFirstOrThrow();
  const items: ReportedLink[] = [];
  for (const group of groups) {
    const notes = await db
      .selectFrom('link_report')
      .select('reason')
      .where('link_id', '=', group.id)
      .where('reason', '!=', '')
      .orderBy('created_at', 'desc')
      .limit(NOTES_MAX)
      .execute();
    items.push({
      targetType: 'link',
      targetId: group.id,
      galgameId: group.galgame_id,
      galgameName: group.title_zh || group.title,
      label: group.label,
      url: group.url,
      count: Number(group.n),
      notes: notes.map((note) => note.reason),
      lastAt: group.last_at,
    });
  }
  return { items, pagination: pageInfo(page, Number(counted.total)) };
}

async function closeContentReports(
  trx: Trx,
  staff: Staff,
  target: { type: ModeratedType; id: number },
  status: 'resolved' | 'dismissed',
  now: Date,
): Promise<number> {
  const closed = await trx
    .updateTable('report')
    .set({ status, resolved_by: staff.id, resolved_at: now.toISOString() })
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  const count = Number(closed.numUpdatedRows);
  if (count === 0) throw reportClosed();
  return count;
}

/** A link's reports leave with the decision: its count starts again from zero. */
async function closeLinkReports(trx: Trx, linkId: number): Promise<{ count: number; galgameId: number }> {
  const link = await trx
    .selectFrom('download_link as l')
    .innerJoin('galgame_download as d', 'd.id', 'l.download_id')
    .select(['l.id', 'd.galgame_id'])
    .where('l.id', '=', linkId)
    .executeTakeFirst();
  if (!link) throw new HttpError(404, 'NOT_FOUND', 'moderation.error.linkNotFound');
  const removed = await trx.deleteFrom('link_report').where('link_id', '=', linkId).executeTakeFirst();
  const count = Number(removed.numDeletedRows);
  if (count === 0) throw reportClosed();
  await trx.updateTable('download_link').set({ report_count: 0 }).where('id', '=', linkId).execute();
  return { count, galgameId: link.galgame_id };
}

export interface QueueOutcome {
  closed: number;
  /** Cached pages to drop once committed. */
  tags: string[];
}

/**
 * Closes an item's open reports: `resolve` with an action (hide or delete content, remove a link, or
 * none), or `dismiss`. The action, the closing and their audit rows commit together or not at all.
 */
export async function closeReports(
  deps: ContentDeps & { db: Db },
  staff: Staff,
  target: { type: QueueType; id: number },
  decision: { outcome: 'resolve'; action: ResolveAction } | { outcome: 'dismiss' },
  reason: string,
  now = new Date(),
): Promise<QueueOutcome> {
  requireEditor(staff);
  const action = decision.outcome === 'resolve' ? decision.action : 'none';
  const fits =
    action === 'none' || (target.type === 'link' ? action === 'removeLink' : action === 'hide' || action === 'delete');
  if (!fits) throw new HttpError(400, 'VALIDATION_FAILED', 'moderation.error.actionForType');
  const auditAction = decision.outcome === 'resolve' ? 'report.resolve' : 'report.dismiss';
  const outcome = await deps.db.transaction().execute(async (trx): Promise<QueueOutcome> => {
    if (target.type === 'link') {
      const { count, galgameId } = await closeLinkReports(trx, target.id);
      // The game's downloads are part of its document: removing a link is a revision like any edit.
      if (action === 'removeLink')
        await recordChange(
          trx,
          'galgame',
          galgameId,
          async () => {
            await trx.deleteFrom('download_link').where('id', '=', target.id).execute();
          },
          { userId: staff.id, note: reason, now },
        );
      await writeAudit(
        trx,
        {
          actorId: staff.id,
          action: auditAction,
          targetType: 'link',
          targetId: target.id,
          detail: { action, reason, count },
        },
        now,
      );
      return { closed: count, tags: [pageTags.galgame(galgameId)] };
    }
    const content = { type: target.type, id: target.id };
    const count = await closeContentReports(
      trx,
      staff,
      content,
      decision.outcome === 'resolve' ? 'resolved' : 'dismissed',
      now,
    );
    let tags: string[] = [];
    if (action === 'hide') tags = (await hideContent(deps, trx, staff, content, reason, now)).tags;
    if (action === 'delete') tags = (await deleteModerated(deps, trx, staff, content, reason, now)).tags;
    await writeAudit(
      trx,
      {
        actorId: staff.id,
        action: auditAction,
        targetType: content.type,
        targetId: content.id,
        detail: { action, reason, count },
      },
      now,
    );
    return { closed: count, tags };
  });
  deps.jobs.poke();
  return outcome;
}
