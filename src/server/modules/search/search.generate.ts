import { sql, type Insertable } from 'kysely';
import * as OpenCC from 'opencc-js/cn2t';
import type { Db } from '../../db/database.ts';
import { bumpCounter } from '../../db/ids.ts';
import { releaseKey, syncFacets } from '../catalogue/catalogue.facets.ts';
import type {
  GalgameCharacterTable,
  GalgameProducerTable,
  GalgameStaffTable,
  GalgameTable,
} from '../catalogue/catalogue.tables.ts';
import { INDEX_VERSION, indexEntities, indexGalgames } from './search.index.ts';
import { mulberry32 } from '../../db/seeded-random.ts';

// A synthetic catalogue with realistic names for the search benchmark (npm run bench:search):
// Chinese titles from the words VN titles are made of (so common characters match thousands of
// games), Japanese original titles in kana and kanji, romanised titles for some, aliases
// (abbreviations, nicknames, traditional forms), skewed popularity, and named producers, people and
// characters linked to the games. Deterministic for a given seed; written in batches.

const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' });

/** Words of Chinese titles; earlier words are picked more often (a skewed, realistic vocabulary). */
const ZH_WORDS = [
  '恋',
  '爱',
  '夏',
  '星空',
  '樱',
  '少女',
  '物语',
  '约定',
  '回忆',
  '天使',
  '魔法',
  '学园',
  '恋爱',
  '夏日',
  '季节',
  '之',
  '的',
  '心',
  '梦',
  '世界',
  '永远',
  '告白',
  '恋人',
  '妹妹',
  '青春',
  '奇迹',
  '彼方',
  '天空',
  '海',
  '风',
  '歌',
  '秘密',
  '记忆',
  '未来',
  '明日',
  '幻想',
  '乐园',
  '时间',
  '公主',
  '骑士',
  '姐姐',
  '同居',
  '校园',
  '甜蜜',
  '约会',
  '终末',
  '樱花',
  '月光',
  '夜',
  '雨',
  '虹',
  '翼',
  '神',
  '巫女',
  '猫',
  '狐',
  '龙',
  '咖啡馆',
  '旅行',
  '列车',
  '庭园',
  '城',
  '岛',
  '街道',
  '轮回',
  '命运',
  '交响曲',
  '奏鸣曲',
  '双子',
  '女神',
  '精灵',
  '勇者',
  '冒险',
  '学生会',
  '社团',
  '图书馆',
  '无限',
  '白色',
  '银色',
  '蓝色',
  '黄昏',
  '黎明',
  '雪',
  '花',
  '月',
  '星',
  '光',
  '恶魔',
  '吸血鬼',
  '机械',
  '电波',
  '放学后',
  '灰色',
  '钟声',
  '向日葵',
  '萤火虫',
  '水平线',
  '纸飞机',
  '千年',
];

const JA_WORDS = [
  '恋する',
  '夏色',
  'キセキ',
  'ものがたり',
  '桜',
  '星空の',
  'メモリーズ',
  '約束',
  '天使たちの',
  '魔法少女',
  '学園',
  'ハートフル',
  'ラブ',
  'ストーリー',
  '月影',
  '花咲く',
  '乙女',
  '想い出',
  'セカイ',
  'の',
  'と',
  'プリンセス',
  'ナイト',
  'きみと',
  'ぼくの',
  'ひだまり',
  'さくら',
  'そらいろ',
  'なつやすみ',
  '青空',
  '夜明け',
  'ソナタ',
  'シンフォニー',
  'ガーデン',
  'アイランド',
  '恋人',
  '姉妹',
  'ドリーム',
  'エンジェル',
  'マジカル',
  'ふたり',
  'いつか',
  '雪',
  '紅',
  '蒼',
  '神様',
  '巫女',
  'ねこ',
  'きつね',
  'カフェ',
];

const LATIN_WORDS = [
  'Summer',
  'Star',
  'Love',
  'Sakura',
  'Story',
  'Memories',
  'Angel',
  'Magic',
  'Academy',
  'Pocket',
  'Heart',
  'Days',
  'Sky',
  'Moon',
  'Eternal',
  'Princess',
  'Knight',
  'Garden',
  'Promise',
  'Secret',
  'Dream',
  'Island',
  'Little',
  'Sweet',
  'Night',
  'Tale',
  'Wings',
  'Snow',
  'Blue',
  'Café',
  'Symphony',
  'Sonata',
  'Destiny',
  'Paradise',
  'Miracle',
  'Twilight',
  'Kiss',
  'Lovers',
  'Sister',
  'Melody',
  'Fantasia',
  'Rhapsody',
  'Crystal',
  'Silver',
  'Memory',
  'Festival',
  'Harmony',
  'Journey',
  'Horizon',
  'Stella',
];

