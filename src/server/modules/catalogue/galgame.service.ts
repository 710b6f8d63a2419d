import { sql, type SelectQueryBuilder } from 'kysely';
import type { GalgameCard, GalgameDetail } from '../../../shared/catalogue.ts';
import { monthRange, siteToday } from '../../../shared/site-day.ts';
import type { Database, Db } from '../../db/database.ts';
import type { GalgameTable } from './catalogue.tables.ts';
import { HttpError } from '../../platform/errors.ts';
import { searchCatalogue } from '../search/search.service.ts';
import { cardColumns, parseJsonList, parsePrices, toCard } from './catalogue.mappers.ts';
import { messageRef } from '../../../shared/i18n/index.ts';

/** /galgame/list, read from the list facets (galgame.list.ts). */
export { listGalgames } from './galgame.list.ts';

type GDb = Database & { g: GalgameTable };
type GameQuery<O> = SelectQueryBuilder<GDb, 'g', O>;

const published = <O>(q: GameQuery<O>) => q.where('g.status', '=', 'published');

function latestQuery(db: Db, today: string, size: number) {
  return published(db.selectFrom('galgame as g').select(cardColumns))
    .where('g.release_date', '<=', today)
    .orderBy('g.release_date', 'desc')
    .orderBy('g.id', 'desc')
    .limit(size);
}

/** The newest released games (the home page's block): released on or before today's site date. */
export async function latestGalgames(db: Db, now = new Date(), size = 6): Promise<GalgameCard[]> {
  return (await latestQuery(db, siteToday(now), size).execute()).map(toCard);
}

/** Ratings a game needs to appear among the best rated (galgame_top_rated_idx holds exactly those). */
const RATINGS_TO_RANK = 3;

export interface FrontPage {
  latest: GalgameCard[];
  upcoming: GalgameCard[];
  /** Announced games without a release date yet (shown as TBD), newest first. */
  undated: GalgameCard[];
  popular: GalgameCard[];
  topRated: GalgameCard[];
  tags: { id: number; name: string; nameZh: string; gameCount: number }[];
}

/**
 * The blocks of /galgame: new, upcoming (dated, then TBD), popular, highly rated, and tags to browse by.
 * "Released" and "upcoming" split at today's site date, so a game out today in Shanghai is new, not upcoming.
 */
export async function frontPage(db: Db, now = new Date(), size = 12): Promise<FrontPage> {
  const base = () => published(db.selectFrom('galgame as g').select(cardColumns));
  const today = siteToday(now);
  const [latest, upcoming, undated, popular, topRated, tags] = await Promise.all([
    latestQuery(db, today, size).execute(),
    base()
      .where('g.release_date', '>', today)
      .orderBy('g.release_date', 'asc')
      .orderBy('g.id', 'asc')
      .limit(size)
      .execute(),
    base().where('g.release_date', 'is', null).orderBy('g.id', 'desc').limit(size).execute(),
    base().orderBy('g.view_count', 'desc').orderBy('g.id', 'desc').limit(size).execute(),
    base()
      // A literal, so both databases read the partial index of games with enough ratings.
      .where(sql<boolean>`${sql.ref('g.rating_count')} >= ${sql.lit(RATINGS_TO_RANK)}`)
      .orderBy('g.rating_avg', 'desc')
      .orderBy('g.id', 'desc')
      .limit(size)
      .execute(),
    db
      .selectFrom('tag')
      .select(['id', 'name', 'name_zh', 'game_count'])
      .where('game_count', '>', 0)
      .orderBy('game_count', 'desc')
      .orderBy('id')
      .limit(24)
      .execute(),
  ]);
  return {
    latest: latest.map(toCard),
    upcoming: upcoming.map(toCard),
    undated: undated.map(toCard),
    popular: popular.map(toCard),
    topRated: topRated.map(toCard),
    tags: tags.map((t) => ({ id: t.id, name: t.name, nameZh: t.name_zh, gameCount: t.game_count })),
  };
}

/** Games released in one month (YYYY-MM), by day. */
export async function releasesOfMonth(db: Db, month: string): Promise<GalgameCard[]> {
  const { first, last } = monthRange(month);
  const rows = await published(db.selectFrom('galgame as g').select(cardColumns))
    .where('g.release_date', '>=', first)
    .where('g.release_date', '<=', last)
    .orderBy('g.release_date', 'asc')
    .orderBy('g.id', 'asc')
    .limit(500)
    .execute();
  return rows.map(toCard);
}

