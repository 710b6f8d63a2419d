import { sql } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import {
  COMMUNITY_RATE_LIMITS,
  EDIT_GRACE_MS,
  EXCERPT_MAX,
  isModerator,
  type ContentStatus,
  type ContentType,
  type WorkRef,
} from '../../../shared/community/community.ts';
import { showsNothing } from '../../../shared/visible-text.ts';
import { messageRef, type MessageKey, type MessageRef } from '../../../shared/i18n/index.ts';
import type { Db, Trx } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';
import { writeAudit } from '../moderation/audit-log.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { hitRateLimit, peekRateLimit, rateLimited, releaseRateLimit } from '../../platform/rate-limit.ts';
import { contentTypeForKey, isValidKey, StorageError, type Storage } from '../../platform/storage/storage.ts';
import type { TargetRegistry } from '../../platform/targets/targets.ts';
import { confirmStoredImage } from '../media/stored-image.ts';
import { notifyLater, type NotifyDeps } from '../notifications/notifications.queue.ts';
import { tableOf } from './community.repository.ts';
import { moderatesSection } from './sections.manage.ts';
import { ensureTopics } from './topics.service.ts';

/**
 * What posts and articles share when they are written: who may see and change them, the write limits,
 * images of our image bed, sections and works named, and the counts that move when an item is
 * published, edited or deleted (the author's, the section's and the topics'), all in the transaction
 * that changes the item. Locks are always taken in one order (the item, its author, sections by id,
 * topics by id), so two writers never wait on each other crosswise.
 */

/** What writing posts and articles needs: the database, the storage images live in, the target registry. */
export interface CommunityDeps {
  db: Db;
  storage: Storage;
  targets: TargetRegistry;
}

/** The caller of a write: a member who is signed in (banned accounts are refused at sign-in). */
export interface ContentViewer {
  id: string;
  group: UserGroup;
}

/** The columns of either table that the rules below read. */
export interface ContentState {
  id: number;
  user_id: string;
  status: ContentStatus;
  section_id: number | null;
  version: number;
  published_at: string | null;
  edited_at: string | null;
}

/**
 * Published items for everyone; drafts, and items moderators hid, for their author and the moderators
 * (editors and above) only; deleted ones for nobody.
 */
export function canSee(row: Pick<ContentState, 'status' | 'user_id'>, viewer: ContentViewer | null): boolean {
  if (row.status === 'published') return true;
  if ((row.status !== 'draft' && row.status !== 'hidden') || !viewer) return false;
  return viewer.id === row.user_id || isModerator(viewer.group);
}

/**
 * Who pins, features and deletes others' items: staff everywhere, a section moderator in their section
 * only (an item moved out of it is out of their reach), and never on an item of staff.
 */
export async function moderates(
  db: Db,
  viewer: ContentViewer,
  row: Pick<ContentState, 'section_id' | 'user_id'>,
): Promise<boolean> {
  if (isModerator(viewer.group)) return true;
  if (!(await moderatesSection(db, viewer.id, row.section_id))) return false;
  const author = await db.selectFrom('users').select('user_group').where('id', '=', row.user_id).executeTakeFirst();
  return !author || !isModerator(author.user_group);
}

const notFound = (type: ContentType) =>
  new HttpError(
    404,
    'NOT_FOUND',
    type === 'post' ? 'server.community.postNotFound' : 'server.community.articleNotFound',
  );

export const contentNotFound = notFound;

const hiddenByModerators = () => new HttpError(409, 'CONFLICT', 'server.community.hiddenByModerators');

const conflict = (current: number) =>
  new HttpError(409, 'CONTENT_CONFLICT', messageRef('server.community.versionConflict', { current }));

// ── Write limits ──────────────────────────────────────────────────────────────────────────────────

export type LimitName = keyof typeof COMMUNITY_RATE_LIMITS;
const LIMIT_MESSAGES: Record<LimitName, MessageKey> = {
  create: 'server.community.createTooFast',
  publish: 'server.community.publishTooFast',
  save: 'server.community.saveTooFast',
};

const limitKey = (name: LimitName, userId: string) => `community:${name}:${userId}`;
const limitReached = (name: LimitName, retryAfter: number) =>
  rateLimited(retryAfter, messageRef(LIMIT_MESSAGES[name], { max: COMMUNITY_RATE_LIMITS[name].limit }));

