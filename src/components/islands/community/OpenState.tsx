import type { Opened } from './use-opened.ts';
import { useT } from '../ui/use-t.ts';

/** While an editor's item loads, or why it cannot be edited here. */
export function OpenState({ opened }: { opened: Exclude<Opened<unknown>, { state: 'ready' }> }) {
  const t = useT();
  if (opened.state === 'loading') {
    return (
      <p role="status" className="hk-card p-6 text-sm text-zinc-600 dark:text-zinc-400">
        {t('editor.loading')}
      </p>
    );
  }
  return (
    <div role="alert" className="hk-card p-6">
      <p className="font-medium text-zinc-900 dark:text-white">{t('editor.cannotOpen')}</p>
      {opened.message && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{opened.message}</p>}
      <a href="/create/content/draft/home" className="hk-btn hk-btn-ghost mt-4 inline-flex">
        {t('editor.toDrafts')}
      </a>
    </div>
  );
}
