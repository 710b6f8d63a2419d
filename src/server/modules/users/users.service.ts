import {
  DEFAULT_USER_SETTING,
  type ProfileUpdate,
  type PublicUser,
  type SessionUser,
  type UserGroup,
  type UserSetting,
  userSettingSchema,
} from '../../../shared/auth.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from './users.tables.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import { isUniqueViolation } from '../../db/db-errors.ts';
import { wholeSecond } from '../auth/tokens.ts';
import { newId, nextId } from '../../db/ids.ts';
import { DECIMAL_ID, normaliseName } from '../../../shared/input-rules.ts';
import { nameSkeleton } from './name-skeleton.ts';
import { hasHiddenCharacter } from '../../../shared/visible-text.ts';
import { changePoints } from '../points/points.service.ts';
import { currentStreak } from '../../../shared/checkin/checkin-model.ts';
import { siteToday } from '../../../shared/site-day.ts';
import { type SessionEvents } from '../auth/auth.events.ts';

export function parseUserSetting(json: string): Required<UserSetting> {
  try {
    const parsed = userSettingSchema.safeParse(JSON.parse(json));
    return { ...DEFAULT_USER_SETTING, ...(parsed.success ? parsed.data : {}) };
  } catch {
    return { ...DEFAULT_USER_SETTING };
  }
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    _id: row.id,
    userId: row.user_id,
    name: row.name,
    avatar: row.avatar,
    headCover: row.head_cover,
    signature: row.signature,
    bio: row.bio,
    followerCount: row.follower_count,
    followingCount: row.following_count,
    postCount: row.post_count,
    articleCount: row.article_count,
    createdAt: row.created_at,
    hikariUserGroup: row.user_group,
  };
}

export function toSessionUser(row: UserRow, refreshTokenExpiry: string): SessionUser {
  return {
    ...toPublicUser(row),
    isLogin: true,
    email: row.email,
    refreshTokenExpiry,
    isLoginStatusExpiry: false,
    userSetting: parseUserSetting(row.user_setting),
    hikariPoint: row.hikari_point,
    status: row.status,
    // The run counted while it can still go on (to yesterday or today), as the check-in status says.
    checkInStreak: currentStreak(row.check_in_streak, row.check_in_streak_end, siteToday()),
    longestCheckInStreak: row.longest_check_in_streak,
    lastCheckInAt: row.last_check_in_at,
  };
}

export const nameKey = (name: string) => name.normalize('NFKC').toLowerCase();

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By user name (any case) or email. */
export async function findUserByAccount(db: Db, account: string): Promise<UserRow | undefined> {
  const value = account.trim();
  const column = value.includes('@') ? 'email' : 'name_key';
  return db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', column === 'email' ? value.toLowerCase() : nameKey(value))
    .executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** Is the name, any case or any look-alike spelling of it (same confusable skeleton), someone else's? */
export async function isNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('name_skeleton', '=', nameSkeleton(name));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * Names come through the shared name rule (nameField) on every way in; a caller that skipped it (a
 * script, the seed) still cannot store one that hides characters, as it would draw like another's.
 */
function refuseHiddenCharacters(name: string): void {
  if (hasHiddenCharacter(name)) {
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'validation.name.invisible',
      fieldIssue('name', 'validation.name.invisible'),
    );
  }
}

export async function isEmailTaken(db: Db, email: string): Promise<boolean> {
  return (await findUserByEmail(db, email)) !== undefined;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  group?: UserGroup;
  hikariPoint?: number;
  avatar?: string;
  signature?: string;
  bio?: string;
}

/**
 * Creates a user with the next numeric userId. The name (any case or look-alike) and email must be free.
 * Starting points are granted through the ledger, in the same transaction as the account.
 */
