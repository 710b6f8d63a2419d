import type { Db } from '../../db/database.ts';
import { pruneRateLimits } from '../../platform/rate-limit.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Deletes what has no further use: rate-limit windows older than a day, one-time codes older than a
 * day, and refresh-token families that ended (revoked or expired) more than 30 days ago (their tokens
 * go with them). Run at start and then hourly.
 */
export async function pruneAuthData(db: Db, now = new Date()): Promise<void> {
  const at = now.getTime();
  await pruneRateLimits(db, DAY, at);
  await db
    .deleteFrom('one_time_code')
    .where('created_at', '<', new Date(at - DAY).toISOString())
    .execute();
  const cutoff = new Date(at - 30 * DAY).toISOString();
  const ended = db
    .selectFrom('refresh_family')
    .select('id')
    .where((eb) => eb.or([eb('revoked_at', '<', cutoff), eb('expires_at', '<', cutoff)]));
  await db.deleteFrom('refresh_token').where('family_id', 'in', ended).execute();
  await db
    .deleteFrom('refresh_family')
    .where((eb) => eb.or([eb('revoked_at', '<', cutoff), eb('expires_at', '<', cutoff)]))
    .execute();
}