/** Counts one hit on each named limit; over any of them, the hits just taken are given back and 429 answers. */
export async function hitWriteLimits(db: Db, userId: string, names: readonly LimitName[], now: Date): Promise<void> {
  const taken: LimitName[] = [];
  for (const name of names) {
    const rule = COMMUNITY_RATE_LIMITS[name];
    const state = await hitRateLimit(db, limitKey(name, userId), rule, now.getTime());
    if (state.count > rule.limit) {
      await releaseWriteLimits(db, userId, [...taken, name], now);
      throw limitReached(name, state.retryAfter);
    }
    taken.push(name);
  }
}

/** Gives back one hit on each named limit, taken at `now` by a write that then wrote nothing. */
export async function releaseWriteLimits(
  db: Db,
  userId: string,
  names: readonly LimitName[],
  now: Date,
): Promise<void> {
  for (const name of names)
    await releaseRateLimit(db, limitKey(name, userId), COMMUNITY_RATE_LIMITS[name], now.getTime());
}

/**
 * Refuses at once (429) when one of the named limits is already used up, without counting a hit: costly
 * work before the limits are hit (rendering an article body) is not done for a writer who cannot save.
 */
export async function refuseWhenLimited(db: Db, userId: string, names: readonly LimitName[], now: Date): Promise<void> {
  for (const name of names) {
    const state = await peekRateLimit(db, limitKey(name, userId), COMMUNITY_RATE_LIMITS[name], now.getTime());
    if (state.count >= COMMUNITY_RATE_LIMITS[name].limit) throw limitReached(name, state.retryAfter);
  }
}

// ── Images of our image bed ───────────────────────────────────────────────────────────────────────

const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const IMAGE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Does `url` lead to our image bed, however it is spelled? Compared parsed, as browsers will read it. */
function onImageBed(bed: string, url: string): boolean {
  try {
    const base = new URL(bed);
    const parsed = new URL(url);
    return parsed.origin === base.origin && parsed.pathname.startsWith(base.pathname);
  } catch {
    return false;
  }
}

/**
 * The storage key of `url` when it is on our image bed: `{kind}/{id}/{file}` as POST /api/upload makes
 * them for this kind, exactly as `storage.publicUrl` writes it. Null when the address is elsewhere
 * (`allowForeign`); anything else on our image bed, or elsewhere when not allowed, is refused.
 */
export function ourImageKey(
  storage: Pick<Storage, 'publicUrl'>,
  url: string,
  kind: ContentType,
  field: string,
  allowForeign: boolean,
): string | null {
  const bed = storage.publicUrl('x').slice(0, -1);
  const refuse = () => {
    const message = messageRef('server.community.imageNotOurs', {
      url,
      label: `server.community.kind.${kind}`,
    });
    return new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(field, message));
  };
  if (!onImageBed(bed, url)) {
    if (allowForeign) return null;
    throw refuse();
  }
  // Another spelling of our address (upper-case host, dot segments…) is refused below, not let through.
  const key = url.startsWith(bed) ? url.slice(bed.length) : '';
  const [folder, id, file, ...rest] = key.split('/');
  if (
    folder !== kind ||
    rest.length > 0 ||
    !UPLOAD_ID.test(id ?? '') ||
    !IMAGE_FILE.test(file ?? '') ||
    !isValidKey(key) ||
    !contentTypeForKey(key)?.startsWith('image/') ||
    storage.publicUrl(key) !== url
  )
    throw refuse();
  return key;
}

/**
 * Checks each image the first time a published item shows it (confirmStoredImage: uploaded, within the
 * limits, really an image), its refusal as an answer naming the image.
 */
export async function confirmImages(storage: Storage, images: readonly { key: string; url: string }[]) {
  for (const { key, url } of images) {
    try {
      await confirmStoredImage(storage, key);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      const message: MessageRef =
        error.code === 'UPLOAD_INCOMPLETE'
          ? messageRef('server.community.imageNotUploaded', { url })
          : (error.message as MessageRef);
      throw new HttpError(error.status, error.code, message);
    }
  }
}

// ── Text ──────────────────────────────────────────────────────────────────────────────────────────

/** Plain text on one line, at most EXCERPT_MAX characters (whole code points). */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= EXCERPT_MAX ? flat : `${chars.slice(0, EXCERPT_MAX - 1).join('')}…`;
}

// ── What a save names: section, works ─────────────────────────────────────────────────────────────

