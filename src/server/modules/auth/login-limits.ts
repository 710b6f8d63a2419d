import type { MessageRef } from '../../../shared/i18n/index.ts';
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Db } from '../../db/database.ts';
import {
  admitAttempt,
  ATTEMPT_WAIT,
  type AttemptWait,
  type FailureBudget,
  type ReservedAttempt,
} from '../../platform/attempt-budget.ts';
import { hitRateLimit, rateLimited, releaseRateLimit, type RateRule } from '../../platform/rate-limit.ts';

/**
 * Login limits (docs/decisions/008-login-limits.md). Failures are counted per address, per
 * (account, address), and per account for addresses the account has never logged in from. A stranger's
 * failures therefore fill only counters the owner's usual addresses do not share, while guessing spread
 * over many addresses still meets the per-account limit for new addresses.
 */
export const LOGIN_LIMITS = {
  /** Failed logins from one address, whatever the accounts. */
  perAddress: { limit: 20, windowMs: 600_000 },
  /** Failed logins for one account from one address. */
  perAccountAddress: { limit: 6, windowMs: 600_000 },
  /** Failed logins for one account from all the addresses it has not logged in from before. */
  perAccountNewAddresses: { limit: 10, windowMs: 900_000 },
  /** The same, over a day: the most guesses a crowd of addresses gets at one account per day. */
  perAccountNewAddressesDaily: { limit: 50, windowMs: 86_400_000 },
} satisfies Record<string, RateRule>;

/** How many addresses an account remembers; the least recently used are forgotten first. */
export const KNOWN_ADDRESSES_KEPT = 20;

/**
 * The part of an address that identifies a client: IPv4 as it is (also when written IPv4-mapped), IPv6
 * by its /64 prefix, since one subscriber usually holds a whole /64 and changes addresses inside it.
 */
export function addressKey(ip: string): string {
  const bare = ip.trim().toLowerCase().split('%')[0] ?? '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare || 'unknown';
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A keyed hash of the address, per account: the table never holds an address, nor links one across accounts. */
function addressHash(secret: string, userId: string, ip: string): string {
  return createHmac('sha256', secret)
    .update(`known-address:${userId}:${addressKey(ip)}`)
    .digest('hex');
}

export async function isKnownAddress(db: Db, secret: string, userId: string, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom('login_known_address')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('address_hash', '=', addressHash(secret, userId, ip))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Remembers an address the account has proven itself from (a right password, a registration, a reset
 * with a mailed code). Keeps the most recent KNOWN_ADDRESSES_KEPT.
 */
export async function rememberAddress(db: Db, secret: string, userId: string, ip: string, now = new Date()) {
  const at = now.toISOString();
  await db
    .insertInto('login_known_address')
    .values({ user_id: userId, address_hash: addressHash(secret, userId, ip), created_at: at, last_seen_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'address_hash']).doUpdateSet({ last_seen_at: at }))
    .execute();
  const stale = await db
    .selectFrom('login_known_address')
    .select('address_hash')
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .orderBy('address_hash')
    .limit(1000)
    .offset(KNOWN_ADDRESSES_KEPT)
    .execute();
  if (stale.length > 0) {
    await db
      .deleteFrom('login_known_address')
      .where('user_id', '=', userId)
      .where(
        'address_hash',
        'in',
        stale.map((r) => r.address_hash),
      )
      .execute();
  }
}

type Counter = FailureBudget;

/**
 * Counts one lookup on every counter, unless one is already full. A full counter is seen first with
 * one read (no writes), so a flood of refused lookups stays cheap; a refusal found only after counting
 * (a race with parallel lookups) takes its counts back. Either way a refused lookup uses up nothing.
 */
async function admit(db: Db, counters: Counter[], now: Date): Promise<void> {
  const at = now.getTime();
  const windowOf = (rule: RateRule) => at - (at % rule.windowMs);
  const retryAfter = (rule: RateRule) => Math.max(1, Math.ceil((windowOf(rule) + rule.windowMs - at) / 1000));
  const refuse = (full: Counter[]) => {
    const longest = full.reduce((a, b) => (retryAfter(b.rule) > retryAfter(a.rule) ? b : a));
    return rateLimited(retryAfter(longest.rule), longest.message);
  };
  const rows = await db
    .selectFrom('rate_limit')
    .select(['key', 'window_start', 'count'])
    .where(
      'key',
      'in',
      counters.map((c) => c.key),
    )
    .execute();
  const full = counters.filter((c) => {
    const row = rows.find((r) => r.key === c.key);
    return row !== undefined && Number(row.window_start) === windowOf(c.rule) && Number(row.count) >= c.rule.limit;
  });
  if (full.length > 0) throw refuse(full);

  const states = await Promise.all(counters.map((c) => hitRateLimit(db, c.key, c.rule, at)));
  const over = counters.filter((c, i) => states[i]!.count > c.rule.limit);
  if (over.length > 0) {
    await Promise.all(counters.map((c) => releaseRateLimit(db, c.key, c.rule, at)));
    throw refuse(over);
  }
}

/**
 * Admits a login attempt before the password is checked, counting it as a failure in every counter
 * until `succeeded()` takes the counts back (so parallel guesses cannot all slip under a limit, and right
 * passwords use up nothing); refuses it with 429 once failures fill a counter. Attempts that find a
 * counter full of logins still being checked wait for their answers (platform/attempt-budget.ts).
 * `account` is the account id, or the typed name when no account has it; `userId` null means no account
 * (every address is new to it).
 */
export async function admitLoginAttempt(
  db: Db,
  secret: string,
  input: { account: string; userId: string | null; ip: string },
  now: () => Date = () => new Date(),
  wait: AttemptWait = ATTEMPT_WAIT,
): Promise<ReservedAttempt> {
  const address = addressKey(input.ip);
  const known = input.userId ? await isKnownAddress(db, secret, input.userId, input.ip) : false;
  const counters: Counter[] = [
    { key: `login:addr:${address}`, rule: LOGIN_LIMITS.perAddress, message: 'server.loginFailures' },
    {
      key: `login:acct-addr:${input.account}:${address}`,
      rule: LOGIN_LIMITS.perAccountAddress,
      message: 'server.loginFailures',
    },
  ];
  if (!known) {
    const message: MessageRef = 'server.accountFailures';
    counters.push(
      { key: `login:acct-new:${input.account}`, rule: LOGIN_LIMITS.perAccountNewAddresses, message },
      { key: `login:acct-new-day:${input.account}`, rule: LOGIN_LIMITS.perAccountNewAddressesDaily, message },
    );
  }
  return admitAttempt(db, counters, () => now().getTime(), wait);
}

/**
 * Limits lookups that tell whether a name or email is taken (the signup check, the register code
 * request) like logins: per address, and per target name or email.
 */
export async function admitAccountLookup(
  db: Db,
  input: { targets: string[]; ip: string },
  now = new Date(),
): Promise<void> {
  const message: MessageRef = 'server.lookupLimited';
  await admit(
    db,
    [
      { key: `lookup:addr:${addressKey(input.ip)}`, rule: LOGIN_LIMITS.perAddress, message },
      ...input.targets.map((target) => ({
        key: `lookup:target:${target}`,
        rule: LOGIN_LIMITS.perAccountNewAddresses,
        message,
      })),
    ],
    now,
  );
}
