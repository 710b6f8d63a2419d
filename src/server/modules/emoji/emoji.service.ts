import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import {
  EMOJI_SET_MAX_EMOJIS,
  EMOJI_SET_MAX_OLD_NAMES,
  EMOJI_SETS_PER_CREATOR,
  type AddEmojisBody,
  type EmojiSetSummary,
  type EmojiSetWithEmojis,
  type EmojiSource,
  type UpdateEmojiSetBody,
} from '../../../shared/emoji/emoji.ts';
import { messageRef, type MessageRef } from '../../../shared/i18n/index.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { nextId, reserveIds } from '../../db/ids.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { contentTypeForKey, StorageError, type Storage } from '../../platform/storage/storage.ts';
import { confirmStoredImage } from '../media/stored-image.ts';
import {
  canManageSet,
  findSetById,
  findSetByName,
  lockSet,
  lockSetOrder,
  setContents,
  setSummaries,
  setWithEmojis,
  touchSet,
  type EmojiViewer,
} from './emoji.repository.ts';
import type { EmojiSetRow } from './emoji.tables.ts';

/**
 * Emoji sets and their emojis (spec §7 Emoji). Reading sets needs a login, one emoji's source is public,
 * managing needs the creator group: a creator manages the sets they created, editors and above all of
 * them. Names are compared exactly as stored (NFC, case-sensitive), which is how a marker in a text is
 * looked up. A renamed set keeps its earlier names, so text written with them still shows its emojis;
 * no set can take a name another set has or had. Images are objects of our storage under
 * `emoji/{setId}/`, uploaded through POST /api/upload; deleting an emoji deletes its image once no
 * other emoji of the set shows it, after the deletion is committed (a failure there is only logged).
 */

export type { EmojiViewer } from './emoji.repository.ts';

/** What the emoji calls need: the database, the storage the images live in, and a log for cleanup failures. */
export interface EmojiDeps {
  db: Db;
  storage: Storage;
  logger: Pick<Logger, 'warn'>;
}

const setNotFound = (set: string | number) =>
  new HttpError(404, 'NOT_FOUND', messageRef('server.emoji.setNotFound', { set }));
/** `path`: the field that named it (`name` when creating, `updatedEmojiSet.name` when renaming). */
const setNameTaken = (name: string, path = 'name') =>
  new HttpError(
    409,
    'CONFLICT',
    messageRef('server.emoji.setNameTaken', { name }),
    fieldIssue(path, messageRef('server.emoji.setNameTaken', { name })),
  );

function assertCreatorGroup(viewer: EmojiViewer): void {
  if (!CREATOR_GROUPS.includes(viewer.group)) throw new HttpError(403, 'FORBIDDEN', 'server.emoji.creatorsOnly');
}

function assertCanManage(viewer: EmojiViewer, set: Pick<EmojiSetRow, 'created_by'>): void {
  if (!canManageSet(viewer, set)) throw new HttpError(403, 'FORBIDDEN', 'server.emoji.notYourSet');
}

/**
 * The set, when the caller may manage it: else 403 (outside the creator group), 404, or 403 (another
 * creator's set). Inside a write it is locked (`lock`), for the rest of the transaction.
 */
async function manageableSet(db: Db, viewer: EmojiViewer, id: number, lock = true): Promise<EmojiSetRow> {
  assertCreatorGroup(viewer);
  const set = lock ? await lockSet(db, id) : await findSetById(db, id);
  if (!set) throw setNotFound(id);
  assertCanManage(viewer, set);
  return set;
}

/**
 * Whether the caller may upload images for set `id` (POST /api/upload with `type: 'emoji'`): only into
 * the folder of a set they manage, so nobody fills another creator's set folder or one not made yet.
 */
export async function assertMayUploadEmoji(db: Db, viewer: EmojiViewer, id: string): Promise<void> {
  const setId = /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null;
  if (setId === null) throw setNotFound(id);
  await manageableSet(db, viewer, setId, false);
}

/** File names POST /api/upload makes (and the seed's `{name}.webp`): no dot first, no slash, no query. */
const IMAGE_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * The storage key of `src` when it is exactly the public address of an image uploaded for this set
 * (`emoji/{setId}/{file}`, as `storage.publicUrl` writes it), else null: another host, another set's
 * folder, dot segments, a query or a fragment never match.
 */
