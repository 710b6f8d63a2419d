import type { DownloadLanguage, Platform, TranslationType } from '../../../shared/catalogue-model.ts';
import type { Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';

export interface DownloadLinkInput {
  /** The link's row when it is kept (it must belong to this download); absent or null: a new link. */
  id?: number | null;
  label?: string;
  url: string;
  password?: string;
}

export interface DownloadInput {
  /** The download's row when it is kept (it must belong to this game); absent or null: a new one. */
  id?: number | null;
  language: DownloadLanguage;
  platform: Platform;
  translationType: TranslationType;
  translationGroup?: string;
  sizeBytes?: number | null;
  note?: string;
  links: DownloadLinkInput[];
}

/**
 * Makes a game's downloads what `downloads` says, inside the caller's transaction. Rows named by id are
 * updated in place, so a link that stays keeps its id and its reports; a link whose address changed
 * starts again without reports (it is a new address). Ids that are not this game's (another game's, a
 * deleted row's) are new rows, rows not named are deleted with their links and reports. Without any
 * ids it replaces everything, as imports want.
 */
export async function syncDownloads(
  trx: Db,
  galgameId: number,
  downloads: readonly DownloadInput[],
  now: Date,
): Promise<void> {
  const existing = await trx.selectFrom('galgame_download').select('id').where('galgame_id', '=', galgameId).execute();
  const ownDownloads = new Set(existing.map((d) => d.id));
  const links = ownDownloads.size
    ? await trx
        .selectFrom('download_link')
        .select(['id', 'download_id', 'url'])
        .where('download_id', 'in', [...ownDownloads])
        .execute()
    : [];
  const linkRows = new Map(links.map((l) => [l.id, l]));

  const keptDownloads = new Set<number>();
  const keptLinks = new Set<number>();
  const resetLinks: number[] = [];
  const at = now.toISOString();
  for (const d of downloads) {
    const values = {
      language: d.language,
      platform: d.platform,
      translation_type: d.translationType,
      translation_group: d.translationGroup ?? '',
      size_bytes: d.sizeBytes ?? null,
      note: d.note ?? '',
    };
    let downloadId: number;
    if (d.id != null && ownDownloads.has(d.id) && !keptDownloads.has(d.id)) {
      downloadId = d.id;
      await trx.updateTable('galgame_download').set(values).where('id', '=', downloadId).execute();
    } else {
      downloadId = await nextId(trx, 'download_id');
      await trx
        .insertInto('galgame_download')
        .values({ id: downloadId, galgame_id: galgameId, created_at: at, ...values })
        .execute();
    }
    keptDownloads.add(downloadId);
    for (const link of d.links) {
      const row = link.id != null ? linkRows.get(link.id) : undefined;
      const linkValues = { label: link.label ?? '', url: link.url, password: link.password ?? '' };
      if (row && row.download_id === downloadId && !keptLinks.has(row.id)) {
        keptLinks.add(row.id);
        if (row.url !== link.url) resetLinks.push(row.id);
        await trx
          .updateTable('download_link')
          .set({ ...linkValues, ...(row.url !== link.url ? { report_count: 0 } : {}) })
          .where('id', '=', row.id)
          .execute();
      } else {
        await trx
          .insertInto('download_link')
          .values({ id: await nextId(trx, 'download_link_id'), download_id: downloadId, created_at: at, ...linkValues })
          .execute();
      }
    }
  }
  const goneLinks = links.filter((l) => !keptLinks.has(l.id)).map((l) => l.id);
  const goneDownloads = [...ownDownloads].filter((id) => !keptDownloads.has(id));
  // Reports of removed links and of changed addresses go with them (the foreign keys cascade too;
  // deleting them here does not depend on SQLite's foreign-key setting).
  const noReports = [...goneLinks, ...resetLinks];
  if (noReports.length) await trx.deleteFrom('link_report').where('link_id', 'in', noReports).execute();
  if (goneLinks.length) await trx.deleteFrom('download_link').where('id', 'in', goneLinks).execute();
  if (goneDownloads.length) await trx.deleteFrom('galgame_download').where('id', 'in', goneDownloads).execute();
}
