import { sql } from 'kysely';
import { isAdminGroup, isSuperAdmin } from '../../../shared/creator/creator-model.ts';
import { messageRef } from '../../../shared/i18n/index.ts';
import {
  BAN_CUSTOM_MAX_DAYS,
  BAN_PERIOD_DAYS,
  MEMBER_SEARCH_MAX,
  groupRank,
  type AssignableGroup,
  type BanPeriod,
  type MemberView,
} from '../../../shared/moderation/moderation.contract.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, fieldIssue } from '../../platform/errors.ts';
import type { SessionEvents } from '../auth/auth.events.ts';
import { revokeAllSessions } from '../auth/sessions.service.ts';
import { nameKey } from '../users/users.service.ts';
import type { UserRow } from '../users/users.tables.ts';
import { requireAdmin, requireSuperAdmin, type Staff } from './moderation.access.ts';
import { writeAudit } from './audit-log.ts';

/*
 * Members as staff manage them (issue 18 §6): finding one, bans and groups. A ban ends every login of
 * the member at once (their refresh-token families are revoked and `auth.session_revoked` tells every
 * process to close their sockets); their next API call is refused because the account is banned. A
 * time ban is lifted by the housekeeping job once it has ended. Groups change in the database only:
 * the member's logins go on, and their next token refresh reads the new group.
 */

const DAY_MS = 86_400_000;

export interface MemberDeps {
  db: Db;
  events: SessionEvents;
}

const userNotFound = () => new HttpError(404, 'NOT_FOUND', 'moderation.error.userNotFound');

/** Who may ban whom: admins, over members strictly below them, never themselves. */
const mayBan = (staff: Staff, member: Pick<UserRow, 'id' | 'user_group'>) =>
  isAdminGroup(staff.group) && staff.id !== member.id && groupRank(member.user_group) < groupRank(staff.group);
const maySetGroup = (staff: Staff, member: Pick<UserRow, 'id' | 'user_group'>) =>
  isSuperAdmin(staff.group) && staff.id !== member.id && !isSuperAdmin(member.user_group);

export function memberView(staff: Staff, row: UserRow): MemberView {
  return {
    userId: row.user_id,
    name: row.name,
    avatar: row.avatar,
    group: row.user_group,
    status: row.status,
    banReason: row.status === 'banned' ? row.ban_reason : '',
    bannedUntil: row.status === 'banned' ? row.banned_until : null,
    createdAt: row.created_at,
    canBan: mayBan(staff, row),
    canSetGroup: maySetGroup(staff, row),
  };
}

/** The member's group changed between the rank check and the change. */
const groupChanged = () => new HttpError(409, 'CONFLICT', 'moderation.error.groupChanged');

async function memberByUserId(db: Db, userId: number): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw userNotFound();
  return row;
}

/** Members whose userId is `q`, or whose name starts with it (any case), best match first. */
export async function findMembers(db: Db, staff: Staff, q: string): Promise<{ items: MemberView[] }> {
  requireAdmin(staff);
  const rows: UserRow[] = [];
  if (/^\d{1,10}$/.test(q)) {
    const byId = await db.selectFrom('users').selectAll().where('user_id', '=', Number(q)).executeTakeFirst();
    if (byId) rows.push(byId);
  }
  const prefix = nameKey(q).replace(/[\\%_]/g, (c) => `\\${c}`);
  const byName = await db
    .selectFrom('users')
    .selectAll()
    .where(sql<boolean>`name_key like ${`${prefix}%`} escape '\\'`)
    .orderBy(sql`length(name_key)`)
    .orderBy('user_id')
    .limit(MEMBER_SEARCH_MAX)
    .execute();
  for (const row of byName) if (!rows.some((other) => other.id === row.id)) rows.push(row);
  return { items: rows.slice(0, MEMBER_SEARCH_MAX).map((row) => memberView(staff, row)) };
}

/** When a ban of `period` given at `now` ends (null: for good); a custom end must lie ahead, within the limit. */
export function banEnd(period: BanPeriod, until: string | undefined, now: Date): string | null {
  if (period === 'forever') return null;
  if (period !== 'custom') return new Date(now.getTime() + BAN_PERIOD_DAYS[period] * DAY_MS).toISOString();
  const message = messageRef('moderation.error.untilRange', { max: BAN_CUSTOM_MAX_DAYS });
  if (until === undefined)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'moderation.error.until',
      fieldIssue('until', 'moderation.error.until'),
    );
  const end = new Date(until).getTime();
  if (!(end > now.getTime()) || end > now.getTime() + BAN_CUSTOM_MAX_DAYS * DAY_MS)
    throw new HttpError(400, 'VALIDATION_FAILED', message, fieldIssue('until', message));
  return new Date(end).toISOString();
}

