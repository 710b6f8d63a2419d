import { messageRef } from '../../../shared/i18n/index.ts';
import type { Db } from '../../db/database.ts';
import { createRateGate, type RateRule } from '../../platform/rate-limit.ts';
import { addressKey } from '../auth/login-limits.ts';

/**
 * What one address (an IPv6 /64 counts as one) may ask of search in 10 seconds (decision 024). The
 * browser asks for suggestions after a 200 ms pause in typing, so one person sends at most 5 a second
 * and a typed query takes a handful; 300 lets six people type flat out without a pause, or some sixty
 * type a query each in the same 10 seconds behind one school or office address, tabs included. A search
 * is a submitted query, or a page or tab of results (the API and the /search page alike): 60 lets a
 * class search at the same moment, while a flood gets 6 a second. Trending is read once an hour per
 * browser. Past a budget the answer is 429 RATE_LIMITED with Retry-After (at most 10 s).
 */
export const SEARCH_LIMITS = {
  search: { limit: 60, windowMs: 10_000 },
  suggest: { limit: 300, windowMs: 10_000 },
  trending: { limit: 60, windowMs: 10_000 },
} satisfies Record<string, RateRule>;

export type SearchCall = keyof typeof SEARCH_LIMITS;

const gate = createRateGate();

/** Counts one call from `ip`; past its budget a 429 RATE_LIMITED saying when to try again (Retry-After). */
export function admitSearchCall(db: Db, call: SearchCall, ip: string, now = Date.now()): Promise<void> {
  return gate(db, `search:${call}:${addressKey(ip)}`, SEARCH_LIMITS[call], now, (seconds) =>
    messageRef('server.searchTooFast', { seconds }),
  );
}
