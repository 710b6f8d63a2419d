import { useStore } from '@nanostores/react';
import type { ChatRuntime } from '../../../stores/chat-runtime.ts';
import { useT } from '../ui/use-t.ts';

/** Spec §2.5, §4: connected or not, the reconnect attempts, and the end of them. */
export default function ChatConnectionState({ runtime }: { runtime: ChatRuntime }) {
  const t = useT();
  const status = useStore(runtime.connection.$status);
  const notice = useStore(runtime.connection.$notice);
  const connected = status === 'connected';
  return (
    <div className="ml-auto flex min-w-0 flex-col items-end text-xs" data-testid="chat-connection">
      <span className="flex items-center gap-1 text-zinc-600 dark:text-zinc-400" data-status={status}>
        <span
          aria-hidden="true"
          className={`size-2 rounded-full ${connected ? 'bg-emerald-500' : 'bg-zinc-400 dark:bg-zinc-500'}`}
        />
        {connected ? t('chat.status.connected') : t('chat.status.disconnected')}
      </span>
      {/* Always in the page, so screen readers announce the first notice that enters it. */}
      <span role="status" className="text-right text-amber-800 dark:text-amber-300" data-testid="chat-notice">
        {!notice
          ? null
          : notice.kind === 'reconnecting'
            ? t('chat.reconnecting', { attempt: notice.attempt, max: 5 })
            : notice.kind === 'failed'
              ? t('chat.reconnectFailed')
              : notice.kind === 'noToken'
                ? t('chat.noToken')
                : t('chat.createFailed', { message: notice.message })}
      </span>
    </div>
  );
}
