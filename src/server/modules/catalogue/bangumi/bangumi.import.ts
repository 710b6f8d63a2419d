import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PRODUCER_ROLES } from '../../../../shared/catalogue.ts';
import type { Db } from '../../../db/database.ts';
import { parseJsonList, parsePrices } from '../catalogue.mappers.ts';
import {
  addRelation,
  type CharacterInput,
  type GalgameInput,
  type PersonInput,
  type ProducerInput,
  refreshTagCounts,
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
} from '../catalogue.writer.ts';
import {
  DUMP_FILES,
  type DumpFile,
  type BangumiPerson,
  type BangumiCharacter,
  isGalgameSubject,
  mapCharacter,
  mapCharacterRole,
  mapPerson,
  mapPosition,
  mapProducer,
  mapRelation,
  mapSubject,
  parseInfobox,
  parseLine,
  type Relation,
  type WithBangumiId,
} from './bangumi.parse.ts';

// Imports the galgame of a Bangumi Archive dump (https://github.com/bangumi/Archive) in streaming
// passes, so memory grows with what is imported, never with the dump:
//   1. subject.jsonlines: the ids of the galgame (rule: isGalgameSubject);
//   2. the link files, keeping only links of those games;
//   3. person.jsonlines and character.jsonlines, keeping only ids the links name;
//   4. subject.jsonlines again, saving each game; then the relations between imported games.
// Everything is matched by Bangumi id (names for infobox-only producers, tags by name) and rows whose
// content did not change are not written, so a second run changes nothing.

export type ImportStep =
  | 'subjects'
  | 'subject-persons'
  | 'subject-characters'
  | 'person-characters'
  | 'subject-relations'
  | 'persons'
  | 'characters'
  | 'games'
  | 'relations';

export interface ImportProgress {
  step: ImportStep;
  done: number;
  total: number;
  /** Steps that read a file count bytes; the others count entries. */
  unit: 'bytes' | 'items';
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** The timestamp written on created and updated rows. */
  now?: Date;
}

export interface EntityCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface BangumiImportSummary {
  /** Lines of subject.jsonlines that parsed. */
  subjects: number;
  /** Game subjects left out by the galgame rule. */
  otherGames: number;
  games: EntityCounts;
  producers: EntityCounts;
  persons: EntityCounts;
  characters: EntityCounts;
  tags: { linked: number; created: number };
  relations: EntityCounts;
  malformedLines: number;
  /** Where the first malformed lines are, as "file:line". */
  malformedAt: string[];
}

const PROGRESS_EVERY_LINES = 2000;
const BATCH_SIZE = 200;
const MAX_MALFORMED_LISTED = 10;

const counts = (): EntityCounts => ({ created: 0, updated: 0, unchanged: 0 });
type Row<F extends DumpFile> = NonNullable<ReturnType<(typeof parseLine)[F]>>;

interface Context {
  folder: string;
  summary: BangumiImportSummary;
  report: (step: ImportStep, done: number, total: number, unit: ImportProgress['unit']) => void;
}

/** Checks the folder before anything is written; the message says what to pass instead. */
export async function checkDumpFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(
      `Bangumi dump folder not found: ${folder} (unzip a dump from https://github.com/bangumi/Archive/releases and pass its folder)`,
    );
  }
  const missing: string[] = [];
  for (const file of DUMP_FILES) {
    if (!(await stat(path.join(folder, file)).catch(() => null))?.isFile()) missing.push(file);
  }
  if (missing.length > 0) {
    throw new Error(`${folder} is not a complete Bangumi Archive dump: ${missing.join(', ')} missing`);
  }
}

