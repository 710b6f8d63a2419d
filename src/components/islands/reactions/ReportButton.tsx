import { useState } from 'react';
import type { ReportTargetType } from '../../../shared/reactions/reactions.ts';
import { toast } from '../../../stores/toast.ts';
import { useViewer } from '../catalogue/use-viewer.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

export interface ReportButtonProps {
  targetType: ReportTargetType;
  targetId: number;
  size?: 'sm' | 'md';
}

// The dialog brings the modal (Radix): it loads when a member first points at or focuses a report button.
const reportDialog = onDemand(() => import('./ReportDialog.tsx'));

const sizes = {
  sm: 'inline-flex h-7 items-center gap-1 rounded-md px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-rose-700 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-rose-300',
  md: 'hk-btn hk-btn-ghost gap-1.5 px-3',
} as const;

/** Report an item to the moderators: opens the report dialog; visitors are asked to log in. */
export function ReportControl({ targetType, targetId, size = 'sm' }: ReportButtonProps) {
  const t = useT();
  const viewer = useViewer(false);
  const [dialog, loadDialog] = useOnDemand(reportDialog);
  const [open, setOpen] = useState(false);
  const prepare = () => {
    if (viewer.loggedIn) loadDialog().catch(() => {});
  };

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onPointerEnter={prepare}
        onFocus={prepare}
        onClick={() => {
          if (!viewer.loggedIn) {
            toast.warning(t('discussion.loginFirst'));
            return;
          }
          setOpen(true);
          void loadDialog();
        }}
        className={sizes[size]}
        data-testid="report-button"
      >
        <Icon name="flag" className={size === 'sm' ? 'size-3.5' : 'size-4'} />
        {t('discussion.report')}
      </button>
      {dialog && (
        <dialog.ReportDialog open={open} onClose={() => setOpen(false)} targetType={targetType} targetId={targetId} />
      )}
    </>
  );
}

export default withLocale(ReportControl);
