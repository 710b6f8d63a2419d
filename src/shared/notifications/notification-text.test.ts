import { describe, expect, it } from 'vitest';
import { translator } from '../i18n/catalogues.ts';
import { notificationText } from './notification-text.ts';
import type { NotificationView } from './notifications.ts';

const base: NotificationView = {
  _id: 'a'.repeat(24),
  kind: 'like',
  actors: [{ userId: 2, name: 'Mio', avatar: '' }],
  actorCount: 1,
  target: { type: 'post', id: 7, title: '夏日的回响' },
  commentId: null,
  action: null,
  excerpt: '',
  url: '/community/post/7',
  isRead: false,
  gone: false,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
};

describe('a notification as a sentence', () => {
  it('names a group by its newest member and how many there are, in each language', () => {
    const group = { ...base, actorCount: 4 };
    expect(notificationText(translator('zh-CN'), group)).toBe('Mio 和另外 3 人 赞了你的帖子《夏日的回响》');
    expect(notificationText(translator('en'), group)).toBe('Mio and 3 others liked your post “夏日的回响”');
    expect(notificationText(translator('en'), { ...base, actorCount: 2 })).toBe(
      'Mio and 1 other liked your post “夏日的回响”',
    );
    expect(notificationText(translator('zh-CN'), base)).toBe('Mio 赞了你的帖子《夏日的回响》');
  });

  it('quotes replies and comments, and says what a moderator did', () => {
    const reply = { ...base, kind: 'reply' as const, excerpt: '同意楼上', commentId: 3 };
    expect(notificationText(translator('zh-CN'), reply)).toBe('Mio 回复了你的评论：同意楼上');
    const moderation = { ...base, kind: 'moderation' as const, actors: [], action: 'delete' as const, excerpt: '旧帖' };
    expect(notificationText(translator('en'), moderation)).toBe('A moderator deleted your “旧帖”');
  });

  it('names actors whose accounts were removed as a deleted account', () => {
    const group = { ...base, kind: 'follow' as const, actors: [], actorCount: 5 };
    expect(notificationText(translator('zh-CN'), group)).toBe('已注销用户 和另外 4 人 关注了你');
    expect(notificationText(translator('en'), { ...group, actorCount: 1 })).toBe('Deleted account followed you');
  });

  it('says what staff decided about a request or an application, with the reason when there is one', () => {
    const review = { ...base, kind: 'review' as const, actors: [], target: null, excerpt: '星之梦' };
    expect(notificationText(translator('en'), { ...review, action: 'request_approved' })).toBe(
      'Your update request for “星之梦” was approved',
    );
    expect(notificationText(translator('zh-CN'), { ...review, action: 'request_rejected', reason: '缺少来源' })).toBe(
      '你对《星之梦》的更新请求未通过审核。理由：缺少来源',
    );
    expect(notificationText(translator('en'), { ...review, action: 'application_rejected', reason: 'Too short' })).toBe(
      'Your creator application was not approved. Reason: Too short',
    );
  });
});
