import type { AreaMessages } from '../message.ts';
import type { moderation as reference } from '../zh-CN/moderation.ts';

/** en messages of moderation: the report queue, hiding and restoring, bans, the audit log and roles. */
export const moderation: AreaMessages<typeof reference> = {
  'moderation.title': 'Moderation',
  'moderation.label.reason': 'Reason',
  'moderation.label.userId': 'User ID',
  'moderation.label.search': 'Search',
  'moderation.label.actor': 'Actor',
  'moderation.label.targetType': 'Target type',
  'moderation.label.targetId': 'Target ID',
  'moderation.error.type': 'The target must be a post, article, comment or download link',
  'moderation.error.action': 'Unknown action',
  'moderation.error.period': 'The ban period must be 1 day, 7 days, 30 days, custom or forever',
  'moderation.error.until': 'Give the end of the ban as an ISO date and time',
  'moderation.error.untilRange': 'The ban must end in the future, within {max} days',
  'moderation.error.group': 'The group can only be user, creator, editor or admin',
  'moderation.error.editorsOnly': 'Only editors and above handle reports and content',
  'moderation.error.adminsOnly': 'Only admins can do this',
  'moderation.error.superAdminOnly': "Only the superAdmin changes members' groups",
  'moderation.error.notFound': 'This content was not found; it may have been deleted',
  'moderation.error.linkNotFound': 'This download link was not found',
  'moderation.error.userNotFound': 'This member was not found',
  'moderation.error.notPublished': 'Only published content can be hidden',
  'moderation.error.alreadyHidden': 'This content is already hidden',
  'moderation.error.notHidden': 'This content is not hidden; there is nothing to restore',
  'moderation.error.rootWithReplies':
    'This comment has replies and cannot be hidden; delete it, or handle the replies first',
  'moderation.error.actionForType': 'This action does not apply to this kind of report',
  'moderation.error.reportClosed': 'These reports were already handled; refresh the queue',
  'moderation.error.banSelf': 'You cannot ban yourself',
  'moderation.error.banRank': 'You can only ban members below your own group',
  'moderation.error.notBanned': 'This member is not banned',
  'moderation.error.groupSelf': 'You cannot change your own group',
  'moderation.error.groupSuperAdmin': "A superAdmin's group cannot be changed here",
};
