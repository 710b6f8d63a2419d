import type { Pagination } from '../catalogue-model.ts';
import { daysBetween, type SiteDate } from '../site-day.ts';

/**
 * Daily check-in and the HikariPoint ledger (issue 15, decision 025). A member checks in once per site
 * day (Asia/Shanghai) for a random 1–10 points, and may make up a missed past day of the current month,
 * at most three times a month, for (make-ups so far this month + 1) × 30 points.
 */
export const CHECK_IN_POINTS_MIN = 1;
export const CHECK_IN_POINTS_MAX = 10;
export const MAKE_UP_MONTHLY_LIMIT = 3;
export const MAKE_UP_COST_STEP = 30;

/** Spec §9: the cost of the next make-up, given how many the member made this month. */
export const makeUpCost = (makeUpsThisMonth: number): number => (makeUpsThisMonth + 1) * MAKE_UP_COST_STEP;

/**
 * The streak as the member sees it on `today`: the stored run counts while it ends today or yesterday
 * (today's check-in may still come); once a whole day passed without a record it is 0.
 */
export function currentStreak(streak: number, streakEnd: SiteDate | null, today: SiteDate): number {
  return streakEnd !== null && daysBetween(streakEnd, today) <= 1 ? streak : 0;
}

/** Spec §3 "User status" (GET /v2/user/status). `checkInStreak` is 0 once a day was missed. */
export interface UserCheckInStatus {
  isCheckIn: boolean;
  checkInStreak: number;
  hikariPoint: number;
}

/** GET /v2/user/check-in/status: the user status plus what the calendar needs. */
export interface CheckInStatus extends UserCheckInStatus {
  longestCheckInStreak: number;
  /** Today's site date, `YYYY-MM-DD` (the calendar's "today"; the client's clock may be wrong). */
  today: SiteDate;
  /** Make-ups this month, the monthly limit and the cost of the next one. */
  makeUpCount: number;
  makeUpLimit: number;
  makeUpCost: number;
}

/** Spec §3 "Check-in record". */
export interface CheckInRecord {
  date: SiteDate;
  isMakeUp: boolean;
}

/** Spec §3 "Check-in result": points earned (check-in) or charged (make-up). */
export interface CheckInResult {
  points: number;
}

/** Why a member's balance changed (a ledger row's reason). */
export const POINT_REASONS = ['opening', 'grant', 'check_in', 'make_up'] as const;
export type PointReason = (typeof POINT_REASONS)[number];

/** One ledger row as the member's points history shows it. */
export interface PointEntry {
  _id: string;
  amount: number;
  reason: PointReason;
  /** What it is about: the checked-in or made-up date, an operator's note. */
  reference: string | null;
  balanceAfter: number;
  createdAt: string;
}

export const POINT_HISTORY_PAGE_DEFAULT = 20;
export const POINT_HISTORY_PAGE_MAX = 50;

export interface PointHistoryPage {
  items: PointEntry[];
  pagination: Pagination;
  /** The balance now (equal to the newest row's balanceAfter). */
  hikariPoint: number;
}
