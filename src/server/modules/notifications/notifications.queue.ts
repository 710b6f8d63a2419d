import type { EditType } from '../../../shared/creator/creator-model.ts';
import type { ModerationAction, ReviewAction } from '../../../shared/notifications/notifications.ts';
import type { LikeTargetType } from '../../../shared/reactions/reactions-model.ts';
import type { AppJobQueue } from '../../context.ts';
import type { JsonValue } from '../../platform/bus/bus.ts';
import { enqueue, type DbOrTrx } from '../../platform/jobs/job-queue.ts';

/**
 * What the other modules tell the notifications module, as a `notifications.event` job written in the
 * transaction of the action itself: it exists exactly when the action committed, survives a restart,
 * and runs once (the bus reaches every process and keeps nothing, so it could do neither).
 */
export type NotificationEvent =
  /** A comment or reply was written: its target's owner and the answered author hear of it. */
  | { kind: 'comment'; commentId: number }
  /** Likes of an item changed (added or taken back): its owner's group is counted again. */
  | { kind: 'like'; targetType: LikeTargetType; targetId: number }
  /** Follows of a member changed: their group of new followers is counted again. */
  | { kind: 'follow'; followeeId: string }
  /** A moderator pinned, featured, hid, restored or deleted a member's post, article or comment. */
  | {
      kind: 'moderation';
      recipientId: string;
      moderatorId: string;
      targetType: 'post' | 'article' | 'comment';
      targetId: number;
      action: ModerationAction;
      title: string;
      at: string;
    }
  /**
   * Staff decided about the member's update request (approved, refused, sent back for changes) or
   * creator application. `subject` is the catalogue item it is about (null for an application or a
   * proposed new item that was not created); `title` names it, `reason` says why (refusals, changes).
   */
  | {
      kind: 'review';
      recipientId: string;
      reviewerId: string;
      action: ReviewAction;
      subject: { type: EditType; id: number } | null;
      title: string;
      reason: string;
      at: string;
    };

declare module '../../context.ts' {
  interface AppJobs {
    'notifications.event': NotificationEvent;
    'notifications.digest': { userId: string };
  }
}

/** What a service needs to report an action: the app's job queue. */
export interface NotifyDeps {
  jobs: Pick<AppJobQueue, 'enqueue' | 'poke'>;
}

/** The group a recount event refreshes: one waiting job per group however many likes arrive meanwhile. */
function dedupeKeyOf(event: NotificationEvent): string | undefined {
  if (event.kind === 'like') return `like:${event.targetType}:${event.targetId}`;
  if (event.kind === 'follow') return `follow:${event.followeeId}`;
  return undefined;
}

/** Writes the event's job in the caller's transaction; call `deps.jobs.poke()` once it committed. */
export async function notifyLater(deps: NotifyDeps, trx: DbOrTrx, event: NotificationEvent): Promise<void> {
  const dedupeKey = dedupeKeyOf(event);
  await deps.jobs.enqueue(trx, 'notifications.event', event, dedupeKey ? { dedupeKey } : {});
}

/**
 * The queue for code that runs without this process's worker (the demo seed, service tests): jobs are
 * written all the same and the server's worker runs them.
 */
export const queueOnly: NotifyDeps['jobs'] = {
  enqueue: (db, name, payload, options) => enqueue(db, name, payload as JsonValue, options),
  poke: () => undefined,
};
