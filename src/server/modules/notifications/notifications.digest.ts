import { sql } from 'kysely';
import type { Locale } from '../../../shared/i18n/index.ts';
import { translator } from '../../../shared/i18n/catalogues.ts';
import type { AppJobQueue } from '../../context.ts';
import { dialectOf, type Db } from '../../db/database.ts';
import type { Mail } from '../../platform/mail.ts';
import { queuePreparedMail } from '../auth/auth.mail-job.ts';
import { parseUserSetting } from '../users/users.service.ts';
import { listNotifications, type NotificationDeps } from './notifications.service.ts';
import { notificationText } from '../../../shared/notifications/notification-text.ts';
import type { NotificationView } from '../../../shared/notifications/notifications.ts';

/**
 * E-mail digests (decision 021): members who turned e-mail notifications on get one mail listing what
 * is unread and not mailed since it last changed. Housekeeping queues one `notifications.digest` job
 * per such member; the job marks the rows it mails and queues the mail (an `auth.mail` job) in one short
 * transaction, and the mail job sends it after the commit: a row is mailed once, a mail is never lost
 * (the mail job is retried), nothing new means no mail, and no transaction waits on the mail server.
 */

/** Rows not mailed since their last change (a grown group counts as new). */
const unmailed = sql<boolean>`(mailed_at is null or mailed_at < updated_at)`;

/** Members are read this many at a time. */
const MEMBERS_PER_READ = 500;
/** At most this many lines in one mail. */
const LINES = 10;

/** Members who did not turn e-mail notifications off (they are on by default). */
function emailOptIn(db: Db) {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`coalesce((u.user_setting::jsonb ->> 'emailNotifications'), 'true') <> 'false'`
    : sql<boolean>`coalesce(json_extract(u.user_setting, '$.emailNotifications'), 1) <> 0`;
}

/**
 * Queues a digest for every opted-in member with something new (one waiting job per member). Walks the
 * members by id, 500 at a time, asking the unread index of each whether anything is new: opted-out
 * members' rows are never read, and no batch reads every unread notification again.
 */
export async function queueDigests(db: Db, jobs: Pick<AppJobQueue, 'enqueue' | 'poke'>): Promise<number> {
  let queued = 0;
  let after = '';
  for (;;) {
    const members = await db
      .selectFrom('users as u')
      .select(['u.id', 'u.user_setting'])
      .where('u.status', '!=', 'banned')
      .where('u.id', '>', after)
      .where(emailOptIn(db))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('notification as n')
            .select('n.id')
            .whereRef('n.user_id', '=', 'u.id')
            .where('n.read_at', 'is', null)
            .where(sql<boolean>`(n.mailed_at is null or n.mailed_at < n.updated_at)`),
        ),
      )
      .orderBy('u.id')
      .limit(MEMBERS_PER_READ)
      .execute();
    if (members.length === 0) break;
    for (const member of members) {
      if (!parseUserSetting(member.user_setting).emailNotifications) continue;
      await jobs.enqueue(db, 'notifications.digest', { userId: member.id }, { dedupeKey: member.id });
      queued += 1;
    }
    after = members[members.length - 1]!.id;
  }
  if (queued > 0) jobs.poke();
  return queued;
}

/** The digest mail of a member, in their language. */
export function digestMail(to: string, locale: Locale, origin: string, lines: NotificationView[], total: number): Mail {
  const t = translator(locale);
  const text = [
    t('notifications.mail.hello'),
    '',
    t('notifications.mail.intro', { count: total }),
    '',
    ...lines.map((item) => `- ${notificationText(t, item)}${item.url ? `\n  ${origin}${item.url}` : ''}`),
    ...(total > lines.length ? ['', t('notifications.mail.more', { count: total - lines.length })] : []),
    '',
    t('notifications.mail.open', { url: `${origin}/message/system` }),
    t('notifications.mail.optOut'),
    '',
    '—— Hikari',
  ].join('\n');
  return { to, subject: t('notifications.mail.subject', { count: total }), text };
}

/**
 * The `notifications.digest` job: in one short transaction, marks what is new mailed and queues the mail
 * (an `auth.mail` job, sent after the commit). Comments deleted or hidden since are marked and left out.
 */
export async function sendDigest(
  deps: NotificationDeps & { jobs: Pick<AppJobQueue, 'enqueue' | 'poke'>; origin: string },
  userId: string,
  now = new Date(),
): Promise<boolean> {
  const user = await deps.db
    .selectFrom('users')
    .select(['email', 'user_setting', 'status'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || user.status === 'banned') return false;
  const setting = parseUserSetting(user.user_setting);
  if (!setting.emailNotifications) return false;
  const queued = await deps.db.transaction().execute(async (trx) => {
    // Marking first takes the rows (a digest running at the same time for the member waits, then finds
    // them marked): only what this transaction marked is mailed.
    const marked = await trx
      .updateTable('notification')
      .set({ mailed_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .where(unmailed)
      .returning('id')
      .execute();
    if (marked.length === 0) return false;
    const ids = new Set(marked.map((row) => row.id));
    const page = await listNotifications({ db: trx, targets: deps.targets }, userId, {
      page: 1,
      limit: 50,
      unread: true,
    });
    const news = page.items.filter((item) => ids.has(item._id) && !item.gone);
    // Everything new was a comment deleted meanwhile: marked, nothing to mail.
    const total = marked.length - page.items.filter((item) => ids.has(item._id) && item.gone).length;
    if (news.length === 0 || total <= 0) return false;
    await queuePreparedMail(
      deps.jobs,
      trx,
      digestMail(user.email, setting.locale, deps.origin, news.slice(0, LINES), total),
    );
    return true;
  });
  if (queued) deps.jobs.poke();
  return queued;
}
