import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { CHAT_MESSAGE_MAX, CHAT_NICKNAME_MAX, type ChatUser } from '../../../shared/chat/chat-model.ts';
import {
  CHAT_LOAD_MORE_PX,
  CHAT_NEAR_BOTTOM_PX,
  type ChatMessage,
  type ChatThread as Thread,
} from '../../../stores/chat.ts';
import type { ChatRuntime } from '../../../stores/chat-runtime.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $session } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import Avatar from '../display/Avatar.tsx';
import RichText from '../display/RichText.tsx';
import RichCommentInput from '../media/RichCommentInput.tsx';
import { useEmojiRendering, useImageOptions, type EmojiRendering } from '../media/use-emoji.ts';
import { Icon } from '../ui/Icon.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import ChatConnectionState from './ChatConnectionState.tsx';
import { contactName, dayLabel, messageState, messageTime, statesShown } from './chat-view.ts';

/** A list index far from 0, so older pages can be put before the first item (react-virtuoso). */
const FIRST_INDEX = 1_000_000;

export interface ChatThreadProps {
  runtime: ChatRuntime;
  partner: ChatUser;
  /** Below 1000 px on the page: back to the contact list. */
  onBack?: () => void;
  /** In the user card's window: close it. */
  onClose?: () => void;
  /** The window offers the full page. */
  pageLink?: string;
}

/**
 * The chat panel (spec §2.5, §4, §5): the partner, the messages (virtualised, so a thread of thousands
 * stays smooth; older pages load within 100 px of the top and the first message shown before stays
 * where it was; a new message scrolls down only when the reader is within 10 px of the bottom), and
 * the composer (500 characters with a counter, 4–6 rows, emoji and images, disabled while disconnected).
 */
