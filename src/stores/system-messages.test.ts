import { describe, expect, it } from 'vitest';
import type { ResponseOf } from '../shared/contract.ts';
// Loaded up front, as the page has loaded it before the first click.
import '../shared/notifications/notifications.contract.ts';
import type { NotificationPage, NotificationView } from '../shared/notifications/notifications.ts';
import { createSystemMessages, type SystemMessagesDeps } from './system-messages.ts';

const item = (id: string, isRead = false): NotificationView => ({
  _id: id.padEnd(24, '0'),
  kind: 'comment',
  actors: [{ userId: 2, name: 'Mio', avatar: '' }],
  actorCount: 1,
  target: { type: 'post', id: 1, title: 'T' },
  commentId: 5,
  action: null,
  excerpt: 'hi',
  url: '/community/post/1#comment-5',
  isRead,
  gone: false,
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
});

type FakeInput = { params?: { id: string } } | undefined;

/** A fake server holding the notifications, and what the badge was told. */
function fake(items: NotificationView[]) {
  const unreadOf = () => items.filter((n) => !n.isRead).length;
  const calls: string[] = [];
  const badge: string[] = [];
  const call = async (endpoint: { method: string; path: string }, input?: FakeInput) => {
    calls.push(`${endpoint.method} ${endpoint.path}`);
    let data: unknown;
    if (endpoint.path === '/v2/user/notifications') {
      const page: NotificationPage = {
        items: items.map((n) => ({ ...n })),
        pagination: { page: 1, limit: 20, total: items.length, totalPages: 1 },
        unreadCount: unreadOf(),
      };
      data = page;
    } else if (endpoint.path.endsWith('/read')) {
      const found = items.find((n) => n._id === input?.params?.id);
      if (found) found.isRead = true;
      data = { unreadCount: unreadOf() };
    } else {
      for (const n of items) n.isRead = true;
      data = { unreadCount: 0 };
    }
    return { success: true, code: 'OK', message: '已全部标为已读', data: data as ResponseOf<never> };
  };
  const deps: SystemMessagesDeps = {
    call: call as unknown as SystemMessagesDeps['call'],
    unread: {
      set: (n) => void badge.push(`set ${n}`),
      decrement: () => void badge.push('-1'),
      clear: () => void badge.push('clear'),
    },
  };
  return { deps, calls, badge };
}

describe('the /message/system store', () => {
  it('loads a page and gives the badge the server’s count', async () => {
    const server = fake([item('a'), item('b'), item('c', true)]);
    const messages = createSystemMessages(server.deps);
    await messages.load(1, 'all');
    const state = messages.$state.get();
    expect([state.items.length, state.unreadCount, state.loading, state.error]).toEqual([3, 2, false, null]);
    expect(server.badge).toEqual(['set 2']);
  });

  it('opening an unread one lowers the counts once, however many clicks; a read one changes nothing', async () => {
    const server = fake([item('a'), item('b'), item('c', true)]);
    const messages = createSystemMessages(server.deps);
    await messages.load();
    const first = messages.$state.get().items[0]!;
    await Promise.all([messages.open(first), messages.open(first)]);
    await messages.open(messages.$state.get().items[2]!);
    expect(server.calls.filter((c) => c.endsWith('/read'))).toHaveLength(1);
    expect(server.badge).toEqual(['set 2', '-1', 'set 1']);
    expect(messages.$state.get().unreadCount).toBe(1);
    expect(messages.$state.get().items[0]!.isRead).toBe(true);
  });

  it('marks all read and clears the badge', async () => {
    const server = fake([item('a'), item('b')]);
    const messages = createSystemMessages(server.deps);
    await messages.load();
    expect(await messages.markAll()).toBe('已全部标为已读');
    expect(server.badge.at(-1)).toBe('clear');
    expect(messages.$state.get().items.every((n) => n.isRead)).toBe(true);
    expect(messages.$state.get().unreadCount).toBe(0);
  });

  it('keeps a failed load’s message for the retry', async () => {
    const failing = async () => Promise.reject(new Error('offline'));
    const messages = createSystemMessages({
      call: failing as unknown as SystemMessagesDeps['call'],
      unread: { set: () => undefined, decrement: () => undefined, clear: () => undefined },
    });
    await messages.load();
    expect(messages.$state.get()).toMatchObject({ loading: false, error: 'offline' });
  });
});
