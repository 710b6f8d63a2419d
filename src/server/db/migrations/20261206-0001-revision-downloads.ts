import type { Kysely } from 'kysely';

// A game's downloads became part of its editable document (decision 028). Revisions and update requests
// written before that hold documents without them; they get the game's downloads as they are now (the
// only version there was, since downloads were not revisioned), so comparing an old base with the
// current game finds no change in its downloads. A proposed new game gets none.

interface DownloadRow {
  id: number;
  galgame_id: number;
  language: string;
  platform: string;
  translation_type: string;
  translation_group: string;
  size_bytes: number | string | null;
  note: string;
}
interface LinkRow {
  id: number;
  download_id: number;
  label: string;
  url: string;
  password: string;
}

const BATCH = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
async function downloadsOf(db: Kysely<any>, galgameId: number): Promise<unknown[]> {
  const downloads = (await db
    .selectFrom('galgame_download')
    .selectAll()
    .where('galgame_id', '=', galgameId)
    .orderBy('id')
    .execute()) as DownloadRow[];
  if (downloads.length === 0) return [];
  const links = (await db
    .selectFrom('download_link')
    .select(['id', 'download_id', 'label', 'url', 'password'])
    .where(
      'download_id',
      'in',
      downloads.map((d) => d.id),
    )
    .orderBy('id')
    .execute()) as LinkRow[];
  return downloads.map((d) => ({
    id: d.id,
    language: d.language,
    platform: d.platform,
    translationType: d.translation_type,
    translationGroup: d.translation_group,
    sizeBytes: d.size_bytes === null ? null : Number(d.size_bytes),
    note: d.note,
    links: links
      .filter((l) => l.download_id === d.id)
      .map((l) => ({ id: l.id, label: l.label, url: l.url, password: l.password })),
  }));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
async function addDownloads(db: Kysely<any>, table: 'catalogue_revision' | 'update_request'): Promise<void> {
  const known = new Map<number, unknown[]>();
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom(table)
      .select(['id', 'item_id', 'doc'])
      .where('item_type', '=', 'galgame')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as { id: number; item_id: number | null; doc: string }[];
    if (rows.length === 0) return;
    for (const row of rows) {
      const doc = JSON.parse(row.doc) as Record<string, unknown>;
      if (Array.isArray(doc.downloads)) continue;
      let downloads: unknown[] = [];
      if (row.item_id !== null) {
        downloads = known.get(row.item_id) ?? (await downloadsOf(db, row.item_id));
        known.set(row.item_id, downloads);
      }
      await db
        .updateTable(table)
        .set({ doc: JSON.stringify({ ...doc, downloads }) })
        .where('id', '=', row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await addDownloads(db, 'catalogue_revision');
  await addDownloads(db, 'update_request');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['catalogue_revision', 'update_request'] as const) {
    const rows = (await db.selectFrom(table).select(['id', 'doc']).where('item_type', '=', 'galgame').execute()) as {
      id: number;
      doc: string;
    }[];
    for (const row of rows) {
      const { downloads: _dropped, ...doc } = JSON.parse(row.doc) as Record<string, unknown>;
      await db
        .updateTable(table)
        .set({ doc: JSON.stringify(doc) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}
