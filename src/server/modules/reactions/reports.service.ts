import { messageRef } from '../../../shared/i18n/index.ts';
import {
  REPORTS_PER_DAY,
  type ReportBody,
  type ReportCreated,
  type ReportPage,
  type ReportStatus,
} from '../../../shared/reactions/reactions.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { hitRateLimit, rateLimited, releaseRateLimit, type RateRule } from '../../platform/rate-limit.ts';
import type { TargetRegistry, TargetViewer } from '../../platform/targets/targets.ts';

/**
 * Reports of posts, articles and comments (decision 018), kept for the moderation queue. A member has
 * one open report per item (a unique partial index has the last word) and sends at most
 * REPORTS_PER_DAY a day; a repeated report is refused without counting.
 */

export interface ReportDeps {
  db: Db;
  targets: TargetRegistry;
}

export const REPORT_LIMIT: RateRule = { limit: REPORTS_PER_DAY, windowMs: 24 * 60 * 60_000 };

const alreadyReported = () => new HttpError(409, 'ALREADY_REPORTED', 'server.reports.alreadyReported');

async function hasOpenReport(db: Db, userId: string, body: Pick<ReportBody, 'targetType' | 'targetId'>) {
  const row = await db
    .selectFrom('report')
    .select('id')
    .where('user_id', '=', userId)
    .where('target_type', '=', body.targetType)
    .where('target_id', '=', body.targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return row !== undefined;
}

/** Files a report of an item the reporter may see (else 404). */
export async function createReport(
  deps: ReportDeps,
  viewer: NonNullable<TargetViewer>,
  body: ReportBody,
  now = new Date(),
): Promise<ReportCreated> {
  const found = (await deps.targets.find(deps.db, body.targetType, [body.targetId], viewer)).get(body.targetId);
  if (!found) throw new HttpError(404, 'NOT_FOUND', 'server.reports.targetNotFound');
  // The author edits or deletes their own item; a report of it would only fill the moderators' queue.
  if (found.ownerId === viewer.id)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.reports.ownItem',
      fieldIssue('targetId', 'server.reports.ownItem'),
    );
  if (await hasOpenReport(deps.db, viewer.id, body)) throw alreadyReported();
  const key = `report:day:${viewer.id}`;
  const hit = await hitRateLimit(deps.db, key, REPORT_LIMIT, now.getTime());
  if (hit.count > REPORT_LIMIT.limit)
    throw rateLimited(hit.retryAfter, messageRef('server.reports.dailyLimit', { max: REPORT_LIMIT.limit }));
  try {
    const id = await nextId(deps.db, 'report_id');
    await deps.db
      .insertInto('report')
      .values({
        id,
        user_id: viewer.id,
        target_type: body.targetType,
        target_id: body.targetId,
        reason: body.reason,
        text: body.text,
        status: 'open',
        created_at: now.toISOString(),
        resolved_by: null,
        resolved_at: null,
      })
      .execute();
    return { id, status: 'open' };
  } catch (error) {
    // The same report sent twice at once: the second is a repeat, and does not count.
    if (!isUniqueViolation(error)) throw error;
    await releaseRateLimit(deps.db, key, REPORT_LIMIT, now.getTime());
    throw alreadyReported();
  }
}

/** Reports by status, newest first, with who sent them and who handled them (the moderation queue). */
export async function listReports(db: Db, options: PageRequest & { status: ReportStatus }): Promise<ReportPage> {
  const base = db.selectFrom('report').where('status', '=', options.status);
  const { items, pagination } = await paginate(
    options,
    db
      .selectFrom('report as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('users as m', 'm.id', 'r.resolved_by')
      .select([
        'r.id',
        'r.target_type',
        'r.target_id',
        'r.reason',
        'r.text',
        'r.status',
        'r.created_at',
        'r.resolved_at',
        'u.user_id as reporter_user_id',
        'u.name as reporter_name',
        'u.avatar as reporter_avatar',
        'm.user_id as resolver_user_id',
        'm.name as resolver_name',
      ])
      .where('r.status', '=', options.status)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return {
    items: items.map((row) => ({
      id: row.id,
      targetType: row.target_type,
      targetId: row.target_id,
      reason: row.reason,
      text: row.text,
      status: row.status,
      createdAt: row.created_at,
      reporter: { userId: row.reporter_user_id, name: row.reporter_name, avatar: row.reporter_avatar },
      resolvedBy:
        row.resolver_user_id !== null && row.resolver_name !== null
          ? { userId: row.resolver_user_id, name: row.resolver_name }
          : null,
      resolvedAt: row.resolved_at,
    })),
    pagination,
  };
}
