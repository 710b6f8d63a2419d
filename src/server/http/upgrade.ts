import type { Duplex } from 'node:stream';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

/** Answers an upgrade with a plain HTTP error and closes the socket once it is written. */
export function refuseUpgrade(socket: Duplex, status: number, extraHeaders: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const text = STATUS_TEXT[status] ?? 'Error';
  const headers = Object.entries({
    Connection: 'close',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...extraHeaders,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  // Destroyed after the answer is flushed: a client that never closes its side cannot hold the socket.
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${text}\r\n${headers}\r\n${text}`);
}
