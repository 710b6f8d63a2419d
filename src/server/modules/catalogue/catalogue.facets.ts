import type { Platform, TranslationType } from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import type { GalgameFacetTable } from './catalogue.tables.ts';

// The facets of the game lists (docs/decisions/011-fast-list-queries.md). Every writer that changes what
// a list shows calls in here inside its own transaction: `syncFacets` when a game's status, NSFW flag,
// release date, platforms, tags or downloads change; `setFacetRating` and `addFacetViews` when only a
// sort key moves. The counts of each facet (and tag.game_count) follow the rows exactly.

/** Every published game. */
export const ALL_FACET = 'all';

export const facetKey = {
  tag: (id: number) => `tag:${id}`,
  platform: (platform: string) => `platform:${platform}`,
  translation: (type: string) => `translation:${type}`,
  year: (year: number) => `year:${year}`,
  tagTranslation: (id: number, type: string) => `tag:${id}+translation:${type}`,
} as const;

/** The bit of each platform in platform_mask. Fixed per value: stored rows depend on it. */
export const PLATFORM_BITS: Readonly<Record<Platform, number>> = {
  windows: 1,
  mac: 2,
  linux: 4,
  android: 8,
  ios: 16,
  switch: 32,
  ps4: 64,
  ps5: 128,
  psv: 256,
  web: 512,
  other: 1024,
};

/** The bit of each translation type in translation_mask (types of the game's downloads). */
export const TRANSLATION_BITS: Readonly<Record<TranslationType, number>> = {
  official: 1,
  fan: 2,
  machine: 4,
  ai: 8,
  none: 16,
};

const bitOf = <K extends string>(bits: Readonly<Record<K, number>>, value: string): number =>
  (bits as Readonly<Record<string, number>>)[value] ?? 0;

/** YYYYMMDD of a release date as a number, so dates sort as numbers; 0 (sorting last) when unknown. */
export function releaseKey(date: string | null): number {
  const parts = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  return parts ? Number(`${parts[1]}${parts[2]}${parts[3]}`) : 0;
}

/** What the facets of a game are made from. */
export interface FacetSource {
  id: number;
  status: string;
  nsfw: number;
  release_date: string | null;
  release_year: number | null;
  rating_avg: number;
  view_count: number;
  platforms: readonly string[];
  /** Translation types of the game's downloads. */
  translations: readonly string[];
  tagIds: readonly number[];
}

/** The facet rows of a game: one per filter value it matches, none unless it is published. */
export function facetRowsOf(game: FacetSource): GalgameFacetTable[] {
  if (game.status !== 'published') return [];
  const platforms = [...new Set(game.platforms)];
  const translations = [...new Set(game.translations)];
  const tags = [...new Set(game.tagIds)];
  const keys = [
    ALL_FACET,
    ...tags.map(facetKey.tag),
    ...platforms.map(facetKey.platform),
    ...translations.map(facetKey.translation),
    ...(game.release_year === null ? [] : [facetKey.year(game.release_year)]),
    ...tags.flatMap((tag) => translations.map((type) => facetKey.tagTranslation(tag, type))),
  ];
  const shared = {
    galgame_id: game.id,
    nsfw: game.nsfw,
    release_key: releaseKey(game.release_date),
    rating_avg: game.rating_avg,
    view_count: game.view_count,
    platform_mask: platforms.reduce((mask, p) => mask | bitOf(PLATFORM_BITS, p), 0),
    translation_mask: translations.reduce((mask, t) => mask | bitOf(TRANSLATION_BITS, t), 0),
  };
  return keys.map((facet) => ({ facet, ...shared }));
}

/** Games of a facet per NSFW flag, as a change: +1 for a row added, -1 for a row removed. */
type CountChanges = Map<string, { facet: string; nsfw: number; change: number }>;

function tally(changes: CountChanges, rows: readonly { facet: string; nsfw: number }[], sign: 1 | -1) {
  for (const row of rows) {
    const key = `${row.facet}\u0000${row.nsfw}`;
    const entry = changes.get(key) ?? { facet: row.facet, nsfw: row.nsfw, change: 0 };
    entry.change += sign;
    changes.set(key, entry);
  }
}

const CHUNK = 400;

/**
 * Rewrites the facet rows of these games from the catalogue tables and moves the facet counts and the
 * tags' game counts by the difference. Run it inside the transaction that changed the games, after the
 * change (games are handled in id order, so concurrent writers take the count rows in the same order).
 */
