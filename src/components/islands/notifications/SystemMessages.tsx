import { useStore } from '@nanostores/react';
import { useContext, useEffect, useState, type MouseEvent } from 'react';
import { timeAgo } from '../../../shared/date-distance.ts';
import type { Locale } from '../../../shared/i18n/index.ts';
import type { IconName } from '../../../shared/icons.ts';
import { notificationText } from '../../../shared/notifications/notification-text.ts';
import type { NotificationKind, NotificationView } from '../../../shared/notifications/notifications.ts';
import { api } from '../../../stores/api-client.ts';
import { $publicConfig } from '../../../stores/public-config.ts';
import {
  createSystemMessages,
  type MessageFilter,
  type SystemMessages as Store,
} from '../../../stores/system-messages.ts';
import { toast } from '../../../stores/toast.ts';
import { unread } from '../../../stores/unread.ts';
import Avatar from '../display/Avatar.tsx';
import { Icon } from '../ui/Icon.tsx';
import { LocaleContext, withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

const KIND_ICON: Record<NotificationKind, IconName> = {
  reply: 'reply',
  comment: 'message-circle',
  like: 'heart',
  follow: 'user',
  moderation: 'flag',
  announcement: 'megaphone',
  review: 'check',
};

/** Whether a click should open the link in this tab (not a new tab or window). */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * /message/system (decision 021): the member's notifications, newest first, page by page; unread ones
 * marked. Opening one marks it read and goes to what it is about (the exact comment); "mark all read"
 * clears the badge.
 */
function SystemMessages() {
  const t = useT();
  const locale = useContext(LocaleContext);
  const config = useStore($publicConfig);
  const [store, setStore] = useState<Store | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    let gone = false;
    void unread().then((keeper) => {
      if (gone) return;
      const made = createSystemMessages({ call: (endpoint, ...args) => api.call(endpoint, ...args), unread: keeper });
      setStore(made);
      void made.load(1, 'all');
    });
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, []);

  return (
    <section
      aria-labelledby="system-messages-title"
      className="hk-card flex min-h-0 flex-1 flex-col overflow-hidden rounded-none desk:rounded-xl"
      data-testid="system-messages"
    >
      {store ? (
        <Loaded store={store} t={t} locale={locale} now={now} imageOptions={config} />
      ) : (
        <Header t={t} unreadCount={null} filter="all" onFilter={() => undefined} onMarkAll={null} />
      )}
    </section>
  );
}

interface HeaderProps {
  t: ReturnType<typeof useT>;
  unreadCount: number | null;
  filter: MessageFilter;
  onFilter: (filter: MessageFilter) => void;
  onMarkAll: (() => void) | null;
}

