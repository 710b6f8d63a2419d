import { z } from 'zod';
import { canonicalJson, diffDocs } from '../../../shared/creator/docs-model.ts';
import type { EditType } from '../../../shared/creator/creator-model.ts';
import {
  DOC_SCHEMAS,
  type DownloadDoc,
  type EditDoc,
  type EditDocs,
  type GalgameDoc,
  type LightnovelDoc,
  type PersonDoc,
  type ProducerDoc,
  type TagDoc,
  type VolumeDoc,
} from '../../../shared/creator/docs.ts';
import { PLATFORMS, type GalgamePrice, type Platform } from '../../../shared/catalogue-model.ts';
import type { Db } from '../../db/database.ts';
import { pageTags } from '../../http/page-cache-policy.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { badRequest, fieldIssue, HttpError } from '../../platform/errors.ts';
import {
  saveGalgame,
  upsertCharacter,
  upsertPerson,
  upsertProducer,
  upsertTag,
} from '../catalogue/catalogue.writer.ts';
import { downloadFields, downloadRows } from '../catalogue/downloads.service.ts';
import { lightnovelTags } from '../lightnovel/lightnovel.targets.ts';
import { saveLightnovel, saveVolume } from '../lightnovel/lightnovel.writer.ts';

/**
 * The catalogue as editable documents (decision 028): reads an item's current document from the
 * catalogue tables, and writes a document back through the catalogue and light-novel writers (search
 * index, list facets and volume counts follow in the caller's transaction). Link lists are read in a
 * canonical order (the tables keep none), and documents are put in that order before they are diffed
 * or stored, so a list that only came back reordered is no change.
 */

/** An item as the editors see it: its document, a title for headings, and its catalogue status. */
export interface StoredItem<T extends EditType = EditType> {
  doc: EditDocs[T];
  title: string;
  /** galgame and lightnovel: their status; a volume: its series' status; entities: null. */
  status: string | null;
}

const parseList = <T>(json: string): T[] => {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
};

const byNumbers =
  <T>(...keys: ((item: T) => number | string)[]) =>
  (a: T, b: T): number => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };

/** Puts a document's link lists in the canonical order (the order they are read back in). */
export function normalizeDoc<T extends EditType>(type: T, doc: EditDocs[T]): EditDocs[T] {
  if (type === 'galgame') {
    const g = doc as GalgameDoc;
    const normal: GalgameDoc = {
      ...g,
      platforms: [...g.platforms].sort((a, b) => PLATFORMS.indexOf(a) - PLATFORMS.indexOf(b)),
      tags: [...g.tags].sort(byNumbers((t) => t.tagId)),
      producers: [...g.producers].sort(
        byNumbers(
          (p) => p.producerId,
          (p) => p.role,
        ),
      ),
      staff: [...g.staff].sort(
        byNumbers(
          (s) => s.personId,
          (s) => s.role,
        ),
      ),
      characters: [...g.characters].sort(byNumbers((c) => c.characterId)),
      relations: [...g.relations].sort(byNumbers((r) => r.galgameId)),
      // Rows in the order they were made; new ones (no id yet) last, in the order given.
      downloads: [...g.downloads]
        .map((d) => ({ ...d, links: [...d.links].sort(byNumbers((l) => l.id ?? Infinity)) }))
        .sort(byNumbers((d) => d.id ?? Infinity)),
    };
    return normal as EditDocs[T];
  }
  if (type === 'lightnovel') {
    const l = doc as LightnovelDoc;
    const normal: LightnovelDoc = {
      ...l,
      staff: [...l.staff].sort(
        byNumbers(
          (s) => s.personId,
          (s) => s.role,
        ),
      ),
      producers: [...l.producers].sort(
        byNumbers(
          (p) => p.producerId,
          (p) => p.role,
        ),
      ),
    };
    return normal as EditDocs[T];
  }
  return doc;
}

