import { rectifyConfusion } from 'unicode-confusables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDown, migrateTo } from '../../src/server/db/migrator.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import { nameSkeleton } from '../../src/server/modules/users/name-skeleton.ts';
import { findUserByAccount, isNameTaken, updateProfile } from '../../src/server/modules/users/users.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const NAME = '20261207-0001-name-skeletons';
const BEFORE = '20261206-0002-update-request-summary';
const at = '2026-11-01T00:00:00.000Z';

/** The skeleton before this migration (what 20261123-0001-account-safety stored). */
const oldSkeleton = (name: string) => rectifyConfusion(name.trim().normalize('NFKC').toLowerCase()).toLowerCase();
const idOf = (n: number) => n.toString(16).padStart(24, '0');

// Members who registered look-alikes of others through the holes this migration closes keep their
// accounts: the oldest keeps the skeleton, the later ones get one of their own (decision 029).
describe(`migration ${NAME}`, () => {
  let t: TestDatabase;
  const stored = new Map<number, string>();

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await migrateTo(t.db, BEFORE);
    const names = new Map<number, string>([
      [1, 'hikari_admin'],
      [2, 'hikari_\u1D00dmin'],
      [3, 'hikari_admin\u1160'],
      [4, 'Sakura'],
      [5, '光之'],
    ]);
    // Enough members for the migration to read them in more than one page, and a look-alike on the second.
    for (let n = 6; n <= 1100; n++) names.set(n, `member${n}`);
    names.set(1050, 'hikari_ad\u1D0Din');
    const rows = [...names].map(([n, name]) => {
      const skeleton = oldSkeleton(name);
      stored.set(n, skeleton);
      return {
        id: idOf(n),
        user_id: n,
        name,
        name_key: name.normalize('NFKC').toLowerCase(),
        name_skeleton: skeleton,
        email: `u${n}@example.test`,
        password_hash: 'x',
        password_changed_at: at,
        created_at: at,
        updated_at: at,
      };
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table before this migration
    const db = t.db as any;
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('users')
        .values(rows.slice(i, i + 100))
        .execute();
  });
  afterAll(async () => t.destroy());

  const skeletons = async (ids: number[]) =>
    t.db
      .selectFrom('users')
      .select(['user_id', 'name_skeleton'])
      .where('user_id', 'in', ids)
      .orderBy('user_id')
      .execute();

  it('makes every skeleton again; later look-alikes get one of their own', async () => {
    // Before, the small capital and the filler made skeletons of their own: the look-alikes were free.
    expect(new Set([stored.get(1), stored.get(2), stored.get(3)]).size).toBe(3);

    await migrateTo(t.db, NAME);
    expect(await skeletons([1, 2, 3, 4, 5, 6, 1050])).toEqual([
      { user_id: 1, name_skeleton: 'hikari_adrnin' },
      { user_id: 2, name_skeleton: `hikari_adrnin#${idOf(2)}` },
      { user_id: 3, name_skeleton: `hikari_adrnin#${idOf(3)}` },
      { user_id: 4, name_skeleton: 'sakura' },
      { user_id: 5, name_skeleton: '光之' },
      { user_id: 6, name_skeleton: nameSkeleton('member6') },
      { user_id: 1050, name_skeleton: `hikari_adrnin#${idOf(1050)}` },
    ]);
  });

  it('refuses new look-alikes of every one of them, and lets the kept ones go on', async () => {
    for (const name of ['hikari_\u1D00dmin', 'HIKARI_ADMIN', 'hikari_ad\u1D0Din', '\uA731akura', 'SAKURA']) {
      expect(await isNameTaken(t.db, name), name).toBe(true);
    }
    // The later look-alike still logs in by its name, and edits its profile while keeping the name.
    const later = await findUserByAccount(t.db, 'hikari_\u1D00dmin');
    expect(later?.user_id).toBe(2);
    const kept = await updateProfile(t.db, idOf(2), { name: 'hikari_\u1D00dmin', bio: 'still here' });
    expect(kept).toMatchObject({
      name: 'hikari_\u1D00dmin',
      bio: 'still here',
      name_skeleton: `hikari_adrnin#${idOf(2)}`,
    });
    // A new name of its own frees nothing of the oldest's.
    const renamed = await updateProfile(t.db, idOf(2), { name: 'tsubasa' });
    expect(renamed.name_skeleton).toBe('tsubasa');
    expect(await isNameTaken(t.db, 'hikari_\u1D00dmin')).toBe(true);
    await updateProfile(t.db, idOf(2), { name: 'hikari_\u1D00dmin' }).then(
      () => expect.unreachable('a look-alike of hikari_admin was taken'),
      (error: { code?: string }) => expect(error.code).toBe('NAME_TAKEN'),
    );
  });

  it('reverts to the skeletons before it', async () => {
    expect(await migrateDown(t.db, 1)).toEqual([NAME]);
    const rows = await skeletons([1, 3, 4, 5, 6, 1050]);
    expect(rows).toEqual([1, 3, 4, 5, 6, 1050].map((n) => ({ user_id: n, name_skeleton: stored.get(n) })));
    expect(await migrateTo(t.db, NAME)).toEqual([NAME]);
    expect(Object.keys(migrations)).toContain(NAME);
  });
});