function Header({ t, unreadCount, filter, onFilter, onMarkAll }: HeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 px-4 py-3 dark:border-zinc-700">
      <h1 id="system-messages-title" className="text-lg font-semibold text-zinc-900 dark:text-white">
        {t('notifications.heading')}
      </h1>
      {unreadCount !== null && unreadCount > 0 && (
        <span className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="system-messages-unread">
          {t('notifications.unreadSummary', { count: unreadCount })}
        </span>
      )}
      <div className="ml-auto flex items-center gap-2">
        <div
          role="group"
          aria-label={t('notifications.filter.label')}
          className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800"
        >
          {(['all', 'unread'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              onClick={() => onFilter(value)}
              className="rounded-md px-3 py-1 text-sm text-zinc-700 aria-pressed:bg-white aria-pressed:font-medium aria-pressed:text-zinc-900 aria-pressed:shadow-sm dark:text-zinc-300 dark:aria-pressed:bg-zinc-700 dark:aria-pressed:text-white"
            >
              {t(`notifications.filter.${value}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="hk-btn hk-btn-ghost h-8 px-3 text-sm"
          disabled={!onMarkAll || !unreadCount}
          onClick={onMarkAll ?? undefined}
          data-testid="system-messages-mark-all"
        >
          <Icon name="check" />
          {t('notifications.markAll')}
        </button>
      </div>
    </header>
  );
}

interface LoadedProps {
  store: Store;
  t: ReturnType<typeof useT>;
  locale: Locale;
  now: number;
  imageOptions: { imageBedUrl: string; imageAllowedHosts: string[] };
}

function Loaded({ store, t, locale, now, imageOptions }: LoadedProps) {
  const state = useStore(store.$state);
  const images = { imageBedUrl: imageOptions.imageBedUrl, allowedHosts: imageOptions.imageAllowedHosts };

  const open = (item: NotificationView) => async (event: MouseEvent<HTMLAnchorElement | HTMLButtonElement>) => {
    const here = item.url !== null && plainClick(event);
    if (here) event.preventDefault();
    try {
      await store.open(item);
    } catch (error) {
      toast.error(t('notifications.readFailed', { message: (error as Error).message }));
    }
    if (here && item.url) window.location.assign(item.url);
  };

  const markAll = async () => {
    try {
      toast.success(await store.markAll());
    } catch (error) {
      toast.error(t('notifications.readFailed', { message: (error as Error).message }));
    }
  };

  const pages = state.pagination?.totalPages ?? 1;
  return (
    <>
      <Header
        t={t}
        unreadCount={state.unreadCount}
        filter={state.filter}
        onFilter={(filter) => void store.load(1, filter)}
        onMarkAll={() => void markAll()}
      />
      <div className="min-h-0 flex-1 overflow-y-auto" aria-busy={state.loading}>
        {state.error ? (
          <div className="flex flex-col items-center gap-3 px-4 py-12 text-center" role="alert">
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              {t('notifications.loadFailed', { message: state.error })}
            </p>
            <button type="button" className="hk-btn hk-btn-primary h-8 px-3" onClick={() => void store.load()}>
              {t('notifications.retry')}
            </button>
          </div>
        ) : state.items.length === 0 && !state.loading ? (
          <div className="flex flex-col items-center gap-3 px-4 py-16 text-center" data-testid="system-messages-empty">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary-50 text-primary-600 dark:bg-primary-900/40 dark:text-primary-300">
              <Icon name="bell" />
            </span>
            <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
              {t(state.filter === 'unread' ? 'notifications.emptyUnread' : 'notifications.empty')}
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="system-messages-list">
            {state.items.map((item) => {
              const text = notificationText(t, item);
              const body = (
                <>
                  <span className="relative shrink-0">
                    {item.actors[0] ? (
                      <Avatar
                        src={item.actors[0].avatar}
                        name={item.actors[0].name}
                        size="medium"
                        imageOptions={images}
                      />
                    ) : (
                      <span className="flex size-10 items-center justify-center rounded-full bg-primary-50 text-primary-600 dark:bg-primary-900/40 dark:text-primary-300">
                        <Icon name={KIND_ICON[item.kind]} />
                      </span>
                    )}
                    {item.actors[0] && (
                      <span className="absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full bg-white text-[11px] text-primary-600 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-primary-300 dark:ring-zinc-700 [&_svg]:size-3">
                        <Icon name={KIND_ICON[item.kind]} />
                      </span>
                    )}
                  </span>
                  <span className="min-w-0 flex-1">
                    {/* The sentence carries members' names and titles as they wrote them. */}
                    <span
                      data-i18n-content
                      className={`block text-sm break-words ${item.isRead ? 'text-zinc-600 dark:text-zinc-400' : 'font-medium text-zinc-900 dark:text-white'}`}
                    >
                      {text}
                    </span>
                    <span className="mt-1 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                      <time dateTime={item.updatedAt}>{timeAgo(item.updatedAt, now, locale)}</time>
                      {item.url === null &&
                        item.kind !== 'follow' &&
                        item.kind !== 'announcement' &&
                        item.kind !== 'review' && <span>· {t('notifications.gone')}</span>}
                    </span>
                  </span>
                  {!item.isRead && (
                    <span className="mt-1.5 flex shrink-0 items-center" data-testid="system-message-unread">
                      <span aria-hidden="true" className="size-2 rounded-full bg-rose-500" />
                      <span className="sr-only">{t('notifications.unreadMark')}</span>
                    </span>
                  )}
                </>
              );
              const rowClass = `flex w-full items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-zinc-50 focus-visible:bg-zinc-50 focus-visible:outline-none dark:hover:bg-zinc-800/60 dark:focus-visible:bg-zinc-800/60 ${item.isRead ? '' : 'bg-primary-50/50 dark:bg-primary-900/10'}`;
              return (
                <li key={item._id} data-testid="system-message" data-read={item.isRead || undefined}>
                  {item.url ? (
                    <a href={item.url} className={rowClass} onClick={(event) => void open(item)(event)}>
                      {body}
                    </a>
                  ) : (
                    <button type="button" className={rowClass} onClick={(event) => void open(item)(event)}>
                      {body}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {pages > 1 && (
        <nav
          aria-label={t('notifications.pages')}
          className="flex items-center justify-between gap-2 border-t border-zinc-200 px-4 py-2 text-sm dark:border-zinc-700"
        >
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={state.page <= 1 || state.loading}
            onClick={() => void store.load(state.page - 1)}
          >
            <Icon name="chevron-left" />
            {t('notifications.previous')}
          </button>
          <span className="text-zinc-600 tabular-nums dark:text-zinc-400">
            {t('notifications.pageOf', { page: state.page, pages })}
          </span>
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={state.page >= pages || state.loading}
            onClick={() => void store.load(state.page + 1)}
          >
            {t('notifications.next')}
            <Icon name="chevron-right" />
          </button>
        </nav>
      )}
    </>
  );
}

export default withLocale(SystemMessages);
