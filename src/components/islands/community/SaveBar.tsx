import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Autosave, AutosaveState } from '../../../stores/content-autosave.ts';
import type { Translate } from '../../../shared/i18n/index.ts';
import { useT } from '../ui/use-t.ts';

const timeOf = (ms: number) =>
  new Date(ms).toLocaleTimeString('zh-CN', { hour: '2-digit', minute: '2-digit', hour12: false });

/** One line about where the editor's content stands. */
export function saveStatusText(t: Translate, state: AutosaveState): string {
  switch (state.status) {
    case 'saving':
      return state.publishing ? t('editor.status.publishing') : t('editor.status.saving');
    case 'saved':
      return state.published
        ? t('editor.status.updated', { time: timeOf(state.savedAt ?? 0) })
        : t('editor.status.saved', { time: timeOf(state.savedAt ?? 0) });
    case 'dirty':
      return state.published ? t('editor.status.unpublishedChanges') : t('editor.status.dirty');
    case 'error':
      return t('editor.status.error', { message: state.error ?? '' });
    case 'conflict':
      return t('editor.status.conflict');
    default:
      return state.id === null ? t('editor.status.new') : '';
  }
}

/**
 * The editor's footer: the save state (announced politely), "save draft" for drafts and "publish" or
 * "update". Keeps the item's address in the page URL once it exists, and warns before leaving with
 * unsaved changes.
 */
export function SaveBar<T>({ autosave, onPublish }: { autosave: Autosave<T>; onPublish: () => void }) {
  const t = useT();
  const state = useStore(autosave.$state);
  const unsaved = state.status === 'dirty' || state.status === 'saving' || state.status === 'error';

  useEffect(() => {
    if (state.id === null) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get('id') === String(state.id)) return;
    url.searchParams.set('id', String(state.id));
    history.replaceState(history.state, '', url);
  }, [state.id]);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const tone =
    state.status === 'error' || state.status === 'conflict'
      ? 'text-red-600 dark:text-red-400'
      : 'text-zinc-600 dark:text-zinc-400';
  return (
    <div className="sticky bottom-0 z-10 -mx-4 mt-6 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-white/95 px-4 py-3 backdrop-blur dark:border-zinc-700 dark:bg-zinc-950/90">
      <p role="status" aria-live="polite" data-testid="save-status" className={`min-w-0 flex-1 text-sm ${tone}`}>
        {saveStatusText(t, state)}
        {state.status === 'conflict' && (
          <>
            {' '}
            <a href={window.location.href} className="text-accent underline">
              {t('editor.status.reload')}
            </a>
          </>
        )}
      </p>
      {!state.published && (
        <button
          type="button"
          onClick={() => void autosave.flush()}
          disabled={state.status === 'saving' || state.status === 'conflict'}
          className="hk-btn hk-btn-ghost"
        >
          {t('editor.saveDraft')}
        </button>
      )}
      <button
        type="button"
        onClick={onPublish}
        disabled={state.publishing || state.status === 'conflict'}
        className="hk-btn hk-btn-primary"
      >
        {state.published ? t('editor.update') : t('editor.publish')}
      </button>
    </div>
  );
}