export function emojiImageKey(storage: Pick<Storage, 'publicUrl'>, setId: number, src: string): string | null {
  const folder = `emoji/${setId}/`;
  const prefix = storage.publicUrl(`${folder}x`).slice(0, -1);
  if (!src.startsWith(prefix)) return null;
  const file = src.slice(prefix.length);
  if (!IMAGE_FILE.test(file)) return null;
  const key = `${folder}${file}`;
  if (!contentTypeForKey(key)?.startsWith('image/')) return null;
  return storage.publicUrl(key) === src ? key : null;
}

/** Deletes images nothing shows any more; a failure leaves the object behind and is logged. */
async function deleteImages(deps: EmojiDeps, keys: readonly string[]): Promise<void> {
  for (const key of new Set(keys)) {
    await deps.storage
      .delete(key)
      .catch((error: unknown) => deps.logger.warn({ err: error, key }, 'emoji image not deleted'));
  }
}

/** Every set in picker order (members only: spec §6). */
export async function listEmojiSets(deps: Pick<EmojiDeps, 'db' | 'storage'>, viewer: EmojiViewer) {
  return setSummaries(deps.db, deps.storage, viewer);
}

/** One set and its emojis, by id or by any of its names (the id wins when both are given). */
export async function getEmojiSet(
  deps: Pick<EmojiDeps, 'db' | 'storage'>,
  viewer: EmojiViewer,
  by: { id?: number; name?: string },
): Promise<EmojiSetWithEmojis> {
  const set = by.id !== undefined ? await findSetById(deps.db, by.id) : await findSetByName(deps.db, by.name ?? '');
  const found = set && (await setWithEmojis(deps.db, deps.storage, viewer, set.id));
  if (!found) throw setNotFound(by.id ?? by.name ?? '');
  return found;
}

/** One emoji by the two parts of its code; the set may be named by an earlier name. */
export async function getEmojiSource(
  db: Db,
  storage: Pick<Storage, 'publicUrl'>,
  setName: string,
  emojiName: string,
): Promise<EmojiSource> {
  const row = await db
    .selectFrom('emoji_set_alias as a')
    .innerJoin('emoji_set as s', 's.id', 'a.emoji_set_id')
    .innerJoin('emoji as e', 'e.emoji_set_id', 's.id')
    .select(['e.id', 'e.name', 'e.image_key', 'e.position', 's.id as set_id', 's.name as set_name', 's.updated_at'])
    .where('a.name', '=', setName)
    .where('e.name', '=', emojiName)
    .executeTakeFirst();
  if (!row)
    throw new HttpError(
      404,
      'NOT_FOUND',
      messageRef('server.emoji.emojiNotFound', { code: `${setName}/${emojiName}` }),
    );
  return {
    id: row.id,
    name: row.name,
    src: storage.publicUrl(row.image_key),
    emojiSetId: row.set_id,
    order: row.position,
    code: `${row.set_name}/${row.name}`,
    setUpdatedAt: row.updated_at,
  };
}

/** Creates an empty set, last in order. Its name must not be a name or an earlier name of any set. */
export async function createEmojiSet(
  deps: Pick<EmojiDeps, 'db' | 'storage'>,
  viewer: EmojiViewer,
  name: string,
  now = new Date(),
): Promise<EmojiSetSummary> {
  assertCreatorGroup(viewer);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      // Taking the id locks the order of the sets until the commit (see lockSetOrder).
      const id = await nextId(trx, 'emoji_set_id');
      if (viewer.group === 'creator') {
        const own = await trx
          .selectFrom('emoji_set')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('created_by', '=', viewer.id)
          .executeTakeFirstOrThrow();
        if (Number(own.n) >= EMOJI_SETS_PER_CREATOR)
          throw new HttpError(409, 'CONFLICT', messageRef('server.emoji.tooManySets', { max: EMOJI_SETS_PER_CREATOR }));
      }
      await insertSet(trx, { id, name, createdBy: viewer.id }, now);
      const [summary] = await setSummaries(trx, deps.storage, viewer, id);
      if (!summary) throw setNotFound(id);
      return summary;
    });
  } catch (error) {
    // Another request took the name between our check and our insert.
    if (isUniqueViolation(error)) throw setNameTaken(name);
    throw error;
  }
}

