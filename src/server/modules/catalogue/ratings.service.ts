import type { PlayStatus, RatingSummary, RatingView } from '../../../shared/catalogue.ts';
import type { Db, Trx } from '../../db/database.ts';
import { onPage, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { parseJsonList } from './catalogue.mappers.ts';
import { normaliseHistogram } from './galgame.service.ts';
import { nextId } from '../../db/ids.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { setFacetRating } from './catalogue.facets.ts';

export interface RatingInput {
  score: number;
  status: PlayStatus;
  text: string;
  spoiler: boolean;
}

/**
 * Locks the game's row for the rest of the transaction (a no-op update takes the row lock on
 * PostgreSQL and the write lock on SQLite), so concurrent ratings of one game apply one after another
 * and the count, sum, average and histogram stay exact.
 */
async function lockGame(trx: Trx, galgameId: number) {
  const updated = await trx
    .updateTable('galgame')
    .set((eb) => ({ rating_count: eb.ref('rating_count') }))
    .where('id', '=', galgameId)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1)
    throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id: galgameId }));
  return trx
    .selectFrom('galgame')
    .select(['rating_count', 'rating_sum', 'score_hist'])
    .where('id', '=', galgameId)
    .executeTakeFirstOrThrow();
}

// The aggregates of a rated item (a game, a light novel): count, sum, average ×100 and the 1–10
// histogram, kept on its row and moved one rating at a time while the row is locked.

/** A rated item's aggregates as its row keeps them. */
export interface ScoreTally {
  count: number;
  sum: number;
  hist: number[];
}

/** The tally of a row's `rating_count`, `rating_sum` and `score_hist`. */
export const tallyOf = (row: { rating_count: number; rating_sum: number; score_hist: string }): ScoreTally => ({
  count: row.rating_count,
  sum: row.rating_sum,
  hist: normaliseHistogram(parseJsonList<number>(row.score_hist)),
});

/** The tally after one member's score changes from `before` to `after` (null: no rating). */
export function retally(tally: ScoreTally, before: number | null, after: number | null): ScoreTally {
  const hist = [...tally.hist];
  let { count, sum } = tally;
  if (before !== null) {
    count -= 1;
    sum -= before;
    hist[before - 1] = Math.max(0, (hist[before - 1] ?? 0) - 1);
  }
  if (after !== null) {
    count += 1;
    sum += after;
    hist[after - 1] = (hist[after - 1] ?? 0) + 1;
  }
  return { count, sum, hist };
}

/** The tallies of items counted from their ratings grouped by score (`n` ratings of `score`). */
export function tallyRows<K>(ids: readonly K[], rows: readonly { id: K; score: number; n: number | string }[]) {
  const tallies = new Map<K, ScoreTally>(ids.map((id) => [id, { count: 0, sum: 0, hist: normaliseHistogram([]) }]));
  for (const row of rows) {
    const tally = tallies.get(row.id);
    if (!tally) continue;
    const n = Number(row.n);
    tally.hist[row.score - 1] = (tally.hist[row.score - 1] ?? 0) + n;
    tally.count += n;
    tally.sum += row.score * n;
  }
  return tallies;
}

/** The average ×100 as rows keep it (0 with no ratings). */
export const averageOf = (tally: ScoreTally): number =>
  tally.count > 0 ? Math.round((tally.sum * 100) / tally.count) : 0;

/** The columns that store a tally. */
export const tallyColumns = (tally: ScoreTally) => ({
  rating_count: tally.count,
  rating_sum: tally.sum,
  rating_avg: averageOf(tally),
  score_hist: JSON.stringify(tally.hist),
});

/** The summary rating panels show. */
export const summaryOf = (tally: ScoreTally): RatingSummary => ({
  ratingAvg: tally.count > 0 ? averageOf(tally) / 100 : null,
  ratingCount: tally.count,
  scoreHistogram: tally.hist,
});

async function writeAggregate(trx: Db, galgameId: number, tally: ScoreTally) {
  const columns = tallyColumns(tally);
  await trx.updateTable('galgame').set(columns).where('id', '=', galgameId).execute();
  await setFacetRating(trx, galgameId, columns.rating_avg);
}