const SURNAMES = [
  '佐藤',
  '铃木',
  '高桥',
  '田中',
  '渡边',
  '伊藤',
  '山本',
  '中村',
  '小林',
  '加藤',
  '吉田',
  '山田',
  '松本',
];
const SURNAMES_MORE = ['井上', '木村', '林', '清水', '山口', '森', '池田', '桥本', '石川', '前田', '藤田', '冈田'];
const GIVEN = ['樱', '美咲', '葵', '阳菜', '结衣', '凛', '遥', '七海', '真白', '雪乃', '千夏', '琴音', '明日香'];
const GIVEN_MORE = ['翔太', '大和', '悠真', '莲', '奏', '春香', '夏美', '秋子', '冬马', '光', '星奈', '月子', '爱'];
const KANA_GIVEN = ['さくら', 'みさき', 'あおい', 'ひな', 'ゆい', 'りん', 'はるか', 'ななみ', 'ましろ', 'ゆきの'];
const STUDIO_WORDS = ['Key', 'Leaf', 'Navel', 'August', 'Yuzu', 'Frontwing', 'Hooks', 'Lump', 'Saga', 'Palette'];
const STUDIO_ZH = ['柚子社', '星空社', '樱花组', '月光工房', '夏色社', '梦幻工作室', '天使社', '魔法屋', '晨曦社'];

export interface SearchCatalogueOptions {
  count: number;
  seed?: number;
  producers?: number;
  persons?: number;
  characters?: number;
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SearchCatalogueResult {
  games: number;
  producers: number;
  persons: number;
  characters: number;
}

async function inBatches<T>(items: T[], size: number, write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await write(items.slice(i, i + size));
}

/**
 * Writes `count` published games with names for search, plus producers, people and characters, into an
 * empty catalogue, and indexes them for search in the transactions that write them.
 */
export async function generateSearchCatalogue(db: Db, options: SearchCatalogueOptions): Promise<SearchCatalogueResult> {
  const rand = mulberry32(options.seed ?? 2026);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  // Skewed: the first words of a list are much more common than the last (a Zipf-like draw).
  const skewed = <T>(list: readonly T[]): T => list[Math.floor(rand() ** 2 * list.length)] as T;
  const batch = options.batch ?? 400;
  const now = new Date('2026-11-01T00:00:00Z').toISOString();
  const producerCount = options.producers ?? 3000;
  const personCount = options.persons ?? 5000;
  const characterCount = options.characters ?? 5000;

  const zhTitle = () => {
    const max = 2 + Math.floor(rand() * 11);
    let title = '';
    while ([...title].length < 2 || ([...title].length < max && rand() < 0.75)) {
      const word = skewed(ZH_WORDS);
      if ([...title].length + [...word].length > 12) break;
      title += word;
    }
    return title;
  };
  const jaTitle = () => {
    const parts = 2 + Math.floor(rand() * 3);
    return Array.from({ length: parts }, () => skewed(JA_WORDS)).join('');
  };
  const latinTitle = () => {
    const words = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => skewed(LATIN_WORDS));
    const joiner = pick([' ', ' ', ' ', '-', ': ']);
    return words.join(joiner) + pick(['', '', '', '!', ' ~After~', ' 2']);
  };
  const personName = () => `${pick(rand() < 0.7 ? SURNAMES : SURNAMES_MORE)}${pick(rand() < 0.7 ? GIVEN : GIVEN_MORE)}`;

