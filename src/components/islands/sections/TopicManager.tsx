import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CommunityPage } from '../../../shared/community/community-model.ts';
import { TOPIC_NAME_MAX } from '../../../shared/community/community-model.ts';
import type { TopicManageView } from '../../../shared/community/sections-manage.ts';
import { TOPIC_DESCRIPTION_MAX, iconChoice, type IconChoice } from '../../../shared/community/sections-model.ts';
import type { IconName } from '../../../shared/icons.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { failureText, loadSectionsApi } from '../../../stores/sections-manage.ts';
import { toast } from '../../../stores/toast.ts';
import { fieldClass, labelClass } from '../community/ContentMetaFields.tsx';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import { NameFields } from './SectionForm.tsx';

const PAGE_SIZE = 20;

async function findTopics(keyword: string, page: number, limit = PAGE_SIZE) {
  const { client, contract } = await loadSectionsApi();
  return (await client.call(contract.manageTopics, { query: { keyword: keyword || undefined, page, limit } })).data;
}

/** /create/section/manage/topics: topics most used first, searched, edited and merged. */
function TopicManager() {
  const t = useT();
  const searchId = useId();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<CommunityPage<TopicManageView> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<{ id: number; mode: 'edit' | 'merge' } | null>(null);

  const refresh = async (wanted = keyword, at = page) => {
    try {
      setList(await findTopics(wanted.trim(), at));
      setError(null);
    } catch (failure) {
      setError(t('sections.list.loadFailed', { reason: failureText(failure) }));
    }
  };
  useEffect(() => {
    const timer = setTimeout(() => void refresh(keyword, page), 250);
    return () => clearTimeout(timer);
  }, [keyword, page]);

  const pages = list ? Math.max(1, Math.ceil(list.pagination.total / list.pagination.limit)) : 1;

  return (
    <div className="flex flex-col gap-4">
      <div className="relative max-w-sm">
        <label htmlFor={searchId} className="sr-only">
          {t('sections.topics.search')}
        </label>
        <Icon name="search" className="pointer-events-none absolute top-2.5 left-3 size-4 text-zinc-500" />
        <input
          id={searchId}
          type="search"
          value={keyword}
          maxLength={TOPIC_NAME_MAX}
          placeholder={t('sections.topics.search')}
          onChange={(event) => {
            setKeyword(event.target.value);
            setPage(1);
          }}
          className={`${fieldClass} pl-9`}
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {!list ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('sections.list.loading')}</p>
      ) : list.items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('sections.topics.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="topic-list">
          {list.items.map((topic) => (
            <li key={topic.id} className="hk-card p-3" data-topic={topic.name}>
              <div className="flex flex-wrap items-center gap-3">
                <span className="inline-flex size-8 items-center justify-center rounded-full bg-accent/10 text-accent">
                  <Icon name={(topic.icon || 'hash') as IconName} className="size-4" />
                </span>
                <div className="min-w-0 flex-1 basis-40">
                  <a
                    href={`/community/topic/${topic.id}`}
                    className="font-medium text-zinc-900 hover:text-accent dark:text-white"
                  >
                    #{topic.name}
                  </a>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    {t('sections.topics.uses', { count: topic.useCount })} ·{' '}
                    {t('sections.topics.followers', { count: topic.followerCount })}
                  </p>
                </div>
                <div className="flex gap-1">
                  <button
                    type="button"
                    className="hk-btn hk-btn-ghost h-8 gap-1 px-2.5 text-sm"
                    aria-expanded={open?.id === topic.id && open.mode === 'edit'}
                    onClick={() =>
                      setOpen(open?.id === topic.id && open.mode === 'edit' ? null : { id: topic.id, mode: 'edit' })
                    }
                  >
                    <Icon name="pencil" className="size-3.5" />
                    {t('sections.topics.edit')}
                  </button>
                  <button
                    type="button"
                    className="hk-btn hk-btn-ghost h-8 gap-1 px-2.5 text-sm"
                    aria-expanded={open?.id === topic.id && open.mode === 'merge'}
                    onClick={() =>
                      setOpen(open?.id === topic.id && open.mode === 'merge' ? null : { id: topic.id, mode: 'merge' })
                    }
                  >
                    <Icon name="layout-grid" className="size-3.5" />
                    {t('sections.topics.merge')}
                  </button>
                </div>
              </div>
              {topic.description && open?.id !== topic.id && (
                <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{topic.description}</p>
              )}
              {open?.id === topic.id && open.mode === 'edit' && (
                <TopicEdit
                  topic={topic}
                  onDone={() => {
                    setOpen(null);
                    void refresh();
                  }}
                />
              )}
              {open?.id === topic.id && open.mode === 'merge' && (
                <TopicMerge
                  topic={topic}
                  onDone={() => {
                    setOpen(null);
                    void refresh();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {list && pages > 1 && (
        <nav className="flex items-center gap-3 text-sm" aria-label={t('sections.topics.page', { page, pages })}>
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            {t('sections.topics.prev')}
          </button>
          <span className="text-zinc-600 dark:text-zinc-300">{t('sections.topics.page', { page, pages })}</span>
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            {t('sections.topics.next')}
          </button>
        </nav>
      )}
    </div>
  );
}

function TopicEdit({ topic, onDone }: { topic: TopicManageView; onDone: () => void }) {
  const t = useT();
  const [name, setName] = useState(topic.name);
  const [description, setDescription] = useState(topic.description);
  const [icon, setIcon] = useState<IconChoice>(iconChoice(topic.icon));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const { client, contract } = await loadSectionsApi();
      const answer = await client.call(contract.updateTopic, {
        params: { id: topic.id },
        body: { name, description, icon },
      });
      toast.success(answer.message);
      onDone();
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={save} className="mt-3 flex flex-col gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-700">
      <NameFields
        name={name}
        description={description}
        icon={icon}
        limits={{ name: TOPIC_NAME_MAX, description: TOPIC_DESCRIPTION_MAX, rows: 2 }}
        onName={setName}
        onDescription={setDescription}
        onIcon={setIcon}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={pending || !name.trim()} className="hk-btn hk-btn-primary h-9 px-4">
          {pending ? t('sections.form.saving') : t('sections.form.save')}
        </button>
        <button type="button" onClick={onDone} className="hk-btn hk-btn-ghost h-9 px-4">
          {t('sections.topics.cancel')}
        </button>
      </div>
    </form>
  );
}

/** Picks the topic to merge into (searched by name), then merges after a confirmation. */
function TopicMerge({ topic, onDone }: { topic: TopicManageView; onDone: () => void }) {
  const t = useT();
  const searchId = useId();
  const [keyword, setKeyword] = useState('');
  const [found, setFound] = useState<TopicManageView[]>([]);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      void findTopics(keyword.trim(), 1, 8)
        .then((page) => setFound(page.items.filter((other) => other.id !== topic.id)))
        .catch((failure: unknown) => toast.error(failureText(failure)));
    }, 250);
    return () => clearTimeout(timer);
  }, [keyword]);

  const merge = async (into: TopicManageView) => {
    if (pending) return;
    const sure = await confirmDialog({
      message: t('sections.topics.mergeConfirm', { from: topic.name, into: into.name }),
      confirmText: t('sections.topics.mergeButton'),
    });
    if (!sure) return;
    setPending(true);
    try {
      const { client, contract } = await loadSectionsApi();
      const answer = await client.call(contract.mergeTopic, { params: { id: topic.id }, body: { intoId: into.id } });
      toast.success(answer.message);
      onDone();
    } catch (failure) {
      toast.error(failureText(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="mt-3 flex flex-col gap-2 border-t border-zinc-200 pt-3 dark:border-zinc-700">
      <label htmlFor={searchId} className={labelClass}>
        {t('sections.topics.mergeInto', { name: topic.name })}
      </label>
      <input
        id={searchId}
        type="search"
        value={keyword}
        maxLength={TOPIC_NAME_MAX}
        placeholder={t('sections.topics.mergePlaceholder')}
        onChange={(event) => setKeyword(event.target.value)}
        className={`${fieldClass} max-w-sm`}
      />
      <ul className="flex flex-wrap gap-2" aria-busy={pending}>
        {found.map((other) => (
          <li key={other.id}>
            <button
              type="button"
              disabled={pending}
              onClick={() => void merge(other)}
              className="hk-btn hk-btn-ghost h-8 gap-1 border border-zinc-300 px-3 text-sm dark:border-zinc-600"
            >
              #{other.name}
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('sections.topics.uses', { count: other.useCount })}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div>
        <button type="button" onClick={onDone} className="hk-btn hk-btn-ghost h-8 px-3 text-sm">
          {t('sections.topics.cancel')}
        </button>
      </div>
    </div>
  );
}

export default withLocale(TopicManager);