export async function checkSection(db: Db, sectionId: number | null): Promise<void> {
  if (sectionId === null) return;
  const found = await db.selectFrom('section').select('id').where('id', '=', sectionId).executeTakeFirst();
  if (!found)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.community.sectionNotFound',
      fieldIssue('sectionId', 'server.community.sectionNotFound'),
    );
}

/** Each work must be of a registered type and visible to the author. */
export async function checkWorks(
  deps: Pick<CommunityDeps, 'db' | 'targets'>,
  viewer: ContentViewer,
  works: readonly WorkRef[],
  field = 'works',
): Promise<void> {
  for (const [index, work] of works.entries()) {
    const path = works.length === 1 && field !== 'works' ? field : `${field}.${index}`;
    if (!deps.targets.has(work.type)) {
      const message = messageRef('server.community.workTypeUnavailable', { type: work.type });
      throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(path, message));
    }
    const found = await deps.targets.find(deps.db, work.type, [work.id], viewer);
    if (!found.has(work.id)) {
      const message = messageRef('server.community.workNotFound', { type: work.type, id: work.id });
      throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(path, message));
    }
  }
}

/** Publishing needs a title that shows something, and a section (drafts may leave both empty). */
export function checkPublishable(draft: { title: string; sectionId: number | null }): void {
  if (showsNothing(draft.title))
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.community.titleRequired',
      fieldIssue('title', 'server.community.titleRequired'),
    );
  if (draft.sectionId === null)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.community.sectionRequired',
      fieldIssue('sectionId', 'server.community.sectionRequired'),
    );
}

// ── Counts ────────────────────────────────────────────────────────────────────────────────────────

interface CountState {
  published: boolean;
  sectionId: number | null;
  topicIds: readonly number[];
}

const counterOf = (type: ContentType) => (type === 'post' ? 'post_count' : 'article_count');

/** Adds `delta` to a count column, never below zero. */
async function bump(trx: Db, table: 'users' | 'section' | 'topic', column: string, id: string | number, delta: number) {
  const ref = sql.ref(column);
  await sql`update ${sql.table(table)} set ${ref} = case when ${ref} + ${delta} < 0 then 0 else ${ref} + ${delta} end where id = ${id}`.execute(
    trx,
  );
}

/**
 * Moves the counts from what the item was to what it is now: the author's and the sections' post or
 * article counts and the topics' use counts (topics newly given get `last_used_at`), and rewrites the
 * item's topic links when they changed.
 */
export async function moveCounts(
  trx: Trx,
  item: { type: ContentType; id: number; authorId: string },
  before: CountState,
  after: CountState,
  now: Date,
): Promise<void> {
  const column = counterOf(item.type);
  const authorDelta = Number(after.published) - Number(before.published);
  if (authorDelta !== 0) await bump(trx, 'users', column, item.authorId, authorDelta);

  const sections = new Map<number, number>();
  if (before.published && before.sectionId !== null) sections.set(before.sectionId, -1);
  if (after.published && after.sectionId !== null)
    sections.set(after.sectionId, (sections.get(after.sectionId) ?? 0) + 1);
  for (const [id, delta] of [...sections].sort((a, b) => a[0] - b[0]))
    if (delta !== 0) await bump(trx, 'section', column, id, delta);

  // Two names may name one topic (a merged topic's name leads to the one it went into): each counts once.
  const was = before.published ? [...new Set(before.topicIds)] : [];
  const is = after.published ? [...new Set(after.topicIds)] : [];
  const topics = new Map<number, number>();
  for (const id of was) topics.set(id, -1);
  for (const id of is) topics.set(id, (topics.get(id) ?? 0) + 1);
  const at = now.toISOString();
  for (const [id, delta] of [...topics].sort((a, b) => a[0] - b[0])) {
    if (delta === 0) continue;
    await bump(trx, 'topic', 'use_count', id, delta);
    if (delta > 0) await trx.updateTable('topic').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  if (was.length !== is.length || was.some((id, i) => is[i] !== id)) {
    await trx
      .deleteFrom('content_topic')
      .where('content_type', '=', item.type)
      .where('content_id', '=', item.id)
      .execute();
    if (is.length > 0)
      await trx
        .insertInto('content_topic')
        .values(
          is.map((topicId, position) => ({
            content_type: item.type,
            content_id: item.id,
            topic_id: topicId,
            position,
          })),
        )
        .execute();
  }
}

async function linkedTopicIds(db: Db, type: ContentType, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('content_topic')
    .select('topic_id')
    .where('content_type', '=', type)
    .where('content_id', '=', id)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.topic_id);
}

