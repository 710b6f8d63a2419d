import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { ChatUser, ContactEntry } from '../../../shared/chat/chat-model.ts';
import { unreadBadge } from '../../../stores/chat.ts';
import { holdChat, releaseChat, type ChatRuntime } from '../../../stores/chat-runtime.ts';
import { profiles } from '../../../stores/user-profiles.ts';
import Avatar from '../display/Avatar.tsx';
import RichText from '../display/RichText.tsx';
import { useEmojiRendering, useImageOptions } from '../media/use-emoji.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useLocale, useT } from '../ui/use-t.ts';
import ChatConnectionState from './ChatConnectionState.tsx';
import ChatThread from './ChatThread.tsx';
import { contactName, contactTime, partnerFromContacts, previewText } from './chat-view.ts';

/** `?userId=` opens a conversation (the user card's and the space's "message" links). */
function requestedPartner(): number | null {
  const value = new URLSearchParams(location.search).get('userId');
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * /message/private (spec §2.5): the contacts panel with the connection status, and the chat panel;
 * below 1000 px one of them at a time, with a way back to the list.
 */
function PrivateMessages() {
  const t = useT();
  const locale = useLocale();
  const [runtime, setRuntime] = useState<ChatRuntime | null>(null);
  const [partner, setPartner] = useState<ChatUser | null>(null);

  useEffect(() => {
    const held = holdChat(locale);
    setRuntime(held);
    return () => {
      held.store.close();
      releaseChat();
    };
  }, [locale]);

  // A conversation asked for in the address: the partner from the contact list, else their profile.
  useEffect(() => {
    if (!runtime) return;
    const wanted = requestedPartner();
    if (wanted === null) return;
    let gone = false;
    const known = partnerFromContacts(runtime.store.$contacts.get(), wanted);
    const choose = (user: ChatUser) => {
      if (gone) return;
      setPartner(user);
      void runtime.store.open(user);
    };
    if (known) choose(known);
    else
      void profiles.load(wanted).then(() => {
        const entry = profiles.$profiles.get()[String(wanted)];
        if (entry?.status === 'ready')
          choose({ _id: entry.user.userId, name: entry.user.name, avatar: entry.user.avatar });
      });
    return () => {
      gone = true;
    };
  }, [runtime]);

  const choose = (user: ChatUser) => {
    if (!runtime) return;
    setPartner(user);
    void runtime.store.open(user);
    const url = new URL(location.href);
    url.searchParams.set('userId', String(user._id));
    history.replaceState(history.state, '', url);
  };
  const back = () => {
    setPartner(null);
    runtime?.store.close();
    const url = new URL(location.href);
    url.searchParams.delete('userId');
    history.replaceState(history.state, '', url);
  };

  return (
    <div
      className="hk-card flex min-h-0 min-w-0 flex-1 overflow-hidden rounded-none desk:rounded-xl"
      data-testid="private-messages"
    >
      <div
        className={`min-h-0 w-full flex-col border-zinc-200 desk:flex desk:w-80 desk:shrink-0 desk:border-r dark:border-zinc-700 ${partner ? 'hidden' : 'flex'}`}
      >
        <Contacts runtime={runtime} partner={partner} onChoose={choose} />
      </div>
      <div className={`min-h-0 min-w-0 flex-1 flex-col ${partner ? 'flex' : 'hidden desk:flex'}`}>
        {runtime && partner ? (
          <ChatThread key={partner._id} runtime={runtime} partner={partner} onBack={back} />
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            <Icon name="messages" className="size-10 text-zinc-400 dark:text-zinc-500" />
            <p>{t('chat.pick')}</p>
          </div>
        )}
      </div>
    </div>
  );
}

interface ContactsProps {
  runtime: ChatRuntime | null;
  partner: ChatUser | null;
  onChoose: (user: ChatUser) => void;
}

function Contacts({ runtime, partner, onChoose }: ContactsProps) {
  const t = useT();
  return (
    <>
      <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-3 dark:border-zinc-700">
        <h1 className="text-lg font-semibold text-zinc-900 dark:text-white">{t('chat.contacts')}</h1>
        {runtime && <ChatConnectionState runtime={runtime} />}
      </header>
      {runtime ? (
        <ContactList runtime={runtime} partner={partner} onChoose={onChoose} />
      ) : (
        <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400" aria-busy="true">
          {t('chat.loading')}
        </p>
      )}
    </>
  );
}

function ContactList({ runtime, partner, onChoose }: ContactsProps & { runtime: ChatRuntime }) {
  const t = useT();
  const locale = useLocale();
  const contacts = useStore(runtime.store.$contacts);
  const state = useStore(runtime.store.$contactsState);
  const online = useStore(runtime.store.$online);
  const emoji = useEmojiRendering();
  const imageOptions = useImageOptions();

  if (state.status === 'loading' && contacts.length === 0)
    return (
      <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400" aria-busy="true">
        {t('chat.loading')}
      </p>
    );
  if (state.status === 'error' && contacts.length === 0)
    return (
      <div className="flex flex-col items-start gap-2 p-4 text-sm" role="alert">
        <p className="text-rose-700 dark:text-rose-400">{t('chat.contactsFailed', { message: state.error ?? '' })}</p>
        <button
          type="button"
          className="hk-btn hk-btn-ghost h-8 px-3"
          onClick={() => void runtime.store.loadContacts()}
        >
          {t('chat.retryLoad')}
        </button>
      </div>
    );
  if (contacts.length === 0)
    return <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">{t('chat.noContacts')}</p>;

  return (
    <ul className="min-h-0 flex-1 overflow-y-auto" data-testid="chat-contacts">
      {contacts.map((entry: ContactEntry) => {
        const user = entry.contactUser;
        const current = partner?._id === user._id;
        return (
          <li key={user._id}>
            <button
              type="button"
              onClick={() => onChoose(user)}
              aria-current={current || undefined}
              className={`flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800/60 ${
                current ? 'bg-primary-50 dark:bg-primary-900/30' : ''
              }`}
              data-testid="chat-contact"
              data-user-id={user._id}
            >
              <span className="relative shrink-0">
                <Avatar src={user.avatar} name="" size="medium" imageOptions={imageOptions} />
                <span
                  className={`absolute right-0 bottom-0 size-3 rounded-full ring-2 ring-white dark:ring-zinc-900 ${
                    online.has(user._id) ? 'bg-emerald-500' : 'bg-zinc-400 dark:bg-zinc-500'
                  }`}
                  aria-hidden="true"
                />
                <span className="sr-only">{online.has(user._id) ? t('chat.online') : t('chat.offline')}</span>
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-2">
                  <span className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100" data-i18n-content>
                    {contactName(entry)}
                  </span>
                  {entry.isPinned && (
                    <span className="text-accent-strong" title={t('chat.pinned')}>
                      <Icon name="pin" className="size-3.5" />
                      <span className="sr-only">{t('chat.pinned')}</span>
                    </span>
                  )}
                  <time
                    className="ml-auto shrink-0 text-xs text-zinc-600 dark:text-zinc-400"
                    dateTime={entry.lastMessageTime ?? undefined}
                  >
                    {contactTime(entry.lastMessageTime, locale)}
                  </time>
                </span>
                <span className="mt-0.5 flex items-start gap-2">
                  <span className="min-w-0 flex-1 text-xs text-zinc-600 dark:text-zinc-400" data-i18n-content>
                    {entry.lastMessage && (
                      <RichText
                        text={previewText(entry.lastMessage.content, t('chat.image'))}
                        maxLines={2}
                        // A one-line preview: emoji at the text's size, not the message's 36 px.
                        className="[&_img]:size-4"
                        {...emoji}
                      />
                    )}
                  </span>
                  {entry.unreadCount > 0 && (
                    <span
                      className="shrink-0 rounded-full bg-rose-700 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white tabular-nums"
                      data-testid="chat-contact-unread"
                    >
                      <span aria-hidden="true">{unreadBadge(entry.unreadCount)}</span>
                      <span className="sr-only">{t('chat.unread', { count: entry.unreadCount })}</span>
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        );
      })}
      {state.hasMore && (
        <li className="px-4 py-3 text-center">
          <button
            type="button"
            className="hk-btn hk-btn-ghost h-8 px-3 text-xs"
            disabled={state.loadingMore}
            onClick={() => void runtime.store.loadMoreContacts()}
            data-testid="chat-contacts-more"
          >
            {state.loadingMore ? t('chat.loading') : t('chat.moreContacts')}
          </button>
        </li>
      )}
    </ul>
  );
}

export default withLocale(PrivateMessages);
