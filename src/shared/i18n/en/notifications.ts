import type { AreaMessages } from '../message.ts';
import type { notifications as reference } from '../zh-CN/notifications.ts';

/** English messages of the notifications area. */
export const notifications: AreaMessages<typeof reference> = {
  'notifications.title': 'Notifications',
  'notifications.layoutTitle': 'Messages',
  'notifications.nav.system': 'Notifications',
  'notifications.heading': 'Notifications',
  'notifications.markAll': 'Mark all as read',
  'notifications.markAllDone': 'All marked as read',
  'notifications.filter.all': 'All',
  'notifications.filter.unread': 'Unread',
  'notifications.filter.label': 'Show',
  'notifications.unreadSummary': { one: '{count} unread notification', other: '{count} unread notifications' },
  'notifications.unreadMark': 'Unread',
  'notifications.empty':
    'Nothing here yet. When someone replies, comments, likes or follows you, you will hear about it here.',
  'notifications.emptyUnread': 'No unread notifications.',
  'notifications.loadFailed': 'Could not load notifications: {message}',
  'notifications.retry': 'Try again',
  'notifications.readFailed': 'Could not mark it as read: {message}',
  'notifications.open': 'Open',
  'notifications.gone': 'This content no longer exists',
  'notifications.loginFirst': 'Log in to see your notifications',
  'notifications.login': 'Log in',
  'notifications.previous': 'Previous',
  'notifications.next': 'Next',
  'notifications.pageOf': 'Page {page} of {pages}',
  'notifications.pages': 'Notification pages',

  'notifications.deletedAccount': 'Deleted account',
  'notifications.actorsMany': { one: '{name} and {count} other', other: '{name} and {count} others' },
  'notifications.text.reply': '{who} replied to your comment: {excerpt}',
  'notifications.text.comment': '{who} commented on your “{title}”: {excerpt}',
  'notifications.text.like.post': '{who} liked your post “{title}”',
  'notifications.text.like.article': '{who} liked your article “{title}”',
  'notifications.text.like.comment': '{who} liked your comment: {title}',
  'notifications.text.like.rating': '{who} liked your rating: {title}',
  'notifications.text.follow': '{who} followed you',
  'notifications.text.moderation.pin': 'A moderator pinned your “{title}”',
  'notifications.text.moderation.feature': 'A moderator featured your “{title}”',
  'notifications.text.moderation.delete': 'A moderator deleted your “{title}”',
  'notifications.text.moderation.hide': 'A moderator hid your “{title}”',
  'notifications.text.moderation.restore': 'A moderator restored your “{title}”',
  'notifications.text.announcement': 'Announcement: {title}',
  'notifications.text.review.request_approved': 'Your update request for “{title}” was approved',
  'notifications.text.review.request_rejected': 'Your update request for “{title}” was rejected',
  'notifications.text.review.request_changes':
    'Your update request for “{title}” needs changes before it can be approved',
  'notifications.text.review.application_approved': 'Your creator application was approved: welcome aboard',
  'notifications.text.review.application_rejected': 'Your creator application was not approved',
  'notifications.text.review.withReason': '{sentence}. Reason: {reason}',

  'notifications.mail.subject': {
    one: '[Hikari] You have {count} new notification',
    other: '[Hikari] You have {count} new notifications',
  },
  'notifications.mail.hello': 'Hello!',
  'notifications.mail.intro': {
    one: 'You have {count} new notification on Hikari:',
    other: 'You have {count} new notifications on Hikari:',
  },
  'notifications.mail.more': {
    one: '{count} more notification is waiting on the site.',
    other: '{count} more notifications are waiting on the site.',
  },
  'notifications.mail.open': 'See them all: {url}',
  'notifications.mail.optOut':
    'Rather not get these mails? Turn off “Email notifications” in the settings of your space.',

  'notifications.validation.filter': 'filter must be all or unread',
  'notifications.validation.id': 'A notification id is 24 hexadecimal characters',
  'server.notifications.notFound': 'This notification does not exist',
  'server.notifications.allRead': 'All marked as read',
} as const;
