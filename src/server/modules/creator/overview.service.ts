import {
  OVERVIEW_OUTCOMES,
  type CreatorOverview,
  type OverviewQueue,
  type OverviewRequest,
} from '../../../shared/creator/application.contract.ts';
import {
  REQUEST_STATUSES,
  isAdminGroup,
  isEditorGroup,
  type RequestStatus,
} from '../../../shared/creator/creator-model.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';

// The creator centre's overview (/create/home): read-only counts over the tables of the parts that
// own them (community content, update requests, reports, creator applications), in one answer.

/** The decided states a member wants to hear about. */
const OUTCOME_STATUSES: readonly RequestStatus[] = ['approved', 'rejected', 'changes_requested'];

async function countContent(db: Db, userId: string, status: 'draft' | 'published'): Promise<number> {
  const [posts, articles] = await Promise.all(
    (['post', 'article'] as const).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('status', '=', status)
        .executeTakeFirstOrThrow(),
    ),
  );
  return Number(posts?.n ?? 0) + Number(articles?.n ?? 0);
}

async function requestCounts(db: Db, userId: string): Promise<Record<RequestStatus, number>> {
  const rows = await db
    .selectFrom('update_request')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute();
  const counts = Object.fromEntries(REQUEST_STATUSES.map((status) => [status, 0])) as Record<RequestStatus, number>;
  for (const row of rows) if (row.status in counts) counts[row.status] = Number(row.n);
  return counts;
}

async function requestOutcomes(db: Db, userId: string): Promise<OverviewRequest[]> {
  const rows = await db
    .selectFrom('update_request')
    .select(['id', 'item_type', 'item_id', 'title', 'status', 'review_note', 'reviewed_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('status', 'in', OUTCOME_STATUSES)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(OVERVIEW_OUTCOMES)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    itemType: row.item_type,
    itemId: row.item_id,
    title: row.title,
    status: row.status,
    reviewNote: row.review_note,
    reviewedAt: row.reviewed_at,
    updatedAt: row.updated_at,
  }));
}

async function countWhere(db: Db, table: 'update_request' | 'report' | 'creator_application', status: string) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status as never)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The queues a member of `group` works: editors and above review requests and reports, admins applications. */
async function queuesFor(db: Db, group: Parameters<typeof isEditorGroup>[0]): Promise<OverviewQueue[]> {
  const queues: Promise<OverviewQueue>[] = [];
  if (isEditorGroup(group)) {
    queues.push(
      countWhere(db, 'update_request', 'pending').then((count) => ({
        id: 'updateRequests',
        count,
        href: '/create/update-request/audits',
      })),
      countWhere(db, 'report', 'open').then((count) => ({ id: 'reports', count, href: '/create/moderation/reports' })),
    );
  }
  if (isAdminGroup(group))
    queues.push(
      countWhere(db, 'creator_application', 'pending').then((count) => ({
        id: 'applications',
        count,
        href: '/create/moderation/applications',
      })),
    );
  return Promise.all(queues);
}

/** GET /api/creator/overview for the member `userId`, their group read from the database. */
export async function creatorOverview(db: Db, userId: string): Promise<CreatorOverview> {
  const user = await db
    .selectFrom('users')
    .select(['user_group', 'hikari_point'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  const [drafts, published, counts, outcomes, queues] = await Promise.all([
    countContent(db, userId, 'draft'),
    countContent(db, userId, 'published'),
    requestCounts(db, userId),
    requestOutcomes(db, userId),
    queuesFor(db, user.user_group),
  ]);
  return {
    group: user.user_group,
    hikariPoint: Number(user.hikari_point),
    content: { drafts, published },
    requests: { counts, outcomes },
    queues,
  };
}
