import type { EpubMeta } from '../../../../shared/lightnovel/lightnovel-model.ts';
import type { Db } from '../../../db/database.ts';
import { notFound } from '../../../platform/errors.ts';
import type { Storage, StoredObject } from '../../../platform/storage/storage.ts';
import type { TargetViewer } from '../../../platform/targets/targets.ts';
import { seriesVisible } from '../lightnovel.targets.ts';

/** A volume as the EPUB part needs it: its file, its cover, and who may see its series. */
async function findVolume(db: Db, volumeId: number) {
  return db
    .selectFrom('lightnovel_volume as v')
    .innerJoin('lightnovel as l', 'l.id', 'v.lightnovel_id')
    .select([
      'v.id',
      'v.lightnovel_id',
      'v.cover',
      'v.epub_key',
      'v.epub_size',
      'v.epub_meta',
      'l.status',
      'l.created_by',
    ])
    .where('v.id', '=', volumeId)
    .executeTakeFirst();
}

/** The sha256 a content-addressed EPUB key ends with: the file's ETag. */
export const epubEtag = (key: string): string => `"${/([0-9a-f]{64})\.epub$/.exec(key)?.[1] ?? key}"`;

export function parseEpubMeta(json: string): EpubMeta {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' ? (value as EpubMeta) : {};
  } catch {
    return {};
  }
}

/** An open EPUB to answer with; the caller consumes or destroys `object.body`. */
export interface OpenEpub {
  key: string;
  object: StoredObject;
}

/**
 * A volume's EPUB for a reader: everyone may read the volumes of published series, their creator
 * and the reviewers the others (404 otherwise, as for a volume that does not exist).
 */
export async function openVolumeEpub(
  deps: { db: Db; storage: Storage },
  volumeId: number,
  viewer: TargetViewer,
): Promise<OpenEpub> {
  const volume = await findVolume(deps.db, volumeId);
  if (!volume || !seriesVisible(volume, viewer)) throw notFound('epub.volumeNotFound');
  if (!volume.epub_key) throw notFound('epub.noFile');
  const object = await deps.storage.get(volume.epub_key);
  if (!object) throw notFound('epub.noFile');
  return { key: volume.epub_key, object };
}
