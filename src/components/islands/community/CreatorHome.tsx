import { useStore } from '@nanostores/react';
import { useContext, useEffect, useState } from 'react';
import type { ContentListItem } from '../../../shared/community/community.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { listOwnContent, type OwnList } from '../../../stores/content-editor.ts';
import { $session } from '../../../stores/session.ts';
import { Icon } from '../ui/Icon.tsx';
import { LocaleContext, withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

const RECENT = 5;

interface Summary {
  total: number;
  recent: ContentListItem[];
}

type Loaded =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; drafts: Summary; published: Summary };

const summaryOf = async (list: OwnList): Promise<Summary> => {
  const page = await listOwnContent(list, null, 1, RECENT);
  return { total: page.pagination.total, recent: page.items };
};

/** /create/home: what the member has written (drafts and published, with counts) and where to start. */
function CreatorHome() {
  const t = useT();
  const locale = useContext(LocaleContext);
  const session = useStore($session);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    Promise.all([summaryOf('drafts'), summaryOf('published')]).then(
      ([drafts, published]) => current && setLoaded({ state: 'ready', drafts, published }),
      (error: unknown) => current && setLoaded({ state: 'failed', message: (error as Error).message }),
    );
    return () => {
      current = false;
    };
  }, []);

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
    <section className="hk-card p-4">
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
          <div className="grid gap-3 sm:grid-cols-3">
            {stat(t('editor.home.drafts'), loaded.drafts.total, '/create/content/draft/home')}
            {stat(t('editor.home.published'), loaded.published.total, '/create/content/manage/home')}
            {stat(t('editor.home.points'), session?.hikariPoint ?? 0)}
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            {list(t('editor.home.recentDrafts'), loaded.drafts.recent, '/create/content/draft/home', true)}
            {list(t('editor.home.recentPublished'), loaded.published.recent, '/create/content/manage/home', false)}
          </div>
        </>
      )}
    </div>
  );
}

export default withLocale(CreatorHome);
