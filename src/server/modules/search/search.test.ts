import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchQuerySchema } from '../../../shared/search/search.contract.ts';
import { SEARCH_COUNT_CAP, type SearchHit, type SearchType } from '../../../shared/search/search-model.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';
import { saveGalgame, upsertCharacter, upsertPerson, upsertProducer } from '../catalogue/catalogue.writer.ts';
import { nextId } from '../../db/ids.ts';
import {
  indexEntities,
  indexGalgames,
  indexLightnovel,
  indexLightnovels,
  indexVersion,
  INDEX_VERSION,
  reindexAll,
} from './search.index.ts';
import { searchCatalogue, suggestNames } from './search.service.ts';

// The search index on both databases (decision 024): what a reader types finds the work they meant.

let t: TestDatabase;
const ids: Record<string, number> = {};

const GAMES: { key: string; title: string; titleZh?: string; aliases?: string[]; views?: number }[] = [
  { key: 'fsn', title: 'Fate/stay night', titleZh: '命运守护夜', aliases: ['FSN', '圣杯战争'], views: 90_000 },
  { key: 'fha', title: 'Fate/hollow ataraxia', titleZh: '命运空幻的安宁', views: 20_000 },
  { key: 'wa2', title: 'WHITE ALBUM2', titleZh: '白色相簿2', aliases: ['白学', 'WA2'], views: 80_000 },
  { key: 'wa', title: 'WHITE ALBUM', titleZh: '白色相簿', views: 30_000 },
  { key: 'sakura', title: 'サクラノ詩 -櫻の森の上を舞う-', titleZh: '樱之诗', aliases: ['樱诗'], views: 50_000 },
  { key: 'sakuratoki', title: 'サクラノ刻', titleZh: '樱之刻', views: 10_000 },
  { key: 'clannad', title: 'CLANNAD', titleZh: '团子大家族', aliases: ['クラナド'], views: 70_000 },
  { key: 'summer', title: 'Summer Pockets', titleZh: '夏日口袋', aliases: ['夏口'], views: 40_000 },
  { key: 'riddle', title: 'RIDDLE JOKER', titleZh: '谜语小丑', views: 35_000 },
  { key: 'senren', title: '千恋＊万花', aliases: ['Senren Banka'], views: 60_000 },
  { key: 'koi', title: '恋', titleZh: '恋', views: 5 },
  { key: 'koiiro', title: '恋色空模様', titleZh: '恋色空模样', views: 900 },
  { key: 'amairo', title: 'アマイロチョコレィト', titleZh: '甜蜜巧克力', views: 1000 },
  { key: 'little', title: 'リトルバスターズ！', titleZh: '小小克星', aliases: ['Little Busters!'], views: 65_000 },
  { key: 'pokemon', title: 'Pokémon Adventure', titleZh: '宝可梦冒险', views: 100 },
  { key: 'hoshi', title: '星空鉄道とシロの旅', titleZh: '星空列车与白的旅行', views: 15_000 },
  { key: 'hoshi2', title: '星空のメモリア', titleZh: '星空的回忆', views: 25_000 },
  { key: 'yosuga', title: 'ヨスガノソラ', titleZh: '缘之空', views: 45_000 },
  { key: 'percent', title: '100% Orange Juice', views: 3000 },
  { key: 'under', title: 'snake_case_game', views: 10 },
];

/** Light novels (series): original name, Chinese name, other names. */
const NOVELS: { key: string; name: string; nameZh: string; aliases?: string[]; views?: number }[] = [
  {
    key: 'hoshimi',
    name: '星見坂図書室の四季',
    nameZh: '星见坂图书室的四季',
    aliases: ['Hoshimizaka Library', '图书室四季'],
    views: 3000,
  },
  { key: 'amayo', name: '雨夜の手紙', nameZh: '雨夜信笺', aliases: ['Letters on a Rainy Night'], views: 2000 },
  { key: 'neko', name: '終着駅の猫', nameZh: '终点站的猫', views: 1000 },
  { key: 'sakuranovel', name: '櫻の森の上で', nameZh: '樱之森之上', views: 10 },
];

const at = '2026-12-01T00:00:00.000Z';

