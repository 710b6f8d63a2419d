import type { Kysely } from 'kysely';
import { rectifyConfusion } from 'unicode-confusables';
import { nameSkeleton } from '../../modules/users/name-skeleton.ts';

// Name skeletons now leave out characters that draw nothing (Hangul fillers, zero-width characters)
// and fold small capitals and other scripts' look-alike capitals, so every stored skeleton is made
// again. Decision 029 says what happens to existing names that now look alike.

/** The skeleton as 20261123-0001-account-safety made it, for `down`. */
const previousSkeleton = (name: string) => rectifyConfusion(name.trim().normalize('NFKC').toLowerCase()).toLowerCase();

const PAGE = 1000;

/**
 * Stores `skeleton(name)` for every member, oldest first. Names that now look alike keep working: the
 * oldest keeps the skeleton, later ones get `skeleton#id` (unique, matching no name), so new look-alikes
 * of either are refused and nobody is renamed. The unique index is dropped meanwhile, as a row's new
 * skeleton may be another's old one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
async function recompute(db: Kysely<any>, skeleton: (name: string) => string): Promise<void> {
  // ifExists: on SQLite (no transactional DDL) a run that stopped half-way has dropped it already.
  await db.schema.dropIndex('users_name_skeleton_key').ifExists().execute();
  const seen = new Set<string>();
  let after = 0;
  for (;;) {
    const users: { id: string; user_id: number; name: string; name_skeleton: string }[] = await db
      .selectFrom('users')
      .select(['id', 'user_id', 'name', 'name_skeleton'])
      .where('user_id', '>', after)
      .orderBy('user_id')
      .limit(PAGE)
      .execute();
    for (const user of users) {
      const plain = skeleton(user.name);
      const value = seen.has(plain) ? `${plain}#${user.id}` : plain;
      seen.add(plain);
      if (value !== user.name_skeleton) {
        await db.updateTable('users').set({ name_skeleton: value }).where('id', '=', user.id).execute();
      }
    }
    if (users.length < PAGE) break;
    after = users[users.length - 1]!.user_id;
  }
  await db.schema.createIndex('users_name_skeleton_key').on('users').column('name_skeleton').unique().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await recompute(db, nameSkeleton);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await recompute(db, previousSkeleton);
}