export default function ChatThread({ runtime, partner, onBack, onClose, pageLink }: ChatThreadProps) {
  const t = useT();
  const { store, connection } = runtime;
  const thread = useStore(store.$thread);
  const online = useStore(store.$online);
  const contacts = useStore(store.$contacts);
  const status = useStore(connection.$status);
  const me = useStore($session)?.userId ?? null;
  const imageOptions = useImageOptions();
  const entry = contacts.find((contact) => contact.contactUser._id === partner._id);
  const name = entry ? contactName(entry) : partner.name;
  const isOnline = online.has(partner._id);
  const titleId = useId();

  // A stranger's state is asked for on every (re)connection: the new socket knows only contacts.
  useEffect(() => {
    if (status === 'connected' && !entry) store.watch([partner._id]);
    // Asked once per partner and connection; the answer updates `online`.
  }, [partner._id, status]);

  const [naming, setNaming] = useState(false);
  const togglePin = async () => {
    if (!entry) return;
    const problem = await store.setPinned(partner._id, !entry.isPinned);
    if (problem) toast.error(t('chat.actionFailed', { message: problem }));
  };
  const toggleBlock = async () => {
    const blocked = entry?.isBlocked ?? false;
    if (!blocked && !(await confirmDialog(t('chat.blockConfirm', { name })))) return;
    const problem = await store.setBlocked(partner._id, !blocked);
    if (problem) toast.error(t('chat.actionFailed', { message: problem }));
  };

  return (
    <section aria-labelledby={titleId} className="flex min-h-0 min-w-0 flex-1 flex-col" data-testid="chat-thread">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-700">
        {onBack && (
          <button
            type="button"
            onClick={onBack}
            className="hk-btn hk-btn-ghost size-9 px-0 desk:hidden"
            data-testid="chat-back"
          >
            <Icon name="arrow-left" />
            <span className="sr-only">{t('chat.back')}</span>
          </button>
        )}
        <Avatar src={partner.avatar} name="" size="small" imageOptions={imageOptions} />
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-sm font-semibold text-zinc-900 dark:text-white" data-i18n-content>
            {name}
          </h2>
          <p
            className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400"
            data-testid="chat-partner-status"
          >
            <span
              aria-hidden="true"
              className={`size-2 rounded-full ${isOnline ? 'bg-emerald-500' : 'bg-zinc-400 dark:bg-zinc-500'}`}
            />
            {isOnline ? t('chat.online') : t('chat.offline')}
          </p>
        </div>
        {entry && (
          <>
            <button
              type="button"
              onClick={() => void togglePin()}
              aria-pressed={entry.isPinned}
              title={entry.isPinned ? t('chat.unpin') : t('chat.pin')}
              className="hk-btn hk-btn-ghost size-9 px-0 aria-pressed:text-accent-strong"
              data-testid="chat-pin"
            >
              <Icon name="pin" className="size-4" />
              <span className="sr-only">{entry.isPinned ? t('chat.unpin') : t('chat.pin')}</span>
            </button>
            <button
              type="button"
              onClick={() => setNaming((value) => !value)}
              aria-expanded={naming}
              title={t('chat.nicknameEdit')}
              className="hk-btn hk-btn-ghost size-9 px-0"
              data-testid="chat-nickname"
            >
              <Icon name="pencil" className="size-4" />
              <span className="sr-only">{t('chat.nicknameEdit')}</span>
            </button>
            <button
              type="button"
              onClick={() => void toggleBlock()}
              className="hk-btn hk-btn-ghost h-8 px-2 text-xs"
              data-testid="chat-block"
            >
              {entry.isBlocked ? t('chat.unblock') : t('chat.block')}
            </button>
          </>
        )}
        {pageLink && (
          <a href={pageLink} onClick={onClose} className="hk-btn hk-btn-ghost size-9 px-0" title={t('chat.openPage')}>
            <Icon name="external-link" className="size-4" />
            <span className="sr-only">{t('chat.openPage')}</span>
          </a>
        )}
        {onClose && (
          <button type="button" onClick={onClose} className="hk-btn hk-btn-ghost size-9 px-0" data-testid="chat-close">
            <Icon name="x" />
            <span className="sr-only">{t('chat.close')}</span>
          </button>
        )}
      </header>
      {onClose && (
        <div className="flex justify-end border-b border-zinc-200 px-3 py-1 dark:border-zinc-700">
          <ChatConnectionState runtime={runtime} />
        </div>
      )}
      {entry && naming && (
        <NicknameForm
          initial={entry.nickname}
          onDone={() => setNaming(false)}
          save={(nickname) => store.setNickname(partner._id, nickname)}
        />
      )}
      {entry?.isBlocked && (
        <p className="border-b border-zinc-200 bg-amber-50 px-4 py-2 text-xs text-amber-900 dark:border-zinc-700 dark:bg-amber-950/40 dark:text-amber-200">
          {t('chat.blocked')}
        </p>
      )}
      {!thread || thread.partner._id !== partner._id || thread.status === 'loading' ? (
        <p
          className="flex flex-1 items-center justify-center text-sm text-zinc-600 dark:text-zinc-400"
          aria-busy="true"
        >
          {t('chat.loading')}
        </p>
      ) : thread.status === 'error' ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 text-sm" role="alert">
          <p className="text-rose-700 dark:text-rose-400">{t('chat.historyFailed', { message: thread.error ?? '' })}</p>
          <button type="button" className="hk-btn hk-btn-ghost h-8 px-3" onClick={() => void store.open(partner)}>
            {t('chat.retryLoad')}
          </button>
        </div>
      ) : (
        <MessageList key={partner._id} runtime={runtime} thread={thread} me={me} name={name} />
      )}
      <Composer runtime={runtime} partner={partner} connected={status === 'connected'} me={me} />
    </section>
  );
}

function NicknameForm({
  initial,
  onDone,
  save,
}: {
  initial: string;
  onDone: () => void;
  save: (nickname: string) => Promise<string | null>;
}) {
  const t = useT();
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const problem = await save(value);
    setBusy(false);
    if (problem) toast.error(t('chat.actionFailed', { message: problem }));
    else onDone();
  };
  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-700"
      data-testid="chat-nickname-form"
    >
      <label htmlFor={id} className="text-xs text-zinc-700 dark:text-zinc-300">
        {t('chat.nickname')}
      </label>
      <input
        id={id}
        value={value}
        maxLength={CHAT_NICKNAME_MAX}
        onChange={(event) => setValue(event.target.value)}
        aria-describedby={`${id}-hint`}
        className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
        autoFocus
      />
      <button type="submit" disabled={busy} className="hk-btn hk-btn-primary h-8 px-3 text-xs">
        {t('chat.nicknameSave')}
      </button>
      <button type="button" onClick={onDone} className="hk-btn hk-btn-ghost h-8 px-3 text-xs">
        {t('chat.nicknameCancel')}
      </button>
      <p id={`${id}-hint`} className="w-full text-xs text-zinc-600 dark:text-zinc-400">
        {t('chat.nicknameHint', { max: CHAT_NICKNAME_MAX })}
      </p>
    </form>
  );
}

interface MessageListProps {
  runtime: ChatRuntime;
  thread: Thread;
  me: number | null;
  name: string;
}

