import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { DownloadLinkView, DownloadView } from '../../../shared/catalogue-model.ts';
import { formatFileSize, groupDownloads, labelOf } from '../../../shared/catalogue-format.ts';
import type { Translate } from '../../../shared/i18n/index.ts';
import { downloads } from '../../../stores/downloads.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useT } from '../ui/use-t.ts';
import { useViewer } from './use-viewer.ts';
import { withLocale } from '../ui/locale-context.tsx';

interface DownloadLinksProps {
  galgameId: number;
  /** The server's view for a visitor: links without passwords, so the page works without JavaScript. */
  initial: DownloadView[];
  initialLoggedIn: boolean;
  loginHref: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

async function copy(text: string, t: Translate) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t('link.copied', { text }));
  } catch (error) {
    toast.error(t('link.copyFailed', { error: error instanceof Error ? error.message : String(error) }));
  }
}

const chip = 'inline-flex items-center gap-1 rounded-md px-2 py-0.5 text-xs font-medium';

function LinkRow({
  link,
  loggedIn,
  reporting,
  loginHref,
  onReport,
  t,
}: {
  link: DownloadLinkView;
  loggedIn: boolean;
  reporting: boolean;
  loginHref: string;
  onReport: (link: DownloadLinkView) => void;
  t: Translate;
}) {
  let password = null;
  if (link.hasPassword) {
    if (link.password) {
      password = (
        <span className="inline-flex items-center gap-1.5 text-sm" data-testid="link-password">
          <span className="text-zinc-500 dark:text-zinc-400">{t('galgame.download.password')}</span>
          <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100">
            {link.password}
          </code>
          <button
            type="button"
            onClick={() => void copy(link.password ?? '', t)}
            className="inline-flex size-7 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-accent dark:hover:bg-zinc-800"
            aria-label={t('galgame.download.copyPassword', { password: link.password })}
            title={t('galgame.download.copy')}
          >
            <Icon name="copy" className="size-3.5" />
          </button>
        </span>
      );
    } else if (loggedIn) {
      password = (
        <span className="text-sm text-zinc-500 dark:text-zinc-400">{t('galgame.download.passwordLoading')}</span>
      );
    } else {
      password = (
        <a href={loginHref} className="hk-link inline-flex items-center gap-1 text-sm" data-testid="password-login">
          <Icon name="key" className="size-3.5" />
          {t('galgame.download.loginForPassword')}
        </a>
      );
    }
  }
  return (
    <li
      className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4"
      data-testid="download-link"
      data-link-id={link.id}
    >
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1.5">
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="inline-flex items-center gap-1.5 font-medium text-accent hover:underline"
          aria-label={t('galgame.download.openLink', { label: link.label })}
        >
          <Icon name="external-link" className="size-4" />
          {link.label}
        </a>
        <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">{hostOf(link.url)}</span>
        {link.suspect && (
          <span
            className={`${chip} bg-amber-50 text-amber-700 dark:bg-amber-500/10 dark:text-amber-300`}
            data-testid="link-suspect"
          >
            <Icon name="triangle-alert" className="size-3.5" />
            {t('galgame.download.suspect')}
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {password}
        {link.reportedByMe ? (
          <span className={`${chip} bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400`}>
            <Icon name="check" className="size-3.5" />
            {t('galgame.download.reported')}
          </span>
        ) : (
          <button
            type="button"
            onClick={() => onReport(link)}
            disabled={reporting}
            className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs text-zinc-500 first:-ml-2 hover:bg-rose-50 sm:first:ml-0 hover:text-rose-600 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-rose-500/10 dark:hover:text-rose-400"
          >
            <Icon name="flag" className="size-3.5" />
            {t('galgame.download.report')}
          </button>
        )}
      </div>
    </li>
  );
}

/**
 * The download information of a game, grouped by language. Logged-in viewers get the extraction
 * passwords; anyone can report a dead link once logged in. What was loaded stays cached per game, so
 * coming back to the page shows it at once while a fresh copy loads in the background.
 */
function DownloadLinks({ galgameId, initial, initialLoggedIn, loginHref }: DownloadLinksProps) {
  const t = useT();
  const viewer = useViewer(initialLoggedIn);
  const cache = useStore(downloads.$downloads);
  const reporting = useStore(downloads.$reporting);
  // Reported here while nothing was cached (the refresh failed): still show it as reported.
  const [reportedHere, setReportedHere] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => {
    if (!viewer.ready) return;
    // The server has just rendered a visitor's view: a visitor has nothing newer to fetch.
    if (viewer.id === null) return downloads.seed(galgameId, null, initial);
    void downloads.load(galgameId, viewer.id).then((outcome) => {
      if (!outcome.ok) console.warn('[downloads] refresh failed:', outcome.message);
    });
  }, [galgameId, viewer.ready, viewer.id]);

  const cached = cache[String(galgameId)];
  const list = viewer.ready && cached && cached.viewer === viewer.id ? cached.downloads : initial;

  const report = async (link: DownloadLinkView) => {
    if (!viewer.loggedIn) {
      if (await confirmDialog({ title: t('galgame.download.reportTitle'), message: t('galgame.download.reportLogin') }))
        window.location.assign(loginHref);
      return;
    }
    const confirmed = await confirmDialog({
      title: t('galgame.download.reportTitle'),
      message: t('galgame.download.reportConfirm', { label: link.label }),
    });
    if (!confirmed) return;
    const outcome = await downloads.report(galgameId, link.id);
    if (outcome.ok) {
      setReportedHere((ids) => new Set(ids).add(link.id));
      toast.success(t('galgame.download.reportThanks'));
    } else if (!('busy' in outcome)) toast.error(t('galgame.download.failed', { message: outcome.message }));
  };

  if (list.length === 0) {
    return (
      <p className="hk-card px-5 py-12 text-center text-sm text-zinc-500 dark:text-zinc-400">
        {t('galgame.download.empty')}
      </p>
    );
  }

  return (
    <div className="flex flex-col gap-8" data-testid="download-list" aria-busy={cached?.refreshing ?? false}>
      {groupDownloads(list).map((group) => (
        <section key={group.language} aria-labelledby={`dl-${group.language}`} className="flex flex-col gap-3">
          <h2
            id={`dl-${group.language}`}
            className="flex items-center gap-2 text-base font-semibold text-zinc-900 dark:text-zinc-100"
          >
            <span className="h-4 w-1 rounded-full bg-primary" aria-hidden="true" />
            {labelOf(t, 'language', group.language)}
            <span className="text-xs font-normal text-zinc-500 dark:text-zinc-400">
              {t('galgame.download.count', { count: group.downloads.length })}
            </span>
          </h2>
          {group.downloads.map((download) => (
            <article key={download.id} className="hk-card overflow-hidden" data-testid="download-entry">
              <div className="flex flex-col gap-2 border-b border-zinc-100 px-4 py-3 dark:border-zinc-800">
                <div className="flex flex-wrap items-center gap-2">
                  <span className={`${chip} bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200`}>
                    {labelOf(t, 'platform', download.platform)}
                  </span>
                  <span className={`${chip} bg-primary/10 text-accent`}>
                    {labelOf(t, 'translation', download.translationType)}
                  </span>
                  {download.translationGroup && (
                    <span className="text-sm text-zinc-700 dark:text-zinc-300">{download.translationGroup}</span>
                  )}
                  {download.sizeBytes !== null && (
                    <span className="ml-auto inline-flex items-center gap-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
                      <Icon name="download" className="size-3.5" />
                      {formatFileSize(download.sizeBytes)}
                    </span>
                  )}
                </div>
                {download.note && <p className="text-sm leading-6 text-zinc-600 dark:text-zinc-400">{download.note}</p>}
              </div>
              <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
                {download.links.map((link) => (
                  <LinkRow
                    key={link.id}
                    link={reportedHere.has(link.id) ? { ...link, reportedByMe: true } : link}
                    loggedIn={viewer.loggedIn}
                    reporting={reporting.has(link.id)}
                    loginHref={loginHref}
                    onReport={(l) => void report(l)}
                    t={t}
                  />
                ))}
              </ul>
            </article>
          ))}
        </section>
      ))}
    </div>
  );
}

export default withLocale(DownloadLinks);