type RowDoc = { id: number | null };
const withoutId = <T extends RowDoc>({ id: _id, ...rest }: T) => rest;
const linkKey = (link: DownloadDoc['links'][number]) => canonicalJson(withoutId(link));
const downloadKey = (d: DownloadDoc) => canonicalJson({ ...withoutId(d), links: d.links.map(withoutId) });

/**
 * Matches the download rows of an incoming document (an edit, a revision being restored) to the item's
 * rows as they are: an id that is not the item's own any more (another game's, a row deleted since) is
 * a new row, and a new row equal to one of the item's rows no other row of the document claims is that
 * row. So sending the same new link twice, or restoring the same revision twice, changes nothing the
 * second time, and a row keeps its id (and its reports) wherever it can.
 */
export function matchRowIds<T extends EditType>(type: T, current: EditDocs[T], incoming: EditDocs[T]): EditDocs[T] {
  if (type !== 'galgame') return incoming;
  const now = (current as GalgameDoc).downloads;
  const byId = new Map(now.map((d) => [d.id, d]));
  const sent = (incoming as GalgameDoc).downloads.map((d) =>
    d.id !== null && byId.has(d.id) ? d : { ...d, id: null },
  );
  const claimed = new Set<number | null>(sent.flatMap((d) => (d.id === null ? [] : [d.id])));
  const downloads = sent.map((d): DownloadDoc => {
    if (d.id === null) {
      const same = now.find((row) => !claimed.has(row.id) && downloadKey(row) === downloadKey(d));
      if (!same) return d;
      claimed.add(same.id);
      return same;
    }
    const rows = byId.get(d.id)!.links;
    const own = new Set(rows.map((l) => l.id));
    const links = d.links.map((l) => (l.id !== null && own.has(l.id) ? l : { ...l, id: null }));
    const taken = new Set<number | null>(links.flatMap((l) => (l.id === null ? [] : [l.id])));
    return {
      ...d,
      links: links.map((l) => {
        if (l.id !== null) return l;
        const same = rows.find((row) => !taken.has(row.id) && linkKey(row) === linkKey(l));
        if (!same) return l;
        taken.add(same.id);
        return same;
      }),
    };
  });
  return normalizeDoc(type, { ...(incoming as GalgameDoc), downloads } as EditDocs[T]);
}

/**
 * An edit made against `base`, its rows matched to the item as it is now (matchRowIds) only in the
 * fields it changed: a field it left as its base had it stays its base's, so rows deleted since (a dead
 * link a moderator removed meanwhile) are no change, and no conflict, of a stale edit that never
 * touched them.
 */
export function editAgainst<T extends EditType>(
  type: T,
  base: EditDocs[T],
  current: EditDocs[T],
  sent: EditDocs[T],
): EditDocs[T] {
  const changed = new Set(diffDocs(type, base, sent).map((change) => change.field));
  const matched = matchRowIds(type, current, sent) as Record<string, unknown>;
  const kept = base as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(matched).map(([field, value]) => [field, changed.has(field) ? value : kept[field]]),
  ) as EditDocs[T];
}

/** A document without its rows' ids, to compare what two documents say rather than which rows hold it. */
export function withoutRowIds<T extends EditType>(type: T, doc: EditDocs[T]): EditDocs[T] {
  if (type !== 'galgame') return doc;
  const g = doc as GalgameDoc;
  return {
    ...g,
    downloads: g.downloads.map((d) => ({ ...d, id: null, links: d.links.map((l) => ({ ...l, id: null })) })),
  } as EditDocs[T];
}

/**
 * Checks a sent document against its type's schema: 400 VALIDATION_FAILED naming the field
 * (`doc.tags.0.tagId`) otherwise. Answers it in canonical order.
 */
export function parseDoc<T extends EditType>(type: T, value: unknown): EditDocs[T] {
  const schema = z.object({ doc: DOC_SCHEMAS[type] as z.ZodType });
  const parsed = schema.parse({ doc: value }).doc as EditDocs[T];
  return normalizeDoc(type, parsed);
}

