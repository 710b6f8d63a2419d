import { LIKE_CHECK_MAX, REPORT_REASONS, REPORT_TEXT_MAX } from '../shared/reactions/reactions-model.ts';
import { map } from 'nanostores';
import type { reactionsContract } from '../shared/reactions/reactions.contract.ts';
import type { LikeTargetType, ReportReason, ReportTargetType } from '../shared/reactions/reactions.ts';
import { browserApi, failure, type CatalogueApi as Api, type Outcome } from './catalogue-client.ts';

/**
 * Client logic of likes and reports (decision 018): the like state of every item a page shows (comments,
 * ratings, posts, articles), toggled optimistically, one request per item at a time, and the viewer's
 * likes asked for in batches; reports sent from the report dialog. Actions resolve to an outcome instead
 * of throwing, so islands only show it.
 */

type ReactionsContract = typeof reactionsContract;

// The contract carries its request schemas (zod): it loads with the first call, so a visitor's page,
// which calls nothing, does without it.
let loaded: ReactionsContract | null = null;
export async function loadReactionsContract(): Promise<ReactionsContract> {
  loaded ??= (await import('../shared/reactions/reactions.contract.ts')).reactionsContract;
  return loaded;
}

/** Most ids one GET /likes/check asks about. */
export const LIKE_CHECK_BATCH = LIKE_CHECK_MAX;
/** Longest report text. */
export const REPORT_TEXT_LIMIT = REPORT_TEXT_MAX;
/** The report reasons in the order the dialog lists them. */
export const REPORT_REASON_ORDER: readonly ReportReason[] = REPORT_REASONS;

export interface LikeEntry {
  /** null until known: visitors never learn it, members once the server has said. */
  liked: boolean | null;
  count: number;
  /** A request is out: a second press is ignored, so a double click never sends twice. */
  pending: boolean;
}

export const likeKey = (type: LikeTargetType, id: number) => `${type}:${id}`;

export interface LikesOptions {
  /**
   * Runs the batched check later: islands that hydrate one after another (each rating of a list) ask
   * within a few milliseconds of each other, and are answered by one request.
   */
  schedule?: (run: () => void) => void;
}

const defaultSchedule = (run: () => void) => void setTimeout(run, 30);

