import type { RatingSummary } from '../../../shared/catalogue-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import type { LightnovelRatingView } from '../../../shared/lightnovel/ratings.contract.ts';
import type { Db, Trx } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { onPage, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { retally, summaryOf, tallyColumns, tallyOf, tallyRows, type ScoreTally } from '../catalogue/ratings.service.ts';

// Ratings of light-novel series: one per member and series, a score of 1–10 and a short text. The
// series' count, sum, average and histogram move with each rating while its row is locked, as a
// game's do (catalogue/ratings.service.ts, whose tally helpers these share).

export interface LightnovelRatingInput {
  score: number;
  text: string;
}

const notFound = (id: number) => new HttpError(404, 'NOT_FOUND', messageRef('lightnovel.error.notFound', { id }));

/**
 * Locks a published series' row for the rest of the transaction (a no-op update: the row lock on
 * PostgreSQL, the write lock on SQLite), so concurrent ratings apply one after another; 404 otherwise.
 */
async function lockSeries(trx: Trx, lightnovelId: number) {
  const updated = await trx
    .updateTable('lightnovel')
    .set((eb) => ({ rating_count: eb.ref('rating_count') }))
    .where('id', '=', lightnovelId)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw notFound(lightnovelId);
  return trx
    .selectFrom('lightnovel')
    .select(['rating_count', 'rating_sum', 'score_hist'])
    .where('id', '=', lightnovelId)
    .executeTakeFirstOrThrow();
}

const writeTally = (db: Db, lightnovelId: number, tally: ScoreTally) =>
  db.updateTable('lightnovel').set(tallyColumns(tally)).where('id', '=', lightnovelId).execute();

const mine = (db: Db, userId: string, lightnovelId: number) =>
  db
    .selectFrom('lightnovel_rating')
    .select(['id', 'score'])
    .where('lightnovel_id', '=', lightnovelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** Creates or replaces the member's rating of a published series; answers the series' new summary. */
export async function saveLightnovelRating(
  db: Db,
  userId: string,
  lightnovelId: number,
  input: LightnovelRatingInput,
  now = new Date(),
): Promise<RatingSummary> {
  return db.transaction().execute(async (trx) => {
    const series = await lockSeries(trx, lightnovelId);
    const existing = await mine(trx, userId, lightnovelId);
    const values = { score: input.score, text: input.text, updated_at: now.toISOString() };
    if (existing) {
      await trx.updateTable('lightnovel_rating').set(values).where('id', '=', existing.id).execute();
    } else {
      const id = await nextId(trx, 'lightnovel_rating_id');
      await trx
        .insertInto('lightnovel_rating')
        .values({ id, user_id: userId, lightnovel_id: lightnovelId, ...values, created_at: now.toISOString() })
        .execute();
    }
    const tally = retally(tallyOf(series), existing?.score ?? null, input.score);
    await writeTally(trx, lightnovelId, tally);
    return summaryOf(tally);
  });
}

/** Deletes the member's rating of a published series (nothing to delete is fine); answers the new summary. */
export async function deleteLightnovelRating(db: Db, userId: string, lightnovelId: number): Promise<RatingSummary> {
  return db.transaction().execute(async (trx) => {
    const series = await lockSeries(trx, lightnovelId);
    let tally = tallyOf(series);
    const existing = await mine(trx, userId, lightnovelId);
    if (existing) {
      await trx.deleteFrom('lightnovel_rating').where('id', '=', existing.id).execute();
      tally = retally(tally, existing.score, null);
      await writeTally(trx, lightnovelId, tally);
    }
    return summaryOf(tally);
  });
}

/**
 * Locks the rows of these series (in id order, 500 at a time), so a rating arriving meanwhile waits
 * and a recount in the same transaction sees it.
 */
export async function lockLightnovelRatings(db: Db, lightnovelIds: readonly number[]): Promise<void> {
  const ids = [...new Set(lightnovelIds)].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('lightnovel')
      .set((eb) => ({ rating_count: eb.ref('rating_count') }))
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/**
 * Sets the rating aggregates of these series to a recount of their ratings (after ratings were removed
 * with their author). Run inside the caller's transaction.
 */
export async function recountLightnovelRatings(db: Db, lightnovelIds: readonly number[]): Promise<void> {
  const all = [...new Set(lightnovelIds)].sort((a, b) => a - b);
  for (let i = 0; i < all.length; i += 500) {
    const ids = all.slice(i, i + 500);
    const rows = await db
      .selectFrom('lightnovel_rating')
      .select(['lightnovel_id as id', 'score', (eb) => eb.fn.countAll<number>().as('n')])
      .where('lightnovel_id', 'in', ids)
      .groupBy(['lightnovel_id', 'score'])
      .execute();
    for (const [id, tally] of tallyRows(ids, rows)) await writeTally(db, id, tally);
  }
}

/** A published series, or 404. */
export async function ensurePublishedLightnovel(db: Db, lightnovelId: number): Promise<void> {
  const row = await db
    .selectFrom('lightnovel')
    .select('id')
    .where('id', '=', lightnovelId)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (!row) throw notFound(lightnovelId);
}

const ratingColumns = [
  'r.id',
  'r.lightnovel_id',
  'r.score',
  'r.text',
  'r.created_at',
  'r.updated_at',
  'u.id as uid',
  'u.user_id as user_id_num',
  'u.name',
  'u.avatar',
] as const;

function toView(r: {
  id: number;
  lightnovel_id: number;
  score: number;
  text: string;
  created_at: string;
  updated_at: string;
  uid: string;
  user_id_num: number;
  name: string;
  avatar: string;
}): LightnovelRatingView {
  return {
    id: r.id,
    lightnovelId: r.lightnovel_id,
    score: r.score,
    text: r.text,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    user: { _id: r.uid, userId: r.user_id_num, name: r.name, avatar: r.avatar },
  };
}

export async function myLightnovelRating(
  db: Db,
  userId: string,
  lightnovelId: number,
): Promise<LightnovelRatingView | null> {
  const row = await db
    .selectFrom('lightnovel_rating as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(ratingColumns)
    .where('r.lightnovel_id', '=', lightnovelId)
    .where('r.user_id', '=', userId)
    .executeTakeFirst();
  return row ? toView(row) : null;
}

/** The newest ratings of a series. */
export async function lightnovelRatingsOf(
  db: Db,
  lightnovelId: number,
  request: PageRequest = { page: 1, limit: 20 },
): Promise<LightnovelRatingView[]> {
  // The page's ids first, from the (lightnovel_id, updated_at) index: skipped rows are never joined.
  const ids = onPage(
    db
      .selectFrom('lightnovel_rating')
      .select(['id', 'updated_at'])
      .where('lightnovel_id', '=', lightnovelId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc'),
    request,
  );
  const rows = await db
    .selectFrom(ids.as('p'))
    .innerJoin('lightnovel_rating as r', 'r.id', 'p.id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(ratingColumns)
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map(toView);
}