/** The current document of an item, or undefined when there is no such item. */
export async function readDoc<T extends EditType>(db: Db, type: T, id: number): Promise<StoredItem<T> | undefined> {
  const read = READERS[type] as (db: Db, id: number) => Promise<StoredItem<T> | undefined>;
  return read(db, id);
}

const READERS: { [T in EditType]: (db: Db, id: number) => Promise<StoredItem<T> | undefined> } = {
  async galgame(db, id) {
    const row = await db.selectFrom('galgame').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const [platforms, tags, producers, staff, characters, relations, downloads] = await Promise.all([
      db.selectFrom('galgame_platform').select('platform').where('galgame_id', '=', id).execute(),
      db
        .selectFrom('galgame_tag')
        .select(['tag_id', 'spoiler'])
        .where('galgame_id', '=', id)
        .orderBy('tag_id')
        .execute(),
      db
        .selectFrom('galgame_producer')
        .select(['producer_id', 'role', 'note'])
        .where('galgame_id', '=', id)
        .orderBy('producer_id')
        .orderBy('role')
        .execute(),
      db
        .selectFrom('galgame_staff')
        .select(['person_id', 'role', 'note'])
        .where('galgame_id', '=', id)
        .orderBy('person_id')
        .orderBy('role')
        .execute(),
      db
        .selectFrom('galgame_character')
        .select(['character_id', 'role', 'voice_person_id'])
        .where('galgame_id', '=', id)
        .orderBy('character_id')
        .execute(),
      db
        .selectFrom('galgame_relation')
        .select(['related_id', 'relation'])
        .where('galgame_id', '=', id)
        .orderBy('related_id')
        .execute(),
      readDownloads(db, id),
    ]);
    const doc: GalgameDoc = {
      title: row.title,
      titleZh: row.title_zh,
      aliases: parseList<string>(row.aliases),
      intro: row.intro,
      releaseDate: row.release_date,
      prices: parseList<GalgamePrice>(row.prices).map((p) => ({
        edition: p.edition ?? '',
        currency: p.currency,
        amount: Number(p.amount),
      })),
      cover: row.cover,
      images: parseList<string>(row.images),
      nsfw: Number(row.nsfw) === 1,
      platforms: platforms.map((p) => p.platform as Platform),
      tags: tags.map((t) => ({ tagId: t.tag_id, spoiler: Number(t.spoiler) })),
      producers: producers.map((p) => ({ producerId: p.producer_id, role: p.role, note: p.note })),
      staff: staff.map((s) => ({ personId: s.person_id, role: s.role, note: s.note })),
      characters: characters.map((c) => ({
        characterId: c.character_id,
        role: c.role,
        voicePersonId: c.voice_person_id,
      })),
      relations: relations.map((r) => ({ galgameId: r.related_id, relation: r.relation })),
      downloads,
    };
    return { doc: normalizeDoc('galgame', doc), title: row.title_zh || row.title, status: row.status };
  },
  async lightnovel(db, id) {
    const row = await db.selectFrom('lightnovel').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const [staff, producers] = await Promise.all([
      db.selectFrom('lightnovel_staff').select(['person_id', 'role']).where('lightnovel_id', '=', id).execute(),
      db.selectFrom('lightnovel_producer').select(['producer_id', 'role']).where('lightnovel_id', '=', id).execute(),
    ]);
    const doc: LightnovelDoc = {
      name: row.name,
      nameZh: row.name_zh,
      aliases: parseList<string>(row.aliases),
      intro: row.intro,
      cover: row.cover,
      serialStatus: row.serial_status,
      nsfw: Number(row.nsfw) === 1,
      staff: staff.map((s) => ({ personId: s.person_id, role: s.role })),
      producers: producers.map((p) => ({ producerId: p.producer_id, role: p.role })),
    };
    return { doc: normalizeDoc('lightnovel', doc), title: row.name_zh || row.name, status: row.status };
  },
  async volume(db, id) {
    const row = await db
      .selectFrom('lightnovel_volume as v')
      .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
      .selectAll('v')
      .select(['l.name as series_name', 'l.name_zh as series_name_zh', 'l.status as series_status'])
      .where('v.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const doc: VolumeDoc = {
      lightnovelId: row.lightnovel_id,
      kind: row.kind,
      number: Number(row.number),
      title: row.title,
      titleZh: row.title_zh,
      intro: row.intro,
      cover: row.cover,
      isbn: row.isbn,
      releaseDate: row.release_date,
      pages: row.pages === null ? null : Number(row.pages),
      price: row.price,
    };
    const series = row.series_name_zh || row.series_name;
    const own = row.title_zh || row.title;
    return { doc, title: own ? `${series} · ${own}` : `${series} #${row.number}`, status: row.series_status };
  },
  person: (db, id) => readPerson(db, 'person', id),
  character: (db, id) => readPerson(db, 'character', id) as Promise<StoredItem<'character'> | undefined>,
  async producer(db, id) {
    const row = await db.selectFrom('producer').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const doc: ProducerDoc = {
      name: row.name,
      nameZh: row.name_zh,
      aliases: parseList<string>(row.aliases),
      description: row.description,
      image: row.image,
      kind: row.kind as ProducerDoc['kind'],
      website: row.website,
    };
    return { doc, title: row.name_zh || row.name, status: null };
  },
  async tag(db, id) {
    const row = await db.selectFrom('tag').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const doc: TagDoc = {
      name: row.name,
      nameZh: row.name_zh,
      category: row.category as TagDoc['category'],
      description: row.description,
    };
    return { doc, title: row.name_zh || row.name, status: null };
  },
};