/** Writes a new set, last in order, with its name; the caller holds the order lock (took the id). */
async function insertSet(trx: Db, set: { id: number; name: string; createdBy: string | null }, now: Date) {
  const taken = await trx
    .selectFrom('emoji_set_alias')
    .select('emoji_set_id')
    .where('name', '=', set.name)
    .executeTakeFirst();
  if (taken) throw setNameTaken(set.name);
  const sets = await trx
    .selectFrom('emoji_set')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const at = now.toISOString();
  await trx
    .insertInto('emoji_set')
    .values({
      id: set.id,
      name: set.name,
      position: Number(sets.n),
      created_by: set.createdBy,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx.insertInto('emoji_set_alias').values({ name: set.name, emoji_set_id: set.id, created_at: at }).execute();
}

/** Refuses names the set already has, and a batch that would take it past EMOJI_SET_MAX_EMOJIS. */
async function checkRoom(db: Db, setId: number, names: readonly string[]): Promise<number> {
  const { count, taken } = await setContents(db, setId, names);
  const first = taken[0];
  if (first !== undefined) {
    const message = messageRef('server.emoji.emojiNameTaken', { name: first });
    throw new HttpError(409, 'CONFLICT', message, fieldIssue(`emojis.${names.indexOf(first)}.name`, message));
  }
  if (count + names.length > EMOJI_SET_MAX_EMOJIS) {
    throw new HttpError(
      409,
      'CONFLICT',
      messageRef('server.emoji.setFull', {
        max: EMOJI_SET_MAX_EMOJIS,
        left: Math.max(0, EMOJI_SET_MAX_EMOJIS - count),
      }),
    );
  }
  return count;
}

/** The image of emoji `index` checked as confirmStoredImage does, its refusal as an answer naming the emoji. */
async function confirmImage(storage: Storage, key: string, index: number, name: string): Promise<void> {
  try {
    await confirmStoredImage(storage, key);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    const message =
      error.code === 'UPLOAD_INCOMPLETE'
        ? messageRef('server.emoji.imageNotUploaded', { name })
        : (error.message as MessageRef);
    throw new HttpError(error.status, error.code, message, fieldIssue(`emojis.${index}.src`, message));
  }
}

/**
 * Adds emojis at the end of a set, all or none. Each image must be one uploaded for this set and pass
 * the stored-image check; names must be new to the set and to the batch. The set's row is locked while
 * the names and the count are checked again and the rows written, so concurrent adds never pass the cap
 * or repeat a name (the unique index is the last word).
 */
export async function addEmojis(
  deps: EmojiDeps,
  viewer: EmojiViewer,
  body: AddEmojisBody,
  now = new Date(),
): Promise<EmojiSetWithEmojis> {
  const setId = body.emojiSetId;
  await manageableSet(deps.db, viewer, setId, false);
  const names = body.emojis.map((emoji) => emoji.name);
  for (const [index, name] of names.entries()) {
    if (names.indexOf(name) === index) continue;
    const message = messageRef('server.emoji.emojiNameRepeated', { name });
    throw new HttpError(409, 'CONFLICT', message, fieldIssue(`emojis.${index}.name`, message));
  }
  const keys = body.emojis.map((emoji, index) => {
    const key = emojiImageKey(deps.storage, setId, emoji.src);
    if (key) return key;
    const message = messageRef('server.emoji.srcNotOurs', { name: emoji.name, id: setId });
    throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue(`emojis.${index}.src`, message));
  });
  // Cheap refusals first: a batch that cannot fit costs no image checks.
  await checkRoom(deps.db, setId, names);
  // Images the set already shows were checked when they were added: checking them again would re-encode them.
  const inUse = await deps.db
    .selectFrom('emoji')
    .select('image_key')
    .where('emoji_set_id', '=', setId)
    .where('image_key', 'in', keys)
    .execute();
  const checked = new Set<string>(inUse.map((row) => row.image_key));
  for (const [index, key] of keys.entries()) {
    if (checked.has(key)) continue;
    await confirmImage(deps.storage, key, index, names[index] ?? '');
    checked.add(key);
  }

  try {
    return await deps.db.transaction().execute(async (trx) => {
      const set = await manageableSet(trx, viewer, setId);
      const count = await checkRoom(trx, setId, names);
      const firstId = await reserveIds(trx, 'emoji_id', names.length);
      const at = now.toISOString();
      await trx
        .insertInto('emoji')
        .values(
          body.emojis.map((emoji, index) => ({
            id: firstId + index,
            emoji_set_id: setId,
            name: emoji.name,
            image_key: keys[index] ?? '',
            position: count + index,
            created_at: at,
          })),
        )
        .execute();
      await touchSet(trx, set, now);
      const answer = await setWithEmojis(trx, deps.storage, viewer, setId);
      if (!answer) throw setNotFound(setId);
      return answer;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent add took a name first: name it.
    const { taken } = await setContents(deps.db, setId, names);
    const name = taken[0] ?? names[0] ?? '';
    const message = messageRef('server.emoji.emojiNameTaken', { name });
    throw new HttpError(409, 'CONFLICT', message, fieldIssue(`emojis.${names.indexOf(name)}.name`, message));
  }
}

/**
 * Deletes a set, its emojis and its names (which become free), closes the gap in the order, then deletes
 * the images. Uploads that never became an emoji stay in the set's folder (the storage cannot list).
 */
export async function deleteEmojiSet(deps: EmojiDeps, viewer: EmojiViewer, id: number): Promise<{ deleted: true }> {
  assertCreatorGroup(viewer);
  const keys = await deps.db.transaction().execute(async (trx) => {
    await lockSetOrder(trx);
    const set = await manageableSet(trx, viewer, id);
    const images = await trx.selectFrom('emoji').select('image_key').where('emoji_set_id', '=', id).execute();
    await trx.deleteFrom('emoji').where('emoji_set_id', '=', id).execute();
    await trx.deleteFrom('emoji_set_alias').where('emoji_set_id', '=', id).execute();
    await trx.deleteFrom('emoji_set').where('id', '=', id).execute();
    await trx
      .updateTable('emoji_set')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('position', '>', set.position)
      .execute();
    return images.map((row) => row.image_key);
  });
  await deleteImages(deps, keys);
  return { deleted: true };
}

/** Deletes one emoji of a set and closes the gap; answers the set as it is now. */
export async function deleteEmoji(
  deps: EmojiDeps,
  viewer: EmojiViewer,
  emojiId: number,
  setId: number,
  now = new Date(),
): Promise<EmojiSetWithEmojis> {
  assertCreatorGroup(viewer);
  const { answer, orphan } = await deps.db.transaction().execute(async (trx) => {
    const set = await manageableSet(trx, viewer, setId);
    const emoji = await trx
      .selectFrom('emoji')
      .select(['id', 'image_key', 'position'])
      .where('id', '=', emojiId)
      .where('emoji_set_id', '=', setId)
      .executeTakeFirst();
    if (!emoji) throw new HttpError(404, 'NOT_FOUND', messageRef('server.emoji.emojiNotInSet', { id: emojiId }));
    await trx.deleteFrom('emoji').where('id', '=', emojiId).execute();
    await trx
      .updateTable('emoji')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('emoji_set_id', '=', setId)
      .where('position', '>', emoji.position)
      .execute();
    await touchSet(trx, set, now);
    const sharing = await trx
      .selectFrom('emoji')
      .select('id')
      .where('emoji_set_id', '=', setId)
      .where('image_key', '=', emoji.image_key)
      .executeTakeFirst();
    const current = await setWithEmojis(trx, deps.storage, viewer, setId);
    if (!current) throw setNotFound(setId);
    return { answer: current, orphan: sharing ? null : emoji.image_key };
  });
  if (orphan) await deleteImages(deps, [orphan]);
  return answer;
}

const RENAME_FIELD = 'updatedEmojiSet.name';

/** Gives the set a new name; its earlier names keep leading to it. True when the name changed. */
async function renameSet(trx: Db, set: EmojiSetRow, name: string, now: Date): Promise<boolean> {
  if (name === set.name) return false;
  const owner = await trx
    .selectFrom('emoji_set_alias')
    .select('emoji_set_id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (owner && owner.emoji_set_id !== set.id) throw setNameTaken(name, RENAME_FIELD);
  if (!owner) {
    const names = await trx
      .selectFrom('emoji_set_alias')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('emoji_set_id', '=', set.id)
      .executeTakeFirstOrThrow();
    // The current name becomes one more earlier name.
    if (Number(names.n) > EMOJI_SET_MAX_OLD_NAMES)
      throw new HttpError(409, 'CONFLICT', messageRef('server.emoji.tooManyNames', { max: EMOJI_SET_MAX_OLD_NAMES }));
    await trx
      .insertInto('emoji_set_alias')
      .values({ name, emoji_set_id: set.id, created_at: now.toISOString() })
      .execute();
  }
  await trx.updateTable('emoji_set').set({ name }).where('id', '=', set.id).execute();
  return true;
}

/** Puts the set at `order` among the sets (past the end: last), renumbering all 0…n-1. True when it moved. */
async function moveSet(trx: Db, set: EmojiSetRow, order: number): Promise<boolean> {
  const sets = await trx.selectFrom('emoji_set').select(['id', 'position']).orderBy('position').orderBy('id').execute();
  const others = sets.filter((row) => row.id !== set.id);
  const target = Math.min(order, others.length);
  const ids = [...others.slice(0, target).map((row) => row.id), set.id, ...others.slice(target).map((row) => row.id)];
  const before = new Map(sets.map((row) => [row.id, row.position]));
  let moved = false;
  for (const [position, id] of ids.entries()) {
    if (before.get(id) === position) continue;
    await trx.updateTable('emoji_set').set({ position }).where('id', '=', id).execute();
    if (id === set.id) moved = true;
  }
  return moved;
}

/** Puts the set's emojis in the order of `emojiIds`, which must list each of them once. True when it changed. */
async function reorderEmojis(trx: Db, setId: number, emojiIds: readonly number[]): Promise<boolean> {
  const rows = await trx
    .selectFrom('emoji')
    .select(['id', 'position'])
    .where('emoji_set_id', '=', setId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const before = new Map(rows.map((row) => [row.id, row.position]));
  if (
    emojiIds.length !== rows.length ||
    new Set(emojiIds).size !== emojiIds.length ||
    !emojiIds.every((id) => before.has(id))
  )
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'server.emoji.orderMismatch',
      fieldIssue('updatedEmojiSet.emojiIds', 'server.emoji.orderMismatch'),
    );
  let changed = false;
  for (const [position, id] of emojiIds.entries()) {
    if (before.get(id) === position) continue;
    await trx.updateTable('emoji').set({ position }).where('id', '=', id).execute();
    changed = true;
  }
  return changed;
}

/**
 * Renames a set, moves it among the sets and/or reorders its emojis, in one transaction; `updatedAt`
 * moves forward when anything changed.
 */
export async function updateEmojiSet(
  deps: Pick<EmojiDeps, 'db' | 'storage'>,
  viewer: EmojiViewer,
  id: number,
  patch: UpdateEmojiSetBody['updatedEmojiSet'],
  now = new Date(),
): Promise<EmojiSetWithEmojis> {
  assertCreatorGroup(viewer);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      // The order lock first, as creations and deletions take it, so two writers never wait crosswise.
      if (patch.order !== undefined) await lockSetOrder(trx);
      const set = await manageableSet(trx, viewer, id);
      const renamed = patch.name !== undefined && (await renameSet(trx, set, patch.name, now));
      const moved = patch.order !== undefined && (await moveSet(trx, set, patch.order));
      const reordered = patch.emojiIds !== undefined && (await reorderEmojis(trx, id, patch.emojiIds));
      if (renamed || moved || reordered) await touchSet(trx, set, now);
      const answer = await setWithEmojis(trx, deps.storage, viewer, id);
      if (!answer) throw setNotFound(id);
      return answer;
    });
  } catch (error) {
    if (isUniqueViolation(error) && patch.name !== undefined) throw setNameTaken(patch.name, RENAME_FIELD);
    throw error;
  }
}

/**
 * The seed's (and an import's) way in: the set of this name, created when missing, with every emoji it
 * lacks stored under `emoji/{setId}/{name}.webp` and added at the end. Emojis it already has are left
 * as they are, so running it again changes nothing.
 */
export async function importEmojiSet(
  deps: { db: Db; storage: Storage },
  input: { name: string; createdBy: string | null; emojis: { name: string; webp: Uint8Array }[] },
  now = new Date(),
): Promise<{ setId: number; added: number }> {
  let set = await findSetByName(deps.db, input.name);
  if (!set) {
    set = await deps.db.transaction().execute(async (trx) => {
      const id = await nextId(trx, 'emoji_set_id');
      await insertSet(trx, { id, name: input.name, createdBy: input.createdBy }, now);
      return findSetById(trx, id);
    });
    if (!set) throw setNotFound(input.name);
  }
  const setId = set.id;
  const { taken } = await setContents(
    deps.db,
    setId,
    input.emojis.map((emoji) => emoji.name),
  );
  const missing = input.emojis.filter((emoji) => !taken.includes(emoji.name));
  for (const emoji of missing) await deps.storage.put(`emoji/${setId}/${emoji.name}.webp`, emoji.webp, 'image/webp');
  if (missing.length > 0) {
    await deps.db.transaction().execute(async (trx) => {
      const locked = await lockSet(trx, setId);
      if (!locked) throw setNotFound(setId);
      const { count } = await setContents(trx, setId, []);
      const firstId = await reserveIds(trx, 'emoji_id', missing.length);
      await trx
        .insertInto('emoji')
        .values(
          missing.map((emoji, index) => ({
            id: firstId + index,
            emoji_set_id: setId,
            name: emoji.name,
            image_key: `emoji/${setId}/${emoji.name}.webp`,
            position: count + index,
            created_at: now.toISOString(),
          })),
        )
        .execute();
      await touchSet(trx, locked, now);
    });
  }
  return { setId, added: missing.length };
}
