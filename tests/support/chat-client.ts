import WebSocket from 'ws';
import type { ChatServerFrame } from '../../src/shared/chat/chat-model.ts';

/** A /ws/chat socket that keeps every frame it receives. */
export interface ChatClient {
  ws: WebSocket;
  frames: ChatServerFrame[];
  /** Resolves with the first frame (already received or coming) that matches; rejects after 3 s. */
  next: (match: (frame: ChatServerFrame) => boolean) => Promise<ChatServerFrame>;
  send: (frame: object) => void;
}

/** Opens a chat socket at `url` for a page in `locale` (its locale cookie); resolves once it is open. */
export async function connectChat(url: string, locale = 'zh-CN'): Promise<ChatClient> {
  const ws = new WebSocket(url, { headers: { cookie: `hikari_locale=${locale}` } });
  const frames: ChatServerFrame[] = [];
  const waiting: { match: (f: ChatServerFrame) => boolean; resolve: (f: ChatServerFrame) => void }[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as ChatServerFrame;
    frames.push(frame);
    for (const w of waiting.splice(0)) {
      if (w.match(frame)) w.resolve(frame);
      else waiting.push(w);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    frames,
    send: (frame) => ws.send(JSON.stringify(frame)),
    next: (match) =>
      new Promise((resolve, reject) => {
        const seen = frames.find(match);
        if (seen) return resolve(seen);
        const timer = setTimeout(() => reject(new Error(`no such frame; got ${JSON.stringify(frames)}`)), 3000);
        waiting.push({
          match,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f);
          },
        });
      }),
  };
}
