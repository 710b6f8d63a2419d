import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SectionManageView } from '../../../shared/community/sections-manage.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { failureText, loadSectionsApi, moveId } from '../../../stores/sections-manage.ts';
import { toast } from '../../../stores/toast.ts';
import { fieldClass } from '../community/ContentMetaFields.tsx';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';
import { SectionChipPreview } from './SectionForm.tsx';

const iconButton =
  'inline-flex items-center justify-center rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white';

/** /create/section/manage/allsections: every section in community order, moved, edited, with moderators. */
function SectionManager() {
  const t = useT();
  const [sections, setSections] = useState<SectionManageView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const refresh = async () => {
    try {
      const { client, contract } = await loadSectionsApi();
      setSections((await client.call(contract.manageSections)).data);
      setError(null);
    } catch (failure) {
      setError(t('sections.list.loadFailed', { reason: failureText(failure) }));
    }
  };
  useEffect(() => void refresh(), []);

  /** Runs a change that answers the sections as they are now; on failure shows why and loads them again. */
  const change = async (run: () => Promise<{ message: string }>) => {
    if (pending) return false;
    setPending(true);
    try {
      toast.success((await run()).message);
      return true;
    } catch (failure) {
      toast.error(failureText(failure));
      await refresh();
      return false;
    } finally {
      setPending(false);
    }
  };

  const move = (index: number, step: -1 | 1) => {
    if (!sections) return;
    const ids = moveId(
      sections.map((s) => s.id),
      index,
      step,
    );
    void change(async () => {
      const { client, contract } = await loadSectionsApi();
      const answer = await client.call(contract.orderSections, { body: { ids } });
      setSections(answer.data);
      // Keeps focus on the moved section's button that is still there.
      requestAnimationFrame(() => {
        const moved = document.querySelector<HTMLButtonElement>(
          `[data-focus="${sections[index]!.id}-${step < 0 ? 'up' : 'down'}"]:not(:disabled)`,
        );
        (moved ?? document.querySelector<HTMLButtonElement>(`[data-focus="${sections[index]!.id}-edit"]`))?.focus();
      });
      return answer;
    });
  };

  const replace = (section: SectionManageView) =>
    setSections((list) => list?.map((s) => (s.id === section.id ? section : s)) ?? null);

  if (error)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {error}
      </p>
    );
  if (!sections) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('sections.list.loading')}</p>;

  return (
    <div className="flex flex-col gap-4">
      <div>
        <a href="/create/section" className="hk-btn hk-btn-primary h-9 gap-1.5 px-4">
          <Icon name="plus" className="size-4" />
          {t('sections.list.newSection')}
        </a>
      </div>
      {sections.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('sections.list.empty')}</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-busy={pending} data-testid="section-list">
          {sections.map((section, index) => (
            <li
              key={section.id}
              id={`section-${section.id}`}
              className="hk-card p-3 sm:p-4"
              data-section={section.name}
            >
              <div className="flex flex-wrap items-center gap-3">
                <span className="w-6 text-center text-sm tabular-nums text-zinc-500 dark:text-zinc-400">
                  {index + 1}
                </span>
                <SectionChipPreview name={section.name} icon={section.icon} color={section.color} />
                <p className="min-w-0 flex-1 basis-40 text-xs text-zinc-600 dark:text-zinc-400">
                  {[
                    t('sections.list.posts', { count: section.postCount }),
                    t('sections.list.articles', { count: section.articleCount }),
                    t('sections.list.followers', { count: section.followerCount }),
                  ].join(' · ')}
                </p>
                <div className="flex items-center gap-1">
                  <button
                    type="button"
                    className={iconButton}
                    disabled={pending || index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t('sections.list.moveUp', { name: section.name })}
                    data-focus={`${section.id}-up`}
                  >
                    <Icon name="arrow-up" className="size-4" />
                  </button>
                  <button
                    type="button"
                    className={iconButton}
                    disabled={pending || index === sections.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t('sections.list.moveDown', { name: section.name })}
                    data-focus={`${section.id}-down`}
                  >
                    <Icon name="arrow-down" className="size-4" />
                  </button>
                  <a
                    href={`/create/section?id=${section.id}`}
                    className="hk-btn hk-btn-ghost h-8 gap-1 px-2.5 text-sm"
                    data-focus={`${section.id}-edit`}
                  >
                    <Icon name="pencil" className="size-3.5" />
                    {t('sections.list.edit')}
                  </a>
                  <a href={`/community/section/${section.id}`} className="hk-btn hk-btn-ghost h-8 gap-1 px-2.5 text-sm">
                    <Icon name="external-link" className="size-3.5" />
                    {t('sections.list.view')}
                  </a>
                </div>
              </div>
              {section.description && (
                <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{section.description}</p>
              )}
              <Moderators section={section} pending={pending} change={change} onChanged={replace} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

interface ModeratorsProps {
  section: SectionManageView;
  pending: boolean;
  change: (run: () => Promise<{ message: string }>) => Promise<boolean>;
  onChanged: (section: SectionManageView) => void;
}

/** A section's moderators: removed one by one, appointed by numeric id or name. */
function Moderators({ section, pending, change, onChanged }: ModeratorsProps) {
  const t = useT();
  const inputId = useId();
  const [who, setWho] = useState('');

  const appoint = async (event: FormEvent) => {
    event.preventDefault();
    const user = who.trim();
    if (!user) return;
    const ok = await change(async () => {
      const { client, contract } = await loadSectionsApi();
      const answer = await client.call(contract.addModerator, { params: { id: section.id }, body: { user } });
      onChanged(answer.data);
      return answer;
    });
    if (ok) setWho('');
  };
  const remove = async (moderator: SectionManageView['moderators'][number]) => {
    const sure = await confirmDialog({
      message: t('sections.moderators.confirmRemove', { name: moderator.name, section: section.name }),
      confirmText: t('sections.moderators.remove', { name: moderator.name }),
    });
    if (!sure) return;
    await change(async () => {
      const { client, contract } = await loadSectionsApi();
      const answer = await client.call(contract.removeModerator, {
        params: { id: section.id, userId: moderator.userId },
      });
      onChanged(answer.data);
      return answer;
    });
  };

  return (
    <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-700">
      <p className="mb-2 text-xs font-medium text-zinc-700 dark:text-zinc-300">{t('sections.moderators.title')}</p>
      <div className="flex flex-wrap items-center gap-2">
        {section.moderators.length === 0 ? (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">{t('sections.moderators.none')}</span>
        ) : (
          section.moderators.map((moderator) => (
            <span
              key={moderator.userId}
              className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-0.5 pr-1 pl-2.5 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100"
            >
              {moderator.name}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-zinc-200 disabled:opacity-40 dark:hover:bg-zinc-700"
                disabled={pending}
                onClick={() => void remove(moderator)}
                aria-label={t('sections.moderators.remove', { name: moderator.name })}
              >
                <Icon name="x" className="size-3.5" />
              </button>
            </span>
          ))
        )}
        <form onSubmit={appoint} className="flex w-full min-w-0 items-center gap-2 sm:ml-auto sm:w-auto">
          <label htmlFor={inputId} className="sr-only">
            {t('sections.moderators.placeholder')}
          </label>
          <input
            id={inputId}
            value={who}
            maxLength={40}
            onChange={(event) => setWho(event.target.value)}
            placeholder={t('sections.moderators.placeholder')}
            className={`${fieldClass} h-8 min-w-0 flex-1 py-1 sm:w-44 sm:flex-none`}
          />
          <button
            type="submit"
            disabled={pending || !who.trim()}
            className="hk-btn hk-btn-ghost h-8 shrink-0 px-3 text-sm whitespace-nowrap"
          >
            {t('sections.moderators.add')}
          </button>
        </form>
      </div>
    </div>
  );
}

export default withLocale(SectionManager);
