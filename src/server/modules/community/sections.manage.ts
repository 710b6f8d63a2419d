import { sql } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import { topicKey, type CommunityPage, type ContentType } from '../../../shared/community/community.ts';
import {
  SECTION_MODERATORS_MAX,
  SECTIONS_MAX,
  type SectionManageView,
  type TopicManageView,
} from '../../../shared/community/sections-manage.ts';
import { isEditorGroup } from '../../../shared/creator/creator-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import { dialectOf, type Db, type Trx } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId } from '../../db/ids.ts';
import { escapeLike } from '../../db/like.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { HttpError } from '../../platform/errors.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { toSectionView, toTopicView, userBriefs } from './community.repository.ts';
import type { SectionRow } from './community.tables.ts';
import './sections.tables.ts';

/**
 * Section and topic management for editors and above (docs/decisions/018-community.md): sections are
 * created, edited and ordered, and get moderators; topics are edited and merged. Every change runs in one
 * transaction with its audit-log row. Sections are not deleted or archived: posts and articles name them.
 */

export interface Manager {
  id: string;
  group: UserGroup;
}

const forbidden = () => new HttpError(403, 'FORBIDDEN', 'sections.server.editorsOnly');
const sectionNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.community.sectionNotFound');
const topicNotFound = () => new HttpError(404, 'NOT_FOUND', 'server.community.topicNotFound');
const nameInUse = () => new HttpError(409, 'NAME_IN_USE', 'sections.server.nameInUse');

function assertManager(viewer: Manager): void {
  if (!isEditorGroup(viewer.group)) throw forbidden();
}

/** Section names compare as members read them: NFKC, any case. */
const sectionKey = (name: string) => name.normalize('NFKC').toLowerCase();

// ── Section moderators ────────────────────────────────────────────────────────────────────────────

/** Whether the member moderates this section (their powers there: pin, feature, delete). */
export async function moderatesSection(db: Db, userId: string, sectionId: number | null): Promise<boolean> {
  if (sectionId === null) return false;
  const row = await db
    .selectFrom('section_moderator')
    .select('user_id')
    .where('section_id', '=', sectionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the sections a member moderates, in order. */
export async function sectionsModeratedBy(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('section_moderator')
    .select('section_id')
    .where('user_id', '=', userId)
    .orderBy('section_id')
    .execute();
  return rows.map((row) => row.section_id);
}

/** The moderators of each section asked for, in the order they were appointed (for a section's page too). */
export async function moderatorsOf(db: Db, sectionIds: readonly number[]) {
  const result = new Map<number, SectionManageView['moderators']>();
  if (sectionIds.length === 0) return result;
  const rows = await db
    .selectFrom('section_moderator')
    .select(['section_id', 'user_id'])
    .where('section_id', 'in', sectionIds)
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();
  const briefs = await userBriefs(
    db,
    rows.map((row) => row.user_id),
  );
  for (const row of rows) {
    const brief = briefs.get(row.user_id);
    if (!brief) continue;
    result.set(row.section_id, [...(result.get(row.section_id) ?? []), brief]);
  }
  return result;
}

async function manageViews(db: Db, rows: readonly SectionRow[]): Promise<SectionManageView[]> {
  const moderators = await moderatorsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...toSectionView(row), moderators: moderators.get(row.id) ?? [] }));
}

async function sectionView(db: Db, id: number): Promise<SectionManageView> {
  const row = await db.selectFrom('section').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw sectionNotFound();
  const [view] = await manageViews(db, [row]);
  return view!;
}

// ── Sections ──────────────────────────────────────────────────────────────────────────────────────

export async function listManagedSections(db: Db, viewer: Manager): Promise<SectionManageView[]> {
  assertManager(viewer);
  const rows = await db.selectFrom('section').selectAll().orderBy('sort_order').orderBy('id').execute();
  return manageViews(db, rows);
}

export interface SectionInput {
  name: string;
  description: string;
  icon: string;
  color: string;
}

