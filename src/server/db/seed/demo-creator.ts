import type { Db } from '../database.ts';
import type { LightnovelDoc } from '../../../shared/creator/docs.ts';
import { itemDocument } from '../../modules/creator/revisions.service.ts';
import { proposeEdit } from '../../modules/creator/update-requests.service.ts';
import { queueOnly } from '../../modules/notifications/notifications.queue.ts';

/**
 * The creator centre's demo: one update request waiting for review, so /create/update-request/audits
 * shows how a review looks on a fresh install. hikari_demo proposes another name and a longer
 * introduction for the last demo series. Idempotent: nothing is added when any request exists.
 */
export async function seedDemoCreatorCentre(db: Db, now: Date): Promise<{ requests: number }> {
  const any = await db.selectFrom('update_request').select('id').limit(1).executeTakeFirst();
  if (any) return { requests: 0 };
  const member = await db
    .selectFrom('users')
    .select(['id', 'user_group', 'status'])
    .where('name', '=', 'hikari_demo')
    .executeTakeFirst();
  const series = await db
    .selectFrom('lightnovel')
    .select('id')
    .where('status', '=', 'published')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!member || !series) return { requests: 0 };
  const current = await itemDocument(db, member, 'lightnovel', series.id);
  const doc = current.doc as LightnovelDoc;
  await proposeEdit(
    { db, jobs: queueOnly },
    member,
    {
      type: 'lightnovel',
      id: series.id,
      baseRevision: current.revision,
      doc: {
        ...doc,
        aliases: [...doc.aliases, `${doc.nameZh || doc.name}（新装版）`],
        intro: `${doc.intro}\n\n新装版于今年发行，加入了作者的后记与一篇短篇。`,
      },
      note: '补充新装版的别名和简介，资料来自出版社的新书预告。',
    },
    now,
  );
  return { requests: 1 };
}
