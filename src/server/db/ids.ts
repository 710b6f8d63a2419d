import { randomBytes } from 'node:crypto';
import type { Db } from './database.ts';

/** A new random document id: 24 hex characters, the shape of the spec's `_id`. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The named id counters (rows of the `counter` table). Each module adds the counters its migration
 * creates: `declare module '../../db/ids.ts' { interface IdCounters { post_id: true } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the modules
export interface IdCounters {}

export type CounterName = keyof IdCounters & string;

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
