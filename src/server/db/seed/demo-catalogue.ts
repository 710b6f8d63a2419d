import {
  addRelation,
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
  type CharacterInput,
  type PersonInput,
  type ProducerInput,
} from '../../modules/catalogue/catalogue.writer.ts';
import type { Db } from '../database.ts';
import {
  characters,
  persons,
  producers,
  tags,
  type CharacterKey,
  type PersonKey,
  type ProducerKey,
  type TagKey,
} from './demo-catalogue.entities.ts';
import { games, relations, type DemoGame, type GameKey } from './demo-catalogue.games.ts';

// Original, fictional demo catalogue for local trials: every producer, person, character, game and
// translation group below is invented. Games carry fixed negative Bangumi ids (-1001…) and everything
// else is matched by name, so running the seed again updates the same rows instead of adding new ones.
// Download links only point at the reserved example.com / example.org / example.net domains.
// The data lives in demo-catalogue.entities.ts and demo-catalogue.games.ts; this file only writes it.

/** Writes the demo catalogue through the catalogue writer. Safe to run again: it updates in place. */
export async function seedDemoCatalogue(db: Db, now: Date): Promise<{ games: number }> {
  const producerIds = new Map<ProducerKey, number>();
  for (const [key, producer] of Object.entries(producers) as [ProducerKey, ProducerInput][]) {
    producerIds.set(key, await upsertProducer(db, producer, now));
  }
  const personIds = new Map<PersonKey, number>();
  for (const [key, person] of Object.entries(persons) as [PersonKey, PersonInput][]) {
    personIds.set(key, await upsertPerson(db, person, now));
  }
  const characterIds = new Map<CharacterKey, number>();
  for (const [key, character] of Object.entries(characters) as [CharacterKey, CharacterInput][]) {
    characterIds.set(key, await upsertCharacter(db, character, now));
  }
  const tagIds = new Map<TagKey, number>();
  for (const [key, tag] of Object.entries(tags) as [TagKey, (typeof tags)[TagKey]][]) {
    tagIds.set(key, await upsertTag(db, tag, now));
  }

  const id = <K>(ids: Map<K, number>, key: K): number => {
    const found = ids.get(key);
    if (found === undefined) throw new Error(`demo catalogue: unknown key ${String(key)}`);
    return found;
  };

  const gameIds = new Map<GameKey, number>();
  for (const [key, game] of Object.entries(games) as [GameKey, DemoGame][]) {
    // Voice actors are credited once per game, with the characters they voice as the note.
    const voiced = new Map<PersonKey, string[]>();
    for (const c of game.characters) {
      if (c.voice) voiced.set(c.voice, [...(voiced.get(c.voice) ?? []), characters[c.key].nameZh]);
    }
    const gameId = await saveGalgame(
      db,
      {
        bangumiId: game.bangumiId,
        title: game.title,
        titleZh: game.titleZh,
        aliases: game.aliases,
        intro: game.intro,
        releaseDate: game.releaseDate,
        prices: game.prices,
        cover: '',
        images: [],
        nsfw: game.nsfw ?? false,
        status: 'published',
        platforms: game.platforms,
        tags: game.tags.map((t) => ({ tagId: id(tagIds, t.key), votes: t.votes, spoiler: t.spoiler ?? 0 })),
        producers: game.producers.map((p) => ({ producerId: id(producerIds, p.key), role: p.role, note: p.note })),
        staff: [
          ...game.staff.map((s) => ({ personId: id(personIds, s.key), role: s.role, note: s.note })),
          ...[...voiced].map(([person, roles]) => ({
            personId: id(personIds, person),
            role: 'voice' as const,
            note: roles.join('、'),
          })),
        ],
        characters: game.characters.map((c) => ({
          characterId: id(characterIds, c.key),
          role: c.role,
          voicePersonId: c.voice ? id(personIds, c.voice) : null,
        })),
        // Always an array, so a second run replaces the downloads instead of keeping the old ones.
        downloads: (game.downloads ?? []).map((d) => ({ ...d, translationGroup: d.translationGroup ?? '' })),
      },
      now,
    );
    gameIds.set(key, gameId);
  }

  for (const [from, to, relation, back] of relations) {
    await addRelation(db, id(gameIds, from), id(gameIds, to), relation);
    await addRelation(db, id(gameIds, to), id(gameIds, from), back);
  }
  return { games: gameIds.size };
}