export async function syncFacets(db: Db, galgameIds: readonly number[]): Promise<void> {
  const ids = [...new Set(galgameIds)].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const [games, platforms, downloads, tags, old] = await Promise.all([
      db
        .selectFrom('galgame')
        .select(['id', 'status', 'nsfw', 'release_date', 'release_year', 'rating_avg', 'view_count'])
        .where('id', 'in', chunk)
        .execute(),
      db.selectFrom('galgame_platform').select(['galgame_id', 'platform']).where('galgame_id', 'in', chunk).execute(),
      db
        .selectFrom('galgame_download')
        .select(['galgame_id', 'translation_type'])
        .distinct()
        .where('galgame_id', 'in', chunk)
        .execute(),
      db.selectFrom('galgame_tag').select(['galgame_id', 'tag_id']).where('galgame_id', 'in', chunk).execute(),
      db.selectFrom('galgame_facet').select(['facet', 'nsfw']).where('galgame_id', 'in', chunk).execute(),
    ]);
    const byGame = <T extends { galgame_id: number }, V>(rows: T[], value: (row: T) => V) => {
      const map = new Map<number, V[]>();
      for (const row of rows) map.set(row.galgame_id, [...(map.get(row.galgame_id) ?? []), value(row)]);
      return map;
    };
    const platformsOf = byGame(platforms, (r) => r.platform);
    const translationsOf = byGame(downloads, (r) => r.translation_type);
    const tagsOf = byGame(tags, (r) => r.tag_id);
    const rows = games.flatMap((game) =>
      facetRowsOf({
        ...game,
        platforms: platformsOf.get(game.id) ?? [],
        translations: translationsOf.get(game.id) ?? [],
        tagIds: tagsOf.get(game.id) ?? [],
      }),
    );
    const changes: CountChanges = new Map();
    tally(changes, old, -1);
    tally(changes, rows, 1);
    if (old.length > 0) await db.deleteFrom('galgame_facet').where('galgame_id', 'in', chunk).execute();
    for (let r = 0; r < rows.length; r += 500) {
      await db
        .insertInto('galgame_facet')
        .values(rows.slice(r, r + 500))
        .execute();
    }
    await applyCountChanges(db, changes);
  }
}

async function applyCountChanges(db: Db, changes: CountChanges): Promise<void> {
  const moved = [...changes.values()]
    .filter((c) => c.change !== 0)
    .sort((a, b) => (a.facet < b.facet ? -1 : a.facet > b.facet ? 1 : a.nsfw - b.nsfw));
  for (let i = 0; i < moved.length; i += 300) {
    await db
      .insertInto('galgame_facet_count')
      .values(moved.slice(i, i + 300).map((c) => ({ facet: c.facet, nsfw: c.nsfw, games: c.change })))
      .onConflict((oc) =>
        oc
          .columns(['facet', 'nsfw'])
          .doUpdateSet((eb) => ({ games: eb('galgame_facet_count.games', '+', eb.ref('excluded.games')) })),
      )
      .execute();
  }
  // tag.game_count is the tag's facet over both NSFW flags; tags in id order, like the count rows.
  const tagChanges = new Map<number, number>();
  for (const c of moved) {
    const tag = /^tag:(\d+)$/.exec(c.facet);
    if (tag) tagChanges.set(Number(tag[1]), (tagChanges.get(Number(tag[1])) ?? 0) + c.change);
  }
  for (const [tagId, change] of [...tagChanges].sort(([a], [b]) => a - b)) {
    if (change === 0) continue;
    await db
      .updateTable('tag')
      .set((eb) => ({ game_count: eb('game_count', '+', change) }))
      .where('id', '=', tagId)
      .execute();
  }
}

/** A game's average rating (×100) changed: its facet rows sort by the new value. */
export async function setFacetRating(db: Db, galgameId: number, ratingAvg: number): Promise<void> {
  await db.updateTable('galgame_facet').set({ rating_avg: ratingAvg }).where('galgame_id', '=', galgameId).execute();
}

/** A game was viewed `views` more times. */
export async function addFacetViews(db: Db, galgameId: number, views: number): Promise<void> {
  await db
    .updateTable('galgame_facet')
    .set((eb) => ({ view_count: eb('view_count', '+', views) }))
    .where('galgame_id', '=', galgameId)
    .execute();
}