function MessageList({ runtime, thread, me, name }: MessageListProps) {
  const t = useT();
  const locale = useLocale();
  const { store } = runtime;
  const emoji = useEmojiRendering();
  const list = useRef<VirtuosoHandle>(null);
  const atTop = useRef(false);
  const [atBottom, setAtBottom] = useState(true);
  /**
   * Where the reader left the list: at the bottom or not. Only the reader's own scrolling (wheel, touch,
   * keys, the scroll bar) takes it away from the bottom; the list moving itself (an older page put
   * before, an image or a state line that grew below) does not, and then it goes back to the bottom.
   */
  const stick = useRef(true);
  const readerMoved = useRef(Number.NEGATIVE_INFINITY);
  const scroller = useRef<HTMLElement | null>(null);
  const listeners = useRef({
    input: () => {
      readerMoved.current = performance.now();
    },
    scroll: (event: Event) => {
      const element = event.currentTarget as HTMLElement;
      if (element.scrollHeight - element.scrollTop - element.clientHeight <= CHAT_NEAR_BOTTOM_PX) stick.current = true;
      else if (performance.now() - readerMoved.current < 1000) stick.current = false;
    },
  }).current;
  const watchScroller = (element: HTMLElement | Window | null) => {
    const inputs = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;
    for (const type of inputs) scroller.current?.removeEventListener(type, listeners.input);
    scroller.current?.removeEventListener('scroll', listeners.scroll);
    scroller.current = element instanceof HTMLElement ? element : null;
    for (const type of inputs) scroller.current?.addEventListener(type, listeners.input, { passive: true });
    scroller.current?.addEventListener('scroll', listeners.scroll, { passive: true });
  };
  const [unseen, setUnseen] = useState(0);
  const count = thread.messages.length;
  const last = thread.messages.at(-1);
  const shown = statesShown(thread.messages, me);

  // A page that did not fill the list leaves it at the top: the next page follows at once.
  useEffect(() => {
    if (atTop.current && thread.hasMore && !thread.loadingOlder && !thread.olderError) void store.loadOlder();
  }, [thread.prepended, thread.hasMore, thread.loadingOlder, thread.olderError, store]);

  // Ours always scroll into view; theirs only when the reader is at the bottom (Virtuoso's followOutput).
  const lastKey = last ? (last.clientId ?? last._id) : null;
  useEffect(() => {
    if (!last) return;
    if (last.senderId === me) {
      list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
      setUnseen(0);
    } else if (!atBottom && !stick.current) setUnseen((value) => value + 1);
    // Only when a new message arrives at the end.
  }, [lastKey]);

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <Virtuoso
        ref={list}
        className="min-h-0 flex-1"
        data={thread.messages}
        firstItemIndex={FIRST_INDEX - thread.prepended}
        initialTopMostItemIndex={Math.max(0, count - 1)}
        alignToBottom
        followOutput={(bottom) => (bottom || stick.current ? 'auto' : false)}
        scrollerRef={watchScroller}
        totalListHeightChanged={() => {
          // After the list has laid out what changed: to the very bottom of what is drawn.
          requestAnimationFrame(() => {
            const element = scroller.current;
            if (stick.current && element) element.scrollTop = element.scrollHeight;
          });
        }}
        atBottomThreshold={CHAT_NEAR_BOTTOM_PX}
        atTopThreshold={CHAT_LOAD_MORE_PX}
        atTopStateChange={(top) => {
          atTop.current = top;
          if (top) void store.loadOlder();
        }}
        atBottomStateChange={(bottom) => {
          setAtBottom(bottom);
          if (bottom) setUnseen(0);
        }}
        computeItemKey={(_, message) => message.clientId ?? message._id}
        components={{
          Header: () => (
            <div
              className="px-4 pt-3 pb-1 text-center text-xs text-zinc-600 dark:text-zinc-400"
              data-testid="chat-older"
            >
              {thread.loadingOlder ? (
                t('chat.loadingOlder')
              ) : thread.olderError ? (
                <button type="button" className="hk-link" onClick={() => void store.loadOlder()}>
                  {t('chat.retryLoad')}
                </button>
              ) : !thread.hasMore ? (
                t('chat.noMore')
              ) : (
                '\u00a0'
              )}
            </div>
          ),
          Footer: () => <div className="h-3" />,
        }}
        itemContent={(index, message) => {
          const previous = thread.messages[index - (FIRST_INDEX - thread.prepended) - 1];
          return (
            <Bubble
              message={message}
              previous={previous}
              mine={message.senderId === me}
              showState={shown.has(message.clientId ?? message._id)}
              partnerName={name}
              runtime={runtime}
              emoji={emoji}
              locale={locale}
            />
          );
        }}
        aria-label={t('chat.messages', { name })}
        role="log"
        data-testid="chat-messages"
      />
      {unseen > 0 && !atBottom && (
        <button
          type="button"
          onClick={() => list.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' })}
          className="absolute right-4 bottom-3 inline-flex items-center gap-1 rounded-full bg-accent-strong px-3 py-1.5 text-xs font-medium text-on-accent shadow-lg"
          data-testid="chat-new-below"
        >
          <Icon name="arrow-down" className="size-4" />
          {t('chat.unread', { count: unseen })}
        </button>
      )}
    </div>
  );
}

