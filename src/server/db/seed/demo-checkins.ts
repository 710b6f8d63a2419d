import { addDays, siteDayStart, siteToday } from '../../../shared/site-day.ts';
import { checkIn, checkedInOn } from '../../modules/checkin/checkin.service.ts';
import type { Db } from '../database.ts';

const HOUR = 3_600_000;

/**
 * A few check-ins of the demo account in the days before the seed, so its calendar is not empty: the
 * last three days (a streak it can continue today) and one a week ago, leaving gaps to make up. Only
 * days of the seed's month, through the check-in service (points, streak and ledger as usual).
 */
export async function seedDemoCheckIns(db: Db, now: Date): Promise<number> {
  const demo = await db.selectFrom('users').select('id').where('name', '=', 'hikari_demo').executeTakeFirst();
  if (!demo) return 0;
  const today = siteToday(now);
  const days = [6, 3, 2, 1].map((back) => addDays(today, -back)).filter((day) => day.slice(0, 7) === today.slice(0, 7));
  let done = 0;
  for (const day of days) {
    const at = new Date(siteDayStart(day).getTime() + 9 * HOUR);
    if (await checkedInOn(db, demo.id, day)) continue;
    await checkIn(db, demo.id, at);
    done++;
  }
  return done;
}
