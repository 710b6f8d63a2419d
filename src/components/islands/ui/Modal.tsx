import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type ReactNode } from 'react';
import { DIALOG_EXIT_MS, type DialogOutcome } from '../../../stores/dialog.ts';
import { useT } from './use-t.ts';

/** Modal sizes from spec §2.9. */
export type ModalSize = 'small' | 'default' | 'large' | 'full' | 'fullscreen';

const panelSize: Record<ModalSize, string> = {
  small: 'w-[400px] max-w-[calc(100vw-2rem)]',
  default: 'w-[520px] max-w-[calc(100vw-2rem)]',
  large: 'w-[720px] max-w-[calc(100vw-2rem)]',
  full: 'w-[90%]',
  fullscreen: 'h-screen w-screen rounded-none',
};

/** Scroll area maximum heights (spec §9). */
const scrollHeight: Record<ModalSize, string> = {
  small: 'max-h-[600px]',
  default: 'max-h-[600px]',
  large: 'max-h-[600px]',
  full: 'max-h-[calc(90vh-120px)]',
  fullscreen: 'max-h-[calc(100vh-120px)]',
};

export interface ModalProps {
  open: boolean;
  onClose: (outcome: Exclude<DialogOutcome, 'confirm' | 'cancel'>) => void;
  title?: string;
  size?: ModalSize;
  /** Shows the × button (Escape closes either way). */
  closeable?: boolean;
  /** True while the parent already counts down the exit animation. */
  closing?: boolean;
  children: ReactNode;
  footer?: ReactNode;
  role?: 'dialog' | 'alertdialog';
}

/**
 * The generic modal: accessible (focus trap, Escape, labelled) through Radix Dialog, a 300 ms exit,
 * and a click on the mask closes it.
 */
export function Modal({
  open,
  onClose,
  title,
  size = 'default',
  closeable = true,
  closing = false,
  children,
  footer,
  role = 'dialog',
}: ModalProps) {
  const t = useT();
  const [mounted, setMounted] = useState(open);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (open && !closing) {
      setMounted(true);
      setLeaving(false);
      return;
    }
    if (!mounted) return;
    setLeaving(true);
    const timer = setTimeout(() => {
      setMounted(false);
      setLeaving(false);
    }, DIALOG_EXIT_MS);
    return () => clearTimeout(timer);
  }, [open, closing, mounted]);

  if (!mounted) return null;
  const state = leaving ? 'closing' : 'open';

  return (
    <Dialog.Root open onOpenChange={(next) => !next && !leaving && onClose('close')}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-state-anim={state}
          className="hk-fade fixed inset-0 z-[1000] bg-black/45 backdrop-blur-[1px]"
        />
        <Dialog.Content
          role={role}
          data-state-anim={state}
          data-size={size}
          aria-describedby={undefined}
          onPointerDownOutside={(event) => {
            event.preventDefault();
            if (!leaving) onClose('mask');
          }}
          onEscapeKeyDown={(event) => {
            event.preventDefault();
            if (!leaving) onClose('close');
          }}
          className={`hk-pop fixed top-1/2 left-1/2 z-[1001] flex max-h-screen -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white text-zinc-800 shadow-2xl ring-1 ring-black/5 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-white/10 ${panelSize[size]}`}
        >
          <div className="flex items-center justify-between gap-4 px-5 pt-4 pb-2">
            <Dialog.Title className="text-base font-semibold">{title ?? t('dialog.title')}</Dialog.Title>
            {closeable && (
              <Dialog.Close
                aria-label={t('dialog.close')}
                className="-mr-2 rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-focus dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
              >
                <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
                  <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </Dialog.Close>
            )}
          </div>
          <div className={`overflow-y-auto px-5 py-2 ${scrollHeight[size]}`}>{children}</div>
          {footer && <div className="flex justify-end gap-2 px-5 pt-2 pb-4">{footer}</div>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
