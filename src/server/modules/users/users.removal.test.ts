import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { reportLink } from '../catalogue/downloads.service.ts';
import { addFavorite } from '../catalogue/favorites.service.ts';
import { saveRating } from '../catalogue/ratings.service.ts';
import { createUser } from './users.service.ts';
import { checkIn } from '../checkin/checkin.service.ts';
import { setBlocked } from '../chat/chat.messages.ts';
import { sendMessage } from '../chat/chat.send.ts';
import { changePoints } from '../points/points.service.ts';
import { USER_REFERENCES, findUserForRemoval, removeUser } from './users.removal.ts';
import { appTargets } from '../index.ts';

const targets = appTargets();

const at = '2026-11-01T00:00:00.000Z';

async function addGame(db: Db, id: number) {
  await db
    .insertInto('galgame')
    .values({ id, title: `Game ${id}`, status: 'published', created_at: at, updated_at: at })
    .execute();
}

/** What every aggregate should be, counted from the rows themselves. */
async function recount(db: Db) {
  const games = await db
    .selectFrom('galgame')
    .select(['id', 'rating_count', 'rating_sum', 'rating_avg', 'score_hist', 'favorite_count'])
    .orderBy('id')
    .execute();
  const ratings = await db.selectFrom('rating').select(['galgame_id', 'score']).execute();
  const favorites = await db.selectFrom('favorite').select(['item_id']).where('item_type', '=', 'galgame').execute();
  const stored = games.map((g) => ({
    id: g.id,
    count: g.rating_count,
    sum: g.rating_sum,
    avg: g.rating_avg,
    hist: JSON.parse(g.score_hist) as number[],
    favorites: g.favorite_count,
  }));
  const counted = games.map((g) => {
    const scores = ratings.filter((r) => r.galgame_id === g.id).map((r) => r.score);
    const sum = scores.reduce((a, b) => a + b, 0);
    return {
      id: g.id,
      count: scores.length,
      sum,
      avg: scores.length ? Math.round((sum * 100) / scores.length) : 0,
      hist: Array.from({ length: 10 }, (_, i) => scores.filter((s) => s === i + 1).length),
      favorites: favorites.filter((f) => f.item_id === g.id).length,
    };
  });
  const links = await db.selectFrom('download_link').select(['id', 'report_count']).orderBy('id').execute();
  const reports = await db.selectFrom('link_report').select('link_id').execute();
  return {
    stored: { games: stored, links: links.map((l) => ({ id: l.id, reports: l.report_count })) },
    counted: {
      games: counted,
      links: links.map((l) => ({ id: l.id, reports: reports.filter((r) => r.link_id === l.id).length })),
    },
  };
}

async function tablesReferencingUsers(t: TestDatabase): Promise<string[]> {
  if (t.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.db);
    const found: string[] = [];
    for (const { name } of tables.rows) {
      const keys = await sql<{ table: string }>`select * from pragma_foreign_key_list(${name})`.execute(t.db);
      if (keys.rows.some((k) => k.table === 'users')) found.push(name);
    }
    return found.sort();
  }
  const rows = await sql<{ table_name: string }>`
    select distinct tc.table_name from information_schema.table_constraints tc
    join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name
    where tc.constraint_type = 'FOREIGN KEY' and ccu.table_name = 'users'`.execute(t.db);
  return rows.rows.map((r) => r.table_name).sort();
}

