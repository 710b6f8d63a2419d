import type { Db } from '../../../db/database.ts';
import { parseJsonList, parsePrices } from '../catalogue.mappers.ts';
import {
  type CharacterInput,
  type GalgameInput,
  type PersonInput,
  type ProducerInput,
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
} from '../catalogue.writer.ts';
import { writeRecorded } from '../../creator/revisions.service.ts';
import type { EntityCounts } from './bangumi.import.ts';
import type { WithBangumiId } from './bangumi.parse.ts';

// Saving one imported producer, person, character or game, matched by Bangumi id. A row whose content
// would not change is not written and is counted as unchanged, so a second import changes nothing.

/** An import's change of an entry with a history is a revision of nobody's, noted as from Bangumi. */
const imported = (now: Date) => ({ userId: null, note: 'Bangumi', now });

const sameJson = (stored: string, value: unknown) => stored === JSON.stringify(value);

export async function saveProducer(
  db: Db,
  input: WithBangumiId<ProducerInput>,
  tally: EntityCounts,
  now: Date,
): Promise<number> {
  const existing = await db
    .selectFrom('producer')
    .select(['id', 'name', 'name_zh', 'aliases', 'description', 'image', 'kind', 'website'])
    .where('bangumi_id', '=', input.bangumiId)
    .executeTakeFirst();
  // The dump has no images, and a website only sometimes: keep what the site already has.
  const full = { ...input, image: existing?.image ?? '', website: input.website || existing?.website || '' };
  if (existing && sameEntityText(existing, full) && existing.kind === full.kind && existing.website === full.website) {
    tally.unchanged += 1;
    return existing.id;
  }
  if (!existing) {
    tally.created += 1;
    return upsertProducer(db, full, now);
  }
  tally.updated += 1;
  return writeRecorded(db, 'producer', existing.id, (trx) => upsertProducer(trx, full, now), imported(now));
}

/** True when the names, aliases and description an import would write are already stored. */
function sameEntityText(
  existing: { name: string; name_zh: string; aliases: string; description: string },
  full: { name: string; nameZh?: string | undefined; aliases?: string[] | undefined; description?: string | undefined },
): boolean {
  return (
    existing.name === full.name &&
    existing.name_zh === full.nameZh &&
    sameJson(existing.aliases, full.aliases ?? []) &&
    existing.description === full.description
  );
}

export async function savePersonLike(
  db: Db,
  table: 'person' | 'character',
  input: WithBangumiId<PersonInput | CharacterInput>,
  tally: EntityCounts,
  now: Date,
): Promise<number> {
  const existing = await db
    .selectFrom(table)
    .select(['id', 'name', 'name_zh', 'aliases', 'description', 'image', 'gender', 'birthday'])
    .where('bangumi_id', '=', input.bangumiId)
    .executeTakeFirst();
  const full = { ...input, image: existing?.image ?? '' };
  if (
    existing &&
    sameEntityText(existing, full) &&
    existing.gender === full.gender &&
    existing.birthday === full.birthday
  ) {
    tally.unchanged += 1;
    return existing.id;
  }
  const write = (trx: Db) => (table === 'person' ? upsertPerson(trx, full, now) : upsertCharacter(trx, full, now));
  if (!existing) {
    tally.created += 1;
    return write(db);
  }
  tally.updated += 1;
  return writeRecorded(db, table, existing.id, write, imported(now));
}

const sortedKeys = (keys: string[]) => JSON.stringify([...keys].sort());

/** True when the stored game already has exactly these fields and links. */
async function storedGameEquals(db: Db, id: number, input: GalgameInput): Promise<boolean> {
  const [platforms, tags, producers, staff, characters] = await Promise.all([
    db.selectFrom('galgame_platform').select('platform').where('galgame_id', '=', id).execute(),
    db.selectFrom('galgame_tag').select(['tag_id', 'votes', 'spoiler']).where('galgame_id', '=', id).execute(),
    db.selectFrom('galgame_producer').select(['producer_id', 'role', 'note']).where('galgame_id', '=', id).execute(),
    db.selectFrom('galgame_staff').select(['person_id', 'role', 'note']).where('galgame_id', '=', id).execute(),
    db
      .selectFrom('galgame_character')
      .select(['character_id', 'role', 'voice_person_id'])
      .where('galgame_id', '=', id)
      .execute(),
  ]);
  const pairs: [string[], string[]][] = [
    [platforms.map((p) => p.platform), input.platforms ?? []],
    [
      tags.map((t) => `${t.tag_id}:${t.votes}:${t.spoiler}`),
      (input.tags ?? []).map((t) => `${t.tagId}:${t.votes ?? 0}:${t.spoiler ?? 0}`),
    ],
    [
      producers.map((p) => `${p.producer_id}:${p.role}:${p.note}`),
      (input.producers ?? []).map((p) => `${p.producerId}:${p.role}:${p.note ?? ''}`),
    ],
    [
      staff.map((s) => `${s.person_id}:${s.role}:${s.note}`),
      (input.staff ?? []).map((s) => `${s.personId}:${s.role}:${s.note ?? ''}`),
    ],
    [
      characters.map((c) => `${c.character_id}:${c.role}:${c.voice_person_id ?? ''}`),
      (input.characters ?? []).map((c) => `${c.characterId}:${c.role}:${c.voicePersonId ?? ''}`),
    ],
  ];
  return pairs.every(([stored, wanted]) => sortedKeys(stored) === sortedKeys(wanted));
}

export async function saveGame(
  db: Db,
  input: WithBangumiId<GalgameInput>,
  tally: EntityCounts,
  now: Date,
): Promise<number> {
  const existing = await db
    .selectFrom('galgame')
    .select([
      'id',
      'title',
      'title_zh',
      'aliases',
      'intro',
      'release_date',
      'nsfw',
      'status',
      'cover',
      'images',
      'prices',
    ])
    .where('bangumi_id', '=', input.bangumiId)
    .executeTakeFirst();
  if (!existing) {
    tally.created += 1;
    return saveGalgame(db, input, now);
  }
  // What the dump does not carry (moderation status, cover, screenshots, prices) stays as the site has it.
  const full: WithBangumiId<GalgameInput> = {
    ...input,
    status: existing.status,
    cover: existing.cover,
    images: parseJsonList<string>(existing.images),
    prices: parsePrices(existing.prices),
  };
  const same =
    existing.title === full.title &&
    existing.title_zh === full.titleZh &&
    sameJson(existing.aliases, full.aliases ?? []) &&
    existing.intro === full.intro &&
    existing.release_date === (full.releaseDate ?? null) &&
    Number(existing.nsfw) === (full.nsfw ? 1 : 0) &&
    (await storedGameEquals(db, existing.id, full));
  if (same) {
    tally.unchanged += 1;
    return existing.id;
  }
  tally.updated += 1;
  return writeRecorded(db, 'galgame', existing.id, (trx) => saveGalgame(trx, full, now), imported(now));
}

/** Keeps the first item per key (saveGalgame would keep the last, which makes comparisons order-dependent). */
export function firstPerKey<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
