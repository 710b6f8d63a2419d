import type { GalgameCard } from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../platform/errors.ts';
import { cardColumns, parseJsonList, toCard } from './catalogue.mappers.ts';
import { messageRef, type MessageKey } from '../../../shared/i18n/index.ts';

export interface EntityBase {
  id: number;
  name: string;
  nameZh: string;
  aliases: string[];
  description: string;
  image: string;
}

export interface ProducerDetail extends EntityBase {
  kind: string;
  website: string;
  games: (GalgameCard & { role: string })[];
}

export interface PersonDetail extends EntityBase {
  gender: string;
  birthday: string;
  games: (GalgameCard & { role: string })[];
  voiced: { character: { id: number; name: string; nameZh: string; image: string }; game: GalgameCard }[];
}

export interface CharacterDetail extends EntityBase {
  gender: string;
  birthday: string;
  appearances: (GalgameCard & { role: string; voice: { id: number; name: string; nameZh: string } | null })[];
}

/**
 * Games listed on a producer, person or character page, newest first. Each link carries its game's
 * release key, so the first ones are read in order from an index however many games the entry has.
 */
const ENTITY_GAMES = 200;

const notFound = (key: MessageKey, id: number) => new HttpError(404, 'NOT_FOUND', messageRef(key, { id }));

function base(row: {
  id: number;
  name: string;
  name_zh: string;
  aliases: string;
  description: string;
  image: string;
}): EntityBase {
  return {
    id: row.id,
    name: row.name,
    nameZh: row.name_zh,
    aliases: parseJsonList<string>(row.aliases),
    description: row.description,
    image: row.image,
  };
}

export async function producerDetail(db: Db, id: number): Promise<ProducerDetail> {
  const row = await db.selectFrom('producer').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('server.producerNotFound', id);
  const games = await db
    .selectFrom('galgame_producer as gp')
    .innerJoin('galgame as g', 'g.id', 'gp.galgame_id')
    .select([...cardColumns, 'gp.role'])
    .where('gp.producer_id', '=', id)
    .where('g.status', '=', 'published')
    .orderBy('gp.release_key', 'desc')
    .orderBy('gp.galgame_id', 'desc')
    .limit(ENTITY_GAMES)
    .execute();
  return {
    ...base(row),
    kind: row.kind,
    website: row.website,
    games: games.map((g) => ({ ...toCard(g), role: g.role })),
  };
}

export async function personDetail(db: Db, id: number): Promise<PersonDetail> {
  const row = await db.selectFrom('person').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('server.personNotFound', id);
  const [games, voiced] = await Promise.all([
    db
      .selectFrom('galgame_staff as s')
      .innerJoin('galgame as g', 'g.id', 's.galgame_id')
      .select([...cardColumns, 's.role'])
      .where('s.person_id', '=', id)
      .where('g.status', '=', 'published')
      .orderBy('s.release_key', 'desc')
      .orderBy('s.galgame_id', 'desc')
      .limit(ENTITY_GAMES)
      .execute(),
    db
      .selectFrom('galgame_character as gc')
      .innerJoin('galgame as g', 'g.id', 'gc.galgame_id')
      .innerJoin('character as c', 'c.id', 'gc.character_id')
      .select([
        ...cardColumns,
        'c.id as characterId',
        'c.name as characterName',
        'c.name_zh as characterNameZh',
        'c.image as characterImage',
      ])
      .where('gc.voice_person_id', '=', id)
      .where('g.status', '=', 'published')
      .orderBy('gc.release_key', 'desc')
      .orderBy('gc.galgame_id', 'desc')
      .limit(ENTITY_GAMES)
      .execute(),
  ]);
  return {
    ...base(row),
    gender: row.gender,
    birthday: row.birthday,
    games: games.map((g) => ({ ...toCard(g), role: g.role })),
    voiced: voiced.map((v) => ({
      character: { id: v.characterId, name: v.characterName, nameZh: v.characterNameZh, image: v.characterImage },
      game: toCard(v),
    })),
  };
}

export async function characterDetail(db: Db, id: number): Promise<CharacterDetail> {
  const row = await db.selectFrom('character').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('server.characterNotFound', id);
  const appearances = await db
    .selectFrom('galgame_character as gc')
    .innerJoin('galgame as g', 'g.id', 'gc.galgame_id')
    .leftJoin('person as v', 'v.id', 'gc.voice_person_id')
    .select([...cardColumns, 'gc.role', 'v.id as voiceId', 'v.name as voiceName', 'v.name_zh as voiceNameZh'])
    .where('gc.character_id', '=', id)
    .where('g.status', '=', 'published')
    .orderBy('gc.release_key', 'desc')
    .orderBy('gc.galgame_id', 'desc')
    .limit(ENTITY_GAMES)
    .execute();
  return {
    ...base(row),
    gender: row.gender,
    birthday: row.birthday,
    appearances: appearances.map((a) => ({
      ...toCard(a),
      role: a.role,
      voice: a.voiceId ? { id: a.voiceId, name: a.voiceName ?? '', nameZh: a.voiceNameZh ?? '' } : null,
    })),
  };
}

export async function tagName(db: Db, id: number): Promise<{ id: number; name: string; nameZh: string } | null> {
  const row = await db.selectFrom('tag').select(['id', 'name', 'name_zh']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, name: row.name, nameZh: row.name_zh } : null;
}

export async function allTags(db: Db): Promise<{ id: number; name: string; nameZh: string; gameCount: number }[]> {
  const rows = await db
    .selectFrom('tag')
    .select(['id', 'name', 'name_zh', 'game_count'])
    .orderBy('game_count', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
  return rows.map((t) => ({ id: t.id, name: t.name, nameZh: t.name_zh, gameCount: t.game_count }));
}