/** Bans a member below the caller; a banned member may be banned again with a new period and reason. */
export async function banMember(
  deps: MemberDeps,
  staff: Staff,
  userId: number,
  input: { period: BanPeriod; until?: string | undefined; reason: string },
  now = new Date(),
): Promise<MemberView> {
  requireAdmin(staff);
  const member = await memberByUserId(deps.db, userId);
  if (member.id === staff.id) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.banSelf');
  if (!mayBan(staff, member)) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.banRank');
  const bannedUntil = banEnd(input.period, input.until, now);
  await deps.db.transaction().execute(async (trx) => {
    // Only while the member still has the group the rank check saw (a promotion meanwhile is a 409).
    const banned = await trx
      .updateTable('users')
      .set({ status: 'banned', ban_reason: input.reason, banned_until: bannedUntil, updated_at: now.toISOString() })
      .where('id', '=', member.id)
      .where('user_group', '=', member.user_group)
      .executeTakeFirst();
    if (Number(banned.numUpdatedRows) !== 1) throw groupChanged();
    await writeAudit(
      trx,
      {
        actorId: staff.id,
        action: 'user.ban',
        targetType: 'user',
        targetId: member.id,
        detail: { reason: input.reason, period: input.period, until: bannedUntil, name: member.name },
      },
      now,
    );
    // Announced at once, even before the commit: should it roll back, closed sockets simply reconnect.
    await revokeAllSessions(trx, deps.events, member.id, 'banned', now);
  });
  return memberView(staff, await memberByUserId(deps.db, userId));
}

/** Lifts a ban (409 when the member is not banned). */
export async function unbanMember(
  deps: MemberDeps,
  staff: Staff,
  userId: number,
  reason: string,
  now = new Date(),
): Promise<MemberView> {
  requireAdmin(staff);
  const member = await memberByUserId(deps.db, userId);
  if (!mayBan(staff, member)) throw new HttpError(403, 'FORBIDDEN', 'moderation.error.banRank');
  await deps.db.transaction().execute(async (trx) => {
    const lifted = await trx
      .updateTable('users')
      .set({ status: 'active', ban_reason: '', banned_until: null, updated_at: now.toISOString() })
      .where('id', '=', member.id)
      .where('status', '=', 'banned')
      .where('user_group', '=', member.user_group)
      .executeTakeFirst();
    if (Number(lifted.numUpdatedRows) !== 1) {
      const current = await memberByUserId(trx, userId);
      throw current.user_group !== member.user_group
        ? groupChanged()
        : new HttpError(409, 'CONFLICT', 'moderation.error.notBanned');
    }
    await writeAudit(
      trx,
      {
        actorId: staff.id,
        action: 'user.unban',
        targetType: 'user',
        targetId: member.id,
        detail: { reason, name: member.name },
      },
      now,
    );
  });
  return memberView(staff, await memberByUserId(deps.db, userId));
}

/** Lifts every time ban that has ended by `now` (the housekeeping job); answers how many. */
export async function liftEndedBans(db: Db, now = new Date()): Promise<number> {
  const ended = await db
    .selectFrom('users')
    .select(['id', 'name', 'banned_until'])
    .where('status', '=', 'banned')
    .where('banned_until', 'is not', null)
    .where('banned_until', '<=', now.toISOString())
    .execute();
  let lifted = 0;
  for (const member of ended) {
    await db.transaction().execute(async (trx) => {
      // Only the ban that ended: one given again meanwhile, with a later end, stays.
      const done = await trx
        .updateTable('users')
        .set({ status: 'active', ban_reason: '', banned_until: null, updated_at: now.toISOString() })
        .where('id', '=', member.id)
        .where('status', '=', 'banned')
        .where('banned_until', '=', member.banned_until)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return;
      lifted += 1;
      await writeAudit(
        trx,
        {
          actorId: null,
          action: 'user.unban',
          targetType: 'user',
          targetId: member.id,
          detail: { expired: true, until: member.banned_until, name: member.name },
        },
        now,
      );
    });
  }
  return lifted;
}

/** Sets a member's group (the superAdmin only; never to or from superAdmin, never their own). */
export async function setMemberGroup(
  db: Db,
  staff: Staff,
  userId: number,
  group: AssignableGroup,
  now = new Date(),
): Promise<MemberView> {
  requireSuperAdmin(staff);
  const member = await memberByUserId(db, userId);
  if (member.id === staff.id) throw new HttpError(403, 'ROLE_NOT_ALLOWED', 'moderation.error.groupSelf');
  if (isSuperAdmin(member.user_group)) throw new HttpError(403, 'ROLE_NOT_ALLOWED', 'moderation.error.groupSuperAdmin');
  if (member.user_group !== group)
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ user_group: group, updated_at: now.toISOString() })
        .where('id', '=', member.id)
        .execute();
      await writeAudit(
        trx,
        {
          actorId: staff.id,
          action: 'user.role',
          targetType: 'user',
          targetId: member.id,
          detail: { from: member.user_group, to: group, name: member.name },
        },
        now,
      );
    });
  return memberView(staff, await memberByUserId(db, userId));
}