interface BubbleProps {
  message: ChatMessage;
  previous: ChatMessage | undefined;
  mine: boolean;
  showState: boolean;
  partnerName: string;
  runtime: ChatRuntime;
  emoji: EmojiRendering;
  locale: string;
}

function Bubble({ message, previous, mine, showState, partnerName, runtime, emoji, locale }: BubbleProps) {
  const t = useT();
  const time = messageTime(message.sentAt, locale);
  const day = dayLabel(message, previous, locale);
  const state = messageState(message);
  return (
    <div className="px-4 py-1" data-testid="chat-message" data-mine={mine || undefined} data-state={state}>
      {day && (
        <p className="py-2 text-center text-xs text-zinc-600 dark:text-zinc-400" role="separator">
          {day}
        </p>
      )}
      <div className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`}>
        <span className="sr-only">{mine ? t('chat.you') : partnerName}</span>
        <div
          className={`max-w-[min(80%,36rem)] rounded-2xl px-3 py-2 text-sm break-words whitespace-pre-wrap ${
            mine
              ? 'rounded-br-md bg-primary-100 text-zinc-900 dark:bg-primary-900/60 dark:text-zinc-50'
              : 'rounded-bl-md bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100'
          } ${state === 'sending' ? 'opacity-70' : ''}`}
        >
          <RichText text={message.content} previewGroup={`chat-${message.clientId ?? message._id}`} {...emoji} />
        </div>
        <p className="mt-0.5 flex items-center gap-2 text-[11px] text-zinc-600 dark:text-zinc-400">
          <time dateTime={message.sentAt} title={time.full}>
            {time.short}
          </time>
          {mine && showState && state !== 'failed' && (
            <span data-testid="chat-message-state">{t(`chat.${state}`)}</span>
          )}
        </p>
        {state === 'failed' && message.clientId && (
          <p
            className="mt-1 flex flex-wrap items-center justify-end gap-2 text-xs text-rose-700 dark:text-rose-400"
            role="alert"
          >
            <span>{t('chat.failed', { message: message.failed ?? '' })}</span>
            <button type="button" className="hk-link" onClick={() => runtime.store.retry(message.clientId!)}>
              {t('chat.resend')}
            </button>
            <button type="button" className="hk-link" onClick={() => runtime.store.discard(message.clientId!)}>
              {t('chat.discard')}
            </button>
          </p>
        )}
      </div>
    </div>
  );
}

interface ComposerProps {
  runtime: ChatRuntime;
  partner: ChatUser;
  connected: boolean;
  me: number | null;
}

function Composer({ runtime, partner, connected, me }: ComposerProps) {
  const t = useT();
  const [text, setText] = useState('');
  const hintId = useId();

  const send = () => {
    if (!connected) return;
    const problem = runtime.store.send(text);
    if (problem === 'noPartner') toast.warning(t('chat.noPartner'));
    else if (problem === 'empty') toast.warning(t('chat.empty'));
    else if (problem === 'tooLong') toast.warning(t('chat.tooLong', { max: CHAT_MESSAGE_MAX }));
    else setText('');
  };

  return (
    <div className="border-t border-zinc-200 p-3 dark:border-zinc-700" data-testid="chat-composer">
      <p id={hintId} className="sr-only">
        {t('chat.inputHint')}
      </p>
      <RichCommentInput
        value={text}
        onChange={setText}
        uploadTarget={{ type: `private_message/${partner._id}`, id: me ?? 0 }}
        label={t('chat.input')}
        maxLength={CHAT_MESSAGE_MAX}
        rows={4}
        maxRows={6}
        onEnter={send}
        emojiPlacement="above"
        describedBy={hintId}
        actions={
          <button
            type="button"
            onClick={send}
            disabled={!connected}
            className="hk-btn hk-btn-primary ml-1 h-8 px-3"
            data-testid="chat-send"
          >
            <Icon name="send" className="size-4" />
            {t('chat.send')}
          </button>
        }
      />
    </div>
  );
}
