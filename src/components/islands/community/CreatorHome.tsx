import { useContext, useEffect, useState } from 'react';
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { ContentListItem } from '../../../shared/community/community.ts';
import type { CreatorOverview, OverviewRequest } from '../../../shared/creator/application.contract.ts';
import { REQUEST_STATUSES } from '../../../shared/creator/creator-model.ts';
import { CREATOR_BUILT_ROUTES } from '../../../shared/creator-sidebar.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { listOwnContent, type OwnList } from '../../../stores/content-editor.ts';
import { loadCreatorOverview, syncSessionGroup } from '../../../stores/creator-application.ts';
import { Icon } from '../ui/Icon.tsx';
import { LocaleContext, withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

const RECENT = 5;

export interface CreatorHomeProps {
  /** The group the page (and its sidebar) was rendered for. */
  group: UserGroup;
}

interface Summary {
  total: number;
  recent: ContentListItem[];
}

type Loaded =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; drafts: Summary; published: Summary; overview: CreatorOverview };

const summaryOf = async (list: OwnList): Promise<Summary> => {
  const page = await listOwnContent(list, null, 1, RECENT);
  return { total: page.pagination.total, recent: page.items };
};

/** A link only to a page that exists (the sidebar's rule): otherwise the text alone. */
const builtHref = (href: string) => (CREATOR_BUILT_ROUTES.has(href) ? href : undefined);
const MY_REQUESTS = '/create/update-request/requests';

const REQUEST_STYLE: Record<OverviewRequest['status'], string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  approved: 'bg-primary/15 text-accent',
  rejected: 'bg-rose-100 text-rose-800 dark:bg-rose-900/40 dark:text-rose-200',
  changes_requested: 'bg-sky-100 text-sky-800 dark:bg-sky-900/40 dark:text-sky-200',
  withdrawn: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

/**
 * /create/home: the member's overview (drafts and published content with the latest of each, their
 * update requests and the latest decisions, HikariPoint) and, for staff, the queues waiting for them.
 * When the server's group differs from the one the page was rendered for (an admin approved the
 * member meanwhile), the token is refreshed and the page loaded again with the new sidebar.
 */