/** A game's downloads as its document lists them (passwords included: editors see what they edit). */
async function readDownloads(db: Db, galgameId: number): Promise<DownloadDoc[]> {
  const { downloads, links } = await downloadRows(db, galgameId);
  return downloads.map((d) => ({
    ...downloadFields(d),
    links: links
      .filter((l) => l.download_id === d.id)
      .map((l) => ({ id: l.id, label: l.label, url: l.url, password: l.password })),
  }));
}

async function readPerson(
  db: Db,
  table: 'person' | 'character',
  id: number,
): Promise<StoredItem<'person'> | undefined> {
  const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const doc: PersonDoc = {
    name: row.name,
    nameZh: row.name_zh,
    aliases: parseList<string>(row.aliases),
    description: row.description,
    image: row.image,
    gender: row.gender,
    birthday: row.birthday,
  };
  return { doc, title: row.name_zh || row.name, status: null };
}

/** The title a document shows (headings, notifications) without reading anything else. */
export function docTitle(type: EditType, doc: EditDoc): string {
  const d = doc as Partial<Record<'title' | 'titleZh' | 'name' | 'nameZh', string>> & { number?: number };
  if (type === 'galgame') return d.titleZh || d.title || '';
  if (type === 'volume') return d.titleZh || d.title || `#${d.number ?? ''}`;
  return d.nameZh || d.name || '';
}

const missing = (field: string) => {
  const message = messageRef('revision.error.missingLink', { label: `revision.field.${field}` });
  return badRequest(message, fieldIssue(`doc.${field}`, message));
};

type LinkTable = 'tag' | 'producer' | 'person' | 'character' | 'galgame' | 'lightnovel';