describe('removing a user', () => {
  let t: TestDatabase;
  let ids: Record<'a' | 'b' | 'c', string>;

  beforeAll(async () => {
    t = await createTestDatabase();
    const db = t.db;
    const user = async (name: string) =>
      (await createUser(db, { name, email: `${name.toLowerCase()}@example.test`, passwordHash: 'x' })).id;
    ids = { a: await user('Leaving'), b: await user('Staying'), c: await user('Another') };
    for (const id of [1, 2, 3]) await addGame(db, id);
    await db
      .insertInto('galgame_download')
      .values({
        id: 1,
        galgame_id: 1,
        language: 'zh-Hans',
        platform: 'windows',
        translation_type: 'fan',
        created_at: at,
      })
      .execute();
    await db
      .insertInto('download_link')
      .values([
        { id: 1, download_id: 1, url: 'https://example.test/1', created_at: at },
        { id: 2, download_id: 1, url: 'https://example.test/2', created_at: at },
      ])
      .execute();
    const deps = { db, targets };
    const viewer = (id: string) => ({ id, group: 'user' as const });
    const rate = (who: string, game: number, score: number) =>
      saveRating(db, who, game, { score, status: 'completed', text: '', spoiler: false });
    await rate(ids.a, 1, 9);
    await rate(ids.a, 2, 3);
    await rate(ids.b, 1, 7);
    await rate(ids.c, 2, 3);
    await rate(ids.c, 3, 10);
    await addFavorite(deps, viewer(ids.a), { type: 'galgame', id: 1 });
    await addFavorite(deps, viewer(ids.a), { type: 'galgame', id: 2 });
    await addFavorite(deps, viewer(ids.b), { type: 'galgame', id: 1 });
    await addFavorite(deps, viewer(ids.c), { type: 'galgame', id: 3 });
    await reportLink(db, 1, ids.a, 'dead');
    await reportLink(db, 2, ids.a, 'dead');
    await reportLink(db, 1, ids.b, '');
    await db
      .insertInto('refresh_family')
      .values({ id: 'fam-a', user_id: ids.a, expires_at: '2026-12-01T00:00:00.000Z', created_at: at })
      .execute();
    await db
      .insertInto('emoji_set')
      .values({ id: 1, name: 'leaving-set', position: 0, created_by: ids.a, created_at: at, updated_at: at })
      .execute();
    // Points, a check-in, messages both ways and a block: all go with the account.
    await changePoints(db, { userId: ids.a, amount: 50, reason: 'grant' });
    await checkIn(db, ids.a);
    const userIdOf = async (id: string) =>
      (await db.selectFrom('users').select('user_id').where('id', '=', id).executeTakeFirstOrThrow()).user_id;
    await sendMessage(db, ids.a, { receiverId: await userIdOf(ids.b), content: 'bye' });
    await sendMessage(db, ids.b, { receiverId: await userIdOf(ids.a), content: 'see you' });
    await setBlocked(db, ids.b, await userIdOf(ids.a), true);
  });
  afterAll(async () => t.destroy());

  it('handles every table that references users', async () => {
    expect(await tablesReferencingUsers(t)).toEqual(Object.keys(USER_REFERENCES).sort());
  });

  it('finds the user by userId, _id, name or email', async () => {
    const row = await t.db
      .selectFrom('users')
      .select(['id', 'user_id'])
      .where('id', '=', ids.a)
      .executeTakeFirstOrThrow();
    for (const key of [String(row.user_id), ids.a, 'leaving', 'Leaving@Example.test']) {
      expect((await findUserForRemoval(t.db, key))?.id, key).toBe(ids.a);
    }
    expect(await findUserForRemoval(t.db, 'nobody-here')).toBeUndefined();
  });

  it('refuses an unknown user and changes nothing', async () => {
    const before = await recount(t.db);
    await expect(removeUser({ db: t.db, targets }, 'no-such-user')).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.status === 404,
    );
    expect(await recount(t.db)).toEqual(before);
  });

  it('deletes the account and what it owned, and every aggregate equals a recount', async () => {
    const removed = await removeUser({ db: t.db, targets }, ids.a);
    expect(removed).toMatchObject({ id: ids.a, name: 'Leaving', ratings: 2, favorites: 2, linkReports: 2 });

    const { stored, counted } = await recount(t.db);
    expect(stored).toEqual(counted);
    expect(stored.games[0]).toMatchObject({ id: 1, count: 1, sum: 7, avg: 700, favorites: 1 });
    expect(stored.games[1]).toMatchObject({ id: 2, count: 1, sum: 3, avg: 300, favorites: 0 });
    expect(stored.games[2]).toMatchObject({ id: 3, count: 1, sum: 10, avg: 1000, favorites: 1 });
    expect(stored.links).toEqual([
      { id: 1, reports: 1 },
      { id: 2, reports: 0 },
    ]);

    // Nothing anywhere still names the account.
    const a = ids.a;
    const naming: [string, ReturnType<typeof sql>][] = [
      ['private_message', sql`sender_id = ${a} or receiver_id = ${a}`],
      ['chat_contact', sql`contact_id = ${a}`],
      ['chat_block', sql`blocked_id = ${a}`],
      ['user_follow', sql`follower_id = ${a} or followee_id = ${a}`],
      ...Object.entries(USER_REFERENCES)
        .filter(([table, how]) => how !== 'set null' && table !== 'user_follow' && table !== 'private_message')
        .map(([table]): [string, ReturnType<typeof sql>] => [table, sql`user_id = ${a}`]),
    ];
    for (const [table, where] of naming) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(
        t.db,
      );
      expect(Number(rows[0]?.n), table).toBe(0);
    }
    expect(await t.db.selectFrom('users').select('id').where('id', '=', ids.a).executeTakeFirst()).toBeUndefined();
    // What others use outlives its creator.
    expect(await t.db.selectFrom('emoji_set').select(['name', 'created_by']).execute()).toEqual([
      { name: 'leaving-set', created_by: null },
    ]);
    const others = await t.db.selectFrom('rating').select('user_id').execute();
    expect(others.map((r) => r.user_id).sort()).toEqual([ids.b, ids.c, ids.c].sort());
  });
});