export async function createUser(db: Db, input: NewUser, now = new Date()): Promise<UserRow> {
  const points = input.hikariPoint ?? 0;
  if (points !== 0) {
    if (!db.isTransaction) return db.transaction().execute((trx) => createUser(trx, input, now));
    const user = await createUser(db, { ...input, hikariPoint: 0 }, now);
    const { balance, seq } = await changePoints(db, { userId: user.id, amount: points, reason: 'grant' }, now);
    return { ...user, hikari_point: balance, point_seq: seq };
  }
  const userId = await nextId(db, 'user_id');
  const at = now.toISOString();
  const name = normaliseName(input.name.trim());
  refuseHiddenCharacters(name);
  try {
    return await db
      .insertInto('users')
      .values({
        id: newId(),
        user_id: userId,
        name,
        name_key: nameKey(name),
        name_skeleton: nameSkeleton(name),
        email: input.email.toLowerCase(),
        password_hash: input.passwordHash,
        user_group: input.group ?? 'user',
        avatar: input.avatar ?? '',
        signature: input.signature ?? '',
        bio: input.bio ?? '',
        user_setting: '{}',
        password_changed_at: wholeSecond(now).toISOString(),
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) {
      // No further queries here: on PostgreSQL the surrounding transaction is already aborted.
      const detail = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message}`;
      throw /name/.test(detail)
        ? new HttpError(409, 'NAME_TAKEN', 'server.nameTaken', fieldIssue('name', 'server.nameTaken'))
        : new HttpError(409, 'EMAIL_TAKEN', 'server.emailTaken', fieldIssue('email', 'server.emailTaken'));
    }
    throw error;
  }
}

/** A public profile by numeric userId or by _id. */
export async function getPublicProfile(db: Db, id: string): Promise<PublicUser> {
  const q = db.selectFrom('users').selectAll();
  const row = DECIMAL_ID.test(id)
    ? await q.where('user_id', '=', Number(id)).executeTakeFirst()
    : await q.where('id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
  return toPublicUser(row);
}

export async function updateProfile(db: Db, userId: string, patch: ProfileUpdate, now = new Date()): Promise<UserRow> {
  let name = patch.name;
  if (name !== undefined) {
    refuseHiddenCharacters(name);
    const current = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
    // Sending one's name unchanged renames nothing, so a name that now looks like an older one (kept by
    // migration 20261207-0001 with a skeleton of its own, decision 029) is not refused when kept.
    if (current?.name === name) name = undefined;
    else if (await isNameTaken(db, name, userId)) {
      throw new HttpError(409, 'NAME_TAKEN', 'server.nameTaken', fieldIssue('name', 'server.nameTaken'));
    }
  }
  const values = {
    ...(name !== undefined ? { name, name_key: nameKey(name), name_skeleton: nameSkeleton(name) } : {}),
    ...(patch.bio !== undefined ? { bio: patch.bio } : {}),
    ...(patch.avatar !== undefined ? { avatar: patch.avatar } : {}),
    ...(patch.headCover !== undefined ? { head_cover: patch.headCover } : {}),
    ...(patch.signature !== undefined ? { signature: patch.signature } : {}),
    updated_at: now.toISOString(),
  };
  try {
    const row = await db.updateTable('users').set(values).where('id', '=', userId).returningAll().executeTakeFirst();
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'NAME_TAKEN', 'server.nameTaken');
    throw error;
  }
}

export async function updateUserSetting(
  db: Db,
  userId: string,
  patch: UserSetting,
  now = new Date(),
): Promise<Required<UserSetting>> {
  return db.transaction().execute(async (trx) => {
    // Take the row lock first (a no-op update), so concurrent edits of different settings both stay.
    await trx
      .updateTable('users')
      .set((eb) => ({ user_setting: eb.ref('user_setting') }))
      .where('id', '=', userId)
      .execute();
    const row = await trx.selectFrom('users').select('user_setting').where('id', '=', userId).executeTakeFirst();
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'server.userNotFound');
    const next = { ...parseUserSetting(row.user_setting), ...patch };
    await trx
      .updateTable('users')
      .set({ user_setting: JSON.stringify(next), updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute();
    return next;
  });
}

export async function setUserStatus(
  deps: { db: Db; events: SessionEvents },
  userId: string,
  status: 'active' | 'banned',
): Promise<void> {
  await deps.db
    .updateTable('users')
    .set({ status, updated_at: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
  // A ban ends what is open now (chat sockets), not only what the account opens next.
  if (status === 'banned') deps.events.publish({ type: 'session_revoked', scope: 'user', userId, reason: 'banned' });
}
