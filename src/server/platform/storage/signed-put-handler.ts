import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalStorage } from './storage.local.ts';
import { messageRef, requestLocale } from '../../../shared/i18n/index.ts';
import { addressUsed, normalizeContentType, StorageError, storageText, tooLarge } from './storage.ts';
import { isStorageFull } from '../../db/db-errors.ts';
import { STORAGE_FULL_RETRY_AFTER_S } from '../infrastructure-failure.ts';

// After refusing a body mid-way, this much more is read and dropped (for up to DRAIN_MS) so the client
// finishes sending and can read the answer; past that the connection is cut.
const DRAIN_LIMIT = 1024 * 1024;
const DRAIN_MS = 5000;

const empty = () => new StorageError(400, 'UPLOAD_INCOMPLETE', 'server.storage.emptyFile');

/**
 * The node:http handler for signed upload addresses of the local driver: checks the signature, the
 * expiry, that the address is unused, the content type and the size, streams the body to a temp file
 * and moves it into place.
 * It always answers (or closes the connection) and never rejects.
 */
export function createSignedPutHandler(
  storage: LocalStorage,
  onError: (error: unknown) => void,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await receive(storage, req, res);
    } catch (error) {
      answerError(req, res, error, onError);
    }
  };
}

async function receive(storage: LocalStorage, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'PUT') {
    res.setHeader('Allow', 'PUT');
    throw new StorageError(405, 'METHOD_NOT_ALLOWED', 'server.storage.putOnly');
  }
  const grant = storage.verifyUpload(req.url ?? '');
  // A spent address is refused before its body is read; a race past this check is settled when the file is linked.
  if (await storage.head(grant.key)) throw addressUsed();
  const contentType = normalizeContentType(req.headers['content-type']);
  if (contentType !== grant.contentType) {
    throw new StorageError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      messageRef('server.storage.typeExpectedRetry', { type: grant.contentType }),
    );
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    // Refused before reading a byte, so an oversized upload costs nothing.
    if (Number(declared) > grant.maxBytes) throw tooLarge(grant.maxBytes);
    if (Number(declared) === 0) throw empty();
  }
  const info = await storage.receiveUpload(grant.key, req, grant.maxBytes, grant.contentType);
  if (info.size === 0) {
    await storage.delete(grant.key);
    throw empty();
  }
  send(res, 200, {
    success: true,
    code: 'OK',
    message: storageText(localeOf(req), 'server.storage.uploaded'),
    data: { key: info.key, size: info.size, contentType: info.contentType, url: storage.publicUrl(info.key) },
  });
}

/** The uploader's language, by the same rule as the pages and the API (the locale cookie, else zh-CN). */
function localeOf(req: IncomingMessage) {
  return requestLocale(req.headers.cookie);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(json);
}

/** The media disk is full: 507 with a wait, its cause logged (once a minute, by `onError`). */
const storageFull = () => new StorageError(507, 'STORAGE_FULL', 'server.storageFull');

function answerError(req: IncomingMessage, res: ServerResponse, error: unknown, onError: (error: unknown) => void) {
  const full = !(error instanceof StorageError) && isStorageFull(error);
  const known = error instanceof StorageError ? error : full ? storageFull() : null;
  if (!known || full) onError(error);
  // The client went away (an aborted upload): there is no one to answer.
  if (req.socket.destroyed || res.headersSent) {
    res.destroy();
    return;
  }
  const status = known?.status ?? 500;
  const code = known?.code ?? 'INTERNAL_ERROR';
  const message = storageText(localeOf(req), known?.message ?? 'server.storage.saveFailed');
  const unread = !req.complete;
  if (full) res.setHeader('Retry-After', String(STORAGE_FULL_RETRY_AFTER_S));
  send(res, status, { success: false, code, message, data: null });
  if (unread) res.once('finish', () => drainThenClose(req));
}

function drainThenClose(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const timer = setTimeout(() => req.destroy(), DRAIN_MS);
  timer.unref();
  req.on('error', () => {});
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT) req.destroy();
  });
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
