import type { AreaMessages } from '../message.ts';
import type { comments as reference } from '../zh-CN/comments.ts';

/** English messages of the comments area. */
export const comments: AreaMessages<typeof reference> = {
  'comments.title': 'Comments',

  'comments.label.content': 'Comment',
  'comments.label.target': 'The commented item id',
  'comments.label.comment': 'Comment id',
  'comments.label.parent': 'The id of the comment answered',
  'comments.label.likeTarget': 'The liked item id',
  'comments.label.reportTarget': 'The reported item id',
  'comments.label.reportText': 'Report details',

  'comments.validation.targetType': 'This kind of item cannot be commented on',
  'comments.validation.sort': 'Sort must be hot or new',
  'comments.validation.tooManyImages': 'A comment can hold at most {max} images',
  'comments.validation.pinned': 'pinned must be true or false',
  'comments.validation.likeType': 'Only posts, articles, comments and ratings can be liked',
  'comments.validation.likeIds': 'ids must be numeric ids separated by commas',
  'comments.validation.likeIdsTooMany': 'Ask about at most {max} ids at a time',
  'comments.validation.reportType': 'Only posts, articles and comments can be reported',
  'comments.validation.reportReason': 'Choose a reason for the report',

  'comments.reportReason.spam': 'Spam or advertising',
  'comments.reportReason.abuse': 'Abuse or harassment',
  'comments.reportReason.nsfw': 'Sexual or vulgar content',
  'comments.reportReason.spoiler': 'Unmarked spoilers',
  'comments.reportReason.illegal': 'Illegal content',
  'comments.reportReason.other': 'Something else',

  'server.comments.created': 'Comment posted',
  'server.comments.replied': 'Reply posted',
  'server.comments.deleted': 'Comment deleted',
  'server.comments.pinned': 'Comment pinned',
  'server.comments.unpinned': 'Comment unpinned',
  'server.comments.notFound': 'This comment does not exist or was deleted',
  'server.comments.targetNotFound': 'The item you are commenting on does not exist',
  'server.comments.parentNotFound': 'The comment you are answering does not exist or was deleted',
  'server.comments.parentElsewhere': 'You can only answer comments on the same item',
  'server.comments.notYours': 'You can only delete your own comments',
  'server.comments.pinNotAllowed': "Only the item's author or a moderator can pin comments",
  'server.comments.pinRootsOnly': 'Only top-level comments can be pinned, not replies',
  'server.comments.tooFast': 'You are commenting too fast; try again in a minute',
  'server.comments.dailyLimit': 'You have posted {max} comments today, the daily limit; try again tomorrow',
  'server.comments.imageNotOurs': 'Image {index} was not uploaded for a comment; insert it again',
  'server.comments.imageNotUploaded': 'Image {index} has not finished uploading; insert it again',

  'server.likes.liked': 'Liked',
  'server.likes.unliked': 'Like removed',
  'server.likes.targetNotFound': 'The item you are liking does not exist',

  'server.reports.created': 'Report sent. Thank you for letting us know',
  'server.reports.targetNotFound': 'The item you are reporting does not exist',
  'server.reports.alreadyReported': 'You have already reported this; please wait until a moderator has looked at it',
  'server.reports.ownItem': 'You cannot report what you wrote yourself; edit or delete it instead',
  'server.reports.dailyLimit': 'You have sent {max} reports today, the daily limit; try again tomorrow',
} as const;