/** What a document links to: per field, the table and the ids. */
function linkedLists(type: EditType, doc: EditDoc): (readonly [table: LinkTable, ids: number[], field: string])[] {
  if (type === 'galgame') {
    const g = doc as GalgameDoc;
    return [
      ['tag', g.tags.map((t) => t.tagId), 'tags'],
      ['producer', g.producers.map((p) => p.producerId), 'producers'],
      ['person', g.staff.map((s) => s.personId), 'staff'],
      ['character', g.characters.map((c) => c.characterId), 'characters'],
      ['person', g.characters.flatMap((c) => (c.voicePersonId === null ? [] : [c.voicePersonId])), 'voice'],
      ['galgame', g.relations.map((r) => r.galgameId), 'relations'],
    ];
  }
  if (type === 'lightnovel') {
    const l = doc as LightnovelDoc;
    return [
      ['person', l.staff.map((s) => s.personId), 'staff'],
      ['producer', l.producers.map((p) => p.producerId), 'producers'],
    ];
  }
  if (type === 'volume') return [['lightnovel', [(doc as VolumeDoc).lightnovelId], 'lightnovelId']];
  return [];
}

/**
 * Every id a document links to must exist: 400 naming the field otherwise (no half-written item). With
 * `member` (a member who is not an editor), the games and series it adds to `known` (the document they
 * edited) must also be ones they may see; links an editor made before stay as they are.
 */
export async function checkLinks(
  db: Db,
  type: EditType,
  doc: EditDoc,
  selfId: number | null,
  member?: { id: string; known: EditDoc | null },
): Promise<void> {
  if (type === 'galgame' && selfId !== null && (doc as GalgameDoc).relations.some((r) => r.galgameId === selfId))
    throw missing('relations');
  const known = new Set(
    member?.known ? linkedLists(type, member.known).flatMap(([table, ids]) => ids.map((id) => `${table}:${id}`)) : [],
  );
  for (const [table, ids, field] of linkedLists(type, doc)) {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) continue;
    if (table === 'galgame' || table === 'lightnovel') {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'status', 'created_by'])
        .where('id', 'in', wanted)
        .execute();
      const usable = rows.filter((row) => !member || known.has(`${table}:${row.id}`) || seenBy(row, member.id));
      if (usable.length !== wanted.length) throw missing(field);
      continue;
    }
    const found = await db.selectFrom(table).select('id').where('id', 'in', wanted).execute();
    if (found.length !== wanted.length) throw missing(field);
  }
}

/** A game's or series' publication, as far as who may see it goes. */
export interface Publication {
  status: string;
  created_by: string | null;
}

/**
 * May a member who is not an editor link to this game or series and see it named? Published ones and
 * their own; an unpublished one of someone else's is as missing to them as an unknown id.
 */
export const seenBy = (row: Publication, memberId: string): boolean =>
  row.status === 'published' || row.created_by === memberId;

/** Names that must stay unique: a tag's name, a volume's place in its series. */
async function checkUnique(db: Db, type: EditType, doc: EditDoc, selfId: number | null): Promise<void> {
  if (type === 'tag') {
    const other = await db
      .selectFrom('tag')
      .select('id')
      .where('name', '=', (doc as TagDoc).name)
      .executeTakeFirst();
    if (other && other.id !== selfId)
      throw new HttpError(
        409,
        'NAME_IN_USE',
        'revision.error.tagNameInUse',
        fieldIssue('doc.name', 'revision.error.tagNameInUse'),
      );
  }
  if (type === 'volume') {
    const v = doc as VolumeDoc;
    const other = await db
      .selectFrom('lightnovel_volume')
      .select('id')
      .where('lightnovel_id', '=', v.lightnovelId)
      .where('kind', '=', v.kind)
      .where('number', '=', v.number)
      .executeTakeFirst();
    if (other && other.id !== selfId)
      throw new HttpError(
        409,
        'CONFLICT',
        'revision.error.volumeTaken',
        fieldIssue('doc.number', 'revision.error.volumeTaken'),
      );
  }
}

/**
 * Writes a document to the catalogue inside the caller's transaction: updates item `id`, or creates a
 * new one (galgame and lightnovel as published, created by `userId`). Answers the item's id and the
 * document as stored: new download rows have their ids there, so a revision records what is.
 */
