/** One member's check-in of one site day (decision 025); the key (user_id, date) allows one a day. */
export interface CheckInTable {
  user_id: string;
  /** Site date, `YYYY-MM-DD` (Asia/Shanghai). */
  date: string;
  /** 1 for a make-up, 0 for a check-in on the day. */
  is_make_up: number;
  /** Points earned (check-in) or charged (make-up). */
  points: number;
  created_at: string;
}

declare module '../../db/database.ts' {
  interface Database {
    check_in: CheckInTable;
  }
}