export function createLikes(client: Api, options: LikesOptions = {}) {
  const schedule = options.schedule ?? defaultSchedule;
  const $likes = map<Record<string, LikeEntry>>({});
  const entry = (type: LikeTargetType, id: number): LikeEntry =>
    $likes.get()[likeKey(type, id)] ?? { liked: null, count: 0, pending: false };
  const patch = (type: LikeTargetType, id: number, change: Partial<LikeEntry>) =>
    $likes.setKey(likeKey(type, id), { ...entry(type, id), ...change });

  // Toggles started per item: a check sent before a toggle (answered before or after it) is stale.
  const toggles = new Map<string, number>();
  const togglesOf = (type: LikeTargetType, id: number) => toggles.get(likeKey(type, id)) ?? 0;

  // Checks asked for and not yet sent, by type; each waiter learns how its batch ended.
  const queued = new Map<LikeTargetType, Map<number, ((outcome: Outcome) => void)[]>>();
  let scheduled = false;

  async function sendChecks(type: LikeTargetType, ids: number[]): Promise<Outcome> {
    // An item with a toggle out when the check leaves, or toggled before it is back, keeps the toggle's state.
    const before = new Map(ids.map((id) => [id, entry(type, id).pending ? -1 : togglesOf(type, id)]));
    try {
      const answer = await client.call((loaded ?? (await loadReactionsContract())).check, {
        query: { targetType: type, ids: ids.join(',') },
      });
      const liked = new Set(answer.data.liked);
      // A toggle that started meanwhile knows better.
      for (const id of ids)
        if (!entry(type, id).pending && togglesOf(type, id) === before.get(id))
          patch(type, id, { liked: liked.has(id) });
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  }

  function flush(): void {
    scheduled = false;
    const batches = [...queued];
    queued.clear();
    for (const [type, waiting] of batches) {
      const ids = [...waiting.keys()];
      for (let start = 0; start < ids.length; start += LIKE_CHECK_BATCH) {
        const part = ids.slice(start, start + LIKE_CHECK_BATCH);
        void sendChecks(type, part).then((outcome) => {
          for (const id of part) for (const done of waiting.get(id) ?? []) done(outcome);
        });
      }
    }
  }

  return {
    $likes,
    entry,
    /**
     * The count (and, when known, the viewer's like) a page or list was just read with, unless a toggle
     * is out. `liked` left out keeps what the store knows.
     */
    seed(type: LikeTargetType, id: number, count: number, liked?: boolean): void {
      if (entry(type, id).pending) return;
      patch(type, id, liked === undefined ? { count } : { count, liked });
    },
    /** Asks whether the viewer has liked the item, together with every other item asked for meanwhile. */
    check(type: LikeTargetType, id: number): Promise<Outcome> {
      return new Promise((resolve) => {
        const waiting = queued.get(type) ?? new Map<number, ((outcome: Outcome) => void)[]>();
        queued.set(type, waiting);
        waiting.set(id, [...(waiting.get(id) ?? []), resolve]);
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
      });
    },
    /** Optimistic toggle: flips at once, sends one request, settles on the server's answer or rolls back. */
    async toggle(type: LikeTargetType, id: number): Promise<Outcome | { ok: false; busy: true }> {
      const before = entry(type, id);
      if (before.pending) return { ok: false, busy: true };
      const adding = before.liked !== true;
      toggles.set(likeKey(type, id), togglesOf(type, id) + 1);
      patch(type, id, {
        liked: adding,
        count: Math.max(0, before.count + (adding ? 1 : -1)),
        pending: true,
      });
      try {
        const api = loaded ?? (await loadReactionsContract());
        const answer = adding
          ? await client.call(api.like, { body: { targetType: type, targetId: id } })
          : await client.call(api.unlike, { params: { targetType: type, targetId: id } });
        patch(type, id, { liked: answer.data.isLiked, count: answer.data.likeCount, pending: false });
        return { ok: true };
      } catch (error) {
        patch(type, id, { liked: before.liked, count: before.count, pending: false });
        return failure(error);
      }
    },
  };
}

export type Likes = ReturnType<typeof createLikes>;

export interface ReportDraft {
  reason: ReportReason | '';
  text: string;
}

export type ReportOutcome = { ok: true; message: string } | { ok: false; message: string; code?: string };

/** The dialog's own checks before anything is sent (the server checks the same); a message key or null. */
export function reportProblem(draft: ReportDraft): 'discussion.report.pickReason' | 'discussion.report.tooLong' | null {
  if (!REPORT_REASON_ORDER.includes(draft.reason as ReportReason)) return 'discussion.report.pickReason';
  if (draft.text.trim().length > REPORT_TEXT_LIMIT) return 'discussion.report.tooLong';
  return null;
}

export function createReports(client: Api) {
  // One report per item at a time: a double click on "send" sends once.
  const sending = new Set<string>();
  return {
    async send(
      type: ReportTargetType,
      id: number,
      draft: ReportDraft,
    ): Promise<ReportOutcome | { ok: false; busy: true }> {
      const key = `${type}:${id}`;
      if (sending.has(key)) return { ok: false, busy: true };
      sending.add(key);
      try {
        const answer = await client.call((loaded ?? (await loadReactionsContract())).report, {
          body: { targetType: type, targetId: id, reason: draft.reason as ReportReason, text: draft.text.trim() },
        });
        return { ok: true, message: answer.message };
      } catch (error) {
        const { message } = failure(error) as { message: string };
        const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
        return code ? { ok: false, message, code } : { ok: false, message };
      } finally {
        sending.delete(key);
      }
    },
  };
}

export const likes = createLikes(browserApi);
export const reports = createReports(browserApi);
