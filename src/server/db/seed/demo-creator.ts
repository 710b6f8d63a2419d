import type { Db } from '../database.ts';
import type { LightnovelDoc } from '../../../shared/creator/docs.ts';
import { itemDocument } from '../../modules/creator/revisions.service.ts';
import { proposeEdit } from '../../modules/creator/update-requests.service.ts';
import { queueOnly } from '../../modules/notifications/notifications.queue.ts';

/**
 * The creator centre's demo: one update request waiting for review, so /create/update-request/audits
 * shows how a review looks on a fresh install (hikari_demo proposes another name and a longer
 * introduction for the last demo series), and hikari_creator moderating the first section. Idempotent:
 * nothing is added when any request or section moderator exists.
 */
export async function seedDemoCreatorCentre(db: Db, now: Date): Promise<{ requests: number }> {
  await seedDemoSectionModerator(db, now);
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

async function seedDemoSectionModerator(db: Db, now: Date): Promise<void> {
  const any = await db.selectFrom('section_moderator').select('user_id').limit(1).executeTakeFirst();
  if (any) return;
  const creator = await db.selectFrom('users').select('id').where('name', '=', 'hikari_creator').executeTakeFirst();
  const admin = await db.selectFrom('users').select('id').where('name', '=', 'hikari_admin').executeTakeFirst();
  const section = await db.selectFrom('section').select('id').orderBy('sort_order').orderBy('id').executeTakeFirst();
  if (!creator || !section) return;
  await db
    .insertInto('section_moderator')
    .values({
      section_id: section.id,
      user_id: creator.id,
      appointed_by: admin?.id ?? null,
      created_at: now.toISOString(),
    })
    .execute();
}
