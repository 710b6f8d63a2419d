import { sql, type Expression, type SqlBool } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import type { GalgameStatus } from '../../../shared/catalogue-model.ts';
import { isEditorGroup, type EditType } from '../../../shared/creator/creator-model.ts';
import {
  LOOKUP_LIMIT,
  MANAGE_PAGE_SIZE,
  type LookupHit,
  type ManagePage,
  type ManageRow,
  type PublishableType,
} from '../../../shared/creator/manage.contract.ts';
import type { Db } from '../../db/database.ts';
import { pageInfo } from '../../db/paginate.ts';
import { lockItem } from './revisions.service.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { syncFacets } from '../catalogue/catalogue.facets.ts';
import { removeVolumeFiles } from '../lightnovel/epub/epub.service.ts';
import { deleteVolume } from '../lightnovel/lightnovel.writer.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { indexEntities, indexGalgames, indexLightnovels } from '../search/search.index.ts';

/**
 * The manage pages and pickers of the creator centre: lists of each editable type, name look-ups, and
 * the editors' publish, unpublish and volume-delete actions (each audited in its own transaction).
 */

export interface ManageViewer {
  id: string;
  group: UserGroup;
}

export interface ManageListInput {
  keyword?: string | undefined;
  status?: GalgameStatus | undefined;
  page: number;
}

const ENTITY_TABLES = { person: 'person', character: 'character', producer: 'producer' } as const;

/** `%keyword%` for LIKE, lower-cased, with LIKE's own characters escaped (used with ESCAPE '\'). */
export function containsPattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) LIKE pattern` on either of two name columns (both databases). */
function nameMatches(columns: readonly string[], keyword: string): Expression<SqlBool> {
  const pattern = containsPattern(keyword);
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

function requireEditor(viewer: ManageViewer): void {
  if (!isEditorGroup(viewer.group)) throw new HttpError(403, 'FORBIDDEN', 'itemEditor.error.editorsOnly');
}

/** Games and series a viewer may see in a manage list: editors every one, others the published and their own. */
function visibility(viewer: ManageViewer, statusColumn: string, ownerColumn: string): Expression<SqlBool> {
  if (isEditorGroup(viewer.group)) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.ref(statusColumn)} = 'published' or ${sql.ref(ownerColumn)} = ${viewer.id})`;
}