/** Streams one jsonlines file row by row; malformed lines are skipped, and counted unless the file was counted before. */
async function scan<F extends DumpFile>(
  ctx: Context,
  file: F,
  options: { step?: ImportStep; countMalformed: boolean },
  onRow: (row: Row<F>) => void | Promise<void>,
): Promise<void> {
  const filePath = path.join(ctx.folder, file);
  const total = (await stat(filePath)).size;
  const stream = createReadStream(filePath, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const parse = parseLine[file] as (line: string) => Row<F> | null;
  const report = (done: number) => options.step && ctx.report(options.step, done, total, 'bytes');
  let lineNumber = 0;
  report(0);
  try {
    for await (const raw of lines) {
      lineNumber += 1;
      if (lineNumber % PROGRESS_EVERY_LINES === 0) report(stream.bytesRead);
      const line = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (line.trim() === '') continue;
      const row = parse(line);
      if (row === null) {
        if (options.countMalformed) {
          ctx.summary.malformedLines += 1;
          if (ctx.summary.malformedAt.length < MAX_MALFORMED_LISTED)
            ctx.summary.malformedAt.push(`${file}:${lineNumber}`);
        }
        continue;
      }
      const pending = onRow(row);
      if (pending) await pending;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  report(total);
}

/** Buffers rows and writes them in one transaction per batch (one commit instead of one per row). */
function batcher<T>(db: Db, write: (trx: Db, row: T) => Promise<void>) {
  let rows: T[] = [];
  const flush = async () => {
    if (rows.length === 0) return;
    const batch = rows;
    rows = [];
    await db.transaction().execute(async (trx) => {
      for (const row of batch) await write(trx, row);
    });
  };
  return {
    add: async (row: T) => {
      rows.push(row);
      if (rows.length >= BATCH_SIZE) await flush();
    },
    flush,
  };
}

const sameJson = (stored: string, value: unknown) => stored === JSON.stringify(value);

async function saveProducer(
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
  tally[existing ? 'updated' : 'created'] += 1;
  return upsertProducer(db, full, now);
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

async function savePersonLike(
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
  tally[existing ? 'updated' : 'created'] += 1;
  return table === 'person' ? upsertPerson(db, full, now) : upsertCharacter(db, full, now);
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

async function saveGame(db: Db, input: WithBangumiId<GalgameInput>, tally: EntityCounts, now: Date): Promise<number> {
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
  return saveGalgame(db, full, now);
}

/** Keeps the first item per key (saveGalgame would keep the last, which makes comparisons order-dependent). */
function firstPerKey<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

export async function importBangumiDump(
  db: Db,
  folder: string,
  options: ImportOptions = {},
): Promise<BangumiImportSummary> {
  await checkDumpFolder(folder);
  const now = options.now ?? new Date();
  const summary: BangumiImportSummary = {
    subjects: 0,
    otherGames: 0,
    games: counts(),
    producers: counts(),
    persons: counts(),
    characters: counts(),
    tags: { linked: 0, created: 0 },
    relations: counts(),
    malformedLines: 0,
    malformedAt: [],
  };
  const ctx: Context = {
    folder,
    summary,
    report: (step, done, total, unit) => options.onProgress?.({ step, done, total, unit }),
  };

  // 1. Which subjects are galgame.
  const gameIds = new Set<number>();
  await scan(ctx, 'subject.jsonlines', { step: 'subjects', countMalformed: true }, (subject) => {
    summary.subjects += 1;
    if (subject.type !== 4) return;
    if (isGalgameSubject(subject)) gameIds.add(subject.id);
    else summary.otherGames += 1;
  });

  // 2. Their links. A person linked as 开发/发行 becomes a producer, with any other position a person.
  const personLinks = new Map<number, { personId: number; position: number }[]>();
  const producerPersonIds = new Set<number>();
  const personBangumiIds = new Set<number>();
  await scan(ctx, 'subject-persons.jsonlines', { step: 'subject-persons', countMalformed: true }, (link) => {
    if (!gameIds.has(link.subject_id)) return;
    const list = personLinks.get(link.subject_id) ?? [];
    list.push({ personId: link.person_id, position: link.position });
    personLinks.set(link.subject_id, list);
    (mapPosition(link.position).kind === 'producer' ? producerPersonIds : personBangumiIds).add(link.person_id);
  });

  const characterLinks = new Map<number, Map<number, number>>(); // subject → character → type
  const characterIds = new Set<number>();
  await scan(ctx, 'subject-characters.jsonlines', { step: 'subject-characters', countMalformed: true }, (link) => {
    if (!gameIds.has(link.subject_id)) return;
    const characters = characterLinks.get(link.subject_id) ?? new Map<number, number>();
    if (!characters.has(link.character_id)) characters.set(link.character_id, link.type);
    characterLinks.set(link.subject_id, characters);
    characterIds.add(link.character_id);
  });

  const voices = new Map<string, number>(); // "subject:character" → the first voice actor listed
  await scan(ctx, 'person-characters.jsonlines', { step: 'person-characters', countMalformed: true }, (link) => {
    if (!characterLinks.get(link.subject_id)?.has(link.character_id)) return;
    const key = `${link.subject_id}:${link.character_id}`;
    if (voices.has(key)) return;
    voices.set(key, link.person_id);
    personBangumiIds.add(link.person_id);
  });

  const relations = new Map<string, { from: number; to: number; relation: Relation }>();
  await scan(ctx, 'subject-relations.jsonlines', { step: 'subject-relations', countMalformed: true }, (link) => {
    const { subject_id: from, related_subject_id: to } = link;
    if (from === to || !gameIds.has(from) || !gameIds.has(to) || relations.has(`${from}:${to}`)) return;
    relations.set(`${from}:${to}`, { from, to, relation: mapRelation(link.relation_type) });
  });

  // 3. The persons and characters those links name.
  const producerIds = new Map<number, number>(); // Bangumi person id → producer.id
  const producerRowsSeen = new Set<number>();
  const personIds = new Map<number, number>(); // Bangumi person id → person.id
  const persons = batcher<BangumiPerson>(db, async (trx, row) => {
    if (producerPersonIds.has(row.id)) {
      const id = await saveProducer(trx, mapProducer(row), summary.producers, now);
      producerIds.set(row.id, id);
      producerRowsSeen.add(id);
    }
    if (personBangumiIds.has(row.id)) {
      personIds.set(row.id, await savePersonLike(trx, 'person', mapPerson(row), summary.persons, now));
    }
  });
  await scan(ctx, 'person.jsonlines', { step: 'persons', countMalformed: true }, async (row) => {
    if (producerPersonIds.has(row.id) || personBangumiIds.has(row.id)) await persons.add(row);
  });
  await persons.flush();

  const characterRowIds = new Map<number, number>(); // Bangumi character id → character.id
  const characters = batcher<BangumiCharacter>(db, async (trx, row) => {
    characterRowIds.set(row.id, await savePersonLike(trx, 'character', mapCharacter(row), summary.characters, now));
  });
  await scan(ctx, 'character.jsonlines', { step: 'characters', countMalformed: true }, async (row) => {
    if (characterIds.has(row.id)) await characters.add(row);
  });
  await characters.flush();

  // 4. The games, then the relations between them.
  const tagIds = new Map<string, number>();
  const tagId = async (name: string): Promise<number> => {
    const known = tagIds.get(name);
    if (known !== undefined) return known;
    // An existing tag is only linked: its Chinese name, category and description belong to the site.
    const existing = await db.selectFrom('tag').select('id').where('name', '=', name).executeTakeFirst();
    if (!existing) summary.tags.created += 1;
    const id = existing?.id ?? (await upsertTag(db, { name }, now));
    tagIds.set(name, id);
    return id;
  };
  const namedProducerIds = new Map<string, number>();
  const producerNamed = async (name: string): Promise<number> => {
    const known = namedProducerIds.get(name);
    if (known !== undefined) return known;
    // Reuse a producer of that exact name (one imported from a person first); create one otherwise.
    const existing = await db
      .selectFrom('producer')
      .select('id')
      .where('name', '=', name)
      .orderBy('id')
      .executeTakeFirst();
    const id = existing?.id ?? (await upsertProducer(db, { name, kind: 'company' }, now));
    if (!existing) summary.producers.created += 1;
    else if (!producerRowsSeen.has(id)) summary.producers.unchanged += 1;
    producerRowsSeen.add(id);
    namedProducerIds.set(name, id);
    return id;
  };

  const galgameIds = new Map<number, number>(); // Bangumi subject id → galgame.id
  await scan(ctx, 'subject.jsonlines', { countMalformed: false }, async (subject) => {
    if (!gameIds.has(subject.id) || galgameIds.has(subject.id)) return;
    const { galgame, tags, infoboxProducers } = mapSubject(subject, parseInfobox(subject.infobox));

    const producers: NonNullable<GalgameInput['producers']> = [];
    const staff: NonNullable<GalgameInput['staff']> = [];
    for (const link of personLinks.get(subject.id) ?? []) {
      const position = mapPosition(link.position);
      if (position.kind === 'producer') {
        const producerId = producerIds.get(link.personId);
        if (producerId !== undefined) producers.push({ producerId, role: position.role, note: '' });
      } else {
        const personId = personIds.get(link.personId);
        if (personId !== undefined) staff.push({ personId, role: position.role, note: position.note });
      }
    }
    // The infobox names a producer only when no linked person fills that role.
    for (const role of PRODUCER_ROLES) {
      if (producers.some((p) => p.role === role)) continue;
      for (const name of infoboxProducers[role])
        producers.push({ producerId: await producerNamed(name), role, note: '' });
    }

    const gameCharacters = [...(characterLinks.get(subject.id) ?? [])].flatMap(([bangumiId, type]) => {
      const characterId = characterRowIds.get(bangumiId);
      if (characterId === undefined) return [];
      const voice = voices.get(`${subject.id}:${bangumiId}`);
      const voicePersonId = voice === undefined ? null : (personIds.get(voice) ?? null);
      return [{ characterId, role: mapCharacterRole(type), voicePersonId }];
    });

    const gameTags: NonNullable<GalgameInput['tags']> = [];
    for (const tag of tags) gameTags.push({ tagId: await tagId(tag.name), votes: tag.votes, spoiler: 0 });
    summary.tags.linked += gameTags.length;

    const input: WithBangumiId<GalgameInput> = {
      ...galgame,
      tags: firstPerKey(gameTags, (t) => String(t.tagId)),
      producers: firstPerKey(producers, (p) => `${p.producerId}:${p.role}`),
      // A person with two positions of one role (原画 and SD原画) keeps the plain one.
      staff: firstPerKey(
        [...staff].sort((a, b) => Number(a.note !== '') - Number(b.note !== '')),
        (s) => `${s.personId}:${s.role}`,
      ),
      characters: firstPerKey(gameCharacters, (c) => String(c.characterId)),
    };
    galgameIds.set(subject.id, await saveGame(db, input, summary.games, now));
    ctx.report('games', galgameIds.size, gameIds.size, 'items');
  });

  const relationList = [...relations.values()];
  let relationsDone = 0;
  ctx.report('relations', 0, relationList.length, 'items');
  await db.transaction().execute(async (trx) => {
    for (const { from, to, relation } of relationList) {
      const galgameId = galgameIds.get(from);
      const relatedId = galgameIds.get(to);
      if (galgameId === undefined || relatedId === undefined) continue;
      const existing = await trx
        .selectFrom('galgame_relation')
        .select('relation')
        .where('galgame_id', '=', galgameId)
        .where('related_id', '=', relatedId)
        .executeTakeFirst();
      if (existing?.relation === relation) summary.relations.unchanged += 1;
      else {
        summary.relations[existing ? 'updated' : 'created'] += 1;
        await addRelation(trx, galgameId, relatedId, relation);
      }
      relationsDone += 1;
      if (relationsDone % PROGRESS_EVERY_LINES === 0)
        ctx.report('relations', relationsDone, relationList.length, 'items');
    }
  });
  ctx.report('relations', relationList.length, relationList.length, 'items');

  if (summary.games.created + summary.games.updated > 0) await refreshTagCounts(db);
  return summary;
}

const countsLine = (c: EntityCounts) => `${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged`;

/** The summary as lines for a terminal. */
export function formatImportSummary(s: BangumiImportSummary): string[] {
  const malformed =
    s.malformedLines === 0
      ? 'none'
      : `${s.malformedLines} skipped (${s.malformedAt.join(', ')}${s.malformedLines > s.malformedAt.length ? ', …' : ''})`;
  return [
    `subjects    ${s.subjects} read; ${s.otherGames} other games left out`,
    `games       ${countsLine(s.games)}`,
    `producers   ${countsLine(s.producers)}`,
    `persons     ${countsLine(s.persons)}`,
    `characters  ${countsLine(s.characters)}`,
    `tags        ${s.tags.linked} links, ${s.tags.created} new tags`,
    `relations   ${countsLine(s.relations)}`,
    `malformed   ${malformed}`,
  ];
}
