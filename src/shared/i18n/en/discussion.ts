import type { AreaMessages } from '../message.ts';
import type { discussion as reference } from '../zh-CN/discussion.ts';

/** English messages of the discussion area. */
export const discussion: AreaMessages<typeof reference> = {
  'discussion.title': 'Comments',
  'discussion.sort.label': 'Sort comments',
  'discussion.sort.hot': 'Top',
  'discussion.sort.new': 'Newest',

  'discussion.composer.label': 'Write a comment',
  'discussion.composer.preparing': 'Loading the editor…',
  'discussion.composer.send': 'Post',
  'discussion.composer.sending': 'Posting…',
  'discussion.composer.empty': 'Write something before posting',
  'discussion.composer.tooLong': 'A comment can be at most {max} characters long',
  'discussion.composer.loginPrompt': 'Log in to join the discussion',
  'discussion.composer.login': 'Log in',

  'discussion.empty': 'No comments yet. Be the first to say something!',
  'discussion.loading': 'Loading comments…',
  'discussion.loadFailed': 'The comments could not be loaded: {message}',
  'discussion.retry': 'Try again',
  'discussion.more': 'Load more comments',
  'discussion.end': 'No more comments',

  'discussion.comment.by': 'Comment by {name}',
  'discussion.comment.deleted': 'This comment has been deleted',
  'discussion.comment.hidden': 'Hidden by moderators: only you and the moderators can see this comment',
  'discussion.comment.pinned': 'Pinned',
  'discussion.comment.replyTo': 'Replying to @{name}: ',
  'discussion.comment.actions': 'Comment actions',

  'discussion.reply': 'Reply',
  'discussion.reply.label': 'Reply to @{name}',
  'discussion.reply.send': 'Send reply',
  'discussion.reply.cancel': 'Cancel',
  'discussion.replies.label': 'Replies to the comment by {name}',
  'discussion.replies.all': { one: 'View {count} reply', other: 'View all {count} replies' },
  'discussion.replies.more': 'Load more replies',
  'discussion.replies.loading': 'Loading replies…',

  'discussion.delete': 'Delete',
  'discussion.delete.title': 'Delete comment',
  'discussion.delete.confirm': 'Delete this comment? This cannot be undone.',
  'discussion.delete.confirmWithReplies':
    'Delete this comment? Its replies stay, and the comment will show as deleted.',
  'discussion.pin': 'Pin',
  'discussion.unpin': 'Unpin',

  'discussion.like': 'Like',
  'discussion.like.name': { one: 'Like, {count} like so far', other: 'Like, {count} likes so far' },
  'discussion.loginFirst': 'Please log in first',

  'discussion.report': 'Report',
  'discussion.report.title': 'Report content',
  'discussion.report.reason': 'Reason',
  'discussion.report.reason.spam': 'Spam or advertising',
  'discussion.report.reason.abuse': 'Abuse or harassment',
  'discussion.report.reason.nsfw': 'Sexual or vulgar content',
  'discussion.report.reason.spoiler': 'Unmarked spoiler',
  'discussion.report.reason.illegal': 'Illegal content',
  'discussion.report.reason.other': 'Something else',
  'discussion.report.text': 'Details (optional)',
  'discussion.report.counter': '{length} / {max}',
  'discussion.report.send': 'Send report',
  'discussion.report.sending': 'Sending…',
  'discussion.report.cancel': 'Cancel',
  'discussion.report.pickReason': 'Choose a reason for the report',
  'discussion.report.tooLong': 'Details can be at most {max} characters long',
};