/** A series straight in the database, then indexed as the series' writer does in its transaction. */
async function addNovel(values: { name: string; nameZh?: string; aliases?: string[]; status?: 'published' | 'draft' }) {
  return t.db.transaction().execute(async (trx) => {
    const id = await nextId(trx, 'lightnovel_id');
    await trx
      .insertInto('lightnovel')
      .values({
        id,
        name: values.name,
        name_zh: values.nameZh ?? '',
        aliases: JSON.stringify(values.aliases ?? []),
        status: values.status ?? 'published',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await indexLightnovel(trx, id);
    return id;
  });
}

const search = (keyword: string, extra: Record<string, string> = {}) =>
  searchCatalogue(t.db, searchQuerySchema.parse({ keyword, ...extra }));
const first = async (keyword: string, type: SearchType = 'galgame') => {
  const result = await search(keyword, { type });
  return result.items[0];
};
const idOf = (hit: SearchHit | undefined) =>
  hit === undefined
    ? undefined
    : hit.type === 'galgame'
      ? hit.galgame.id
      : hit.type === 'novel'
        ? hit.lightnovel.id
        : hit.entity.id;

beforeAll(async () => {
  t = await createTestDatabase();
  for (const g of GAMES) {
    ids[g.key] = await saveGalgame(t.db, {
      title: g.title,
      titleZh: g.titleZh,
      aliases: g.aliases,
      releaseDate: '2020-01-01',
    });
    await t.db
      .updateTable('galgame')
      .set({ view_count: g.views ?? 0 })
      .where('id', '=', ids[g.key]!)
      .execute();
  }
  await indexGalgames(t.db, Object.values(ids));
  ids.key = await upsertProducer(t.db, { name: 'Key', nameZh: 'Key社', aliases: ['ビジュアルアーツ Key'] });
  ids.keystone = await upsertProducer(t.db, { name: 'Keystone Works' });
  ids.yuzu = await upsertProducer(t.db, { name: 'ゆずソフト', nameZh: '柚子社', aliases: ['YUZUSOFT'] });
  ids.romeo = await upsertPerson(t.db, { name: '田中ロミオ', aliases: ['Tanaka Romeo'] });
  ids.nasu = await upsertPerson(t.db, { name: '奈須きのこ', nameZh: '奈须蘑菇', aliases: ['Nasu Kinoko'] });
  ids.saber = await upsertCharacter(t.db, { name: 'セイバー', nameZh: '阿尔托莉雅', aliases: ['Saber'] });
  for (const n of NOVELS) {
    ids[n.key] = await addNovel(n);
    await t.db
      .updateTable('lightnovel')
      .set({ view_count: n.views ?? 0 })
      .where('id', '=', ids[n.key]!)
      .execute();
  }
  await indexLightnovels(
    t.db,
    NOVELS.map((n) => ids[n.key]!),
  );
  // An author of light novels only: her works are the series she wrote.
  ids.author = await upsertPerson(t.db, { name: '月見里しおり', nameZh: '月见里栞' });
  await t.db
    .insertInto('lightnovel_staff')
    .values([
      { lightnovel_id: ids.hoshimi!, person_id: ids.author, role: 'author' },
      { lightnovel_id: ids.neko!, person_id: ids.author, role: 'author' },
      { lightnovel_id: ids.neko!, person_id: ids.author, role: 'illustrator' },
    ])
    .execute();
  await indexEntities(t.db, 'person', [ids.author]);
});
afterAll(() => t?.close());

describe('search relevance: the work a reader meant comes first', () => {
  const table: [string, string, SearchType?][] = [
    // Exact titles, in every script.
    ['Fate/stay night', 'fsn'],
    ['fate stay night', 'fsn'], // Latin without its punctuation
    ['FATE/STAY NIGHT', 'fsn'], // case
    ['ｆａｔｅ／ｓｔａｙ ｎｉｇｈｔ', 'fsn'], // full-width
    ['fatestaynight', 'fsn'], // run together
    ['命运守护夜', 'fsn'], // Chinese title
    ['white album2', 'wa2'],
    ['WHITE ALBUM', 'wa'], // exact beats the longer, more popular one
    ['白色相簿', 'wa'],
    ['白色相簿2', 'wa2'],
    ['白色相簿２', 'wa2'], // full-width digit
    ['白色相簿2', 'wa2'],
    ['樱之诗', 'sakura'],
    ['櫻之詩', 'sakura'], // traditional finds simplified
    ['サクラノ詩', 'sakura'], // Japanese original (prefix of the title)
    ['さくらの詩', 'sakura'], // hiragana finds katakana
    ['ｻｸﾗﾉ詩', 'sakura'], // half-width katakana
    ['团子大家族', 'clannad'],
    ['clannad', 'clannad'],
    ['クラナド', 'clannad'], // alias in katakana
    ['くらなど', 'clannad'],
    ['团子', 'clannad'], // two characters
    ['千恋万花', 'senren'], // separator dropped
    ['千戀萬花', 'senren'], // traditional
    ['senren banka', 'senren'], // romanised alias
    ['senren', 'senren'], // word prefix
    ['恋', 'koi'], // one character: the title that is only that character
    ['恋色', 'koiiro'],
    ['戀色空模樣', 'koiiro'],
    // Aliases and nicknames.
    ['白学', 'wa2'],
    ['夏口', 'summer'],
    ['FSN', 'fsn'],
    ['圣杯战争', 'fsn'],
    ['聖杯戰爭', 'fsn'],
    ['little busters', 'little'],
    ['リトルバスターズ', 'little'],
    ['ﾘﾄﾙﾊﾞｽﾀｰｽﾞ', 'little'],
    // Prefixes and parts.
    ['summer poc', 'summer'],
    ['sum', 'summer'],
    ['riddle', 'riddle'],
    ['謎語', 'riddle'],
    ['pokemon', 'pokemon'], // accents dropped
    ['星空', 'hoshi2'], // both start with 星空: the shorter Chinese title (星空的回忆) first
    ['星空列车', 'hoshi'],
    ['白的旅行', 'hoshi'], // from the middle of a title
    ['缘之空', 'yosuga'],
    ['緣之空', 'yosuga'],
    ['ヨスガ', 'yosuga'],
    ['100%', 'percent'],
    ['甜蜜', 'amairo'],
    ['アマイロ', 'amairo'],
    ['hollow', 'fha'],
    // Producers and people: whole names by default.
    ['key', 'key', 'producer'],
    ['KEY', 'key', 'producer'],
    ['Key社', 'key', 'producer'],
    ['柚子社', 'yuzu', 'producer'],
    ['yuzusoft', 'yuzu', 'producer'],
    ['ゆずソフト', 'yuzu', 'producer'],
    ['田中ロミオ', 'romeo', 'person'],
    ['tanaka romeo', 'romeo', 'person'],
    ['奈須きのこ', 'nasu', 'person'],
    ['奈须蘑菇', 'nasu', 'person'],
    ['saber', 'saber', 'person'], // characters are in the person tab
    ['阿爾托莉雅', 'saber', 'person'],
    // Light novels: by Chinese, original and other names, in part.
    ['星见坂图书室的四季', 'hoshimi', 'novel'],
    ['星見坂図書室の四季', 'hoshimi', 'novel'], // the original name
    ['星見坂', 'hoshimi', 'novel'], // traditional/Japanese forms find the simplified name too
    ['图书室', 'hoshimi', 'novel'],
    ['圖書室的四季', 'hoshimi', 'novel'],
    ['hoshimizaka', 'hoshimi', 'novel'], // romanised other name
    ['图书室四季', 'hoshimi', 'novel'], // a nickname among the other names
    ['雨夜信笺', 'amayo', 'novel'],
    ['雨夜の手紙', 'amayo', 'novel'],
    ['letters rainy', 'amayo', 'novel'],
    ['终点站', 'neko', 'novel'],
    ['終着駅の猫', 'neko', 'novel'],
    ['的猫', 'neko', 'novel'],
    ['樱之森', 'sakuranovel', 'novel'],
    ['月見里しおり', 'author', 'person'],
  ];
  it.each(table)('%s → %s', async (keyword, key, type = 'galgame') => {
    expect(idOf(await first(keyword, type))).toBe(ids[key]);
  });

  it('has at least 40 rows', () => expect(table.length).toBeGreaterThanOrEqual(40));
});

describe('search results', () => {
  it('matches in part only when relative_match allows it', async () => {
    expect((await search('keys', { type: 'producer' })).items).toHaveLength(0);
    const relative = await search('key', { type: 'producer', relative_match: 'true' });
    expect(relative.items.map(idOf)).toEqual([ids.key, ids.keystone]);
    const whole = await search('白色', { relative_match: 'false' });
    expect(whole.items).toHaveLength(0);
    expect((await search('白色相簿', { relative_match: 'false' })).items.map(idOf)).toEqual([ids.wa]);
  });

  it('counts every type and pages through results once each', async () => {
    const all = await search('星空');
    expect(all.counts).toMatchObject({ galgame: 2, novel: 0, producer: 0, person: 0 });
    const page1 = await search('fate', { limit: '1' });
    const page2 = await search('fate', { limit: '1', page: '2' });
    expect(page1.pagination).toMatchObject({ total: 2, totalPages: 2 });
    expect([idOf(page1.items[0]), idOf(page2.items[0])].sort()).toEqual([ids.fsn, ids.fha].sort());
    // The alias and the title of one game hold the query: the game appears once.
    const fsn = await search('fsn');
    expect(fsn.items.map(idOf)).toEqual([ids.fsn]);
  });

  it('highlights the matched part of the matched name', async () => {
    const hit = await first('櫻之詩');
    expect(hit?.matched).toEqual({ text: '樱之诗', field: 'titleZh', ranges: [[0, 3]] });
    const fate = await first('fate night');
    expect(fate?.matched.text).toBe('Fate/stay night');
    expect(fate?.matched.ranges).toEqual([
      [0, 4],
      [10, 15],
    ]);
  });

  it('suggests near keywords when nothing matches', async () => {
    const none = await search('白色相簿3');
    expect(none.items).toHaveLength(0);
    expect(none.suggestions).toContain('白色相簿2');
  });

  it('treats FTS syntax and LIKE wildcards as plain text', async () => {
    for (const keyword of [
      '"',
      'fate OR clannad',
      'NEAR(fate',
      '%',
      '_',
      'a*',
      "'; drop table galgame; --",
      '^fate',
      '-fate',
      'fate:*',
      '*',
      '(',
      '!',
      '&|',
    ]) {
      const result = await search(keyword);
      expect(result.items.length).toBeLessThanOrEqual(GAMES.length);
    }
    expect((await search('fate OR clannad')).items).toHaveLength(0);
    expect((await search('%')).items).toHaveLength(0);
    expect((await search('snake_case')).items.map(idOf)).toEqual([ids.under]);
    expect((await suggestNames(t.db, '%', 10)).length).toBe(0);
    expect((await suggestNames(t.db, '_', 10)).length).toBe(0);
  });

  it('suggests names by prefix, shortest first', async () => {
    const names = (await suggestNames(t.db, '白色', 10)).map((s) => s.keyword);
    expect(names.slice(0, 2)).toEqual(['白色相簿', '白色相簿2']);
    expect((await suggestNames(t.db, '櫻', 10)).map((s) => s.keyword)).toContain('樱之诗');
  });
});

describe('light novels', () => {
  it('are their own type, with their cards, counted beside games', async () => {
    const result = await search('樱之', { type: 'novel' });
    expect(result.items.map(idOf)).toEqual([ids.sakuranovel]);
    const hit = result.items[0];
    expect(hit?.type).toBe('novel');
    if (hit?.type !== 'novel') return;
    expect(hit.lightnovel).toMatchObject({ title: '櫻の森の上で', titleZh: '樱之森之上' });
    expect(hit.matched).toEqual({ text: '樱之森之上', field: 'titleZh', ranges: [[0, 2]] });
    // The games tab does not show them; each tab's count does.
    const games = await search('樱之');
    expect(games.items.every((h) => h.type === 'galgame')).toBe(true);
    expect(games.counts).toMatchObject({ galgame: 2, novel: 1 });
    const other = await first('hoshimizaka', 'novel');
    expect(other?.matched).toMatchObject({ text: 'Hoshimizaka Library', field: 'alias' });
  });

  it('count as works of their authors, once per series', async () => {
    const hit = await first('月见里栞', 'person');
    expect(hit?.type === 'person' && hit.entity.works).toBe(2);
  });

  it('are suggested by prefix', async () => {
    expect((await suggestNames(t.db, '雨夜', 10)).map((s) => s.keyword)).toContain('雨夜信笺');
    expect((await suggestNames(t.db, '終着', 10)).map((s) => s.keyword)).toContain('終着駅の猫');
  });

  it('follow their writes: renamed, unpublished and rolled back', async () => {
    const id = await addNovel({ name: '新しい連載', nameZh: '崭新连载' });
    expect(idOf(await first('崭新连载', 'novel'))).toBe(id);
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('lightnovel').set({ name_zh: '改名连载' }).where('id', '=', id).execute();
      await indexLightnovel(trx, id);
    });
    expect(await first('崭新', 'novel')).toBeUndefined();
    expect(idOf(await first('改名连载', 'novel'))).toBe(id);
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('lightnovel').set({ status: 'draft' }).where('id', '=', id).execute();
      await indexLightnovel(trx, id);
    });
    expect(await first('改名连载', 'novel')).toBeUndefined();
    expect(await first('新しい連載', 'novel')).toBeUndefined();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('lightnovel').set({ status: 'published' }).where('id', '=', id).execute();
        await indexLightnovel(trx, id);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await first('改名连载', 'novel')).toBeUndefined();
    expect(await addNovel({ name: '下書き', status: 'draft' })).toBeGreaterThan(0);
    expect(await first('下書き', 'novel')).toBeUndefined();
  });
});

