import type { Locale } from '../shared/i18n/index.ts';
import { pageTranslator } from '../shared/i18n/page-messages.ts';
import { api } from './api-client.ts';
import { createChatStore, type ChatStore } from './chat.ts';
import { createChatConnection, type ChatConnection, type SocketLike } from './chat-connection.ts';
import { loadPublicConfig } from './public-config.ts';
import { $session, accessTokenExpiresAt, readAccessToken } from './session.ts';
import { toast } from './toast.ts';
import { $privateUnread } from './unread-count.ts';

/** A token this close to its end is refreshed before a socket is opened with it. */
const TOKEN_MARGIN_MS = 30_000;

export interface ChatRuntime {
  store: ChatStore;
  connection: ChatConnection;
}

/** The socket address (spec §7: the configured chat address, else this site's /ws/chat) with a fresh token. */
async function chatAddress(): Promise<string | null> {
  let token = readAccessToken();
  const expires = accessTokenExpiresAt(token);
  if (!token || (expires !== null && expires - Date.now() < TOKEN_MARGIN_MS)) {
    if ((await api.refresh()) === 'refreshed') token = readAccessToken();
    else if (!token || (expires !== null && expires <= Date.now())) token = null;
  }
  if (!token) return null;
  const config = await loadPublicConfig();
  const base = config.chatUrl ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/chat`;
  const url = new URL(base, location.href);
  url.searchParams.set('token', token);
  return url.toString();
}

let runtime: ChatRuntime | null = null;
let holders = 0;
let detach: (() => void) | null = null;

/**
 * The page's one chat connection and store, shared by the /message/private page and the chat window of
 * the user card; it opens with the first holder and closes when the last one lets go.
 */
export function holdChat(locale: Locale): ChatRuntime {
  holders += 1;
  if (runtime) return runtime;
  const t = pageTranslator(locale);
  const failText = {
    frame: (message: string) => t('chat.frameError', { message }),
    processing: (message: string) => t('chat.processingError', { message }),
    contacts: (message: string) => t('chat.contactsFailed', { message }),
    history: (message: string) => t('chat.historyFailed', { message }),
    older: (message: string) => t('chat.olderFailed', { message }),
    send: (message: string) =>
      t('chat.sendFailed', { message: message === 'notConnected' ? t('chat.notConnected') : message }),
    clear: (message: string) => t('chat.clearFailed', { message }),
  } as const;
  let store: ChatStore | null = null;
  const connection = createChatConnection({
    address: chatAddress,
    create: (address) => new WebSocket(address) as unknown as SocketLike,
    onFrame: (frame) => store?.onFrame(frame),
    onOpen: (reconnected) => {
      store?.resend();
      if (reconnected) void store?.catchUp();
    },
    onFirstError: () => toast.error(t('chat.connectionFailed')),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (timer) => clearInterval(timer as ReturnType<typeof setInterval>),
    log: (message, detail) => console.warn(`[chat] ${message}`, detail),
  });
  store = createChatStore({
    call: (endpoint, ...args) => api.call(endpoint, ...args),
    contract: () => import('../shared/chat/chat.contract.ts').then((module) => module.chatContract),
    connection,
    me: () => $session.get()?.userId ?? null,
    announce: (name) => toast.info(t('chat.newMessage', { name: name || t('chat.someone') })),
    fail: (kind, message) => toast.error(failText[kind](message)),
    visible: () => document.visibilityState === 'visible',
    newClientId: () => crypto.randomUUID().replaceAll('-', ''),
    setTimeout: (run, ms) => setTimeout(run, ms),
    log: (message, detail) => console.warn(`[chat] ${message}`, detail),
  });
  const offline = () => connection.dropped();
  const online = () => connection.retry();
  const shown = () => {
    if (document.visibilityState === 'visible') store!.readOpen();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', shown);
  detach = () => {
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', shown);
  };
  // The bell counts unread chats: the page keeps it current as messages arrive and are read.
  const stopCount = store.$contacts.listen(() => {
    // Only a list that holds every conversation knows the member's total; otherwise the bell's poll does.
    if (store!.complete()) $privateUnread.set(store!.unreadTotal());
  });
  const stopEvents = detach;
  detach = () => {
    stopEvents();
    stopCount();
  };
  runtime = { store, connection };
  connection.start();
  void store.loadContacts();
  return runtime;
}

/** Lets go of the chat; the last holder closes the socket. */
export function releaseChat(): void {
  holders = Math.max(0, holders - 1);
  if (holders > 0 || !runtime) return;
  runtime.connection.stop();
  detach?.();
  detach = null;
  runtime = null;
}
