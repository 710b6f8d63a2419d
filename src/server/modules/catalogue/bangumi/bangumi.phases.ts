import { PRODUCER_ROLES } from '../../../../shared/catalogue.ts';
import { addRelation, type GalgameInput, upsertProducer, upsertTag } from '../catalogue.writer.ts';
import {
  type BangumiCharacter,
  type BangumiPerson,
  isGalgameSubject,
  mapCharacter,
  mapCharacterRole,
  mapPerson,
  mapPosition,
  mapProducer,
  mapRelation,
  mapSubject,
  parseInfobox,
  type Relation,
  type WithBangumiId,
} from './bangumi.parse.ts';
import { firstPerKey, saveGame, savePersonLike, saveProducer } from './bangumi.save.ts';
import { batcher, type Context, PROGRESS_EVERY_LINES, scan } from './bangumi.scan.ts';

// The phases of importBangumiDump, in the order it runs them; each reads what the one before found.

/** What the link files say about the imported games, keyed by Bangumi ids. */
export interface DumpLinks {
  personLinks: Map<number, { personId: number; position: number }[]>;
  producerPersonIds: Set<number>;
  personBangumiIds: Set<number>;
  /** subject → character → type */
  characterLinks: Map<number, Map<number, number>>;
  characterIds: Set<number>;
  /** "subject:character" → the first voice actor listed */
  voices: Map<string, number>;
  relations: Map<string, { from: number; to: number; relation: Relation }>;
}

/** The rows saved for the persons and characters, by Bangumi id. */
export interface SavedPeople {
  /** Bangumi person id → producer.id */
  producerIds: Map<number, number>;
  producerRowsSeen: Set<number>;
  /** Bangumi person id → person.id */
  personIds: Map<number, number>;
  /** Bangumi character id → character.id */
  characterRowIds: Map<number, number>;
}

/** 1. Which subjects are galgame. */
export async function findGalgame(ctx: Context): Promise<Set<number>> {
  const gameIds = new Set<number>();
  await scan(ctx, 'subject.jsonlines', { step: 'subjects', countMalformed: true }, (subject) => {
    ctx.summary.subjects += 1;
    if (subject.type !== 4) return;
    if (isGalgameSubject(subject)) gameIds.add(subject.id);
    else ctx.summary.otherGames += 1;
  });
  return gameIds;
}

/** 2. Their links. A person linked as 开发/发行 becomes a producer, with any other position a person. */
export async function readLinks(ctx: Context, gameIds: Set<number>): Promise<DumpLinks> {
  const links: DumpLinks = {
    personLinks: new Map(),
    producerPersonIds: new Set(),
    personBangumiIds: new Set(),
    characterLinks: new Map(),
    characterIds: new Set(),
    voices: new Map(),
    relations: new Map(),
  };
  await scan(ctx, 'subject-persons.jsonlines', { step: 'subject-persons', countMalformed: true }, (link) => {
    if (!gameIds.has(link.subject_id)) return;
    const list = links.personLinks.get(link.subject_id) ?? [];
    list.push({ personId: link.person_id, position: link.position });
    links.personLinks.set(link.subject_id, list);
    const kind = mapPosition(link.position).kind;
    (kind === 'producer' ? links.producerPersonIds : links.personBangumiIds).add(link.person_id);
  });

  await scan(ctx, 'subject-characters.jsonlines', { step: 'subject-characters', countMalformed: true }, (link) => {
    if (!gameIds.has(link.subject_id)) return;
    const characters = links.characterLinks.get(link.subject_id) ?? new Map<number, number>();
    if (!characters.has(link.character_id)) characters.set(link.character_id, link.type);
    links.characterLinks.set(link.subject_id, characters);
    links.characterIds.add(link.character_id);
  });

  await scan(ctx, 'person-characters.jsonlines', { step: 'person-characters', countMalformed: true }, (link) => {
    if (!links.characterLinks.get(link.subject_id)?.has(link.character_id)) return;
    const key = `${link.subject_id}:${link.character_id}`;
    if (links.voices.has(key)) return;
    links.voices.set(key, link.person_id);
    links.personBangumiIds.add(link.person_id);
  });

  await scan(ctx, 'subject-relations.jsonlines', { step: 'subject-relations', countMalformed: true }, (link) => {
    const { subject_id: from, related_subject_id: to } = link;
    if (from === to || !gameIds.has(from) || !gameIds.has(to) || links.relations.has(`${from}:${to}`)) return;
    links.relations.set(`${from}:${to}`, { from, to, relation: mapRelation(link.relation_type) });
  });
  return links;
}

