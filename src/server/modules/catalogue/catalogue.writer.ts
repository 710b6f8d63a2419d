import type {
  CharacterRole,
  GalgamePrice,
  GalgameStatus,
  Platform,
  ProducerRole,
  Relation,
  StaffRole,
} from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { bumpCounter, nextId } from '../../db/ids.ts';
import { releaseKey, syncFacets } from './catalogue.facets.ts';
import { syncDownloads, type DownloadInput } from './downloads.writer.ts';
import { indexEntities, indexGalgames } from '../search/search.index.ts';

// Writing catalogue entries: used by the demo seed, the Bangumi import and (later) the creator centre.
// Entities are matched by Bangumi id when they have one, otherwise by exact original name, so running
// an import or seed twice updates instead of duplicating.

/** An update of an entry that is gone (deleted meanwhile): 404, never a server error. */
const gone = () => new HttpError(404, 'NOT_FOUND', 'revision.error.itemNotFound');

export interface EntityInput {
  /** Update this entity (it must exist); without it, matched by Bangumi id or original name. */
  id?: number;
  /** Always a new row (the creator centre: another entry may share the name); never matched. */
  createNew?: boolean;
  bangumiId?: number | null;
  name: string;
  nameZh?: string;
  aliases?: string[];
  description?: string;
  image?: string;
}
export interface ProducerInput extends EntityInput {
  kind?: 'company' | 'individual' | 'amateur';
  website?: string;
}
export interface PersonInput extends EntityInput {
  gender?: string;
  birthday?: string;
}
export type CharacterInput = PersonInput;

export type { DownloadInput } from './downloads.writer.ts';

export interface GalgameInput {
  /** Update this game (it must exist), keeping the votes of the tags it keeps; without it, matched by Bangumi id. */
  id?: number;
  bangumiId?: number | null;
  title: string;
  titleZh?: string;
  aliases?: string[];
  intro?: string;
  /** YYYY-MM-DD, or null for TBD. */
  releaseDate?: string | null;
  prices?: GalgamePrice[];
  cover?: string;
  images?: string[];
  nsfw?: boolean;
  status?: GalgameStatus;
  platforms?: Platform[];
  tags?: { tagId: number; votes?: number; spoiler?: number }[];
  producers?: { producerId: number; role: ProducerRole; note?: string }[];
  staff?: { personId: number; role: StaffRole; note?: string }[];
  characters?: { characterId: number; role: CharacterRole; voicePersonId?: number | null }[];
  /** When given, replaces the game's own relations (the other games' relations to it are theirs). */
  relations?: { galgameId: number; relation: Relation }[];
  downloads?: DownloadInput[];
}

type EntityTable = 'producer' | 'person' | 'character';

async function upsertEntity(
  db: Db,
  table: EntityTable,
  input: EntityInput,
  extra: Record<string, string>,
  now: Date,
): Promise<number> {
  // The entity and its search entries change together.
  if (!db.isTransaction) return db.transaction().execute((trx) => upsertEntity(trx, table, input, extra, now));
  const existing =
    input.id !== undefined
      ? await db.selectFrom(table).select('id').where('id', '=', input.id).executeTakeFirst()
      : input.createNew
        ? undefined
        : input.bangumiId
          ? await db.selectFrom(table).select('id').where('bangumi_id', '=', input.bangumiId).executeTakeFirst()
          : await db
              .selectFrom(table)
              .select('id')
              .where('name', '=', input.name)
              .where('bangumi_id', 'is', null)
              .executeTakeFirst();
  if (input.id !== undefined && !existing) throw gone();
  const values = {
    name: input.name,
    name_zh: input.nameZh ?? '',
    aliases: JSON.stringify(input.aliases ?? []),
    description: input.description ?? '',
    image: input.image ?? '',
    ...extra,
    updated_at: now.toISOString(),
  };
  if (existing) {
    await db.updateTable(table).set(values).where('id', '=', existing.id).execute();
    await indexEntities(db, table, [existing.id]);
    return existing.id;
  }
  const id = await nextId(db, `${table}_id`);
  await db
    .insertInto(table)
    .values({ id, bangumi_id: input.bangumiId ?? null, created_at: now.toISOString(), ...values } as never)
    .execute();
  await indexEntities(db, table, [id]);
  return id;
}

export const upsertProducer = (db: Db, p: ProducerInput, now = new Date()) =>
  upsertEntity(db, 'producer', p, { kind: p.kind ?? 'company', website: p.website ?? '' }, now);
export const upsertPerson = (db: Db, p: PersonInput, now = new Date()) =>
  upsertEntity(db, 'person', p, { gender: p.gender ?? '', birthday: p.birthday ?? '' }, now);
export const upsertCharacter = (db: Db, p: CharacterInput, now = new Date()) =>
  upsertEntity(db, 'character', p, { gender: p.gender ?? '', birthday: p.birthday ?? '' }, now);