function CreatorHome({ group }: CreatorHomeProps) {
  const t = useT();
  const locale = useContext(LocaleContext);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    Promise.all([summaryOf('drafts'), summaryOf('published'), loadCreatorOverview()]).then(
      ([drafts, published, overview]) => {
        if (!current) return;
        setLoaded({ state: 'ready', drafts, published, overview });
        if (overview.group !== group)
          // Loaded again only once the session holds the new group, so the page cannot reload in a loop.
          void syncSessionGroup(overview.group).then((changed) => changed && window.location.reload());
      },
      (error: unknown) => current && setLoaded({ state: 'failed', message: (error as Error).message }),
    );
    return () => {
      current = false;
    };
  }, [group]);

  const stat = (label: string, value: number | string, href?: string) => (
    <div className="hk-card p-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums dark:text-white">
        {href ? (
          <a href={href} className="hover:text-accent">
            {value}
          </a>
        ) : (
          value
        )}
      </p>
    </div>
  );
  const list = (title: string, items: ContentListItem[], href: string, drafts: boolean) => (
    <section className="hk-card min-w-0 p-4">
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-semibold text-zinc-900 dark:text-white">{title}</h2>
        <a href={href} className="text-sm text-accent hover:underline">
          {t('editor.home.all')}
        </a>
      </div>
      {items.length === 0 ? (
        <p className="py-4 text-sm text-zinc-600 dark:text-zinc-400">
          {drafts ? t('editor.noDrafts') : t('editor.noPublished')}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-700">
          {items.map((item) => (
            <li key={`${item.type}:${item.id}`} className="flex items-center gap-2 py-2 text-sm">
              <span className="rounded bg-primary/15 px-1.5 py-0.5 text-xs font-medium text-accent">
                {item.type === 'post' ? t('editor.kind.post') : t('editor.kind.article')}
              </span>
              <a
                href={drafts ? `/create/content/${item.type}?id=${item.id}` : item.url}
                className="min-w-0 flex-1 truncate hover:text-accent"
              >
                {item.title || t('editor.untitled')}
              </a>
              <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">
                {timeAgo(drafts ? item.updatedAt : (item.publishedAt ?? item.updatedAt), Date.now(), locale)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );

  const requestTitle = (request: OverviewRequest) => {
    const type = t(`application.type.${request.itemType}`);
    if (request.title) return request.title;
    return request.itemId === null
      ? t('application.overview.newItem', { type })
      : t('application.overview.untitled', { type, id: request.itemId });
  };
  const requests = (overview: CreatorOverview) => {
    const { counts, outcomes } = overview.requests;
    const total = REQUEST_STATUSES.reduce((sum, status) => sum + counts[status], 0);
    const all = builtHref(MY_REQUESTS);
    return (
      <section className="hk-card min-w-0 p-4" aria-labelledby="overview-requests" data-testid="overview-requests">
        <div className="mb-2 flex items-center justify-between">
          <h2 id="overview-requests" className="font-semibold text-zinc-900 dark:text-white">
            {t('application.overview.requests')}
          </h2>
          {all && total > 0 && (
            <a href={all} className="text-sm text-accent hover:underline">
              {t('editor.home.all')}
            </a>
          )}
        </div>
        {total === 0 ? (
          <p className="py-4 text-sm text-zinc-600 dark:text-zinc-400">{t('application.overview.noRequests')}</p>
        ) : (
          <>
            <ul className="flex flex-wrap gap-2">
              {REQUEST_STATUSES.filter((status) => counts[status] > 0).map((status) => (
                <li key={status} className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${REQUEST_STYLE[status]}`}>
                  {t(`application.request.${status}`)} <span className="tabular-nums">{counts[status]}</span>
                </li>
              ))}
            </ul>
            <h3 className="mt-4 mb-1 text-sm font-medium text-zinc-600 dark:text-zinc-400">
              {t('application.overview.outcomes')}
            </h3>
            {outcomes.length === 0 ? (
              <p className="py-2 text-sm text-zinc-600 dark:text-zinc-400">{t('application.overview.noOutcomes')}</p>
            ) : (
              <ul className="divide-y divide-zinc-200 dark:divide-zinc-700">
                {outcomes.map((request) => (
                  <li key={request.id} className="py-2 text-sm">
                    <div className="flex items-center gap-2">
                      <span
                        className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${REQUEST_STYLE[request.status]}`}
                      >
                        {t(`application.request.${request.status}`)}
                      </span>
                      <span className="min-w-0 flex-1 truncate text-zinc-900 dark:text-zinc-100">
                        {requestTitle(request)}
                      </span>
                      <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400">
                        {timeAgo(request.reviewedAt ?? request.updatedAt, Date.now(), locale)}
                      </span>
                    </div>
                    {request.reviewNote && (
                      <p className="mt-1 line-clamp-2 text-xs text-zinc-600 dark:text-zinc-400">
                        {t('application.overview.reviewNote', { note: request.reviewNote })}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
    );
  };
  const queues = (overview: CreatorOverview) =>
    overview.queues.length > 0 && (
      <section aria-labelledby="overview-queues" data-testid="overview-queues">
        <h2 id="overview-queues" className="mb-2 font-semibold text-zinc-900 dark:text-white">
          {t('application.overview.queues')}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {overview.queues.map((queue) => {
            const href = builtHref(queue.href);
            return (
              <li key={queue.id} className="hk-card flex flex-col gap-1 p-4" data-queue={queue.id}>
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  {t(`application.overview.queue.${queue.id}`)}
                </p>
                <p className="text-2xl font-semibold text-zinc-900 tabular-nums dark:text-white">{queue.count}</p>
                {href && (
                  <a href={href} className="inline-flex items-center gap-1 text-sm text-accent hover:underline">
                    {t('application.overview.open')}
                    <span className="sr-only">{t(`application.overview.queue.${queue.id}`)}</span>
                    <Icon name="arrow-right" className="size-4" />
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap gap-3">
        <a href="/create/content/post" className="hk-btn hk-btn-primary">
          <Icon name="pen-square" className="size-4" />
          {t('editor.writePost')}
        </a>
        <a href="/create/content/article" className="hk-btn hk-btn-ghost">
          <Icon name="file-text" className="size-4" />
          {t('editor.writeArticle')}
        </a>
      </div>
      {loaded.state === 'loading' && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('editor.loading')}
        </p>
      )}
      {loaded.state === 'failed' && (
        <p role="alert" className="hk-card p-4 text-sm">
          {t('editor.listFailed', { message: loaded.message })}
        </p>
      )}
      {loaded.state === 'ready' && (
        <>
          <div className="grid gap-3 sm:grid-cols-3" data-testid="overview-stats">
            {stat(t('editor.home.drafts'), loaded.overview.content.drafts, '/create/content/draft/home')}
            {stat(t('editor.home.published'), loaded.overview.content.published, '/create/content/manage/home')}
            {stat(t('editor.home.points'), loaded.overview.hikariPoint)}
          </div>
          {queues(loaded.overview)}
          <div className="grid gap-6 lg:grid-cols-2">
            {list(t('editor.home.recentDrafts'), loaded.drafts.recent, '/create/content/draft/home', true)}
            {list(t('editor.home.recentPublished'), loaded.published.recent, '/create/content/manage/home', false)}
            {requests(loaded.overview)}
          </div>
        </>
      )}
    </div>
  );
}

export default withLocale(CreatorHome);
