import { sql, type Selectable } from 'kysely';
import { SUSPECT_REPORTS, type DownloadView } from '../../../shared/catalogue.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { HttpError } from '../../platform/errors.ts';
import type { GalgameDownloadTable } from './catalogue.tables.ts';

/** A game's download rows and their links, each in the order they were made. */
export async function downloadRows(db: Db, galgameId: number) {
  const downloads = await db
    .selectFrom('galgame_download')
    .selectAll()
    .where('galgame_id', '=', galgameId)
    .orderBy('id')
    .execute();
  const links = downloads.length
    ? await db
        .selectFrom('download_link')
        .selectAll()
        .where(
          'download_id',
          'in',
          downloads.map((d) => d.id),
        )
        .orderBy('id')
        .execute()
    : [];
  return { downloads, links };
}

/** A download row's own fields as the API and the documents name them. */
export const downloadFields = (d: Selectable<GalgameDownloadTable>) => ({
  id: d.id,
  language: d.language,
  platform: d.platform,
  translationType: d.translation_type,
  translationGroup: d.translation_group,
  sizeBytes: d.size_bytes === null ? null : Number(d.size_bytes),
  note: d.note,
});

/**
 * The download information of a game. Passwords go only to logged-in viewers; links reported by
 * enough people are marked suspect for everyone.
 */
export async function downloadsOf(db: Db, galgameId: number, viewerId: string | null): Promise<DownloadView[]> {
  const { downloads, links } = await downloadRows(db, galgameId);
  if (downloads.length === 0) return [];
  const mine = viewerId
    ? new Set(
        (
          await db
            .selectFrom('link_report')
            .select('link_id')
            .where('user_id', '=', viewerId)
            .where('link_id', 'in', links.length ? links.map((l) => l.id) : [-1])
            .execute()
        ).map((r) => r.link_id),
      )
    : new Set<number>();
  return downloads.map((d) => ({
    ...downloadFields(d),
    links: links
      .filter((l) => l.download_id === d.id)
      .map((l) => ({
        id: l.id,
        label: l.label,
        url: l.url,
        password: viewerId ? l.password : null,
        hasPassword: l.password !== '',
        reportCount: l.report_count,
        suspect: l.report_count >= SUSPECT_REPORTS,
        reportedByMe: mine.has(l.id),
      })),
  }));
}

/** One report per user and link; repeating it changes nothing. Returns the link's report count. */
export interface ReportResult {
  reportCount: number;
  suspect: boolean;
  reported: true;
}

export async function reportLink(
  db: Db,
  linkId: number,
  userId: string,
  reason: string,
  now = new Date(),
): Promise<ReportResult> {
  return db
    .transaction()
    .execute(async (trx): Promise<ReportResult> => {
      // Only links of published games: an unpublished game's links are no one's to report (nor to find).
      const link = await trx
        .selectFrom('download_link as l')
        .innerJoin('galgame_download as d', 'd.id', 'l.download_id')
        .innerJoin('galgame as g', 'g.id', 'd.galgame_id')
        .select(['l.id', 'l.report_count'])
        .where('l.id', '=', linkId)
        .where('g.status', '=', 'published')
        .executeTakeFirst();
      if (!link) throw new HttpError(404, 'NOT_FOUND', 'server.downloadLinkNotFound');
      const inserted = await trx
        .insertInto('link_report')
        .values({ link_id: linkId, user_id: userId, reason, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['link_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
        return { reportCount: link.report_count, suspect: link.report_count >= SUSPECT_REPORTS, reported: true };
      const updated = await trx
        .updateTable('download_link')
        .set((eb) => ({ report_count: eb('report_count', '+', 1) }))
        .where('id', '=', linkId)
        .returning('report_count')
        .executeTakeFirstOrThrow();
      return { reportCount: updated.report_count, suspect: updated.report_count >= SUSPECT_REPORTS, reported: true };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return reportLink(db, linkId, userId, reason, now);
      throw error;
    });
}

/** The game a download link belongs to (null for an unknown link). */
export async function galgameOfLink(db: Db, linkId: number): Promise<number | null> {
  const row = await db
    .selectFrom('download_link as l')
    .innerJoin('galgame_download as d', 'd.id', 'l.download_id')
    .select('d.galgame_id')
    .where('l.id', '=', linkId)
    .executeTakeFirst();
  return row?.galgame_id ?? null;
}

/** Sets the report counts of links to a recount of their reports (after a user was removed). */
export async function recountLinkReports(db: Db, linkIds: readonly number[]): Promise<void> {
  for (let i = 0; i < linkIds.length; i += 500) {
    await db
      .updateTable('download_link')
      .set((eb) => ({
        report_count: eb
          .selectFrom('link_report')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('link_report.link_id', '=', 'download_link.id'),
      }))
      .where('id', 'in', linkIds.slice(i, i + 500))
      .execute();
  }
}