export async function upsertTag(
  db: Db,
  tag: { id?: number; name: string; nameZh?: string; category?: string; description?: string },
  now = new Date(),
): Promise<number> {
  const existing =
    tag.id !== undefined
      ? await db.selectFrom('tag').select('id').where('id', '=', tag.id).executeTakeFirst()
      : await db.selectFrom('tag').select('id').where('name', '=', tag.name).executeTakeFirst();
  if (tag.id !== undefined && !existing) throw gone();
  if (existing) {
    await db
      .updateTable('tag')
      .set({
        ...(tag.id !== undefined ? { name: tag.name } : {}),
        name_zh: tag.nameZh ?? '',
        category: tag.category ?? 'content',
        description: tag.description ?? '',
      })
      .where('id', '=', existing.id)
      .execute();
    return existing.id;
  }
  const id = await nextId(db, 'tag_id');
  await db
    .insertInto('tag')
    .values({
      id,
      name: tag.name,
      name_zh: tag.nameZh ?? '',
      category: tag.category ?? 'content',
      description: tag.description ?? '',
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

/**
 * Creates a game, or updates the one with the same Bangumi id, replacing all its links; its list facets
 * (and the facet and tag counts) change in the same transaction.
 */
export async function saveGalgame(db: Db, input: GalgameInput, now = new Date()): Promise<number> {
  if (!db.isTransaction) return db.transaction().execute((trx) => saveGalgame(trx, input, now));
  {
    const trx = db;
    const existing =
      input.id !== undefined
        ? await trx.selectFrom('galgame').select('id').where('id', '=', input.id).executeTakeFirst()
        : input.bangumiId
          ? await trx.selectFrom('galgame').select('id').where('bangumi_id', '=', input.bangumiId).executeTakeFirst()
          : undefined;
    if (input.id !== undefined && !existing) throw gone();
    // An edit by id keeps the votes of the tags that stay (they are the members', not the editor's).
    const keptVotes = new Map<number, number>();
    if (existing && input.id !== undefined)
      for (const row of await trx
        .selectFrom('galgame_tag')
        .select(['tag_id', 'votes'])
        .where('galgame_id', '=', existing.id)
        .execute())
        keptVotes.set(row.tag_id, row.votes);
    const releaseDate = input.releaseDate ?? null;
    const values = {
      title: input.title,
      title_zh: input.titleZh ?? '',
      aliases: JSON.stringify(input.aliases ?? []),
      intro: input.intro ?? '',
      release_date: releaseDate,
      release_year: releaseDate ? Number(releaseDate.slice(0, 4)) : null,
      prices: JSON.stringify(input.prices ?? []),
      cover: input.cover ?? '',
      images: JSON.stringify(input.images ?? []),
      nsfw: input.nsfw ? 1 : 0,
      updated_at: now.toISOString(),
    };
    let id: number;
    if (existing) {
      id = existing.id;
      // An update keeps the moderation status unless one is given: re-imports never republish.
      await trx
        .updateTable('galgame')
        .set({ ...values, ...(input.status ? { status: input.status } : {}) })
        .where('id', '=', id)
        .execute();
      for (const table of [
        'galgame_platform',
        'galgame_tag',
        'galgame_producer',
        'galgame_staff',
        'galgame_character',
      ] as const) {
        await trx.deleteFrom(table).where('galgame_id', '=', id).execute();
      }
    } else {
      id = await nextId(trx, 'galgame_id');
      await trx
        .insertInto('galgame')
        .values({
          id,
          bangumi_id: input.bangumiId ?? null,
          created_at: now.toISOString(),
          status: input.status ?? 'published',
          ...values,
        })
        .execute();
    }
    const unique = <T>(items: T[], key: (t: T) => string) => [...new Map(items.map((i) => [key(i), i])).values()];
    // Links carry the game's release key, so producer, person and character pages read them in date order.
    const release_key = releaseKey(releaseDate);
    const platforms = unique(input.platforms ?? [], (p) => p);
    if (platforms.length)
      await trx
        .insertInto('galgame_platform')
        .values(platforms.map((platform) => ({ galgame_id: id, platform })))
        .execute();
    const tags = unique(input.tags ?? [], (t) => String(t.tagId));
    if (tags.length) {
      await trx
        .insertInto('galgame_tag')
        .values(
          tags.map((t) => ({
            galgame_id: id,
            tag_id: t.tagId,
            votes: t.votes ?? keptVotes.get(t.tagId) ?? 0,
            spoiler: t.spoiler ?? 0,
          })),
        )
        .execute();
    }
    const producers = unique(input.producers ?? [], (p) => `${p.producerId}:${p.role}`);
    if (producers.length) {
      await trx
        .insertInto('galgame_producer')
        .values(
          producers.map((p) => ({
            galgame_id: id,
            producer_id: p.producerId,
            role: p.role,
            note: p.note ?? '',
            release_key,
          })),
        )
        .execute();
    }
    const staff = unique(input.staff ?? [], (s) => `${s.personId}:${s.role}`);
    if (staff.length) {
      await trx
        .insertInto('galgame_staff')
        .values(
          staff.map((s) => ({ galgame_id: id, person_id: s.personId, role: s.role, note: s.note ?? '', release_key })),
        )
        .execute();
    }
    const characters = unique(input.characters ?? [], (c) => String(c.characterId));
    if (characters.length) {
      await trx
        .insertInto('galgame_character')
        .values(
          characters.map((c) => ({
            galgame_id: id,
            character_id: c.characterId,
            role: c.role,
            voice_person_id: c.voicePersonId ?? null,
            release_key,
          })),
        )
        .execute();
    }
    if (input.relations) {
      await trx.deleteFrom('galgame_relation').where('galgame_id', '=', id).execute();
      const relations = unique(input.relations, (r) => String(r.galgameId)).filter((r) => r.galgameId !== id);
      if (relations.length)
        await trx
          .insertInto('galgame_relation')
          .values(relations.map((r) => ({ galgame_id: id, related_id: r.galgameId, relation: r.relation })))
          .execute();
    }
    if (input.downloads) await syncDownloads(trx, id, input.downloads, now);
    await syncFacets(trx, [id]);
    await indexGalgames(trx, [id]);
    return id;
  }
}

export async function addRelation(db: Db, galgameId: number, relatedId: number, relation: Relation): Promise<void> {
  await db
    .insertInto('galgame_relation')
    .values({ galgame_id: galgameId, related_id: relatedId, relation })
    .onConflict((oc) => oc.columns(['galgame_id', 'related_id']).doUpdateSet({ relation }))
    .execute();
}

export { bumpCounter };