export async function writeDoc<T extends EditType>(
  trx: Db,
  type: T,
  id: number | null,
  value: EditDocs[T],
  userId: string | null,
  now: Date,
): Promise<{ id: number; doc: EditDocs[T] }> {
  const written = await writeRows(trx, type, id, value, userId, now);
  if (type !== 'galgame') return { id: written, doc: value };
  const doc = { ...(value as GalgameDoc), downloads: await readDownloads(trx, written) };
  return { id: written, doc: normalizeDoc('galgame', doc) as EditDocs[T] };
}

async function writeRows<T extends EditType>(
  trx: Db,
  type: T,
  id: number | null,
  value: EditDocs[T],
  userId: string | null,
  now: Date,
): Promise<number> {
  const doc = value as EditDoc;
  await checkLinks(trx, type, doc, id);
  await checkUnique(trx, type, doc, id);
  // A new entry is always a new row, even when another shares its name (the writers match by name otherwise).
  const self = id === null ? { createNew: true } : { id };
  switch (type) {
    case 'galgame': {
      const g = doc as GalgameDoc;
      const written = await saveGalgame(
        trx,
        {
          ...self,
          title: g.title,
          titleZh: g.titleZh,
          aliases: g.aliases,
          intro: g.intro,
          releaseDate: g.releaseDate,
          prices: g.prices,
          cover: g.cover,
          images: g.images,
          nsfw: g.nsfw,
          platforms: g.platforms,
          tags: g.tags.map((t) => ({ tagId: t.tagId, spoiler: t.spoiler })),
          producers: g.producers,
          staff: g.staff,
          characters: g.characters,
          relations: g.relations,
          downloads: g.downloads,
        },
        now,
      );
      if (id === null)
        await trx
          .updateTable('galgame')
          .set({ created_by: userId, status: 'published' })
          .where('id', '=', written)
          .execute();
      return written;
    }
    case 'lightnovel': {
      const l = doc as LightnovelDoc;
      return saveLightnovel(
        trx,
        {
          ...self,
          name: l.name,
          nameZh: l.nameZh,
          aliases: l.aliases,
          intro: l.intro,
          cover: l.cover,
          serialStatus: l.serialStatus,
          nsfw: l.nsfw,
          staff: l.staff,
          producers: l.producers,
          ...(id === null ? { status: 'published' as const, createdBy: userId } : {}),
        },
        now,
      );
    }
    case 'volume':
      return saveVolume(trx, { ...self, ...(doc as VolumeDoc) }, now);
    case 'person':
      return upsertPerson(trx, { ...self, ...(doc as PersonDoc) }, now);
    case 'character':
      return upsertCharacter(trx, { ...self, ...(doc as PersonDoc) }, now);
    case 'producer':
      return upsertProducer(trx, { ...self, ...(doc as ProducerDoc) }, now);
    case 'tag':
      return upsertTag(trx, { ...self, ...(doc as TagDoc) }, now);
  }
}

/** The page-cache tags of the pages showing an item (before and after the change). */
export function itemPageTags(type: EditType, id: number, before: EditDoc | null, after: EditDoc | null): string[] {
  switch (type) {
    case 'galgame':
      return [pageTags.galgame(id), pageTags.galgames, pageTags.tags];
    case 'lightnovel':
      return [lightnovelTags.series(id), lightnovelTags.all];
    case 'volume':
      return [
        lightnovelTags.volume(id),
        lightnovelTags.all,
        ...[before, after].flatMap((d) => (d ? [lightnovelTags.series((d as VolumeDoc).lightnovelId)] : [])),
      ];
    case 'person':
      return [pageTags.person(id)];
    case 'character':
      return [pageTags.character(id)];
    case 'producer':
      return [pageTags.producer(id)];
    case 'tag':
      return [pageTags.tags, pageTags.galgames];
  }
}
