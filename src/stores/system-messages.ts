import { atom } from 'nanostores';
import type { Pagination } from '../shared/catalogue.ts';
import type { NotificationView } from '../shared/notifications/notifications.ts';
import { NOTIFICATION_PAGE_DEFAULT } from '../shared/notifications/notifications.ts';
import type { ApiClient } from './api-client.ts';
import type { Unread } from './unread.ts';

export type MessageFilter = 'all' | 'unread';

export interface SystemMessagesState {
  filter: MessageFilter;
  page: number;
  items: NotificationView[];
  pagination: Pagination | null;
  unreadCount: number;
  /** A load under way (the list keeps showing the previous page meanwhile). */
  loading: boolean;
  /** The last load's failure, shown with a retry. */
  error: string | null;
}

export interface SystemMessagesDeps {
  call: ApiClient['call'];
  unread: Pick<Unread, 'set' | 'decrement' | 'clear'>;
}

const contract = () =>
  import('../shared/notifications/notifications.contract.ts').then((module) => module.notificationsContract);

/**
 * /message/system (decision 021): the member's notifications page by page, newest first; opening one
 * marks it read (the badge goes down by one at once, then takes the server's count); "mark all" clears
 * both. The page renders; this decides.
 */
export function createSystemMessages(deps: SystemMessagesDeps) {
  const $state = atom<SystemMessagesState>({
    filter: 'all',
    page: 1,
    items: [],
    pagination: null,
    unreadCount: 0,
    loading: true,
    error: null,
  });
  let loads = 0;
  const patch = (change: Partial<SystemMessagesState>) => $state.set({ ...$state.get(), ...change });

  async function load(page = $state.get().page, filter = $state.get().filter): Promise<void> {
    const ask = ++loads;
    patch({ loading: true, error: null, page, filter });
    try {
      const { data } = await deps.call((await contract()).list, {
        query: { page, limit: NOTIFICATION_PAGE_DEFAULT, filter },
      });
      if (ask !== loads) return;
      patch({ items: data.items, pagination: data.pagination, unreadCount: data.unreadCount, loading: false });
      deps.unread.set(data.unreadCount);
    } catch (error) {
      if (ask === loads) patch({ loading: false, error: (error as Error).message });
    }
  }

  const markLocally = (id: string) =>
    patch({
      items: $state.get().items.map((item) => (item._id === id ? { ...item, isRead: true } : item)),
      unreadCount: Math.max(0, $state.get().unreadCount - 1),
    });

  return {
    $state,
    load,
    /**
     * Marks one read as it is opened. An unread one lowers the counts by one at once; two clicks (or
     * two tabs) count once, since the second finds it read. Resolves once the server has it.
     */
    async open(item: NotificationView): Promise<void> {
      const current = $state.get().items.find((x) => x._id === item._id);
      if (!current || current.isRead) return;
      markLocally(item._id);
      deps.unread.decrement();
      const { data } = await deps.call((await contract()).read, { params: { id: item._id }, body: {} });
      deps.unread.set(data.unreadCount);
      patch({ unreadCount: data.unreadCount });
    },
    async markAll(): Promise<string> {
      const answer = await deps.call((await contract()).readAll, { body: {} });
      deps.unread.clear();
      patch({ items: $state.get().items.map((item) => ({ ...item, isRead: true })), unreadCount: 0 });
      if ($state.get().filter === 'unread') await load(1, 'unread');
      return answer.message;
    },
  };
}

export type SystemMessages = ReturnType<typeof createSystemMessages>;
