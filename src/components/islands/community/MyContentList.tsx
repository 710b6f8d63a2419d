import { useContext, useEffect, useState } from 'react';
import type { Pagination } from '../../../shared/catalogue.ts';
import type { ContentListItem, ContentType } from '../../../shared/community/community.ts';
import { timeAgo } from '../../../shared/date-distance.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { deleteContent, listOwnContent, type OwnList } from '../../../stores/content-editor.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { LocaleContext, withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

export interface MyContentListProps {
  /** The viewer's drafts, or what they have published. */
  list: OwnList;
  /** Both kinds, or posts or articles only. */
  type: ContentType | null;
}

const PAGE_SIZE = 10;
const editorOf = (item: Pick<ContentListItem, 'type' | 'id'>) => `/create/content/${item.type}?id=${item.id}`;

type Loaded =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; items: ContentListItem[]; pagination: Pagination };

/** The viewer's drafts or published posts and articles, newest change first, with edit and delete. */
function MyContentList({ list, type }: MyContentListProps) {
  const t = useT();
  const locale = useContext(LocaleContext);
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    listOwnContent(list, type, page, PAGE_SIZE).then(
      (answer) => {
        if (!current) return;
        // A page emptied by deletions shows the one before it.
        if (answer.items.length === 0 && page > 1) setPage(page - 1);
        else setLoaded({ state: 'ready', ...answer });
      },
      (error: unknown) => current && setLoaded({ state: 'failed', message: (error as Error).message }),
    );
    return () => {
      current = false;
    };
  }, [list, type, page, round]);

  const remove = async (item: ContentListItem) => {
    const title = item.title || t('editor.untitled');
    if (!(await confirmDialog(t('editor.deleteConfirm', { title })))) return;
    const outcome = await deleteContent(item.type, item.id);
    if (outcome.ok) {
      toast.success(t('editor.deleted'));
      setRound((value) => value + 1);
    } else toast.error(t('editor.deleteFailed', { message: outcome.message }));
  };

  if (loaded.state === 'loading') {
    return (
      <p role="status" className="hk-card p-6 text-sm text-zinc-600 dark:text-zinc-400">
        {t('editor.loading')}
      </p>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <div role="alert" className="hk-card p-6 text-sm">
        <p>{t('editor.listFailed', { message: loaded.message })}</p>
        <button type="button" onClick={() => setRound((value) => value + 1)} className="hk-btn hk-btn-ghost mt-3">
          {t('editor.retry')}
        </button>
      </div>
    );
  }
  if (loaded.items.length === 0) {
    return (
      <div className="hk-card flex flex-col items-center gap-3 p-10 text-center">
        <Icon name="file-text" className="size-10 text-zinc-400" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {list === 'drafts' ? t('editor.noDrafts') : t('editor.noPublished')}
        </p>
        <div className="flex gap-2">
          <a href="/create/content/post" className="hk-btn hk-btn-primary">
            {t('editor.writePost')}
          </a>
          <a href="/create/content/article" className="hk-btn hk-btn-ghost">
            {t('editor.writeArticle')}
          </a>
        </div>
      </div>
    );
  }
  const { pagination } = loaded;
  return (
    <div>
      <ul className="hk-card divide-y divide-zinc-200 dark:divide-zinc-700" data-testid="my-content-list">
        {loaded.items.map((item) => (
          <li key={`${item.type}:${item.id}`} className="flex gap-3 p-4" data-testid="my-content-item">
            {item.cover ? (
              <img src={item.cover} alt="" loading="lazy" className="size-16 shrink-0 rounded-md object-cover" />
            ) : (
              <span className="flex size-16 shrink-0 items-center justify-center rounded-md bg-zinc-100 dark:bg-zinc-800">
                <Icon name={item.type === 'post' ? 'messages' : 'file-text'} className="size-6 text-zinc-400" />
              </span>
            )}
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                <span className="rounded bg-primary/15 px-1.5 py-0.5 font-medium text-accent">
                  {item.type === 'post' ? t('editor.kind.post') : t('editor.kind.article')}
                </span>
                {item.status === 'hidden' && (
                  <span
                    className="inline-flex items-center gap-1 rounded bg-rose-100 px-1.5 py-0.5 font-medium text-rose-800 dark:bg-rose-500/15 dark:text-rose-200"
                    data-testid="my-content-hidden"
                  >
                    <Icon name="eye-off" className="size-3" />
                    {t('editor.hidden')}
                  </span>
                )}
                {item.section && <span>{item.section.name}</span>}
                <span>
                  {list === 'drafts'
                    ? t('editor.changedAgo', { when: timeAgo(item.updatedAt, Date.now(), locale) })
                    : t('editor.publishedAgo', {
                        when: timeAgo(item.publishedAt ?? item.updatedAt, Date.now(), locale),
                      })}
                </span>
              </p>
              <h2 className="mt-1 truncate font-medium text-zinc-900 dark:text-white">
                {list === 'published' ? (
                  <a href={item.url} className="hover:text-accent">
                    {item.title || t('editor.untitled')}
                  </a>
                ) : (
                  item.title || t('editor.untitled')
                )}
              </h2>
              {item.excerpt && (
                <p className="mt-0.5 line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">{item.excerpt}</p>
              )}
              {item.status === 'hidden' && (
                <p className="mt-1 text-xs text-rose-800 dark:text-rose-200">{t('editor.hiddenHint')}</p>
              )}
              {list === 'published' && (
                <p className="mt-1 flex gap-3 text-xs text-zinc-600 dark:text-zinc-400">
                  <span>{t('editor.likes', { count: item.likeCount })}</span>
                  <span>{t('editor.comments', { count: item.commentCount })}</span>
                </p>
              )}
            </div>
            <div className="flex shrink-0 flex-col gap-1 sm:flex-row sm:items-start">
              {item.status !== 'hidden' && (
                <a href={editorOf(item)} className="hk-btn hk-btn-ghost h-8 px-3 text-sm">
                  <Icon name="pencil" className="size-4" />
                  {t('editor.edit')}
                </a>
              )}
              <button type="button" onClick={() => void remove(item)} className="hk-btn hk-btn-ghost h-8 px-3 text-sm">
                <Icon name="trash" className="size-4" />
                {t('editor.delete')}
                <span className="sr-only" data-i18n-content={item.title ? '' : undefined}>
                  {item.title || t('editor.untitled')}
                </span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {pagination.totalPages > 1 && (
        <nav aria-label={t('editor.pages')} className="mt-4 flex items-center justify-center gap-3 text-sm">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)} className="hk-btn hk-btn-ghost">
            {t('editor.previous')}
          </button>
          <span aria-current="page">
            {pagination.page} / {pagination.totalPages}
          </span>
          <button
            type="button"
            disabled={page >= pagination.totalPages}
            onClick={() => setPage(page + 1)}
            className="hk-btn hk-btn-ghost"
          >
            {t('editor.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

export default withLocale(MyContentList);
