import type { Generated, Selectable } from 'kysely';
import type { AuditAction } from '../../../shared/creator/creator-model.ts';

/** One staff action: who did what to which thing, and the details (reason, period, before and after). */
export interface AuditLogTable {
  id: number;
  actor_id: string | null;
  action: AuditAction;
  target_type: string;
  target_id: string;
  /** JSON object. */
  detail: Generated<string>;
  created_at: string;
}
export type AuditLogRow = Selectable<AuditLogTable>;

declare module '../../db/database.ts' {
  interface Database {
    audit_log: AuditLogTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    audit_log_id: true;
  }
}

declare module '../users/users.tables.ts' {
  interface UsersTable {
    /** Why the member is banned ('' when not). */
    ban_reason: Generated<string>;
    /** When a time ban ends; null for a ban for good (or no ban). */
    banned_until: string | null;
  }
}