async function replaceWorks(trx: Trx, type: ContentType, id: number, works: readonly WorkRef[]): Promise<void> {
  await trx.deleteFrom('content_work').where('content_type', '=', type).where('content_id', '=', id).execute();
  if (works.length > 0)
    await trx
      .insertInto('content_work')
      .values(
        works.map((work, position) => ({
          content_type: type,
          content_id: id,
          work_type: work.type,
          work_id: work.id,
          position,
        })),
      )
      .execute();
}

// ── Saving ────────────────────────────────────────────────────────────────────────────────────────

/** What one save of a post or article brings, as its kind's service prepared it. */
export interface ContentDraft<Columns> {
  title: string;
  sectionId: number | null;
  topics: readonly string[];
  works: readonly WorkRef[];
  excerpt: string;
  /** Our images the item shows after this save. */
  images: readonly { key: string; url: string }[];
  /** Title and body in one string: a change of it after the grace period marks the item edited. */
  fingerprint: string;
  /** The kind's own columns. */
  columns: Columns;
}

/** The columns every save writes. */
export interface SavedColumns {
  title: string;
  section_id: number | null;
  excerpt: string;
  topic_names: string;
  status: ContentStatus;
  published_at: string | null;
  edited_at: string | null;
  updated_at: string;
}

/** How a kind reads and writes its own rows. */
export interface ContentKind<Row extends ContentState, Columns> {
  type: ContentType;
  find: (db: Db, id: number) => Promise<Row | undefined>;
  /** The fingerprint and images of a saved row (ContentDraft's, for comparison). */
  fingerprintOf: (row: Row) => string;
  imageUrlsOf: (row: Row) => string[];
  insert: (
    trx: Trx,
    row: SavedColumns & Columns & { id: number; user_id: string; version: number; created_at: string },
  ) => Promise<void>;
  update: (trx: Trx, id: number, row: SavedColumns & Columns) => Promise<void>;
}

function savedColumns<C>(
  draft: ContentDraft<C>,
  status: ContentStatus,
  publishedAt: string | null,
  editedAt: string | null,
  now: Date,
) {
  return {
    title: draft.title,
    section_id: draft.sectionId,
    excerpt: draft.excerpt,
    topic_names: JSON.stringify(draft.topics),
    status,
    published_at: publishedAt,
    edited_at: editedAt,
    updated_at: now.toISOString(),
    ...draft.columns,
  };
}

/** Checks what a save names; publishing checks everything a draft may skip. */
async function checkDraft<C>(deps: CommunityDeps, viewer: ContentViewer, draft: ContentDraft<C>, publish: boolean) {
  if (publish) checkPublishable(draft);
  await checkSection(deps.db, draft.sectionId);
  await checkWorks(deps, viewer, draft.works);
}

/** Creates a post or article as a draft or published; answers its id. */
export async function createContent<Row extends ContentState, C>(
  deps: CommunityDeps,
  viewer: ContentViewer,
  kind: ContentKind<Row, C>,
  draft: ContentDraft<C>,
  publish: boolean,
  now: Date,
): Promise<number> {
  await checkDraft(deps, viewer, draft, publish);
  const limits: LimitName[] = publish ? ['create', 'save', 'publish'] : ['create', 'save'];
  await hitWriteLimits(deps.db, viewer.id, limits, now);
  return givenBackOnFailure(deps.db, viewer.id, limits, now, async () => {
    if (publish) await confirmImages(deps.storage, draft.images);
    const topicIds = publish ? await ensureTopics(deps.db, draft.topics, now) : [];
    const at = now.toISOString();
    return deps.db.transaction().execute(async (trx) => {
      const id = await nextId(trx, `${kind.type}_id`);
      const status = publish ? 'published' : 'draft';
      await kind.insert(trx, {
        ...savedColumns(draft, status, publish ? at : null, null, now),
        id,
        user_id: viewer.id,
        version: 1,
        created_at: at,
      });
      await replaceWorks(trx, kind.type, id, draft.works);
      if (publish)
        await moveCounts(
          trx,
          { type: kind.type, id, authorId: viewer.id },
          { published: false, sectionId: null, topicIds: [] },
          { published: true, sectionId: draft.sectionId, topicIds },
          now,
        );
      return id;
    });
  });
}

/**
 * Runs what follows the hits on the write limits; when it fails (a save that lost the version race to
 * another tab, a slug taken meanwhile, an image not uploaded) nothing was written, so the hits are given
 * back: a double click or a retry never uses up the writer's allowance.
 */
