import { settleDialog, type DialogEntry } from '../../../stores/dialog.ts';
import { Modal } from '../ui/Modal.tsx';
import { useT } from '../ui/use-t.ts';

/** The alert/confirm dialogs opened through the dialog store, from any island; loaded with the first one. */
export function DialogStack({ dialogs }: { dialogs: readonly DialogEntry[] }) {
  const t = useT();
  return (
    <>
      {dialogs.map((d) => (
        <Modal
          key={d.id}
          open
          closing={d.closing}
          size="small"
          role="alertdialog"
          title={d.title}
          onClose={(outcome) => settleDialog(d.id, outcome)}
          footer={
            <>
              {d.kind === 'confirm' && (
                <button type="button" className="hk-btn hk-btn-ghost" onClick={() => settleDialog(d.id, 'cancel')}>
                  {d.cancelText ?? t('dialog.cancel')}
                </button>
              )}
              <button
                type="button"
                className="hk-btn hk-btn-primary"
                onClick={() => settleDialog(d.id, 'confirm')}
                autoFocus
              >
                {d.confirmText ?? t('dialog.confirm')}
              </button>
            </>
          }
        >
          <p className="text-sm leading-6 whitespace-pre-line text-zinc-600 dark:text-zinc-300">{d.message}</p>
        </Modal>
      ))}
    </>
  );
}