/** One page of a manage list, newest first. */
export async function listForManage(
  db: Db,
  viewer: ManageViewer,
  type: EditType,
  input: ManageListInput,
): Promise<ManagePage> {
  const canModerate = isEditorGroup(viewer.group);
  const limit = MANAGE_PAGE_SIZE;
  const offset = (input.page - 1) * limit;
  const page = (rows: ManageRow[], total: number): ManagePage => ({
    items: rows,
    pagination: pageInfo({ page: input.page, limit }, total),
    canModerate,
  });
  const kw = input.keyword?.trim() ?? '';

  const listed = (rows: ListedRow[], total: { n: number | string }) => page(rows.map(toRow), Number(total.n));
  const total = sql<number>`count(*)`.as('n');

  if (type === 'galgame') {
    let q = db.selectFrom('galgame as g').where(visibility(viewer, 'g.status', 'g.created_by'));
    if (kw) q = q.where(nameMatches(['g.title', 'g.title_zh', 'g.aliases'], kw));
    if (input.status) q = q.where('g.status', '=', input.status);
    return listed(
      await q
        .select(['g.id', 'g.title as name', 'g.title_zh as name_zh', 'g.cover as image', 'g.status', 'g.updated_at'])
        .orderBy('g.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      await q.select(total).executeTakeFirstOrThrow(),
    );
  }

  if (type === 'lightnovel') {
    let q = db.selectFrom('lightnovel as l').where(visibility(viewer, 'l.status', 'l.created_by'));
    if (kw) q = q.where(nameMatches(['l.name', 'l.name_zh', 'l.aliases'], kw));
    if (input.status) q = q.where('l.status', '=', input.status);
    return listed(
      await q
        .select(['l.id', 'l.name', 'l.name_zh', 'l.cover as image', 'l.status', 'l.updated_at'])
        .orderBy('l.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      await q.select(total).executeTakeFirstOrThrow(),
    );
  }

  if (type === 'volume') {
    let q = db
      .selectFrom('lightnovel_volume as v')
      .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
      .where(visibility(viewer, 'l.status', 'l.created_by'));
    if (kw) q = q.where(nameMatches(['v.title', 'v.title_zh', 'l.name', 'l.name_zh'], kw));
    return listed(
      await q
        .select([
          'v.id',
          'v.title as name',
          'v.title_zh as name_zh',
          'v.cover as image',
          'v.number',
          'v.updated_at',
          'l.id as series_id',
          'l.name as series_name',
          'l.name_zh as series_name_zh',
        ])
        .orderBy('v.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      await q.select(total).executeTakeFirstOrThrow(),
    );
  }

  // Entities: the creator centre's permission group (creators and above).
  if (!CREATOR_GROUPS.includes(viewer.group)) throw new HttpError(403, 'FORBIDDEN', 'itemEditor.error.creatorsOnly');

  if (type === 'tag') {
    let q = db.selectFrom('tag as t');
    if (kw) q = q.where(nameMatches(['t.name', 't.name_zh'], kw));
    return listed(
      await q
        .select(['t.id', 't.name', 't.name_zh', 't.created_at as updated_at'])
        .orderBy('t.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      await q.select(total).executeTakeFirstOrThrow(),
    );
  }

  const table = ENTITY_TABLES[type];
  let q = db.selectFrom(`${table} as e` as 'person as e');
  if (kw) q = q.where(nameMatches(['e.name', 'e.name_zh', 'e.aliases'], kw));
  return listed(
    await q
      .select(['e.id', 'e.name', 'e.name_zh', 'e.image', 'e.updated_at'])
      .orderBy('e.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    await q.select(total).executeTakeFirstOrThrow(),
  );
}

/** A listed row, whatever its type: the columns each list selects under these names. */
interface ListedRow {
  id: number;
  name: string;
  name_zh: string;
  image?: string;
  status?: string;
  number?: number;
  series_id?: number;
  series_name?: string;
  series_name_zh?: string;
  updated_at: string;
}

const toRow = (r: ListedRow): ManageRow => ({
  id: r.id,
  name: r.name,
  nameZh: r.name_zh,
  image: r.image ?? '',
  status: (r.status as ManageRow['status']) ?? null,
  series: r.series_id !== undefined ? { id: r.series_id, name: r.series_name_zh || r.series_name || '' } : null,
  number: r.number ?? null,
  updatedAt: r.updated_at,
});

/**
 * Up to LOOKUP_LIMIT entries of a type whose name or Chinese name contains the keyword: exact names
 * first, then names starting with it, then the rest by id. Games and series: what the viewer may see.
 */
export async function lookupNames(db: Db, viewer: ManageViewer, type: EditType, keyword: string): Promise<LookupHit[]> {
  const kw = keyword.trim();
  if (!kw) return [];
  const lower = kw.toLowerCase();
  const prefix = `${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rank = (name: string, nameZh: string) =>
    sql<number>`case when lower(${sql.ref(name)}) = ${lower} or lower(${sql.ref(nameZh)}) = ${lower} then 0
      when lower(${sql.ref(name)}) like ${prefix} escape '\\' or lower(${sql.ref(nameZh)}) like ${prefix} escape '\\' then 1
      else 2 end`;

  if (type === 'galgame') {
    const rows = await db
      .selectFrom('galgame as g')
      .select(['g.id', 'g.title as name', 'g.title_zh as name_zh', 'g.cover as image'])
      .where(visibility(viewer, 'g.status', 'g.created_by'))
      .where(nameMatches(['g.title', 'g.title_zh'], kw))
      .orderBy(rank('g.title', 'g.title_zh'))
      .orderBy('g.id')
      .limit(LOOKUP_LIMIT)
      .execute();
    return rows.map(toHit);
  }
  if (type === 'lightnovel') {
    const rows = await db
      .selectFrom('lightnovel as l')
      .select(['l.id', 'l.name', 'l.name_zh', 'l.cover as image'])
      .where(visibility(viewer, 'l.status', 'l.created_by'))
      .where(nameMatches(['l.name', 'l.name_zh'], kw))
      .orderBy(rank('l.name', 'l.name_zh'))
      .orderBy('l.id')
      .limit(LOOKUP_LIMIT)
      .execute();
    return rows.map(toHit);
  }
  if (type === 'volume') {
    const rows = await db
      .selectFrom('lightnovel_volume as v')
      .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
      .select(['v.id', 'v.title as name', 'v.title_zh as name_zh', 'v.cover as image'])
      .where(visibility(viewer, 'l.status', 'l.created_by'))
      .where(nameMatches(['v.title', 'v.title_zh'], kw))
      .orderBy(rank('v.title', 'v.title_zh'))
      .orderBy('v.id')
      .limit(LOOKUP_LIMIT)
      .execute();
    return rows.map(toHit);
  }
  if (type === 'tag') {
    const rows = await db
      .selectFrom('tag as t')
      .select(['t.id', 't.name', 't.name_zh', sql<string>`''`.as('image')])
      .where(nameMatches(['t.name', 't.name_zh'], kw))
      .orderBy(rank('t.name', 't.name_zh'))
      .orderBy('t.id')
      .limit(LOOKUP_LIMIT)
      .execute();
    return rows.map(toHit);
  }
  const table = ENTITY_TABLES[type];
  const rows = await db
    .selectFrom(`${table} as e` as 'person as e')
    .select(['e.id', 'e.name', 'e.name_zh', 'e.image'])
    .where(nameMatches(['e.name', 'e.name_zh'], kw))
    .orderBy(rank('e.name', 'e.name_zh'))
    .orderBy('e.id')
    .limit(LOOKUP_LIMIT)
    .execute();
  return rows.map(toHit);
}

/** The names of entries by id, for the editors' relation lists (missing ids are left out). */
export async function namesByIds(
  db: Db,
  viewer: ManageViewer,
  type: EditType,
  ids: readonly number[],
): Promise<LookupHit[]> {
  // Unpublished games and series (and their volumes) are named to editors and to their creators only.
  const staff = isEditorGroup(viewer.group);
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  if (type === 'galgame') {
    const rows = await db
      .selectFrom('galgame')
      .select(['id', 'title as name', 'title_zh as name_zh', 'cover as image'])
      .where('id', 'in', wanted)
      .$if(!staff, (q) => q.where((eb) => eb.or([eb('status', '=', 'published'), eb('created_by', '=', viewer.id)])))
      .execute();
    return rows.map(toHit);
  }
  if (type === 'lightnovel') {
    const rows = await db
      .selectFrom('lightnovel')
      .select(['id', 'name', 'name_zh', 'cover as image'])
      .where('id', 'in', wanted)
      .$if(!staff, (q) => q.where((eb) => eb.or([eb('status', '=', 'published'), eb('created_by', '=', viewer.id)])))
      .execute();
    return rows.map(toHit);
  }
  if (type === 'volume') {
    const rows = await db
      .selectFrom('lightnovel_volume')
      .innerJoin('lightnovel', 'lightnovel.id', 'lightnovel_volume.lightnovel_id')
      .select([
        'lightnovel_volume.id',
        'lightnovel_volume.title as name',
        'lightnovel_volume.title_zh as name_zh',
        'lightnovel_volume.cover as image',
      ])
      .where('lightnovel_volume.id', 'in', wanted)
      .$if(!staff, (q) =>
        q.where((eb) =>
          eb.or([eb('lightnovel.status', '=', 'published'), eb('lightnovel.created_by', '=', viewer.id)]),
        ),
      )
      .execute();
    return rows.map(toHit);
  }
  if (type === 'tag') {
    const rows = await db
      .selectFrom('tag')
      .select(['id', 'name', 'name_zh', sql<string>`''`.as('image')])
      .where('id', 'in', wanted)
      .execute();
    return rows.map(toHit);
  }
  const rows = await db
    .selectFrom(`${ENTITY_TABLES[type]} as e` as 'person as e')
    .select(['e.id', 'e.name', 'e.name_zh', 'e.image'])
    .where('e.id', 'in', wanted)
    .execute();
  return rows.map(toHit);
}

const toHit = (r: { id: number; name: string; name_zh: string; image: string }): LookupHit => ({
  id: r.id,
  name: r.name,
  nameZh: r.name_zh,
  image: r.image,
});

/**
 * Publishes (`published`) or unpublishes (`draft`) a game or a series: its facets and search entries
 * follow in the same transaction, and the change is audited. Answers the page-cache tags to drop.
 */
export async function setPublished(
  db: Db,
  viewer: ManageViewer,
  type: PublishableType,
  id: number,
  publish: boolean,
  now = new Date(),
): Promise<{ id: number; status: GalgameStatus; tags: string[] }> {
  requireEditor(viewer);
  const status: GalgameStatus = publish ? 'published' : 'draft';
  return db.transaction().execute(async (trx) => {
    const table = type === 'galgame' ? 'galgame' : 'lightnovel';
    const row = await trx
      .selectFrom(table as 'galgame')
      .select(['id', 'status'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('itemEditor.error.notFound');
    const tags = type === 'galgame' ? [`galgame:${id}`, 'galgames', 'tags'] : [`lightnovel:${id}`, 'lightnovels'];
    if (row.status === status) return { id, status, tags: [] };
    await trx
      .updateTable(table as 'galgame')
      .set({ status, updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
    if (type === 'galgame') {
      await syncFacets(trx, [id]);
      await indexGalgames(trx, [id]);
    } else {
      await indexLightnovels(trx, [id]);
    }
    await reindexLinkedEntities(trx, type, id);
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: publish ? 'item.publish' : 'item.unpublish',
        targetType: type,
        targetId: id,
        detail: { from: row.status, to: status },
      },
      now,
    );
    return { id, status, tags };
  });
}

/** The people, characters and producers of a work rank by their published works in search: recount them. */
async function reindexLinkedEntities(trx: Db, type: PublishableType, id: number): Promise<void> {
  const ids = async <T extends string>(rows: Promise<Record<T, number | null>[]>, key: T) =>
    (await rows).map((r) => r[key]).filter((v): v is number => v !== null);
  if (type === 'galgame') {
    const people = [
      ...(await ids(
        trx.selectFrom('galgame_staff').select('person_id').where('galgame_id', '=', id).execute(),
        'person_id',
      )),
      ...(await ids(
        trx.selectFrom('galgame_character').select('voice_person_id').where('galgame_id', '=', id).execute(),
        'voice_person_id',
      )),
    ];
    const characters = await ids(
      trx.selectFrom('galgame_character').select('character_id').where('galgame_id', '=', id).execute(),
      'character_id',
    );
    const producers = await ids(
      trx.selectFrom('galgame_producer').select('producer_id').where('galgame_id', '=', id).execute(),
      'producer_id',
    );
    await indexEntities(trx, 'person', people);
    await indexEntities(trx, 'character', characters);
    await indexEntities(trx, 'producer', producers);
    return;
  }
  const people = await ids(
    trx.selectFrom('lightnovel_staff').select('person_id').where('lightnovel_id', '=', id).execute(),
    'person_id',
  );
  const producers = await ids(
    trx.selectFrom('lightnovel_producer').select('producer_id').where('lightnovel_id', '=', id).execute(),
    'producer_id',
  );
  await indexEntities(trx, 'person', people);
  await indexEntities(trx, 'producer', producers);
}

/**
 * Deletes a volume (editors and above), audited in the same transaction; its EPUB and extracted cover
 * leave the storage once the transaction committed.
 */
export async function deleteVolumeAsEditor(
  db: Db,
  storage: Storage,
  viewer: ManageViewer,
  id: number,
  now = new Date(),
): Promise<{ id: number; lightnovelId: number }> {
  requireEditor(viewer);
  const { lightnovelId, files } = await db.transaction().execute(async (trx) => {
    // After an edit of the same volume running now (which holds the lock), never beside it.
    await lockItem(trx, 'volume', id);
    const row = await trx
      .selectFrom('lightnovel_volume')
      .select(['lightnovel_id', 'number', 'title'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('itemEditor.error.notFound');
    const files = await deleteVolume(trx, id, now);
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'item.delete',
        targetType: 'volume',
        targetId: id,
        detail: { lightnovelId: row.lightnovel_id, number: row.number, title: row.title },
      },
      now,
    );
    return { lightnovelId: row.lightnovel_id, files };
  });
  if (files) await removeVolumeFiles(storage, [files]);
  return { id, lightnovelId };
}