async function givenBackOnFailure<T>(
  db: Db,
  userId: string,
  limits: readonly LimitName[],
  now: Date,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await releaseWriteLimits(db, userId, limits, now);
    throw error;
  }
}

/** The item when the viewer may see it, else 404. */
export async function visibleContent<Row extends ContentState>(
  db: Db,
  kind: Pick<ContentKind<Row, unknown>, 'type' | 'find'>,
  id: number,
  viewer: ContentViewer | null,
): Promise<Row> {
  const row = await kind.find(db, id);
  if (!row || !canSee(row, viewer)) throw notFound(kind.type);
  return row;
}

/**
 * Saves the author's post or article from `version`. A published item stays published (`publish` must
 * be true); a draft saved with `publish` is published. A save from another version changes nothing
 * (409 CONTENT_CONFLICT), and every save adds one to the version.
 */
export async function updateContent<Row extends ContentState, C>(
  deps: CommunityDeps,
  viewer: ContentViewer,
  kind: ContentKind<Row, C>,
  id: number,
  draft: ContentDraft<C>,
  options: { publish: boolean; version: number },
  now: Date,
): Promise<void> {
  const row = await visibleContent(deps.db, kind, id, viewer);
  if (row.user_id !== viewer.id) throw new HttpError(403, 'FORBIDDEN', 'server.community.notYourContent');
  // A save would publish it again: what moderators hid stays as it is until they restore it.
  if (row.status === 'hidden') throw hiddenByModerators();
  const wasPublished = row.status === 'published';
  if (wasPublished && !options.publish)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.community.cannotUnpublish',
      fieldIssue('publish', 'server.community.cannotUnpublish'),
    );
  if (options.version !== row.version) throw conflict(row.version);
  const publish = options.publish;
  await checkDraft(deps, viewer, draft, publish);
  const limits: LimitName[] = publish && !wasPublished ? ['save', 'publish'] : ['save'];
  await hitWriteLimits(deps.db, viewer.id, limits, now);
  await givenBackOnFailure(deps.db, viewer.id, limits, now, async () => {
    if (publish) {
      // Images a published item already showed were checked then.
      const shown = new Set(wasPublished ? kind.imageUrlsOf(row) : []);
      await confirmImages(
        deps.storage,
        draft.images.filter((image) => !shown.has(image.url)),
      );
    }
    const topicIds = publish ? await ensureTopics(deps.db, draft.topics, now) : [];
    const at = now.toISOString();
    await deps.db.transaction().execute(async (trx) => {
      // The version moves first: this takes the item's lock, and a save that lost the race stops here.
      const moved = await trx
        .updateTable(tableOf(kind.type))
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .where('version', '=', row.version)
        .where('status', 'in', ['draft', 'published'])
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) {
        const current = await trx
          .selectFrom(tableOf(kind.type))
          .select(['version', 'status'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!current || current.status === 'deleted') throw notFound(kind.type);
        if (current.status === 'hidden') throw hiddenByModerators();
        throw conflict(current.version);
      }
      const publishedAt = row.published_at ?? (publish ? at : null);
      const late = publishedAt !== null && now.getTime() - new Date(publishedAt).getTime() > EDIT_GRACE_MS;
      const editedAt = wasPublished && late && kind.fingerprintOf(row) !== draft.fingerprint ? at : row.edited_at;
      await kind.update(trx, id, savedColumns(draft, publish ? 'published' : 'draft', publishedAt, editedAt, now));
      await replaceWorks(trx, kind.type, id, draft.works);
      await moveCounts(
        trx,
        { type: kind.type, id, authorId: row.user_id },
        {
          published: wasPublished,
          sectionId: row.section_id,
          topicIds: wasPublished ? await linkedTopicIds(trx, kind.type, id) : [],
        },
        { published: publish, sectionId: draft.sectionId, topicIds },
        now,
      );
    });
  });
}

