import type { AuditAction } from '../../../shared/creator/creator-model.ts';
import type { Db } from '../../db/database.ts';
import { nextId } from '../../db/ids.ts';

/** A staff action for the audit log. */
export interface AuditEntry {
  actorId: string | null;
  action: AuditAction;
  targetType: string;
  targetId: string | number;
  detail?: Record<string, unknown>;
}

/**
 * Writes one audit-log row. Call it inside the transaction of the action itself, so the log holds an
 * action exactly when it happened.
 */
export async function writeAudit(trx: Db, entry: AuditEntry, now = new Date()): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      id: await nextId(trx, 'audit_log_id'),
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: String(entry.targetId),
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: now.toISOString(),
    })
    .execute();
}
