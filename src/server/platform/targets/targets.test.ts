import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { TARGET_TYPES } from '../../../shared/targets.ts';
import { appTargets } from '../../modules/index.ts';
import { createUser } from '../../modules/users/users.service.ts';
import { HttpError } from '../errors.ts';
import { createTargetRegistry, type TargetDefinition, type TargetViewer } from './targets.ts';

const at = '2026-11-01T00:00:00.000Z';

describe('target registry', () => {
  let t: TestDatabase;
  const targets = appTargets();
  let author: { id: string; userId: number };
  let stranger: NonNullable<TargetViewer>;

  beforeAll(async () => {
    t = await createTestDatabase();
    const made = await createUser(t.db, { name: 'Author', email: 'author@example.test', passwordHash: 'x' });
    author = { id: made.id, userId: made.user_id };
    const other = await createUser(t.db, { name: 'Stranger', email: 'stranger@example.test', passwordHash: 'x' });
    stranger = { id: other.id, group: 'user' };
    await t.db
      .insertInto('galgame')
      .values([
        { id: 1, title: 'Published', title_zh: '已发布', status: 'published', created_at: at, updated_at: at },
        { id: 2, title: 'Draft', title_zh: '', status: 'draft', created_by: author.id, created_at: at, updated_at: at },
      ])
      .execute();
    await t.db.insertInto('producer').values({ id: 7, name: 'Studio', created_at: at, updated_at: at }).execute();
  });
  afterAll(async () => t.destroy());

  it('knows the types the modules registered, each one of the shared list', () => {
    expect(targets.types()).toEqual(expect.arrayContaining(['galgame', 'user', 'producer', 'person', 'character']));
    for (const type of targets.types()) expect(TARGET_TYPES).toContain(type);
  });

  it('finds published items for everyone, with title, public URL and owner', async () => {
    const found = await targets.find(t.db, 'galgame', [1, 2, 99], null);
    expect([...found.keys()]).toEqual([1]);
    expect(found.get(1)).toEqual({ type: 'galgame', id: 1, title: '已发布', url: '/galgame/1', ownerId: null });
    const user = await targets.require(t.db, { type: 'user', id: author.userId }, null);
    expect(user).toMatchObject({ title: 'Author', url: `/space/${author.userId}`, ownerId: author.id });
    expect(await targets.require(t.db, { type: 'producer', id: 7 }, null)).toMatchObject({ url: '/producer/7' });
  });

  it('shows a draft only to its owner and to editors', async () => {
    const ref = { type: 'galgame', id: 2 } as const;
    const visibleTo = async (viewer: TargetViewer) => (await targets.find(t.db, 'galgame', [2], viewer)).has(2);
    expect(await visibleTo(null)).toBe(false);
    expect(await visibleTo(stranger)).toBe(false);
    expect(await visibleTo({ id: author.id, group: 'user' })).toBe(true);
    expect(await visibleTo({ id: stranger.id, group: 'editor' })).toBe(true);
    await expect(targets.require(t.db, ref, stranger)).rejects.toSatisfy(
      (e) => e instanceof HttpError && e.status === 404 && e.code === 'NOT_FOUND',
    );
  });

  it('answers 404 for types no module registered, and finds nothing of them', async () => {
    // Every type is registered by the app's modules; a registry of only some of them lacks the others.
    expect(TARGET_TYPES.filter((type) => !targets.has(type))).toEqual([]);
    const some = createTargetRegistry([]);
    expect(some.has('lightnovel')).toBe(false);
    expect((await some.find(t.db, 'lightnovel', [1], null)).size).toBe(0);
    await expect(some.require(t.db, { type: 'lightnovel', id: 1 }, null)).rejects.toBeInstanceOf(HttpError);
  });

  it('moves the counters a type keeps, never below zero, and ignores the ones it does not', async () => {
    const game = { type: 'galgame', id: 1 } as const;
    expect(targets.keeps('galgame', 'favorite')).toBe(true);
    expect(targets.keeps('producer', 'favorite')).toBe(false);
    await targets.adjust(t.db, game, 'favorite', 2);
    expect(await targets.read(t.db, game, 'favorite')).toBe(2);
    await targets.adjust(t.db, game, 'favorite', -5);
    expect(await targets.read(t.db, game, 'favorite')).toBe(0);
    await targets.adjust(t.db, { type: 'producer', id: 7 }, 'favorite', 1);
    expect(await targets.read(t.db, { type: 'producer', id: 7 }, 'favorite')).toBe(0);
    expect(targets.counterColumn('galgame', 'favorite')).toEqual({
      table: 'galgame',
      idColumn: 'id',
      column: 'favorite_count',
    });
  });

  it('refuses a type registered twice and counter names that are not plain identifiers', () => {
    const stub = (over: Partial<TargetDefinition> = {}): TargetDefinition => ({
      type: 'post',
      find: async () => new Map(),
      ...over,
    });
    expect(() => createTargetRegistry([stub(), stub()])).toThrow(/twice/);
    expect(() =>
      createTargetRegistry([
        stub({ counters: { like: { table: 'post; drop table users', idColumn: 'id', column: 'like_count' } } }),
      ]),
    ).toThrow(/invalid/);
  });
});
