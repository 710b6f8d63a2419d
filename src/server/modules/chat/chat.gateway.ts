import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../../context.ts';

export const CHAT_PATH = '/ws/chat';
/** Largest frame a client may send: a 500-character message in JSON with room to spare. */
export const CHAT_MAX_PAYLOAD = 16 * 1024;

export interface ChatGateway {
  handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every open socket with 1001 (going away). */
  close: () => Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

/**
 * The WebSocket entry for private chat. An upgrade is accepted only with a valid access token
 * (`?token=`, spec §7); anything else is refused with 401 before the handshake.
 */
export function createChatGateway(ctx: AppContext, verifyToken: (token: string) => Promise<boolean>): ChatGateway {
  const wss = new WebSocketServer({ noServer: true, maxPayload: CHAT_MAX_PAYLOAD });
  const sockets = new Set<WebSocket>();

  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
  });

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== CHAT_PATH) return refuse(socket, 404, 'Not Found');
      const token = url.searchParams.get('token');
      void (async () => {
        const valid = token ? await verifyToken(token).catch(() => false) : false;
        if (!valid) {
          ctx.logger.info({ path: CHAT_PATH, status: 401 }, 'websocket upgrade refused');
          return refuse(socket, 401, 'Unauthorized');
        }
        wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      })();
    },
    async close() {
      for (const ws of sockets) ws.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