/** Deletes softly: the item disappears for everyone and its counts leave its author, section and topics. */
export async function deleteContent<Row extends ContentState>(
  deps: Pick<CommunityDeps, 'db'> & NotifyDeps,
  viewer: ContentViewer,
  kind: Pick<ContentKind<Row, unknown>, 'type' | 'find'>,
  id: number,
  now: Date,
): Promise<void> {
  const row = await visibleContent(deps.db, kind, id, viewer);
  if (row.user_id !== viewer.id && !(await moderates(deps.db, viewer, row)))
    throw new HttpError(403, 'FORBIDDEN', 'server.community.deleteForbidden');
  await deps.db.transaction().execute(async (trx) => {
    const table = tableOf(kind.type);
    // Locks the item, then reads what it is now (it may have been published meanwhile).
    const locked = await trx
      .updateTable(table)
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('status', '!=', 'deleted')
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) !== 1) throw notFound(kind.type);
    const current = await trx
      .selectFrom(table)
      .select(['status', 'section_id', 'user_id', 'title'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // A section moderator's reach is checked again on the locked row: the item may have moved section.
    if (current.user_id !== viewer.id && !(await moderates(trx, viewer, current)))
      throw new HttpError(403, 'FORBIDDEN', 'server.community.deleteForbidden');
    const wasPublished = current.status === 'published';
    await trx
      .updateTable(table)
      .set({ status: 'deleted', updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
    // A deleted article's slug becomes free: its address leads nowhere now.
    if (kind.type === 'article') await trx.updateTable('article').set({ slug: null }).where('id', '=', id).execute();
    await moveCounts(
      trx,
      { type: kind.type, id, authorId: current.user_id },
      {
        published: wasPublished,
        sectionId: current.section_id,
        topicIds: wasPublished ? await linkedTopicIds(trx, kind.type, id) : [],
      },
      { published: false, sectionId: null, topicIds: [] },
      now,
    );
    if (current.user_id !== viewer.id) {
      await notifyLater(deps, trx, {
        kind: 'moderation',
        recipientId: current.user_id,
        moderatorId: viewer.id,
        targetType: kind.type,
        targetId: id,
        action: 'delete',
        title: current.title,
        at: now.toISOString(),
      });
      // Deleting someone else's item is a moderator's action: the audit log keeps it.
      await writeAudit(
        trx,
        {
          actorId: viewer.id,
          action: 'content.delete',
          targetType: kind.type,
          targetId: id,
          detail: { title: current.title },
        },
        now,
      );
    }
  });
  deps.jobs.poke();
}

/** Pins or features a published item (moderators); its author's version is left alone. */
export async function moderateContent<Row extends ContentState>(
  deps: Pick<CommunityDeps, 'db'> & NotifyDeps,
  viewer: ContentViewer,
  kind: Pick<ContentKind<Row, unknown>, 'type' | 'find'>,
  id: number,
  change: { pinned?: boolean | undefined; featured?: boolean | undefined },
  now = new Date(),
): Promise<void> {
  const row = await visibleContent(deps.db, kind, id, viewer);
  if (!(await moderates(deps.db, viewer, row)))
    throw new HttpError(403, 'FORBIDDEN', 'server.community.moderatorsOnly');
  if (row.status !== 'published') throw new HttpError(400, 'VALIDATION_FAILED', 'server.community.moderateUnpublished');
  const set: { pinned?: number; featured?: number } = {};
  if (change.pinned !== undefined) set.pinned = change.pinned ? 1 : 0;
  if (change.featured !== undefined) set.featured = change.featured ? 1 : 0;
  const table = tableOf(kind.type);
  await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom(table)
      .select(['pinned', 'featured', 'user_id', 'title', 'section_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (before && !(await moderates(trx, viewer, before)))
      throw new HttpError(403, 'FORBIDDEN', 'server.community.moderatorsOnly');
    const updated = await trx
      .updateTable(table)
      .set(set)
      .where('id', '=', id)
      .where('status', '=', 'published')
      .executeTakeFirst();
    if (!before || Number(updated.numUpdatedRows) !== 1) throw notFound(kind.type);
    // The author hears of a pin or a feature it did not have (taking one back tells nobody).
    const granted = [
      ...(set.pinned === 1 && before.pinned !== 1 ? (['pin'] as const) : []),
      ...(set.featured === 1 && before.featured !== 1 ? (['feature'] as const) : []),
    ];
    for (const action of granted)
      await notifyLater(deps, trx, {
        kind: 'moderation',
        recipientId: before.user_id,
        moderatorId: viewer.id,
        targetType: kind.type,
        targetId: id,
        action,
        title: before.title,
        at: now.toISOString(),
      });
    await writeAudit(
      trx,
      {
        actorId: viewer.id,
        action: 'content.moderate',
        targetType: kind.type,
        targetId: id,
        detail: {
          title: before.title,
          before: { pinned: before.pinned === 1, featured: before.featured === 1 },
          after: change,
        },
      },
      now,
    );
  });
  deps.jobs.poke();
}
