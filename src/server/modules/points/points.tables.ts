import type { PointReason } from '../../../shared/checkin/checkin-model.ts';

/**
 * One change of a member's HikariPoint balance (decision 025): append-only, numbered per member by
 * `seq` in commit order; the sum of a member's rows is their balance.
 */
export interface PointLedgerTable {
  user_id: string;
  seq: number;
  amount: number;
  reason: PointReason;
  reference: string | null;
  balance_after: number;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    point_ledger: PointLedgerTable;
  }
}
