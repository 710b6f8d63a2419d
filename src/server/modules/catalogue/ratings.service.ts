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

async function writeAggregate(trx: Db, galgameId: number, count: number, sum: number, hist: number[]) {
  const ratingAvg = count > 0 ? Math.round((sum * 100) / count) : 0;
  await trx
    .updateTable('galgame')
    .set({ rating_count: count, rating_sum: sum, rating_avg: ratingAvg, score_hist: JSON.stringify(hist) })
    .where('id', '=', galgameId)
    .execute();
  await setFacetRating(trx, galgameId, ratingAvg);
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
    const hist = normaliseHistogram(parseJsonList<number>(game.score_hist));
    let count = game.rating_count;
    let sum = game.rating_sum;
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
      sum += input.score - existing.score;
      hist[existing.score - 1] = Math.max(0, (hist[existing.score - 1] ?? 0) - 1);
    } else {
      const id = await nextId(trx, 'rating_id');
      await trx
        .insertInto('rating')
        .values({ id, user_id: userId, galgame_id: galgameId, ...values, created_at: now.toISOString() })
        .execute();
      count += 1;
      sum += input.score;
    }
    hist[input.score - 1] = (hist[input.score - 1] ?? 0) + 1;
    await writeAggregate(trx, galgameId, count, sum, hist);
    return {
      ratingAvg: count > 0 ? Math.round((sum * 100) / count) / 100 : null,
      ratingCount: count,
      scoreHistogram: hist,
    };
  });
}

export async function deleteRating(db: Db, userId: string, galgameId: number): Promise<RatingSummary> {
  return db.transaction().execute(async (trx) => {
    const game = await lockGame(trx, galgameId);
    const hist = normaliseHistogram(parseJsonList<number>(game.score_hist));
    let count = game.rating_count;
    let sum = game.rating_sum;
    const existing = await trx
      .selectFrom('rating')
      .select(['id', 'score'])
      .where('galgame_id', '=', galgameId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) {
      await trx.deleteFrom('rating').where('id', '=', existing.id).execute();
      count -= 1;
      sum -= existing.score;
      hist[existing.score - 1] = Math.max(0, (hist[existing.score - 1] ?? 0) - 1);
      await writeAggregate(trx, galgameId, count, sum, hist);
    }
    return {
      ratingAvg: count > 0 ? Math.round((sum * 100) / count) / 100 : null,
      ratingCount: count,
      scoreHistogram: hist,
    };
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
      .select(['galgame_id', 'score', (eb) => eb.fn.countAll<number>().as('n')])
      .where('galgame_id', 'in', ids)
      .groupBy(['galgame_id', 'score'])
      .execute();
    for (const id of ids) {
      const hist = normaliseHistogram([]);
      let count = 0;
      let sum = 0;
      for (const row of rows.filter((r) => r.galgame_id === id)) {
        const n = Number(row.n);
        hist[row.score - 1] = (hist[row.score - 1] ?? 0) + n;
        count += n;
        sum += row.score * n;
      }
      await writeAggregate(db, id, count, sum, hist);
    }
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