/** Creates or replaces the caller's rating of a game (one per user and game). */
export async function saveRating(
  db: Db,
  userId: string,
  galgameId: number,
  input: RatingInput,
  now = new Date(),
): Promise<RatingSummary> {
  return db.transaction().execute(async (trx) => {
    const game = await lockGame(trx, galgameId);
    const existing = await trx
      .selectFrom('rating')
      .select(['id', 'score'])
      .where('galgame_id', '=', galgameId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const values = {
      score: input.score,
      play_status: input.status,
      text: input.text,
      spoiler: input.spoiler ? 1 : 0,
      updated_at: now.toISOString(),
    };
    if (existing) {
      await trx.updateTable('rating').set(values).where('id', '=', existing.id).execute();
    } else {
      const id = await nextId(trx, 'rating_id');
      await trx
        .insertInto('rating')
        .values({ id, user_id: userId, galgame_id: galgameId, ...values, created_at: now.toISOString() })
        .execute();
    }
    const tally = retally(tallyOf(game), existing?.score ?? null, input.score);
    await writeAggregate(trx, galgameId, tally);
    return summaryOf(tally);
  });
}

export async function deleteRating(db: Db, userId: string, galgameId: number): Promise<RatingSummary> {
  return db.transaction().execute(async (trx) => {
    const game = await lockGame(trx, galgameId);
    let tally = tallyOf(game);
    const existing = await trx
      .selectFrom('rating')
      .select(['id', 'score'])
      .where('galgame_id', '=', galgameId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) {
      await trx.deleteFrom('rating').where('id', '=', existing.id).execute();
      tally = retally(tally, existing.score, null);
      await writeAggregate(trx, galgameId, tally);
    }
    return summaryOf(tally);
  });
}

/**
 * Sets the rating aggregates (count, sum, average, histogram) of games to a recount of their ratings,
 * e.g. after ratings were removed with their author. Run inside the caller's transaction.
 */
export async function recountRatings(db: Db, galgameIds: readonly number[]): Promise<void> {
  for (let i = 0; i < galgameIds.length; i += 500) {
    const ids = galgameIds.slice(i, i + 500);
    const rows = await db
      .selectFrom('rating')
      .select(['galgame_id as id', 'score', (eb) => eb.fn.countAll<number>().as('n')])
      .where('galgame_id', 'in', ids)
      .groupBy(['galgame_id', 'score'])
      .execute();
    for (const [id, tally] of tallyRows(ids, rows)) await writeAggregate(db, id, tally);
  }
}

function toView(r: {
  id: number;
  galgame_id: number;
  score: number;
  play_status: PlayStatus;
  text: string;
  spoiler: number;
  like_count: number;
  created_at: string;
  updated_at: string;
  uid: string;
  user_id_num: number;
  name: string;
  avatar: string;
}): RatingView {
  return {
    id: r.id,
    galgameId: r.galgame_id,
    score: r.score,
    status: r.play_status,
    text: r.text,
    spoiler: r.spoiler === 1,
    likeCount: r.like_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    user: { _id: r.uid, userId: r.user_id_num, name: r.name, avatar: r.avatar },
  };
}

const ratingColumns = [
  'r.id',
  'r.galgame_id',
  'r.score',
  'r.play_status',
  'r.text',
  'r.spoiler',
  'r.like_count',
  'r.created_at',
  'r.updated_at',
  'u.id as uid',
  'u.user_id as user_id_num',
  'u.name',
  'u.avatar',
] as const;

export async function myRating(db: Db, userId: string, galgameId: number): Promise<RatingView | null> {
  const row = await db
    .selectFrom('rating as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(ratingColumns)
    .where('r.galgame_id', '=', galgameId)
    .where('r.user_id', '=', userId)
    .executeTakeFirst();
  return row ? toView(row) : null;
}

/** The newest ratings of a game (those with text first show what people think). */
export async function ratingsOf(
  db: Db,
  galgameId: number,
  request: PageRequest = { page: 1, limit: 20 },
): Promise<RatingView[]> {
  // The page's ids first, from the index alone: the rows skipped before it are never joined.
  const ids = onPage(
    db
      .selectFrom('rating')
      .select(['id', 'updated_at'])
      .where('galgame_id', '=', galgameId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc'),
    request,
  );
  const rows = await db
    .selectFrom(ids.as('p'))
    .innerJoin('rating as r', 'r.id', 'p.id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(ratingColumns)
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map(toView);
}
