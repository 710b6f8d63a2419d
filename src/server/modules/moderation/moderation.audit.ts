import type { AuditAction } from '../../../shared/creator/creator-model.ts';
import type { AuditPage } from '../../../shared/moderation/moderation.contract.ts';
import type { Db } from '../../db/database.ts';
import { paginate, type PageRequest } from '../../db/paginate.ts';
import { requireAdmin, type Staff } from './moderation.access.ts';

export interface AuditFilter {
  action?: AuditAction | undefined;
  /** The actor's public userId. */
  actor?: number | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The audit log for admins, newest first, with who acted and, for actions on members, whom. */
export async function readAuditLog(db: Db, staff: Staff, filter: AuditFilter & PageRequest): Promise<AuditPage> {
  requireAdmin(staff);
  // The filters name only audit_log's own columns, so the count reads that table (and its indexes) alone.
  let base = db.selectFrom('audit_log as a');
  if (filter.action) base = base.where('a.action', '=', filter.action);
  if (filter.actor !== undefined) {
    const actor = filter.actor;
    base = base.where(
      'a.actor_id',
      'in',
      db.selectFrom('users as who').select('who.id').where('who.user_id', '=', actor),
    );
  }
  if (filter.targetType) base = base.where('a.target_type', '=', filter.targetType);
  if (filter.targetId) {
    const targetId = filter.targetId;
    // Members are named by their public userId in the filter; the log keeps their account id.
    base = base.where((eb) =>
      eb.or([
        eb('a.target_id', '=', targetId),
        ...(/^\d{1,10}$/.test(targetId)
          ? [
              eb.and([
                eb('a.target_type', '=', 'user'),
                eb(
                  'a.target_id',
                  'in',
                  db.selectFrom('users as named').select('named.id').where('named.user_id', '=', Number(targetId)),
                ),
              ]),
            ]
          : []),
      ]),
    );
  }
  const { items, pagination } = await paginate(
    filter,
    base
      .leftJoin('users as actor', 'actor.id', 'a.actor_id')
      .leftJoin('users as target', (join) =>
        join.onRef('target.id', '=', 'a.target_id').on('a.target_type', '=', 'user'),
      )
      .select([
        'a.id',
        'a.action',
        'a.target_type',
        'a.target_id',
        'a.detail',
        'a.created_at',
        'actor.user_id as actor_user_id',
        'actor.name as actor_name',
        'actor.avatar as actor_avatar',
        'target.user_id as target_user_id',
        'target.name as target_name',
        'target.avatar as target_avatar',
      ])
      // Ids are taken in the order rows are written: newest first is the id index read backwards.
      .orderBy('a.id', 'desc'),
    base.select((eb) => eb.fn.countAll<number>().as('total')),
  );
  return {
    items: items.map((row) => ({
      id: row.id,
      action: row.action,
      actor:
        row.actor_user_id !== null && row.actor_name !== null
          ? { userId: row.actor_user_id, name: row.actor_name, avatar: row.actor_avatar ?? '' }
          : null,
      targetType: row.target_type,
      targetId: row.target_id,
      targetUser:
        row.target_user_id !== null && row.target_name !== null
          ? { userId: row.target_user_id, name: row.target_name, avatar: row.target_avatar ?? '' }
          : null,
      detail: parseDetail(row.detail),
      createdAt: row.created_at,
    })),
    pagination,
  };
}
