import { sql } from 'kysely';
import { CREATOR_GROUPS, type UserGroup } from '../../../shared/auth-model.ts';
import type {
  ApplicationFilter,
  ApplicationPage,
  ApplicationStatusData,
  CreatorApplicationView,
  ReviewedApplicationView,
} from '../../../shared/creator/application.contract.ts';
import { isAdminGroup } from '../../../shared/creator/creator-model.ts';
import { messageRef, type MessageRef } from '../../../shared/i18n/index.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { hitRateLimit, rateLimited, releaseRateLimit, type RateRule } from '../../platform/rate-limit.ts';
import { StorageError, contentTypeForKey, isValidKey, type Storage } from '../../platform/storage/storage.ts';
import { confirmStoredImage } from '../media/stored-image.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import type { UserRow } from '../users/users.tables.ts';
import type { CreatorApplicationRow } from './application.tables.ts';

// Creator applications (decision 028): one pending application per member (a unique partial index
// holds it under concurrent submits), decided once by an admin in a transaction that also changes the
// member's group, writes the audit log and queues the member's notification.

/** Submits a member may make: 5 a day (a refused one can be followed by a better one the same day). */
export const APPLICATION_LIMIT: RateRule = { limit: 5, windowMs: 24 * 60 * 60_000 };

/** The upload kind of application images (shared/media/upload.ts). */
const IMAGE_KIND = 'creator_application';
const IMAGE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export type Applicant = Pick<UserRow, 'id' | 'user_id' | 'user_group'>;

const applicationOpen = () => new HttpError(409, 'APPLICATION_OPEN', 'application.error.open');
const applicationClosed = () => new HttpError(409, 'APPLICATION_CLOSED', 'application.error.closed');
const notFound = () => new HttpError(404, 'NOT_FOUND', 'application.error.notFound');

function parseImages(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function toView(row: CreatorApplicationRow): CreatorApplicationView {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    images: parseImages(row.images),
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reviewedAt: row.reviewed_at,
  };
}

/** The member's latest application, or null. */
async function latestOf(db: Db, userId: string): Promise<CreatorApplicationRow | undefined> {
  return db
    .selectFrom('creator_application')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function groupOf(db: Db, userId: string): Promise<UserGroup> {
  const row = await db.selectFrom('users').select('user_group').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return row.user_group;
}

/** GET /user/creator-application/status: the latest application and the member's group as stored now. */
export async function applicationStatus(db: Db, userId: string): Promise<ApplicationStatusData> {
  const [row, group] = await Promise.all([latestOf(db, userId), groupOf(db, userId)]);
  return { application: row ? toView(row) : null, group };
}

/**
 * The storage key of an application image: an upload of this member's (`creator_application/{userId}/
 * {file}`, exactly as the storage writes its address). Anything else is refused, naming the image.
 */
export function applicationImageKey(
  storage: Pick<Storage, 'publicUrl'>,
  url: string,
  userId: number,
  index: number,
): string {
  const bed = storage.publicUrl('x').slice(0, -1);
  const key = url.startsWith(bed) ? url.slice(bed.length) : '';
  const [kind, owner, file, ...rest] = key.split('/');
  if (
    kind !== IMAGE_KIND ||
    owner !== String(userId) ||
    rest.length > 0 ||
    !IMAGE_FILE.test(file ?? '') ||
    !isValidKey(key) ||
    !contentTypeForKey(key)?.startsWith('image/') ||
    storage.publicUrl(key) !== url
  ) {
    const message = messageRef('application.error.imageNotOurs', { url });
    throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(`images.${index}`, message));
  }
  return key;
}

/** Each image was uploaded, is within the limits and really an image (checked once, here). */
async function confirmApplicationImages(storage: Storage, images: readonly { key: string; url: string }[]) {
  for (const { key, url } of images) {
    try {
      await confirmStoredImage(storage, key);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      const message: MessageRef =
        error.code === 'UPLOAD_INCOMPLETE'
          ? messageRef('application.error.imageNotUploaded', { url })
          : (error.message as MessageRef);
      throw new HttpError(error.status, error.code, message);
    }
  }
}

