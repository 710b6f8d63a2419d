import type { ItemVolume } from '../../../shared/creator/items.contract.ts';
import { editorPath } from '../../../stores/item-editor.ts';
import { useLocale, useT } from '../ui/use-t.ts';

/**
 * A series' volumes in the series editor: each one is an entry of its own (its own document and
 * history), so the list links to their editors, and creators add a volume already in this series.
 */
export function SeriesVolumes({
  seriesId,
  volumes,
  mayCreate,
}: {
  seriesId: number;
  volumes: readonly ItemVolume[];
  mayCreate: boolean;
}) {
  const t = useT();
  const zh = useLocale() === 'zh-CN';
  return (
    <section className="hk-card flex flex-col gap-3 p-4 sm:p-6" data-series-volumes>
      <h2 className="text-base font-semibold text-zinc-900 dark:text-white">
        {t('itemEditor.section.volumes', { count: volumes.length })}
      </h2>
      {volumes.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('itemEditor.volumes.none')}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-700 dark:border-zinc-700">
          {volumes.map((volume) => (
            <li key={volume.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <span className="shrink-0 text-zinc-600 dark:text-zinc-300">
                {t(`lightnovel.kind.${volume.kind}`, { number: volume.number })}
              </span>
              <a
                className="hk-link min-w-0 flex-1 break-words"
                href={editorPath('volume', volume.id)}
                data-i18n-content
              >
                {(zh && volume.titleZh) || volume.title}
              </a>
              {volume.hasEpub && (
                <span className="rounded-full bg-accent/10 px-2 py-0.5 text-xs text-zinc-800 dark:text-zinc-200">
                  EPUB
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {mayCreate && (
        <p>
          <a className="hk-btn" href={`/create/item/lightnovel/volume?series=${seriesId}`}>
            {t('itemEditor.volumes.add')}
          </a>
        </p>
      )}
    </section>
  );
}
