import { sql } from 'kysely';
import { PLATFORMS, TRANSLATION_TYPES, type Platform } from '../../../shared/catalogue.ts';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type {
  GalgameDownloadTable,
  GalgamePlatformTable,
  GalgameProducerTable,
  GalgameTable,
} from './catalogue.tables.ts';
import { bumpCounter } from '../../db/ids.ts';
import { releaseKey, syncFacets } from './catalogue.facets.ts';
import { indexEntities, indexGalgames } from '../search/search.index.ts';
import { mulberry32 } from '../../db/seeded-random.ts';

// Generates a large synthetic catalogue for load tests and query-plan checks (npm run
// catalogue:generate). Deterministic for a given seed; written in batches straight to the tables.

const SYLLABLES = [
  '夏',
  '空',
  '星',
  '雪',
  '月',
  '花',
  '夜',
  '海',
  '风',
  '光',
  '梦',
  '樱',
  '雨',
  '虹',
  '歌',
  '翼',
  '约',
  '定',
  '时',
  '记',
];
const PLACES = ['之丘', '物语', '的约定', '回忆录', '奏鸣曲', '彼方', '之夏', '庭园', '列车', '信标'];

export interface GenerateOptions {
  count: number;
  seed?: number;
  tags?: number;
  producers?: number;
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

async function inBatches<T>(db: Db, rows: T[], size: number, write: (db: Db, chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await write(db, rows.slice(i, i + size));
}

/** Adds `count` published games (plus tags and producers if missing) after the existing ids. */
export async function generateCatalogue(
  db: Db,
  options: GenerateOptions,
): Promise<{ firstId: number; lastId: number }> {
  const rand = mulberry32(options.seed ?? 2026);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const batch = options.batch ?? 400;
  const now = new Date('2026-11-01T00:00:00Z').toISOString();
  const tagCount = options.tags ?? 60;
  const producerCount = options.producers ?? 400;

  const maxId = async (table: 'galgame' | 'tag' | 'producer') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );

  const tagBase = await maxId('tag');
  const tagIds = Array.from({ length: tagCount }, (_, i) => tagBase + i + 1);
  await inBatches(db, tagIds, batch, (d, chunk) =>
    d
      .insertInto('tag')
      .values(
        chunk.map((id) => ({ id, name: `gen-tag-${id}`, name_zh: `标签${id}`, category: 'content', created_at: now })),
      )
      .execute(),
  );
  const producerBase = await maxId('producer');
  const producerIds = Array.from({ length: producerCount }, (_, i) => producerBase + i + 1);
  await inBatches(db, producerIds, batch, (d, chunk) =>
    d
      .insertInto('producer')
      .values(
        chunk.map((id) => ({ id, name: `Studio ${id}`, name_zh: `工作室${id}`, created_at: now, updated_at: now })),
      )
      .execute(),
  );

  await inBatches(db, producerIds, 500, (d, chunk) => indexEntities(d, 'producer', chunk));

  const first = (await maxId('galgame')) + 1;
  const total = options.count;
  for (let start = 0; start < total; start += batch) {
    const size = Math.min(batch, total - start);
    const games: Insertable<GalgameTable>[] = [];
    const platforms: Insertable<GalgamePlatformTable>[] = [];
    const tags: { galgame_id: number; tag_id: number; votes: number; spoiler: number }[] = [];
    const producers: Insertable<GalgameProducerTable>[] = [];
    const downloads: (Insertable<GalgameDownloadTable> & { id: number })[] = [];
    for (let i = 0; i < size; i++) {
      const id = first + start + i;
      const tbd = rand() < 0.02;
      const year = 1995 + Math.floor(rand() * 33);
      const date = tbd
        ? null
        : `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
      const ratingCount = Math.floor(rand() ** 3 * 400);
      const hist = Array.from({ length: 10 }, () => 0);
      let sum = 0;
      for (let r = 0; r < ratingCount; r++) {
        const score = Math.min(10, Math.max(1, Math.round(5 + rand() * 5 - rand() * 3)));
        hist[score - 1] = (hist[score - 1] ?? 0) + 1;
        sum += score;
      }
      const title = `${pick(SYLLABLES)}${pick(SYLLABLES)}${pick(PLACES)} ${id}`;
      games.push({
        id,
        title,
        title_zh: title,
        intro: `${title}的故事。`,
        release_date: date,
        release_year: date ? Number(date.slice(0, 4)) : null,
        nsfw: rand() < 0.3 ? 1 : 0,
        status: 'published',
        view_count: Math.floor(rand() ** 2 * 50_000),
        favorite_count: Math.floor(rand() ** 2 * 2000),
        rating_count: ratingCount,
        rating_sum: sum,
        rating_avg: ratingCount ? Math.round((sum * 100) / ratingCount) : 0,
        score_hist: JSON.stringify(hist),
        created_at: now,
        updated_at: now,
      });
      const platformSet = new Set<Platform>(['windows']);
      if (rand() < 0.2) platformSet.add(pick(PLATFORMS));
      for (const platform of platformSet) platforms.push({ galgame_id: id, platform });
      const tagSet = new Set<number>();
      const nTags = 2 + Math.floor(rand() * 5);
      // Skewed: low tag ids are common, like real catalogues.
      while (tagSet.size < nTags) tagSet.add(tagIds[Math.floor(rand() ** 2 * tagIds.length)] as number);
      for (const tagId of tagSet)
        tags.push({ galgame_id: id, tag_id: tagId, votes: Math.floor(rand() * 100), spoiler: rand() < 0.05 ? 1 : 0 });
      producers.push({
        galgame_id: id,
        producer_id: pick(producerIds),
        role: 'developer',
        release_key: releaseKey(date),
      });
      if (rand() < 0.35) {
        downloads.push({
          id,
          galgame_id: id,
          language: 'zh-Hans',
          platform: 'windows',
          translation_type: pick(TRANSLATION_TYPES),
          created_at: now,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('galgame').values(games).execute();
      await trx.insertInto('galgame_platform').values(platforms).execute();
      await trx.insertInto('galgame_tag').values(tags).execute();
      await trx.insertInto('galgame_producer').values(producers).execute();
      if (downloads.length) {
        const downloadBase = Number(
          (
            await trx
              .selectFrom('galgame_download')
              .select((eb) => eb.fn.max('id').as('m'))
              .executeTakeFirst()
          )?.m ?? 0,
        );
        await trx
          .insertInto('galgame_download')
          .values(downloads.map((d, i) => ({ ...d, id: downloadBase + i + 1 })))
          .execute();
      }
      await syncFacets(
        trx,
        games.map((g) => g.id),
      );
      await indexGalgames(
        trx,
        games.map((g) => g.id),
      );
    });
    options.onProgress?.(start + size, total);
  }
  const last = first + total - 1;
  await bumpCounter(db, 'galgame_id', last);
  await bumpCounter(db, 'tag_id', tagIds.at(-1) ?? 0);
  await bumpCounter(db, 'producer_id', producerIds.at(-1) ?? 0);
  const downloadMax = Number(
    (
      await db
        .selectFrom('galgame_download')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m ?? 0,
  );
  await bumpCounter(db, 'download_id', downloadMax);
  await sql`analyze`.execute(db);
  return { firstId: first, lastId: last };
}
