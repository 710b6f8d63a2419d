import {
  dismissToast,
  pauseToast,
  resumeToast,
  toastOffset,
  type Toast,
  type ToastType,
} from '../../../stores/toast.ts';
import { useT } from '../ui/use-t.ts';

const tone: Record<ToastType, string> = {
  info: 'text-sky-500',
  success: 'text-accent',
  warning: 'text-amber-500',
  error: 'text-rose-500',
  loading: 'text-accent',
};

const icon: Record<ToastType, string> = {
  info: 'M12 8h.01M11 12h1v4h1',
  success: 'M8 12.5l2.5 2.5L16 9.5',
  warning: 'M12 8v5M12 16h.01',
  error: 'M9 9l6 6M15 9l-6 6',
  loading: '',
};

/**
 * The toasts in the overlay host's live region: top centre, 60 px apart, 300 ms fades, hover pauses.
 * Loaded with the first toast.
 */
export function ToastList({ toasts }: { toasts: readonly Toast[] }) {
  const t = useT();
  return (
    <>
      {toasts.map((item, index) => (
        <div
          key={item.id}
          role={item.type === 'error' ? 'alert' : 'status'}
          data-toast-type={item.type}
          data-leaving={item.leaving || undefined}
          style={{ transform: `translateY(${toastOffset(index)}px)` }}
          onMouseEnter={() => pauseToast(item.id)}
          onMouseLeave={() => resumeToast(item.id)}
          className="hk-toast pointer-events-auto absolute flex h-12 max-w-[min(92vw,480px)] items-center gap-2 rounded-lg bg-white px-4 text-sm text-zinc-800 shadow-lg ring-1 ring-black/5 transition-[transform,opacity] duration-300 dark:bg-zinc-800 dark:text-zinc-100 dark:ring-white/10"
        >
          <svg
            viewBox="0 0 24 24"
            className={`size-5 shrink-0 ${tone[item.type]} ${item.type === 'loading' ? 'animate-spin' : ''}`}
            aria-hidden="true"
          >
            {item.type === 'loading' ? (
              <path d="M12 3a9 9 0 1 0 9 9" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            ) : (
              <>
                <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
                <path
                  d={icon[item.type]}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </>
            )}
          </svg>
          <span className="truncate">{item.message}</span>
          {item.repeat > 0 && (
            <span
              data-testid="toast-repeat"
              className="rounded-full bg-primary/15 px-1.5 text-xs font-medium text-accent"
            >
              ×{item.repeat + 1}
            </span>
          )}
          {item.closeable && (
            <button
              type="button"
              aria-label={t('toast.close')}
              onClick={() => dismissToast(item.id)}
              className="-mr-1 ml-1 rounded p-1 text-zinc-400 hover:text-zinc-700 dark:hover:text-zinc-200"
            >
              <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
                <path d="M7 7l10 10M17 7L7 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          )}
        </div>
      ))}
    </>
  );
}