async function hasPending(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('creator_application')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

export interface SubmitInput {
  reason: string;
  images: readonly string[];
}

/**
 * A new pending application. Creators and above are refused (409 ALREADY_CREATOR), so is a second
 * one while one is pending (409 APPLICATION_OPEN, also when two arrive at once: the unique index
 * keeps one), and more than APPLICATION_LIMIT a day (429; a refused submit does not count).
 */
export async function submitApplication(
  deps: { db: Db; storage: Storage },
  user: Applicant,
  input: SubmitInput,
  now = new Date(),
): Promise<ApplicationStatusData> {
  const { db } = deps;
  if (CREATOR_GROUPS.includes(user.user_group))
    throw new HttpError(409, 'ALREADY_CREATOR', 'application.error.alreadyCreator');
  const images = [...new Set(input.images)].map((url, index) => ({
    url,
    key: applicationImageKey(deps.storage, url, user.user_id, index),
  }));
  if (await hasPending(db, user.id)) throw applicationOpen();
  const limitKey = `creator-application:day:${user.id}`;
  const hit = await hitRateLimit(db, limitKey, APPLICATION_LIMIT, now.getTime());
  if (hit.count > APPLICATION_LIMIT.limit)
    throw rateLimited(hit.retryAfter, messageRef('application.error.dailyLimit', { max: APPLICATION_LIMIT.limit }));
  try {
    await confirmApplicationImages(deps.storage, images);
    const id = await nextId(db, 'creator_application_id');
    await db
      .insertInto('creator_application')
      .values({
        id,
        user_id: user.id,
        reason: input.reason,
        images: JSON.stringify(images.map((image) => image.url)),
        status: 'pending',
        rejection_reason: '',
        reviewer_id: null,
        reviewed_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
  } catch (error) {
    await releaseRateLimit(db, limitKey, APPLICATION_LIMIT, now.getTime());
    // Two submits at once: the second met the first's pending row.
    if (isUniqueViolation(error)) throw applicationOpen();
    throw error;
  }
  return applicationStatus(db, user.id);
}

/** Takes back the member's own pending application; another member's is 404, a decided one 409. */
export async function withdrawApplication(
  db: Db,
  userId: string,
  id: number,
  now = new Date(),
): Promise<ApplicationStatusData> {
  const result = await db
    .updateTable('creator_application')
    .set({ status: 'withdrawn', updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const row = await db
      .selectFrom('creator_application')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    throw row ? applicationClosed() : notFound();
  }
  return applicationStatus(db, userId);
}

/** Admins only (403 with a message otherwise): listing and deciding applications. */
export function assertApplicationReviewer(user: Pick<UserRow, 'user_group'>): void {
  if (!isAdminGroup(user.user_group)) throw new HttpError(403, 'FORBIDDEN', 'application.error.adminsOnly');
}

const reviewColumns = [
  'a.id',
  'a.user_id',
  'a.reason',
  'a.images',
  'a.status',
  'a.rejection_reason',
  'a.reviewer_id',
  'a.reviewed_at',
  'a.created_at',
  'a.updated_at',
  'u.user_id as applicant_user_id',
  'u.name as applicant_name',
  'u.avatar as applicant_avatar',
  'u.user_group as applicant_group',
  'u.created_at as applicant_joined_at',
  'u.post_count as applicant_post_count',
  'u.article_count as applicant_article_count',
  'r.user_id as reviewer_user_id',
  'r.name as reviewer_name',
] as const;

function reviewQuery(db: Db) {
  return db
    .selectFrom('creator_application as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('users as r', 'r.id', 'a.reviewer_id');
}

function toReviewed(row: {
  id: number;
  user_id: string;
  reason: string;
  images: string;
  status: CreatorApplicationRow['status'];
  rejection_reason: string;
  reviewer_id: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
  applicant_user_id: number;
  applicant_name: string;
  applicant_avatar: string;
  applicant_group: UserGroup;
  applicant_joined_at: string;
  applicant_post_count: number;
  applicant_article_count: number;
  reviewer_user_id: number | null;
  reviewer_name: string | null;
}): ReviewedApplicationView {
  return {
    ...toView(row),
    applicant: {
      _id: row.user_id,
      userId: row.applicant_user_id,
      name: row.applicant_name,
      avatar: row.applicant_avatar,
      group: row.applicant_group,
      joinedAt: row.applicant_joined_at,
      postCount: Number(row.applicant_post_count),
      articleCount: Number(row.applicant_article_count),
    },
    reviewer:
      row.reviewer_user_id !== null && row.reviewer_name !== null
        ? { userId: row.reviewer_user_id, name: row.reviewer_name }
        : null,
  };
}

async function reviewedById(db: Db, id: number): Promise<ReviewedApplicationView> {
  const row = await reviewQuery(db).select(reviewColumns).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toReviewed(row);
}

/**
 * The review queue: applications with a status, or all of them with the pending ones first (oldest
 * waiting first), then the rest, latest change first.
 */
export async function listApplications(
  db: Db,
  filter: ApplicationFilter,
  request: PageRequest,
): Promise<ApplicationPage> {
  const base = filter === 'all' ? reviewQuery(db) : reviewQuery(db).where('a.status', '=', filter);
  const pending = sql`a.status = 'pending'`;
  const rows = base
    .select(reviewColumns)
    .orderBy(sql`case when ${pending} then 0 else 1 end`)
    .orderBy(sql`case when ${pending} then a.id else 0 end`)
    .orderBy('a.updated_at', 'desc')
    .orderBy('a.id', 'desc');
  const count = base.select((eb) => eb.fn.countAll<number>().as('total'));
  const [page, waiting] = await Promise.all([
    paginate(request, rows, count),
    db
      .selectFrom('creator_application')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  return { items: page.items.map(toReviewed), pagination: page.pagination, pending: Number(waiting.n) };
}

export type Decision = { approve: true } | { approve: false; reason: string };

/**
 * Decides a pending application, once: of two decisions (a double click, two admins) the first wins and
 * the other answers 409 APPLICATION_CLOSED. Approval puts a plain member in the creator group (a member
 * already above it keeps their group). The decision, the group, the audit-log row and the member's
 * notification commit together.
 */
export async function decideApplication(
  deps: { db: Db } & NotifyDeps,
  reviewer: Pick<UserRow, 'id' | 'user_group'>,
  id: number,
  decision: Decision,
  now = new Date(),
): Promise<ReviewedApplicationView> {
  assertApplicationReviewer(reviewer);
  const at = now.toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('creator_application')
      .select(['user_id', 'status'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound();
    if (row.user_id === reviewer.id) throw new HttpError(403, 'FORBIDDEN', 'application.error.ownApplication');
    const decided = await trx
      .updateTable('creator_application')
      .set({
        status: decision.approve ? 'approved' : 'rejected',
        rejection_reason: decision.approve ? '' : decision.reason,
        reviewer_id: reviewer.id,
        reviewed_at: at,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(decided.numUpdatedRows) !== 1) throw applicationClosed();
    const before = await groupOf(trx, row.user_id);
    let after = before;
    if (decision.approve && before === 'user') {
      await trx
        .updateTable('users')
        .set({ user_group: 'creator', updated_at: at })
        .where('id', '=', row.user_id)
        .where('user_group', '=', 'user')
        .execute();
      after = 'creator';
    }
    await writeAudit(
      trx,
      {
        actorId: reviewer.id,
        action: decision.approve ? 'application.approve' : 'application.reject',
        targetType: 'creator_application',
        targetId: id,
        detail: {
          userId: row.user_id,
          ...(decision.approve ? { groupBefore: before, groupAfter: after } : { reason: decision.reason }),
        },
      },
      now,
    );
    await notifyLater(deps, trx, {
      kind: 'review',
      recipientId: row.user_id,
      reviewerId: reviewer.id,
      action: decision.approve ? 'application_approved' : 'application_rejected',
      subject: null,
      title: '',
      reason: decision.approve ? '' : decision.reason,
      at,
    });
  });
  deps.jobs.poke();
  return reviewedById(deps.db, id);
}
