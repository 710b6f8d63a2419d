import { useEffect, useState } from 'react';
import { READER_NOVEL_KEY, READER_VOLUME_KEY, errorAction, type ErrorAction } from '../../shared/error-page.ts';
import { Icon } from './ui/Icon.tsx';
import { useT } from './ui/use-t.ts';
import { withLocale } from './ui/locale-context.tsx';

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export interface ErrorPanelProps {
  statusCode: number;
  message: string;
}

/**
 * The error page body of spec §2.9: 'something went wrong', '{statusCode} | {message}' and one button
 * whose text and target follow history and the reader's stored position. Used by the 404/500 pages and
 * by island error boundaries.
 */
export function ErrorPanel({ statusCode, message }: ErrorPanelProps) {
  const t = useT();
  // Before hydration there is no history to ask; home is the safe default.
  const [action, setAction] = useState<ErrorAction>({ kind: 'home', href: '/' });
  useEffect(() => {
    setAction(
      errorAction({
        pathname: location.pathname,
        historyLength: history.length,
        novelId: readStored(READER_NOVEL_KEY),
        volumeId: readStored(READER_VOLUME_KEY),
      }),
    );
  }, []);

  const label =
    action.kind === 'reading'
      ? t('error.backReading')
      : action.kind === 'previous'
        ? t('error.backPrevious')
        : t('error.backHome');

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-testid="error-page">
      {/* The status code is read once, in the message line below; the mark only sets the tone. */}
      <span
        className="mb-6 flex size-20 items-center justify-center rounded-full bg-primary/10 text-accent ring-8 ring-primary/5"
        aria-hidden="true"
      >
        <Icon name="triangle-alert" className="size-9" />
      </span>
      <h1 className="text-2xl font-semibold text-zinc-900 dark:text-white">{t('error.heading')}</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400" data-testid="error-message">
        {statusCode} | {message}
      </p>
      {action.kind === 'previous' ? (
        <button type="button" className="hk-btn hk-btn-primary mt-8" onClick={() => history.back()}>
          {label}
        </button>
      ) : (
        <a className="hk-btn hk-btn-primary mt-8" href={action.href}>
          {label}
        </a>
      )}
    </div>
  );
}

export default withLocale(ErrorPanel);
