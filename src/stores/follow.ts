import { map } from 'nanostores';
import type { usersContract } from '../shared/users/users.contract.ts';
import { browserApi, failure, type CatalogueApi as Api, type Outcome } from './catalogue-client.ts';

/**
 * Client logic of following members (spec §2.6, §4, decision 020): one state per member for the whole
 * page, so every follow button of the same member (a comment list and an open user card) shows the same
 * thing; one request per member at a time, so double clicks never toggle twice; the viewer's state asked
 * for once per member however many buttons want it. Actions resolve to an outcome instead of throwing.
 */

type UsersContract = typeof usersContract;

// The contract carries its request schemas (zod): it loads with the first call, so a visitor's page,
// which calls nothing, does without it.
let loaded: UsersContract | null = null;
export async function loadUsersContract(): Promise<UsersContract> {
  loaded ??= (await import('../shared/users/users.contract.ts')).usersContract;
  return loaded;
}
const users = async () => loaded ?? (await loadUsersContract());

export interface UserFollowEntry {
  /** null until the server has said (visitors never learn it). */
  following: boolean | null;
  /** The member's follower count, as last rendered or answered. */
  count: number;
  /** A request is out: a second press is ignored, so a double click never sends twice. */
  pending: boolean;
}

export const userKey = (userId: number) => String(userId);

/** A state older than this is asked again before a press acts on it (another tab may have changed it). */
export const FOLLOW_STATE_FRESH_MS = 30_000;

export function createUserFollows(client: Api, now: () => number = Date.now) {
  const $userFollows = map<Record<string, UserFollowEntry>>({});
  const entry = (userId: number): UserFollowEntry =>
    $userFollows.get()[userKey(userId)] ?? { following: null, count: 0, pending: false };
  const patch = (userId: number, change: Partial<UserFollowEntry>) =>
    $userFollows.setKey(userKey(userId), { ...entry(userId), ...change });

  // Toggles started per member: a status asked before a toggle (answered before or after it) is stale.
  const toggles = new Map<number, number>();
  // Status requests out, per member: every button of that member waits on the same one.
  const checking = new Map<number, Promise<Outcome>>();
  // When the server last told this page the member's state.
  const answeredAt = new Map<number, number>();

  async function askStatus(userId: number): Promise<Outcome> {
    const before = toggles.get(userId) ?? 0;
    try {
      const answer = await client.call((await users()).followStatus, { body: { userId } });
      if (!entry(userId).pending && (toggles.get(userId) ?? 0) === before) {
        patch(userId, { following: answer.data.isFollowing, count: answer.data.followerCount });
        answeredAt.set(userId, now());
      }
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  }

  return {
    $userFollows,
    entry,
    /**
     * What the page was rendered with (the follower count; whether the viewer follows, when the page knew),
     * unless a toggle is out or the server has already answered.
     */
    seed(userId: number, initial: { following?: boolean; count?: number }): void {
      const current = entry(userId);
      if (current.pending) return;
      const known = $userFollows.get()[userKey(userId)] !== undefined;
      const following = initial.following !== undefined && current.following === null;
      patch(userId, {
        ...(initial.count !== undefined && !known ? { count: initial.count } : {}),
        ...(following ? { following: initial.following } : {}),
      });
      // The page's render is the server's word as of now.
      if (following) answeredAt.set(userId, now());
    },
    /** Asks whether the viewer follows the member: once per member while a request is out. */
    check(userId: number): Promise<Outcome> {
      let out = checking.get(userId);
      if (!out) {
        out = askStatus(userId).finally(() => checking.delete(userId));
        checking.set(userId, out);
      }
      return out;
    },
    /**
     * The button was pressed: follow, or stop following. The call toggles on the server, so with the state
     * unknown, or not heard from the server lately (another tab may have changed it), it is asked first;
     * when the server is already where the press wanted to go, the state is only shown. Otherwise the
     * state flips at once and settles on the server's answer, or goes back on failure.
     */
    async toggle(userId: number): Promise<Outcome | { ok: false; busy: true }> {
      const before = entry(userId);
      if (before.pending) return { ok: false, busy: true };
      toggles.set(userId, (toggles.get(userId) ?? 0) + 1);
      const wanted = !(before.following ?? false);
      const stale = before.following === null || now() - (answeredAt.get(userId) ?? 0) > FOLLOW_STATE_FRESH_MS;
      const flip = (following: boolean) =>
        patch(userId, {
          following: !following,
          count: Math.max(0, before.count + (following ? -1 : 1)),
          pending: true,
        });
      if (before.following === null) patch(userId, { pending: true });
      else flip(before.following);
      try {
        const api = await users();
        if (stale) {
          const known = (await client.call(api.followStatus, { body: { userId } })).data;
          if (known.isFollowing === wanted) {
            patch(userId, { following: wanted, count: known.followerCount, pending: false });
            answeredAt.set(userId, now());
            return { ok: true };
          }
          flip(known.isFollowing);
        }
        const answer = await client.call(api.follow, { body: { userId } });
        patch(userId, { following: answer.data.isFollowing, count: answer.data.followerCount, pending: false });
        answeredAt.set(userId, now());
        return { ok: true };
      } catch (error) {
        patch(userId, { following: before.following, count: before.count, pending: false });
        return failure(error);
      }
    },
  };
}

export const userFollows = createUserFollows(browserApi);
