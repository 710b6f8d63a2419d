import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facetDrift } from '../../../../../tests/support/catalogue-facets.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../tests/support/test-db.ts';
import type { Db } from '../../../db/database.ts';
import { ensureRevision } from '../../creator/revisions.service.ts';
import { syncFacets } from '../catalogue.facets.ts';
import { characterDetail, personDetail, producerDetail } from '../entity.service.ts';
import { galgameDetail } from '../galgame.service.ts';
import {
  type BangumiImportSummary,
  formatImportSummary,
  type ImportProgress,
  importBangumiDump,
} from './bangumi.import.ts';

const FIXTURE = fileURLToPath(new URL('../../../../../tests/fixtures/bangumi', import.meta.url));
const NOW = new Date('2026-01-02T03:04:05.000Z');

const TABLES = [
  'galgame',
  'galgame_platform',
  'galgame_tag',
  'galgame_producer',
  'galgame_staff',
  'galgame_character',
  'galgame_relation',
  'producer',
  'person',
  'character',
  'tag',
  'counter',
] as const;

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

async function gameId(db: Db, bangumiId: number): Promise<number> {
  const row = await db.selectFrom('galgame').select('id').where('bangumi_id', '=', bangumiId).executeTakeFirstOrThrow();
  return row.id;
}

async function entityId(db: Db, table: 'producer' | 'person' | 'character', bangumiId: number): Promise<number> {
  const row = await db.selectFrom(table).select('id').where('bangumi_id', '=', bangumiId).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * t.destroy(), after the pool has really disconnected. pg-pool's end() resolves while its connections
 * are still closing, and test-db's DROP DATABASE … WITH (FORCE) can then kill one mid-goodbye, which
 * surfaces as an unhandled "terminating connection" error; so wait until the server shows none left.
 */
async function destroyWhenDisconnected(t: TestDatabase): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (t.dialect === 'postgres' && adminUrl) {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
    await t.db.destroy(); // idempotent: the close inside t.destroy() then has nothing left to do
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const result = await admin.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [rows[0]?.name],
        );
        if (result.rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await admin.end();
    }
  }
  await t.destroy();
}

const game = async (db: Db, bangumiId: number) => galgameDetail(db, await gameId(db, bangumiId));
const names = (items: { name: string }[]) => items.map((i) => i.name);

/** Copies the fixture and rewrites the rows `edit` returns changed (malformed lines stay as they are). */
function editedFixture(edits: Record<string, (row: Record<string, unknown>) => Record<string, unknown>>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hikari-bangumi-'));
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    const edited = lines.map((line) => {
      try {
        return JSON.stringify(edit(JSON.parse(line) as Record<string, unknown>));
      } catch {
        return line;
      }
    });
    writeFileSync(path.join(dir, file), edited.join('\n'));
  }
  return dir;
}

