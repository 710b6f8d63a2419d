import { toast } from '../../stores/toast.ts';
import { useT } from './ui/use-t.ts';
import { withLocale } from './ui/locale-context.tsx';

/** Copies the page address; '已复制: {text}' or '复制失败: {error}' (spec §8). */
function CopyLinkButton() {
  const t = useT();
  const copy = async () => {
    const text = location.href;
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('link.copied', { text }));
    } catch (error) {
      toast.error(t('link.copyFailed', { error: error instanceof Error ? error.message : String(error) }));
    }
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 hover:bg-zinc-100 hover:text-accent dark:hover:bg-zinc-800"
      data-testid="copy-link"
    >
      <svg viewBox="0 0 24 24" className="size-3.5" aria-hidden="true">
        <path
          d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      {t('link.copyPage')}
    </button>
  );
}

export default withLocale(CopyLinkButton);