  const entity = (id: number, name: string, nameZh: string, aliases: string[]) => ({
    id,
    name,
    name_zh: nameZh,
    aliases: JSON.stringify(aliases),
    created_at: now,
    updated_at: now,
  });
  const producers = Array.from({ length: producerCount }, (_, i) => {
    const zh = `${pick(STUDIO_ZH)}${i + 1}`;
    return entity(
      i + 1,
      `${pick(STUDIO_WORDS)} ${pick(LATIN_WORDS)} ${i + 1}`,
      zh,
      rand() < 0.3 ? [toTraditional(zh)] : [],
    );
  });
  const persons = Array.from({ length: personCount }, (_, i) => {
    const name = personName();
    return entity(i + 1, name, name, rand() < 0.4 ? [`${pick(KANA_GIVEN)}${i + 1}`] : []);
  });
  const characters = Array.from({ length: characterCount }, (_, i) => {
    const name = `${pick(SURNAMES)}${pick(rand() < 0.5 ? KANA_GIVEN : GIVEN)}`;
    return entity(i + 1, name, name, rand() < 0.3 ? [toTraditional(name)] : []);
  });
  for (const [table, rows] of [
    ['producer', producers],
    ['person', persons],
    ['character', characters],
  ] as const) {
    await inBatches(rows, batch, (chunk) => db.insertInto(table).values(chunk).execute());
  }

  const total = options.count;
  for (let start = 0; start < total; start += batch) {
    const size = Math.min(batch, total - start);
    const games: Insertable<GalgameTable>[] = [];
    const gameProducers: Insertable<GalgameProducerTable>[] = [];
    const staff: Insertable<GalgameStaffTable>[] = [];
    const cast: Insertable<GalgameCharacterTable>[] = [];
    for (let i = 0; i < size; i++) {
      const id = start + i + 1;
      const year = 1995 + Math.floor(rand() * 33);
      const date = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
      const zh = zhTitle();
      const aliases: string[] = [];
      if (rand() < 0.4) aliases.push(latinTitle());
      const extra = Math.floor(rand() * 4);
      for (let a = 0; a < extra; a++) {
        const kind = rand();
        const chars = [...zh];
        if (kind < 0.4 && chars.length > 3) aliases.push(chars.filter((_, k) => k % 2 === 0).join(''));
        else if (kind < 0.7) aliases.push(toTraditional(zh));
        else aliases.push(`${chars.slice(0, 2).join('')}${pick(['酱', '党', '系列', '', '2'])}`);
      }
      const ratingCount = Math.floor(rand() ** 4 * 600);
      games.push({
        id,
        title: jaTitle(),
        title_zh: zh,
        aliases: JSON.stringify(aliases),
        release_date: date,
        release_year: year,
        nsfw: rand() < 0.3 ? 1 : 0,
        status: 'published',
        view_count: Math.floor(rand() ** 4 * 200_000),
        favorite_count: Math.floor(rand() ** 4 * 5000),
        rating_count: ratingCount,
        rating_sum: ratingCount * 7,
        rating_avg: ratingCount ? 700 : 0,
        created_at: now,
        updated_at: now,
      });
      const key = releaseKey(date);
      gameProducers.push({
        galgame_id: id,
        producer_id: 1 + Math.floor(rand() ** 2 * producerCount),
        role: 'developer',
        release_key: key,
      });
      staff.push({
        galgame_id: id,
        person_id: 1 + Math.floor(rand() * personCount),
        role: 'scenario',
        release_key: key,
      });
      const characterId = 1 + Math.floor(rand() * characterCount);
      cast.push({
        galgame_id: id,
        character_id: characterId,
        role: 'main',
        voice_person_id: 1 + Math.floor(rand() * personCount),
        release_key: key,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('galgame').values(games).execute();
      await trx.insertInto('galgame_producer').values(gameProducers).execute();
      await trx.insertInto('galgame_staff').values(staff).execute();
      await trx.insertInto('galgame_character').values(cast).execute();
      const ids = games.map((g) => g.id);
      await syncFacets(trx, ids);
      await indexGalgames(trx, ids);
    });
    options.onProgress?.(start + size, total);
  }
  for (const [kind, rows] of [
    ['producer', producers],
    ['person', persons],
    ['character', characters],
  ] as const) {
    await inBatches(
      rows.map((r) => r.id),
      500,
      (ids) => db.transaction().execute((trx) => indexEntities(trx, kind, ids)),
    );
  }
  await bumpCounter(db, 'galgame_id', total);
  await bumpCounter(db, 'producer_id', producerCount);
  await bumpCounter(db, 'person_id', personCount);
  await bumpCounter(db, 'character_id', characterCount);
  // Indexed as it was written: the server need not rebuild the index when it starts.
  await db
    .insertInto('search_state')
    .values({ key: 'index_version', value: INDEX_VERSION })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: INDEX_VERSION }))
    .execute();
  await sql`analyze`.execute(db);
  return { games: total, producers: producerCount, persons: personCount, characters: characterCount };
}
