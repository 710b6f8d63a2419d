import type { Translate } from '../i18n/index.ts';
import { isReviewAction, type ModerationAction, type NotificationView } from './notifications.ts';

const LIKED: Partial<Record<string, 'post' | 'article' | 'comment' | 'rating'>> = {
  post: 'post',
  article: 'article',
  comment: 'comment',
  rating: 'rating',
};

/** Who acted: "A", or "A and 3 others" for a group. */
export function notificationActors(t: Translate, item: Pick<NotificationView, 'actors' | 'actorCount'>): string {
  // A group's actors whose accounts were removed are left out; none left names them as deleted.
  const first = item.actors[0]?.name ?? t('notifications.deletedAccount');
  const others = Math.max(0, item.actorCount - 1);
  return others > 0 ? t('notifications.actorsMany', { name: first, count: others }) : first;
}

/** One notification as a sentence: the page and the digest mail say the same. */
export function notificationText(t: Translate, item: NotificationView): string {
  const who = notificationActors(t, item);
  const title = item.target?.title || item.excerpt;
  switch (item.kind) {
    case 'reply':
      return t('notifications.text.reply', { who, excerpt: item.excerpt });
    case 'comment':
      return t('notifications.text.comment', { who, title: item.target?.title ?? '', excerpt: item.excerpt });
    case 'like':
      return t(`notifications.text.like.${LIKED[item.target?.type ?? ''] ?? 'post'}`, { who, title });
    case 'follow':
      return t('notifications.text.follow', { who });
    case 'moderation':
      return t(`notifications.text.moderation.${(item.action as ModerationAction | null) ?? 'delete'}`, {
        title: item.excerpt || title,
      });
    case 'announcement':
      return t('notifications.text.announcement', { title: item.excerpt });
    case 'review': {
      const action = item.action && isReviewAction(item.action) ? item.action : 'request_approved';
      const sentence = t(`notifications.text.review.${action}`, { title: item.excerpt || title });
      return item.reason ? t('notifications.text.review.withReason', { sentence, reason: item.reason }) : sentence;
    }
  }
}