describe('counting', () => {
  it('counts up to SEARCH_COUNT_CAP results and says there are more', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const games = Array.from({ length: SEARCH_COUNT_CAP + 10 }, (_, i) => ({
      id: 500_000 + i,
      title: `Countless Tale ${i}`,
      status: 'published' as const,
      release_date: null,
      release_year: null,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < games.length; i += 200)
      await t.db
        .insertInto('galgame')
        .values(games.slice(i, i + 200))
        .execute();
    await indexGalgames(
      t.db,
      games.map((g) => g.id),
    );
    const result = await search('countless');
    expect(result.pagination).toMatchObject({ total: SEARCH_COUNT_CAP, capped: true, totalPages: 50 });
    expect(result.counts.galgame).toBe(SEARCH_COUNT_CAP);
    expect(result.countsCapped).toEqual(['galgame']);
    const exact = await search('countless tale 7');
    expect(exact.pagination.capped).toBeUndefined();
    expect(exact.countsCapped).toEqual([]);
    await t.db.deleteFrom('galgame').where('id', '>=', 500_000).execute();
    await indexGalgames(
      t.db,
      games.map((g) => g.id),
    );
    expect((await search('countless')).items).toHaveLength(0);
  });
});

describe('the index follows the catalogue', () => {
  it('indexes a new game, a renamed one and drops an unpublished one in the same write', async () => {
    const id = await saveGalgame(t.db, { bangumiId: 990001, title: 'Brand New Title', releaseDate: null });
    expect(idOf(await first('brand new'))).toBe(id);
    await saveGalgame(t.db, { bangumiId: 990001, title: 'Renamed Story', releaseDate: null });
    expect(await first('brand new')).toBeUndefined();
    expect(idOf(await first('renamed'))).toBe(id);
    await saveGalgame(t.db, { bangumiId: 990001, title: 'Renamed Story', releaseDate: null, status: 'draft' });
    expect(await first('renamed')).toBeUndefined();
  });

  it('leaves nothing behind when the write rolls back', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await saveGalgame(trx, { bangumiId: 990002, title: 'Rolled Back Game', releaseDate: null });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await first('rolled back')).toBeUndefined();
  });

  it('rebuilds the same index from scratch and records its version', async () => {
    const before = await search('星空');
    const progress: number[] = [];
    await reindexAll(t.db, { batch: 5, onProgress: (p) => progress.push(p.done) });
    expect(progress.length).toBeGreaterThan(3);
    expect(await indexVersion(t.db)).toBe(INDEX_VERSION);
    expect((await search('星空')).items.map(idOf)).toEqual(before.items.map(idOf));
    expect(idOf(await first('樱之诗'))).toBe(ids.sakura);
    expect(idOf(await first('雨夜信笺', 'novel'))).toBe(ids.amayo);
    expect(progress.length).toBeGreaterThan(3);
  });
});