describe('Bangumi import of the fixture dump', () => {
  let t: TestDatabase;
  let summary: BangumiImportSummary;
  const progress: ImportProgress[] = [];
  beforeAll(async () => {
    t = await createTestDatabase();
    summary = await importBangumiDump(t.db, FIXTURE, { now: NOW, onProgress: (p) => progress.push(p) });
  });
  afterAll(async () => destroyWhenDisconnected(t));

  it('reports what it imported, and counts the two malformed lines', () => {
    expect(summary).toEqual({
      subjects: 7,
      otherGames: 1,
      games: { created: 4, updated: 0, unchanged: 0 },
      producers: { created: 6, updated: 0, unchanged: 0 },
      persons: { created: 5, updated: 0, unchanged: 0 },
      characters: { created: 6, updated: 0, unchanged: 0 },
      tags: { linked: 9, created: 7 },
      relations: { created: 2, updated: 0, unchanged: 0 },
      malformedLines: 2,
      malformedAt: ['subject.jsonlines:4', 'subject-persons.jsonlines:12'],
    });
    expect(formatImportSummary(summary)).toContain(
      'malformed   2 skipped (subject.jsonlines:4, subject-persons.jsonlines:12)',
    );
  });

  it('imports the four galgame only, with what they link to', async () => {
    const games = await t.db.selectFrom('galgame').select('bangumi_id').orderBy('bangumi_id').execute();
    expect(games.map((g) => g.bangumi_id)).toEqual([900001, 900002, 900003, 900004]);
    // The action game, the anime and the novel stay out, and so do the studio and characters only they use.
    const ids = async (table: 'producer' | 'person' | 'character') =>
      (await t.db.selectFrom(table).select('bangumi_id').orderBy('bangumi_id').execute()).map((r) => r.bangumi_id);
    // Four producers come from infobox names only (no Bangumi id); NULLs sort differently per database.
    expect((await ids('producer')).filter((id) => id !== null)).toEqual([800001, 800002]);
    expect(await rowCounts(t.db)).toMatchObject({ producer: 6 });
    expect(await ids('person')).toEqual([800004, 800005, 800006, 800007, 800008]);
    expect(await ids('character')).toEqual([700001, 700002, 700003, 700004, 700005, 700006]);
  });

  it('maps titles, aliases, intro, release dates (with a TBD one), NSFW and platforms', async () => {
    const memoria = await game(t.db, 900001);
    expect(memoria).toMatchObject({
      title: '星屑のメモリア',
      titleZh: '星屑回忆录',
      aliases: ['Hoshikuzu Memoria', 'Stardust Memoria'],
      intro: '小镇天文台的最后一个夏天，少年与三位少女重逢。\n星屑落下之夜，约定将会实现吗？',
      releaseDate: '2019-04-26',
      nsfw: false,
      cover: '',
      status: 'published',
      platforms: ['psv', 'switch', 'windows'],
    });
    const after = await game(t.db, 900002);
    expect(after).toMatchObject({
      title: '星屑のメモリア -After Stars-',
      titleZh: '星屑回忆录 -繁星之后-',
      releaseDate: '2020-03-27',
      nsfw: true,
      platforms: ['windows'],
    });
    expect(await game(t.db, 900003)).toMatchObject({ releaseDate: null, platforms: ['android', 'ios', 'web'] });
    expect(await game(t.db, 900004)).toMatchObject({
      releaseDate: '2021-07-16',
      platforms: ['mac', 'other', 'ps4', 'ps5'],
    });
    const year = await t.db
      .selectFrom('galgame')
      .select('release_year')
      .where('bangumi_id', '=', 900003)
      .executeTakeFirst();
    expect(year?.release_year).toBeNull();
  });

  it('links producers by role: linked companies first, infobox names when no company is linked', async () => {
    const producers = async (bangumiId: number) =>
      (await game(t.db, bangumiId)).producers.map((p) => `${p.role}:${p.name}`).sort();
    expect(await producers(900001)).toEqual(['developer:月影ソフト', 'publisher:星海エンタテインメント']);
    expect(await producers(900002)).toEqual(['developer:月影ソフト', 'publisher:夜桜パブリッシング']);
    expect(await producers(900003)).toEqual(['developer:Hoshizora Works', 'developer:Studio Kumo']);
    // 900004's infobox also names 星海エンタテインメント as publisher: the linked company is used, not a copy.
    expect(await producers(900004)).toEqual(['developer:Blue Lantern', 'publisher:星海エンタテインメント']);

    const company = await producerDetail(t.db, await entityId(t.db, 'producer', 800001));
    expect(company).toMatchObject({
      name: '月影ソフト',
      nameZh: '月影软件',
      aliases: ['Tsukikage Soft'],
      description: '以恋爱冒险游戏为主的开发品牌。',
      kind: 'company',
      website: 'https://example.invalid/tsukikage',
    });
    expect(company.games.map((g) => `${g.title}:${g.role}`).sort()).toEqual([
      '星屑のメモリア -After Stars-:developer',
      '星屑のメモリア:developer',
    ]);
  });

  it('links staff by position, with the Bangumi title where the role loses it', async () => {
    const staff = (await game(t.db, 900001)).staff.map((s) => `${s.role}:${s.name}:${s.note}`).sort();
    expect(staff).toEqual([
      'art:白瀬 こはく:',
      'character_design:白瀬 こはく:',
      'music:田中 響:',
      'other:霧島 蒼:企画',
      'scenario:霧島 蒼:',
    ]);
    // The malformed line would have made 白瀬 こはく an artist of 900002 too.
    expect((await game(t.db, 900002)).staff.map((s) => `${s.role}:${s.name}`)).toEqual(['scenario:霧島 蒼']);
    const writer = await personDetail(t.db, await entityId(t.db, 'person', 800004));
    expect(writer).toMatchObject({
      name: '霧島 蒼',
      nameZh: '雾岛苍',
      aliases: ['Kirishima Aoi'],
      gender: '男',
      birthday: '1985年5月5日',
    });
  });

  it('links characters with their roles and voices', async () => {
    const characters = async (bangumiId: number) =>
      (await game(t.db, bangumiId)).characters.map((c) => `${c.role}:${c.name}:${c.voice?.name ?? '-'}`);
    expect(await characters(900001)).toEqual([
      'main:朝霧 ひより:春野 ひなた',
      'main:夕凪 みお:水無月 しずく',
      'supporting:久遠 レイ:-',
    ]);
    expect(await characters(900002)).toEqual(['main:朝霧 ひより:春野 ひなた', 'appears:ルナ:-']);
    expect(await characters(900003)).toEqual(['main:ノア:-']);
    expect(await characters(900004)).toEqual(['main:アイリス:水無月 しずく']);

    const hiyori = await characterDetail(t.db, await entityId(t.db, 'character', 700001));
    expect(hiyori).toMatchObject({
      nameZh: '朝雾日和',
      aliases: ['Hiyori Asagiri', 'あさぎりひより'],
      gender: '女',
      birthday: '3月21日',
      description: '天文部部长，总是仰望星空。',
    });
    expect(hiyori.appearances).toHaveLength(2);
    const voice = await personDetail(t.db, await entityId(t.db, 'person', 800008));
    expect(voice.games).toEqual([]);
    expect(voice.voiced.map((v) => v.character.name).sort()).toEqual(['アイリス', '夕凪 みお']);
  });

  it('tags games with the tags of at least 3 votes, votes kept, no spoilers, and counts them', async () => {
    const tags = async (bangumiId: number) =>
      (await game(t.db, bangumiId)).tags.map((tag) => `${tag.name}:${tag.votes}:${tag.spoiler}`);
    expect(await tags(900001)).toEqual(['纯爱:120:0', 'Galgame:80:0', '校园:40:0', '治愈:3:0']);
    expect(await tags(900002)).toEqual(['纯爱:30:0', 'R18:15:0', 'Galgame:10:0']);
    expect(await tags(900003)).toEqual([]);
    expect(await tags(900004)).toEqual(['视觉小说:12:0', '奇幻:7:0']);
    const counted = await t.db.selectFrom('tag').select(['name', 'game_count']).orderBy('name').execute();
    expect(Object.fromEntries(counted.map((tag) => [tag.name, tag.game_count]))).toEqual({
      Galgame: 2,
      R18: 1,
      奇幻: 1,
      校园: 1,
      治愈: 1,
      纯爱: 2,
      视觉小说: 1,
    });
    // The game lists' facets, their counts and the links' release keys follow every imported game.
    expect(await facetDrift(t.db)).toEqual([]);
  });

  it('relates imported games only', async () => {
    expect((await game(t.db, 900001)).related.map((r) => `${r.relation}:${r.title}`)).toEqual([
      'sequel:星屑のメモリア -After Stars-',
    ]);
    expect((await game(t.db, 900002)).related.map((r) => `${r.relation}:${r.title}`)).toEqual([
      'prequel:星屑のメモリア',
    ]);
    expect(await rowCounts(t.db)).toMatchObject({ galgame_relation: 2 });
  });

  it('refuses a missing folder or missing files before writing anything', async () => {
    const counts = await rowCounts(t.db);
    const partial = editedFixture({});
    try {
      unlinkSync(path.join(partial, 'person-characters.jsonlines'));
      await expect(importBangumiDump(t.db, path.join(partial, 'nope'))).rejects.toThrow(
        /Bangumi dump folder not found: .*nope/,
      );
      await expect(importBangumiDump(t.db, partial)).rejects.toThrow(/person-characters\.jsonlines missing/);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
    expect(await rowCounts(t.db)).toEqual(counts);
  });

  it('reports progress for every step, each ending complete', () => {
    const last = new Map(progress.map((p) => [p.step, p]));
    expect([...last.keys()]).toEqual([
      'subjects',
      'subject-persons',
      'subject-characters',
      'person-characters',
      'subject-relations',
      'persons',
      'characters',
      'games',
      'relations',
    ]);
    for (const p of last.values()) expect(p.done, p.step).toBe(p.total);
    expect(last.get('games')).toEqual({ step: 'games', done: 4, total: 4, unit: 'items' });
  });
});

describe('Bangumi import run twice', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => destroyWhenDisconnected(t));

  it('changes nothing the second time', async () => {
    await importBangumiDump(t.db, FIXTURE, { now: NOW });
    const counts = await rowCounts(t.db);
    const sample = async () => ({
      game: await t.db.selectFrom('galgame').selectAll().where('bangumi_id', '=', 900001).executeTakeFirstOrThrow(),
      detail: await game(t.db, 900001),
      producer: await t.db
        .selectFrom('producer')
        .selectAll()
        .where('name', '=', 'Studio Kumo')
        .executeTakeFirstOrThrow(),
      character: await t.db
        .selectFrom('character')
        .selectAll()
        .where('bangumi_id', '=', 700001)
        .executeTakeFirstOrThrow(),
    });
    const before = await sample();

    const again = await importBangumiDump(t.db, FIXTURE, { now: new Date('2026-02-01T00:00:00.000Z') });

    expect(await rowCounts(t.db)).toEqual(counts);
    expect(await sample()).toEqual(before);
    expect(again).toMatchObject({
      games: { created: 0, updated: 0, unchanged: 4 },
      producers: { created: 0, updated: 0, unchanged: 6 },
      persons: { created: 0, updated: 0, unchanged: 5 },
      characters: { created: 0, updated: 0, unchanged: 6 },
      tags: { linked: 9, created: 0 },
      relations: { created: 0, updated: 0, unchanged: 2 },
      malformedLines: 2,
    });
  });
});