/** A published game with everything its page shows. Unknown or unpublished ids are 404. */
export async function galgameDetail(db: Db, id: number): Promise<GalgameDetail> {
  const game = await db
    .selectFrom('galgame')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'published')
    .executeTakeFirst();
  if (!game) throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id }));
  const [platforms, producers, staff, characters, tags, related] = await Promise.all([
    db.selectFrom('galgame_platform').select('platform').where('galgame_id', '=', id).orderBy('platform').execute(),
    db
      .selectFrom('galgame_producer as gp')
      .innerJoin('producer as p', 'p.id', 'gp.producer_id')
      .select(['p.id', 'p.name', 'p.name_zh', 'gp.role', 'gp.note'])
      .where('gp.galgame_id', '=', id)
      .orderBy('gp.role')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('galgame_staff as s')
      .innerJoin('person as p', 'p.id', 's.person_id')
      .select(['p.id', 'p.name', 'p.name_zh', 's.role', 's.note'])
      .where('s.galgame_id', '=', id)
      .orderBy('s.role')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('galgame_character as gc')
      .innerJoin('character as c', 'c.id', 'gc.character_id')
      .leftJoin('person as v', 'v.id', 'gc.voice_person_id')
      .select([
        'c.id',
        'c.name',
        'c.name_zh',
        'c.image',
        'gc.role',
        'v.id as voiceId',
        'v.name as voiceName',
        'v.name_zh as voiceNameZh',
      ])
      .where('gc.galgame_id', '=', id)
      .orderBy(sql`case gc.role when 'main' then 0 when 'supporting' then 1 else 2 end`)
      .orderBy('c.id')
      .execute(),
    db
      .selectFrom('galgame_tag as gt')
      .innerJoin('tag as t', 't.id', 'gt.tag_id')
      .select(['t.id', 't.name', 't.name_zh', 'gt.votes', 'gt.spoiler'])
      .where('gt.galgame_id', '=', id)
      .orderBy('gt.votes', 'desc')
      .orderBy('t.id')
      .execute(),
    db
      .selectFrom('galgame_relation as r')
      .innerJoin('galgame as g', 'g.id', 'r.related_id')
      .select([...cardColumns, 'r.relation'])
      .where('r.galgame_id', '=', id)
      .where('g.status', '=', 'published')
      .orderBy('g.release_date')
      .limit(12)
      .execute(),
  ]);
  return {
    ...toCard(game),
    aliases: parseJsonList<string>(game.aliases),
    intro: game.intro,
    images: parseJsonList<string>(game.images),
    prices: parsePrices(game.prices),
    platforms: platforms.map((p) => p.platform),
    status: game.status,
    scoreHistogram: normaliseHistogram(parseJsonList<number>(game.score_hist)),
    producers: producers.map((p) => ({ id: p.id, name: p.name, nameZh: p.name_zh, role: p.role, note: p.note })),
    staff: staff.map((p) => ({ id: p.id, name: p.name, nameZh: p.name_zh, role: p.role, note: p.note })),
    characters: characters.map((c) => ({
      id: c.id,
      name: c.name,
      nameZh: c.name_zh,
      role: c.role,
      image: c.image,
      voice: c.voiceId ? { id: c.voiceId, name: c.voiceName ?? '', nameZh: c.voiceNameZh ?? '' } : null,
    })),
    tags: tags.map((t) => ({ id: t.id, name: t.name, nameZh: t.name_zh, votes: t.votes, spoiler: t.spoiler })),
    related: related.map((r) => ({ ...toCard(r), relation: r.relation })),
  };
}

export function normaliseHistogram(values: number[]): number[] {
  return Array.from({ length: 10 }, (_, i) => Math.max(0, Number(values[i] ?? 0)));
}

/** One published game as a card (the download page's header). Unknown or unpublished ids are 404. */
export async function galgameCard(db: Db, id: number): Promise<GalgameCard> {
  const row = await published(db.selectFrom('galgame as g').select(cardColumns))
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', messageRef('server.galgameNotFound', { id }));
  return toCard(row);
}

export async function galgameExists(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('galgame')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'published')
    .executeTakeFirst();
  return row !== undefined;
}

/** Most games a lookup answers. */
export const GALGAME_LOOKUP_MAX = 10;

/**
 * Published games for pickers (related works of a post): the search index's ranking (decision 024),
 * so a picker finds what the search box finds.
 */
export async function lookupGalgames(db: Db, keyword: string, limit = GALGAME_LOOKUP_MAX): Promise<GalgameCard[]> {
  const text = keyword.trim();
  if (text === '') return [];
  const result = await searchCatalogue(db, {
    keyword: text,
    type: 'galgame',
    page: 1,
    limit: Math.min(limit, GALGAME_LOOKUP_MAX),
    relative_match: true,
  });
  return result.items.flatMap((hit) => (hit.type === 'galgame' ? [hit.galgame] : []));
}