/** Refuses a name another section has (NFKC, any case); the unique column catches a race. */
async function assertNameFree(trx: Trx, name: string, exceptId: number | null): Promise<void> {
  const rows = await trx.selectFrom('section').select(['id', 'name']).execute();
  if (rows.some((row) => row.id !== exceptId && sectionKey(row.name) === sectionKey(name))) throw nameInUse();
}

async function uniqueName<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameInUse();
    throw error;
  }
}

/** Creates a section at the end of the order. */
export async function createSection(
  db: Db,
  viewer: Manager,
  input: SectionInput,
  now = new Date(),
): Promise<SectionManageView> {
  assertManager(viewer);
  const id = await uniqueName(() =>
    db.transaction().execute(async (trx) => {
      // One section made at a time: names and the order stay unique on PostgreSQL too.
      if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('sections'))`.execute(trx);
      await assertNameFree(trx, input.name, null);
      const count = await trx
        .selectFrom('section')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= SECTIONS_MAX)
        throw new HttpError(
          400,
          'VALIDATION_FAILED',
          messageRef('sections.server.tooManySections', { max: SECTIONS_MAX }),
        );
      const last = await trx
        .selectFrom('section')
        .select((eb) => eb.fn.max('sort_order').as('max'))
        .executeTakeFirst();
      const id = await nextId(trx, 'section_id');
      const at = now.toISOString();
      await trx
        .insertInto('section')
        .values({
          id,
          name: input.name,
          description: input.description,
          icon: input.icon,
          color: input.color,
          sort_order: Number(last?.max ?? 0) + 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await writeAudit(
        trx,
        { actorId: viewer.id, action: 'section.create', targetType: 'section', targetId: id, detail: { ...input } },
        now,
      );
      return id;
    }),
  );
  return sectionView(db, id);
}

/** Changes a section's name, description, icon and colour; its counts and order stay. */
export async function updateSection(
  db: Db,
  viewer: Manager,
  id: number,
  input: SectionInput,
  now = new Date(),
): Promise<SectionManageView> {
  assertManager(viewer);
  await uniqueName(() =>
    db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('section')
        .select(['name', 'description', 'icon', 'color'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!before) throw sectionNotFound();
      await assertNameFree(trx, input.name, id);
      await trx
        .updateTable('section')
        .set({ ...input, updated_at: now.toISOString() })
        .where('id', '=', id)
        .execute();
      await writeAudit(
        trx,
        {
          actorId: viewer.id,
          action: 'section.update',
          targetType: 'section',
          targetId: id,
          detail: { before, after: input },
        },
        now,
      );
    }),
  );
  return sectionView(db, id);
}

/**
 * Puts the sections in the order given. The list must name every section once: a list made before a
 * section was added is refused (409), so nothing ends up in an order nobody chose.
 */
export async function orderSections(
  db: Db,
  viewer: Manager,
  ids: readonly number[],
  now = new Date(),
): Promise<SectionManageView[]> {
  assertManager(viewer);
  if (new Set(ids).size !== ids.length) throw new HttpError(400, 'VALIDATION_FAILED', 'sections.server.orderRepeats');
  await db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('section').select(['id', 'sort_order']).orderBy('id').execute();
    const known = new Set(rows.map((row) => row.id));
    if (rows.length !== ids.length || ids.some((id) => !known.has(id)))
      throw new HttpError(409, 'CONFLICT', 'sections.server.orderStale');
    const before = new Map(rows.map((row) => [row.id, row.sort_order]));
    const at = now.toISOString();
    for (const [index, id] of ids.entries()) {
      if (before.get(id) === index + 1) continue;
      await trx
        .updateTable('section')
        .set({ sort_order: index + 1, updated_at: at })
        .where('id', '=', id)
        .execute();
    }
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'section.update',
        targetType: 'section',
        targetId: 'order',
        detail: { order: ids },
      },
      now,
    );
  });
  return listManagedSections(db, viewer);
}

/** Finds a member by numeric id or name (any case). */
async function findMember(db: Db, key: string) {
  const byNumber = /^\d{1,10}$/.test(key)
    ? await db.selectFrom('users').select(['id', 'status']).where('user_id', '=', Number(key)).executeTakeFirst()
    : undefined;
  return (
    byNumber ??
    (await db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('name_key', '=', key.normalize('NFKC').toLowerCase())
      .executeTakeFirst())
  );
}

/** Appoints a member as a moderator of the section; appointing one twice changes nothing. */
export async function addModerator(
  db: Db,
  viewer: Manager,
  sectionId: number,
  memberKey: string,
  now = new Date(),
): Promise<SectionManageView> {
  assertManager(viewer);
  const member = await findMember(db, memberKey);
  if (!member) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  if (member.status !== 'active') throw new HttpError(400, 'VALIDATION_FAILED', 'sections.server.memberBanned');
  await db.transaction().execute(async (trx) => {
    // Locks the section, so two appointments count the moderators one after the other.
    const locked = await trx
      .updateTable('section')
      .set({ updated_at: now.toISOString() })
      .where('id', '=', sectionId)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) !== 1) throw sectionNotFound();
    const count = await trx
      .selectFrom('section_moderator')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('section_id', '=', sectionId)
      .executeTakeFirstOrThrow();
    const inserted = await trx
      .insertInto('section_moderator')
      .values({ section_id: sectionId, user_id: member.id, appointed_by: viewer.id, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['section_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return;
    if (Number(count.n) >= SECTION_MODERATORS_MAX)
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        messageRef('sections.server.tooManyModerators', { max: SECTION_MODERATORS_MAX }),
      );
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'section.moderators',
        targetType: 'section',
        targetId: sectionId,
        detail: { added: member.id },
      },
      now,
    );
  });
  return sectionView(db, sectionId);
}

/** Removes a moderator of the section (by numeric user id); removing one who is not changes nothing. */
export async function removeModerator(
  db: Db,
  viewer: Manager,
  sectionId: number,
  userNumber: number,
  now = new Date(),
): Promise<SectionManageView> {
  assertManager(viewer);
  await db.transaction().execute(async (trx) => {
    const section = await trx.selectFrom('section').select('id').where('id', '=', sectionId).executeTakeFirst();
    if (!section) throw sectionNotFound();
    const member = await trx.selectFrom('users').select('id').where('user_id', '=', userNumber).executeTakeFirst();
    if (!member) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    const deleted = await trx
      .deleteFrom('section_moderator')
      .where('section_id', '=', sectionId)
      .where('user_id', '=', member.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1)
      await writeAudit(
        trx,
        {
          actorId: viewer.id,
          action: 'section.moderators',
          targetType: 'section',
          targetId: sectionId,
          detail: { removed: member.id },
        },
        now,
      );
  });
  return sectionView(db, sectionId);
}

// ── Topics ────────────────────────────────────────────────────────────────────────────────────────

export interface TopicManageRequest extends PageRequest {
  keyword?: string | undefined;
}

/** Topics, most used first; a keyword matches names as topicKey compares them. */
export async function listManagedTopics(
  db: Db,
  viewer: Manager,
  request: TopicManageRequest,
): Promise<CommunityPage<TopicManageView>> {
  assertManager(viewer);
  const key = request.keyword ? topicKey(request.keyword.trim().replace(/^#+/, '')) : '';
  let base = db.selectFrom('topic');
  if (key) base = base.where(sql<boolean>`name_key like ${`%${escapeLike(key)}%`} escape '!'`);
  const { items, pagination } = await paginate(
    request,
    base.selectAll().orderBy('use_count', 'desc').orderBy('id'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return { items: items.map((row) => toTopicView(row)), pagination };
}

/**
 * Items whose own topic list (`topic_names`, as the author wrote them) names one of `keys`: the published
 * ones linked to the topics, and every draft (drafts have no links; they are read and filtered here).
 */
async function itemsNaming(trx: Trx, type: ContentType, topicIds: readonly number[], keys: ReadonlySet<string>) {
  const table = type === 'post' ? 'post' : 'article';
  const linked = await trx
    .selectFrom(table)
    .select(['id', 'topic_names'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('content_topic')
        .select('content_id')
        .where('content_type', '=', type)
        .where('topic_id', 'in', topicIds),
    )
    .execute();
  // Drafts and hidden items keep their topics by name only (no links): a restore links them again.
  const drafts = await trx
    .selectFrom(table)
    .select(['id', 'topic_names'])
    .where('status', 'in', ['draft', 'hidden'])
    .where('topic_names', '!=', '[]')
    .execute();
  const seen = new Set<number>();
  return [...linked, ...drafts].filter((row) => {
    if (seen.has(row.id)) return false;
    seen.add(row.id);
    return parseNames(row.topic_names).some((name) => keys.has(topicKey(name)));
  });
}

function parseNames(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Writes `to` for every name in `keys` in the items' own topic lists (each topic once), so a later save
 * of the item names the topic as it is now instead of bringing the old one back. Answers the items changed.
 */
async function renameInItems(trx: Trx, topicIds: readonly number[], keys: ReadonlySet<string>, to: string) {
  const changed: { type: ContentType; id: number }[] = [];
  for (const type of ['post', 'article'] as const) {
    for (const row of await itemsNaming(trx, type, topicIds, keys)) {
      const names: string[] = [];
      for (const name of parseNames(row.topic_names)) {
        const next = keys.has(topicKey(name)) ? to : name;
        if (!names.some((other) => topicKey(other) === topicKey(next))) names.push(next);
      }
      await trx
        .updateTable(type === 'post' ? 'post' : 'article')
        .set({ topic_names: JSON.stringify(names) })
        .where('id', '=', row.id)
        .execute();
      changed.push({ type, id: row.id });
    }
  }
  return changed;
}

export interface TopicInput {
  name: string;
  description: string;
  icon: string;
}

export interface TopicChange {
  topic: TopicManageView;
  /** Posts and articles whose topic list changed (their pages show it). */
  items: { type: ContentType; id: number }[];
}

/** Changes a topic's name, description and icon; a name another topic has is 409 NAME_IN_USE. */
export async function updateTopic(
  db: Db,
  viewer: Manager,
  id: number,
  input: TopicInput,
  now = new Date(),
): Promise<TopicChange> {
  assertManager(viewer);
  const items = await uniqueName(() =>
    db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('topic').select(['name', 'name_key']).where('id', '=', id).executeTakeFirst();
      if (!before) throw topicNotFound();
      const key = topicKey(input.name);
      const other = await trx
        .selectFrom('topic')
        .select('id')
        .where('name_key', '=', key)
        .where('id', '!=', id)
        .executeTakeFirst();
      if (other) throw nameInUse();
      const updated = await trx
        .updateTable('topic')
        .set({ ...input, name_key: key, updated_at: now.toISOString() })
        .where('id', '=', id)
        .executeTakeFirst();
      // Merged away meanwhile: nothing to rename (and nothing to audit).
      if (Number(updated.numUpdatedRows) !== 1) throw topicNotFound();
      // A name once merged away now belongs to this topic.
      await trx.deleteFrom('topic_alias').where('name_key', '=', key).execute();
      await writeAudit(
        trx,
        {
          actorId: viewer.id,
          action: 'topic.update',
          targetType: 'topic',
          targetId: id,
          detail: { before: { name: before.name }, after: input },
        },
        now,
      );
      return before.name === input.name ? [] : renameInItems(trx, [id], new Set([before.name_key]), input.name);
    }),
  );
  const row = await db.selectFrom('topic').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { topic: toTopicView(row), items };
}

/**
 * Merges topic `fromId` into `intoId` in one transaction: its posts and articles move to the other topic
 * (an item that had both keeps one link), its followers too (a member who followed both keeps one
 * follow), both counts are counted again from the rows, and `fromId` is removed, its name left as an
 * alias of the other (writing it later names the topic it went into). Both topics are locked
 * in id order first, so merges running at once wait for each other, and one that finds its topic gone
 * answers 404.
 */
export async function mergeTopic(
  db: Db,
  viewer: Manager,
  fromId: number,
  intoId: number,
  now = new Date(),
): Promise<TopicChange> {
  assertManager(viewer);
  if (fromId === intoId) throw new HttpError(400, 'VALIDATION_FAILED', 'sections.server.mergeSelf');
  const at = now.toISOString();
  const items = await db.transaction().execute(async (trx) => {
    for (const id of [fromId, intoId].sort((a, b) => a - b)) {
      const locked = await trx.updateTable('topic').set({ updated_at: at }).where('id', '=', id).executeTakeFirst();
      if (Number(locked.numUpdatedRows) !== 1) throw topicNotFound();
    }
    const from = await trx.selectFrom('topic').selectAll().where('id', '=', fromId).executeTakeFirstOrThrow();
    const into = await trx.selectFrom('topic').selectAll().where('id', '=', intoId).executeTakeFirstOrThrow();

    const moved = await trx
      .selectFrom('content_topic')
      .select(['content_type', 'content_id'])
      .where('topic_id', '=', fromId)
      .execute();
    const items = await renameInItems(trx, [fromId], new Set([from.name_key]), into.name);

    // Links: an item that has both topics keeps the one it has; the others move over.
    await trx
      .deleteFrom('content_topic')
      .where('topic_id', '=', fromId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('content_topic as other')
            .select('other.topic_id')
            .where('other.topic_id', '=', intoId)
            .whereRef('other.content_type', '=', 'content_topic.content_type')
            .whereRef('other.content_id', '=', 'content_topic.content_id'),
        ),
      )
      .execute();
    await trx.updateTable('content_topic').set({ topic_id: intoId }).where('topic_id', '=', fromId).execute();

    // Follows, the same way.
    await trx
      .deleteFrom('community_follow')
      .where('target_type', '=', 'topic')
      .where('target_id', '=', fromId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('community_follow as other')
            .select('other.user_id')
            .where('other.target_type', '=', 'topic')
            .where('other.target_id', '=', intoId)
            .whereRef('other.user_id', '=', 'community_follow.user_id'),
        ),
      )
      .execute();
    await trx
      .updateTable('community_follow')
      .set({ target_id: intoId })
      .where('target_type', '=', 'topic')
      .where('target_id', '=', fromId)
      .execute();

    const uses = await trx
      .selectFrom('content_topic')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('topic_id', '=', intoId)
      .executeTakeFirstOrThrow();
    const followers = await trx
      .selectFrom('community_follow')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target_type', '=', 'topic')
      .where('target_id', '=', intoId)
      .executeTakeFirstOrThrow();
    const lastUsed =
      [from.last_used_at, into.last_used_at]
        .filter((v): v is string => v !== null)
        .sort()
        .at(-1) ?? null;
    await trx
      .updateTable('topic')
      .set({ use_count: Number(uses.n), follower_count: Number(followers.n), last_used_at: lastUsed })
      .where('id', '=', intoId)
      .execute();
    // Its name (and the names merged into it before) now lead to the topic it went into.
    await trx.updateTable('topic_alias').set({ topic_id: intoId }).where('topic_id', '=', fromId).execute();
    await trx
      .insertInto('topic_alias')
      .values({ name_key: from.name_key, topic_id: intoId, merged_id: fromId, created_at: at })
      .onConflict((oc) => oc.column('name_key').doUpdateSet({ topic_id: intoId, merged_id: fromId, created_at: at }))
      .execute();
    await trx.deleteFrom('topic').where('id', '=', fromId).execute();
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'topic.merge',
        targetType: 'topic',
        targetId: intoId,
        detail: { from: { id: fromId, name: from.name }, into: { id: intoId, name: into.name }, items: moved.length },
      },
      now,
    );
    const all = new Map<string, { type: ContentType; id: number }>();
    for (const item of [...moved.map((row) => ({ type: row.content_type, id: row.content_id })), ...items])
      all.set(`${item.type}:${item.id}`, item);
    return [...all.values()];
  });
  const row = await db.selectFrom('topic').selectAll().where('id', '=', intoId).executeTakeFirstOrThrow();
  return { topic: toTopicView(row), items };
}

/** The topic a merged topic went into (its old address leads there), or null when `id` was never merged. */
export async function mergedInto(db: Db, id: number): Promise<number | null> {
  const row = await db.selectFrom('topic_alias').select('topic_id').where('merged_id', '=', id).executeTakeFirst();
  return row?.topic_id ?? null;
}
