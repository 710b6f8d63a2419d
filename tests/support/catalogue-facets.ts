import type { Db } from '../../src/server/db/database.ts';
import { facetRowsOf, releaseKey } from '../../src/server/modules/catalogue/catalogue.facets.ts';

/**
 * Everything in which the stored list facets differ from a recomputation out of the catalogue tables:
 * facet rows (with their sort keys and filter masks), facet counts, tags' game counts and the release
 * keys on the links of producers, persons and characters. Empty when they are exact.
 */
export async function facetDrift(db: Db): Promise<string[]> {
  const [games, platforms, downloads, tags, rows, counts, tagCounts] = await Promise.all([
    db
      .selectFrom('galgame')
      .select(['id', 'status', 'nsfw', 'release_date', 'release_year', 'rating_avg', 'view_count'])
      .execute(),
    db.selectFrom('galgame_platform').select(['galgame_id', 'platform']).execute(),
    db.selectFrom('galgame_download').select(['galgame_id', 'translation_type']).distinct().execute(),
    db.selectFrom('galgame_tag').select(['galgame_id', 'tag_id']).execute(),
    db.selectFrom('galgame_facet').selectAll().execute(),
    db.selectFrom('galgame_facet_count').selectAll().execute(),
    db.selectFrom('tag').select(['id', 'game_count']).execute(),
  ]);
  const of = <T extends { galgame_id: number }, V>(list: T[], id: number, value: (row: T) => V) =>
    list.filter((r) => r.galgame_id === id).map(value);
  const expected = games.flatMap((game) =>
    facetRowsOf({
      ...game,
      platforms: of(platforms, game.id, (r) => r.platform),
      translations: of(downloads, game.id, (r) => r.translation_type),
      tagIds: of(tags, game.id, (r) => r.tag_id),
    }),
  );
  const drift: string[] = [];
  const rowKey = (r: { galgame_id: number; facet: string }) => `${r.galgame_id} ${r.facet}`;
  const show = (r: object) =>
    JSON.stringify(
      Object.entries(r)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)]),
    );
  const stored = new Map(rows.map((r) => [rowKey(r), show(r)]));
  for (const row of expected) {
    const found = stored.get(rowKey(row));
    if (found !== show(row)) drift.push(`facet row ${rowKey(row)}: stored ${found ?? 'none'}, expected ${show(row)}`);
    stored.delete(rowKey(row));
  }
  for (const [key, row] of stored) drift.push(`facet row ${key} should not exist: ${row}`);

  const expectedCounts = new Map<string, number>();
  for (const row of expected) {
    const key = `${row.facet} nsfw=${row.nsfw}`;
    expectedCounts.set(key, (expectedCounts.get(key) ?? 0) + 1);
  }
  for (const c of counts) {
    const key = `${c.facet} nsfw=${c.nsfw}`;
    if (Number(c.games) !== (expectedCounts.get(key) ?? 0))
      drift.push(`count ${key}: stored ${c.games}, expected ${expectedCounts.get(key) ?? 0}`);
    expectedCounts.delete(key);
  }
  for (const [key, n] of expectedCounts) drift.push(`count ${key}: missing, expected ${n}`);

  for (const tag of tagCounts) {
    const n = expected.filter((r) => r.facet === `tag:${tag.id}`).length;
    if (Number(tag.game_count) !== n) drift.push(`tag ${tag.id} game_count: stored ${tag.game_count}, expected ${n}`);
  }

  const keyOf = new Map(games.map((g) => [g.id, releaseKey(g.release_date)]));
  for (const table of ['galgame_producer', 'galgame_staff', 'galgame_character'] as const) {
    const links = await db.selectFrom(table).select(['galgame_id', 'release_key']).execute();
    for (const link of links) {
      if (Number(link.release_key) !== keyOf.get(link.galgame_id))
        drift.push(
          `${table} of game ${link.galgame_id}: release_key ${link.release_key}, expected ${keyOf.get(link.galgame_id)}`,
        );
    }
  }
  return drift;
}
