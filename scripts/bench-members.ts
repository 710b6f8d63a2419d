import { sql } from 'kysely';
import type { Db } from '../src/server/db/database.ts';
import { newId } from '../src/server/db/ids.ts';

export interface BenchMember {
  /** Account id. */
  id: string;
  /** Public user id. */
  userId: number;
}

/**
 * Members made straight in the database for a benchmark (no password work), named `{prefix}_{n}` and
 * numbered after any already there, 500 rows an insert; the user id counter moves past them.
 */
export async function createBenchMembers(db: Db, count: number, prefix: string): Promise<BenchMember[]> {
  const at = new Date().toISOString();
  const top = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max<number>('user_id').as('top'))
    .executeTakeFirstOrThrow();
  const first = Number(top.top ?? 0) + 1;
  const members: BenchMember[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const n = first + start + i;
      const name = `${prefix}_${n}`;
      const id = newId();
      members.push({ id, userId: n });
      return {
        id,
        user_id: n,
        name,
        name_key: name,
        name_skeleton: name,
        email: `${name}@bench.test`,
        password_hash: 'x',
        user_setting: '{}',
        password_changed_at: new Date(Date.now() - 60_000).toISOString(),
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('users').values(rows).execute();
  }
  await sql`update counter set value = ${sql.lit(first + count)} where name = 'user_id' and value < ${sql.lit(first + count)}`.execute(
    db,
  );
  return members;
}