/** 3. The persons and characters those links name. */
export async function savePeople(ctx: Context, links: DumpLinks): Promise<SavedPeople> {
  const { db, now, summary } = ctx;
  const saved: SavedPeople = {
    producerIds: new Map(),
    producerRowsSeen: new Set(),
    personIds: new Map(),
    characterRowIds: new Map(),
  };
  const persons = batcher<BangumiPerson>(db, async (trx, row) => {
    if (links.producerPersonIds.has(row.id)) {
      const id = await saveProducer(trx, mapProducer(row), summary.producers, now);
      saved.producerIds.set(row.id, id);
      saved.producerRowsSeen.add(id);
    }
    if (links.personBangumiIds.has(row.id)) {
      saved.personIds.set(row.id, await savePersonLike(trx, 'person', mapPerson(row), summary.persons, now));
    }
  });
  await scan(ctx, 'person.jsonlines', { step: 'persons', countMalformed: true }, async (row) => {
    if (links.producerPersonIds.has(row.id) || links.personBangumiIds.has(row.id)) await persons.add(row);
  });
  await persons.flush();

  const characters = batcher<BangumiCharacter>(db, async (trx, row) => {
    const id = await savePersonLike(trx, 'character', mapCharacter(row), summary.characters, now);
    saved.characterRowIds.set(row.id, id);
  });
  await scan(ctx, 'character.jsonlines', { step: 'characters', countMalformed: true }, async (row) => {
    if (links.characterIds.has(row.id)) await characters.add(row);
  });
  await characters.flush();
  return saved;
}

/** 4. The games, with their tags, producers, staff and characters. Returns Bangumi subject id → galgame.id. */
export async function saveGames(
  ctx: Context,
  gameIds: Set<number>,
  links: DumpLinks,
  saved: SavedPeople,
): Promise<Map<number, number>> {
  const { db, now, summary } = ctx;
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
    else if (!saved.producerRowsSeen.has(id)) summary.producers.unchanged += 1;
    saved.producerRowsSeen.add(id);
    namedProducerIds.set(name, id);
    return id;
  };

  const galgameIds = new Map<number, number>();
  await scan(ctx, 'subject.jsonlines', { countMalformed: false }, async (subject) => {
    if (!gameIds.has(subject.id) || galgameIds.has(subject.id)) return;
    const { galgame, tags, infoboxProducers } = mapSubject(subject, parseInfobox(subject.infobox));

    const producers: NonNullable<GalgameInput['producers']> = [];
    const staff: NonNullable<GalgameInput['staff']> = [];
    for (const link of links.personLinks.get(subject.id) ?? []) {
      const position = mapPosition(link.position);
      if (position.kind === 'producer') {
        const producerId = saved.producerIds.get(link.personId);
        if (producerId !== undefined) producers.push({ producerId, role: position.role, note: '' });
      } else {
        const personId = saved.personIds.get(link.personId);
        if (personId !== undefined) staff.push({ personId, role: position.role, note: position.note });
      }
    }
    // The infobox names a producer only when no linked person fills that role.
    for (const role of PRODUCER_ROLES) {
      if (producers.some((p) => p.role === role)) continue;
      for (const name of infoboxProducers[role])
        producers.push({ producerId: await producerNamed(name), role, note: '' });
    }

    const gameCharacters = [...(links.characterLinks.get(subject.id) ?? [])].flatMap(([bangumiId, type]) => {
      const characterId = saved.characterRowIds.get(bangumiId);
      if (characterId === undefined) return [];
      const voice = links.voices.get(`${subject.id}:${bangumiId}`);
      const voicePersonId = voice === undefined ? null : (saved.personIds.get(voice) ?? null);
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
  return galgameIds;
}

/** 5. The relations between imported games, in one transaction. */
export async function saveRelations(ctx: Context, links: DumpLinks, galgameIds: Map<number, number>): Promise<void> {
  const { summary } = ctx;
  const relationList = [...links.relations.values()];
  let relationsDone = 0;
  ctx.report('relations', 0, relationList.length, 'items');
  await ctx.db.transaction().execute(async (trx) => {
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
}
