import type { Db } from '../../db/database.ts';

export type CounterName =
  | 'galgame_id'
  | 'producer_id'
  | 'person_id'
  | 'character_id'
  | 'tag_id'
  | 'download_id'
  | 'download_link_id'
  | 'rating_id'
  | 'favorite_id';

/** The next id from a named counter (atomic in both databases). */
export async function nextId(db: Db, name: CounterName): Promise<number> {
  const row = await db
    .updateTable('counter')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** Reserves `count` ids at once; returns the first. */
export async function reserveIds(db: Db, name: CounterName, count: number): Promise<number> {
  const row = await db
    .updateTable('counter')
    .set((eb) => ({ value: eb('value', '+', count) }))
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value) - count + 1;
}

/** Moves a counter past an id that was written explicitly (imports keep their own ids). */
export async function bumpCounter(db: Db, name: CounterName, atLeast: number): Promise<void> {
  await db
    .updateTable('counter')
    .set({ value: atLeast })
    .where('name', '=', name)
    .where('value', '<', atLeast)
    .execute();
}
