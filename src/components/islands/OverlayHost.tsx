import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $chatWindow } from '../../stores/chat-window.ts';
import { $dialogs } from '../../stores/dialog.ts';
import { $imagePreview, PREVIEW_SELECTOR } from '../../stores/image-preview.ts';
import { showCarriedToast } from '../../stores/next-page-toast.ts';
import { $toasts } from '../../stores/toast.ts';
import { USER_CARD_ATTRIBUTE, userCard } from '../../stores/user-card.ts';
import { withLocale } from './ui/locale-context.tsx';
import { onDemand, useOnDemand } from './ui/on-demand.ts';
import { useT } from './ui/use-t.ts';

const toastList = onDemand(() => import('./overlays/ToastList.tsx'));
const dialogStack = onDemand(() => import('./overlays/DialogStack.tsx'));
const previewDialog = onDemand(() => import('./overlays/ImagePreviewDialog.tsx'));
const userCardCode = onDemand(() => import('./users/UserCard.tsx'));
const chatWindowCode = onDemand(() => import('./chat/ChatWindow.tsx'));

/**
 * Toasts, alert/confirm dialogs, the image preview and the user card of every page, opened through their
 * stores from any island or script. Mounted once and kept across navigation. The toasts' live region is
 * here from the start (so screen readers announce what enters it); the code that draws each kind loads
 * with its first use, the preview's already when a previewable image is pointed at or focused, the user
 * card's when a member's name or avatar starts opening it, the chat window's when a card opens a chat.
 */
function OverlayHost() {
  const t = useT();
  const toasts = useStore($toasts);
  const dialogs = useStore($dialogs);
  const preview = useStore($imagePreview);
  const card = useStore(userCard.$card);
  const [toastCode, loadToasts] = useOnDemand(toastList);
  const [dialogCode, loadDialogs] = useOnDemand(dialogStack);
  const [previewCode, loadPreview] = useOnDemand(previewDialog);
  const [cardCode, loadCard] = useOnDemand(userCardCode);
  const chatWith = useStore($chatWindow);
  const [chatCode, loadChat] = useOnDemand(chatWindowCode);

  // A greeting the previous page left for this one (e.g. after registering).
  useEffect(() => void showCarriedToast(window.sessionStorage), []);
  useEffect(() => {
    if (toasts.length > 0) void loadToasts();
  }, [toasts.length > 0]);
  useEffect(() => {
    if (dialogs.length > 0) void loadDialogs();
  }, [dialogs.length > 0]);
  useEffect(() => {
    if (preview.open) void loadPreview();
  }, [preview.open]);
  useEffect(() => {
    if (card) loadCard().catch(() => {});
  }, [card !== null]);
  useEffect(() => {
    if (chatWith) void loadChat();
  }, [chatWith !== null]);
  // The card's triggers load when the pointer (not a touch) or the keyboard first reaches a name.
  useEffect(() => {
    let uninstall: (() => void) | null = null;
    let gone = false;
    const wanted = (event: Event) => {
      if ((event as PointerEvent).pointerType === 'touch') return;
      if (!(event.target as Element | null)?.closest?.(`[${USER_CARD_ATTRIBUTE}]`)) return;
      stopWaiting();
      void import('./users/user-card-triggers.ts').then(({ installUserCardTriggers }) => {
        if (!gone) uninstall = installUserCardTriggers(userCard, event);
      });
    };
    const stopWaiting = () => {
      document.removeEventListener('pointerover', wanted);
      document.removeEventListener('focusin', wanted);
    };
    document.addEventListener('pointerover', wanted, { passive: true });
    document.addEventListener('focusin', wanted);
    return () => {
      gone = true;
      stopWaiting();
      uninstall?.();
    };
  }, []);
  useEffect(() => {
    const prepare = (event: Event) => {
      if ((event.target as Element | null)?.closest?.(PREVIEW_SELECTOR)) loadPreview().catch(() => {});
    };
    document.addEventListener('pointerover', prepare, { passive: true });
    document.addEventListener('focusin', prepare);
    return () => {
      document.removeEventListener('pointerover', prepare);
      document.removeEventListener('focusin', prepare);
    };
  }, []);

  return (
    <>
      <section
        aria-label={t('toast.region')}
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-3 z-[1100] flex justify-center"
      >
        {toastCode && <toastCode.ToastList toasts={toasts} />}
      </section>
      {dialogCode && <dialogCode.DialogStack dialogs={dialogs} />}
      {previewCode && preview.open && <previewCode.ImagePreviewDialog state={preview} />}
      {cardCode && card?.open && card.anchor.isConnected && <cardCode.UserCard state={card} />}
      {chatCode && chatWith && <chatCode.ChatWindow key={chatWith._id} partner={chatWith} />}
    </>
  );
}

export default withLocale(OverlayHost);
