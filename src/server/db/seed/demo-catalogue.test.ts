import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facetDrift } from '../../../../tests/support/catalogue-facets.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import {
  CHARACTER_ROLES,
  DOWNLOAD_LANGUAGES,
  PLATFORMS,
  PRODUCER_ROLES,
  RELATIONS,
  STAFF_ROLES,
  TRANSLATION_TYPES,
} from '../../../shared/catalogue.ts';
import { galgameDetail } from '../../modules/catalogue/galgame.service.ts';
import type { Db } from '../database.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';

const NOW = new Date('2026-11-22T08:00:00.000Z');

const tables = [
  'galgame',
  'producer',
  'person',
  'character',
  'tag',
  'galgame_download',
  'download_link',
  'galgame_platform',
  'galgame_tag',
  'galgame_producer',
  'galgame_staff',
  'galgame_character',
  'galgame_relation',
] as const;

async function countRows(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describe('demo catalogue seed', () => {
  let t: TestDatabase;
  let first: Record<string, number>;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.destroy());

  it('writes the catalogue and running it again changes no counts', async () => {
    expect(await seedDemoCatalogue(t.db, NOW)).toEqual({ games: 16 });
    first = await countRows(t.db);
    expect(first).toMatchObject({
      galgame: 16,
      producer: 6,
      person: 12,
      tag: 23,
      galgame_relation: 8,
    });
    expect(first.character).toBeGreaterThanOrEqual(40);

    expect(await seedDemoCatalogue(t.db, NOW)).toEqual({ games: 16 });
    expect(await countRows(t.db)).toEqual(first);
  });

  it('publishes every game with producers, staff, characters, tags and platforms', async () => {
    const rows = await t.db
      .selectFrom('galgame')
      .select(['id', 'bangumi_id', 'status', 'nsfw', 'release_date'])
      .execute();
    expect(rows).toHaveLength(16);
    expect(rows.every((r) => r.status === 'published' && r.bangumi_id !== null && r.bangumi_id < 0)).toBe(true);
    expect(rows.filter((r) => r.nsfw === 1)).toHaveLength(4);
    expect(rows.filter((r) => r.release_date === null)).toHaveLength(2);
    expect(rows.filter((r) => r.release_date !== null && r.release_date > '2026-11-30')).toHaveLength(3);

    for (const { id } of rows) {
      const game = await galgameDetail(t.db, id);
      expect(game.title).not.toBe('');
      expect(game.titleZh).not.toBe('');
      expect([...game.intro].length).toBeGreaterThanOrEqual(150);
      expect([...game.intro].length).toBeLessThanOrEqual(300);
      expect(game.aliases.length).toBeGreaterThanOrEqual(1);
      expect(game.aliases.length).toBeLessThanOrEqual(3);
      expect(game.cover).toBe('');
      expect(game.images).toEqual([]);
      expect(game.platforms.length).toBeGreaterThanOrEqual(1);
      expect(game.platforms.every((p) => (PLATFORMS as readonly string[]).includes(p))).toBe(true);

      expect(game.producers.length).toBeGreaterThanOrEqual(1);
      expect(game.producers.some((p) => p.role === 'developer')).toBe(true);
      expect(game.producers.every((p) => (PRODUCER_ROLES as readonly string[]).includes(p.role))).toBe(true);

      expect(game.staff.length).toBeGreaterThanOrEqual(3);
      expect(game.staff.length).toBeLessThanOrEqual(6);
      expect(game.staff.every((s) => (STAFF_ROLES as readonly string[]).includes(s.role))).toBe(true);

      expect(game.characters.length).toBeGreaterThanOrEqual(3);
      expect(game.characters.length).toBeLessThanOrEqual(6);
      expect(game.characters.every((c) => (CHARACTER_ROLES as readonly string[]).includes(c.role))).toBe(true);
      const voiceIds = new Set(game.staff.filter((s) => s.role === 'voice').map((s) => s.id));
      for (const c of game.characters) {
        if (c.role === 'main') expect(c.voice).not.toBeNull();
        if (c.voice) expect(voiceIds.has(c.voice.id)).toBe(true);
      }

      expect(game.tags.length).toBeGreaterThanOrEqual(3);
      expect(game.tags.length).toBeLessThanOrEqual(7);
      expect(game.tags.every((g) => g.votes >= 1 && g.votes <= 120 && [0, 1, 2].includes(g.spoiler))).toBe(true);
      expect(game.related.every((r) => (RELATIONS as readonly string[]).includes(r.relation))).toBe(true);
    }
  });

  it('links related games both ways', async () => {
    const relations = await t.db.selectFrom('galgame_relation').select(['galgame_id', 'related_id']).execute();
    const pairs = new Set(relations.map((r) => `${r.galgame_id}:${r.related_id}`));
    expect(relations.every((r) => pairs.has(`${r.related_id}:${r.galgame_id}`))).toBe(true);
  });

  it('offers downloads for ten games, with links only on reserved example domains', async () => {
    const downloads = await t.db
      .selectFrom('galgame_download')
      .select(['id', 'galgame_id', 'language', 'platform', 'translation_type', 'translation_group'])
      .execute();
    expect(new Set(downloads.map((d) => d.galgame_id)).size).toBe(10);
    expect(new Set(downloads.map((d) => d.translation_type))).toEqual(new Set(TRANSLATION_TYPES));
    for (const d of downloads) {
      expect((DOWNLOAD_LANGUAGES as readonly string[]).includes(d.language)).toBe(true);
      expect((PLATFORMS as readonly string[]).includes(d.platform)).toBe(true);
      expect(d.translation_group !== '').toBe(d.translation_type === 'fan');
    }
    const links = await t.db.selectFrom('download_link').select(['download_id', 'url', 'password']).execute();
    expect(new Set(links.map((l) => l.download_id))).toEqual(new Set(downloads.map((d) => d.id)));
    for (const link of links) {
      expect(new URL(link.url).protocol).toBe('https:');
      expect(['example.com', 'example.org', 'example.net']).toContain(new URL(link.url).hostname);
    }
    expect(links.some((l) => l.password !== '')).toBe(true);
  });

  it('counts published games per tag', async () => {
    const tags = await t.db.selectFrom('tag').select(['name', 'game_count']).execute();
    expect(tags.every((tag) => tag.game_count >= 1)).toBe(true);
    const total = tags.reduce((sum, tag) => sum + tag.game_count, 0);
    expect(total).toBe(first.galgame_tag);
    // Kept by the writer as it saves each game, like the lists' facets.
    expect(await facetDrift(t.db)).toEqual([]);
  });
});