describe('Bangumi import of an updated dump', () => {
  let t: TestDatabase;
  let updated: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    updated = editedFixture({
      'subject.jsonlines': (row) =>
        row.id === 900003
          ? { ...row, name_cn: '诺亚的小庭院', date: '2027-05-20' }
          : row.id === 900001
            ? { ...row, tags: [{ name: '纯爱', count: 130 }] }
            : row,
      'person.jsonlines': (row) =>
        row.id === 800004 ? { ...row, summary: '剧本家，代表作《星屑のメモリア》。' } : row,
      'subject-relations.jsonlines': (row) =>
        row.subject_id === 900001 && row.related_subject_id === 900002 ? { ...row, relation_type: 4006 } : row,
    });
  });
  afterAll(async () => {
    rmSync(updated, { recursive: true, force: true });
    await destroyWhenDisconnected(t);
  });

  it('updates what changed and keeps what the site added', async () => {
    await importBangumiDump(t.db, FIXTURE, { now: NOW });
    // Site-side edits the dump knows nothing about.
    await t.db
      .updateTable('galgame')
      .set({ cover: 'https://img.example.invalid/noa.webp' })
      .where('bangumi_id', '=', 900003)
      .execute();
    await t.db.updateTable('galgame').set({ status: 'pending' }).where('bangumi_id', '=', 900004).execute();
    // Like every catalogue write, a status change moves the game in or out of the lists' facets.
    await syncFacets(t.db, [await gameId(t.db, 900004)]);
    await t.db.updateTable('tag').set({ name_zh: '纯爱', category: 'theme' }).where('name', '=', '纯爱').execute();

    // A game someone has opened in the editor has a history: the import's change is a revision of it.
    await ensureRevision(t.db, 'galgame', await gameId(t.db, 900003));

    const summary = await importBangumiDump(t.db, updated, { now: new Date('2026-03-01T00:00:00.000Z') });
    expect(summary).toMatchObject({
      games: { created: 0, updated: 2, unchanged: 2 },
      persons: { created: 0, updated: 1, unchanged: 4 },
      relations: { created: 0, updated: 1, unchanged: 1 },
    });

    expect(await game(t.db, 900003)).toMatchObject({
      titleZh: '诺亚的小庭院',
      releaseDate: '2027-05-20',
      cover: 'https://img.example.invalid/noa.webp',
    });
    const memoria = await game(t.db, 900001);
    expect(memoria.tags.map((tag) => `${tag.name}:${tag.votes}`)).toEqual(['纯爱:130']);
    expect(memoria.related.map((r) => r.relation)).toEqual(['fandisc']);
    expect(names(memoria.staff)).toContain('霧島 蒼');
    const status = await t.db
      .selectFrom('galgame')
      .select('status')
      .where('bangumi_id', '=', 900004)
      .executeTakeFirst();
    expect(status?.status).toBe('pending');
    const tag = await t.db.selectFrom('tag').selectAll().where('name', '=', '纯爱').executeTakeFirstOrThrow();
    expect(tag).toMatchObject({ name_zh: '纯爱', category: 'theme', game_count: 2 });
    const writer = await personDetail(t.db, await entityId(t.db, 'person', 800004));
    expect(writer.description).toBe('剧本家，代表作《星屑のメモリア》。');
    expect(await facetDrift(t.db)).toEqual([]);

    const revisions = await t.db
      .selectFrom('catalogue_revision')
      .select(['item_id', 'number', 'changes', 'note', 'user_id'])
      .where('item_type', '=', 'galgame')
      .orderBy('item_id')
      .orderBy('number')
      .execute();
    const noa = await gameId(t.db, 900003);
    expect(revisions.map((r) => ({ ...r, changes: JSON.parse(r.changes) as string[] }))).toEqual([
      { item_id: noa, number: 1, changes: [], note: '', user_id: null },
      { item_id: noa, number: 2, changes: ['titleZh', 'aliases', 'releaseDate'], note: 'Bangumi', user_id: null },
    ]);
  });
});
