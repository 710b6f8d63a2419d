import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import type { ChatUser } from '../../../shared/chat/chat-model.ts';
import { loadAreas } from '../../../shared/i18n/lazy-areas.ts';
import { holdChat, releaseChat, type ChatRuntime } from '../../../stores/chat-runtime.ts';
import { closeChatWindow } from '../../../stores/chat-window.ts';
import { useLocale } from '../ui/use-t.ts';
import ChatThread from './ChatThread.tsx';

/**
 * Spec §2.5 modal mode: the conversation with the member whose card was used, only the chat, 70vh high,
 * over any page. Its texts arrive with its code; the chat connection is shared with /message/private.
 */
export function ChatWindow({ partner }: { partner: ChatUser }) {
  const locale = useLocale();
  const [runtime, setRuntime] = useState<ChatRuntime | null>(null);
  const content = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let gone = false;
    let held: ChatRuntime | null = null;
    void loadAreas(locale, ['chat', 'media']).then(() => {
      if (gone) return;
      held = holdChat(locale);
      setRuntime(held);
      void held.store.open(partner);
    });
    return () => {
      gone = true;
      if (held) {
        held.store.close(partner._id);
        releaseChat();
      }
    };
  }, [locale, partner]);

  // The window belongs to the page it was opened on: another page closes it.
  useEffect(() => {
    document.addEventListener('astro:before-swap', closeChatWindow);
    return () => document.removeEventListener('astro:before-swap', closeChatWindow);
  }, []);

  // Once the chat is there, the message box takes the focus (not the first header button).
  useEffect(() => {
    if (runtime) content.current?.querySelector('textarea')?.focus();
  }, [runtime]);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && closeChatWindow()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[1000] bg-black/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-[1001] flex h-[70vh] w-[min(40rem,calc(100vw-1rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-xl bg-white shadow-2xl outline-none dark:bg-zinc-900"
          aria-describedby={undefined}
          ref={content}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            content.current?.focus();
          }}
          tabIndex={-1}
          data-testid="chat-window"
        >
          <Dialog.Title className="sr-only">{partner.name}</Dialog.Title>
          {runtime ? (
            <ChatThread
              runtime={runtime}
              partner={partner}
              onClose={closeChatWindow}
              pageLink={`/message/private?userId=${partner._id}`}
            />
          ) : (
            <p className="m-auto text-sm text-zinc-600 dark:text-zinc-400" aria-busy="true">
              …
            </p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
