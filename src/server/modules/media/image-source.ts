import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../platform/config.ts';
import { HttpError } from '../../platform/errors.ts';

/** Largest source image we read or fetch. */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 10_000;

export type ImageSource = { kind: 'local'; file: string } | { kind: 'remote'; url: URL };

const forbidden = () => new HttpError(403, 'FORBIDDEN', 'server.imageSourceForbidden');

/**
 * Decides where an image may come from: our own media (a /media/ path or the image-bed URL, read from
 * disk) or a host on the allowed list (fetched). Anything else is refused, so the endpoint cannot be
 * used to reach arbitrary addresses.
 */
export function resolveImageSource(raw: string, config: Config): ImageSource {
  const mediaDir = config.storage.driver === 'local' ? config.storage.dir : null;
  const toLocal = (mediaPath: string): ImageSource => {
    if (!mediaDir) throw forbidden();
    let decoded: string;
    try {
      decoded = decodeURIComponent(mediaPath);
    } catch {
      throw new HttpError(400, 'VALIDATION_FAILED', 'server.imageUrlInvalid');
    }
    const file = path.resolve(mediaDir, `.${path.posix.normalize(decoded.startsWith('/') ? decoded : `/${decoded}`)}`);
    if (!file.startsWith(mediaDir + path.sep)) throw forbidden();
    return { kind: 'local', file };
  };

  if (raw.startsWith('/media/')) return toLocal(raw.slice('/media'.length));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpError(400, 'VALIDATION_FAILED', 'server.imageUrlInvalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw forbidden();
  const bed = new URL(config.imageBedUrl);
  if (url.origin === bed.origin && url.pathname.startsWith(`${bed.pathname.replace(/\/$/, '')}/`) && mediaDir) {
    return toLocal(url.pathname.slice(bed.pathname.replace(/\/$/, '').length));
  }
  if (url.username || url.password) throw forbidden();
  // An allowed entry "host" means that host on the default port; "host:port" names the port.
  if (!config.imageAllowedHosts.includes(url.host.toLowerCase())) throw forbidden();
  return { kind: 'remote', url };
}

/** Reads the source bytes, enforcing the size limit, the time limit and an image content type. */
export async function loadImageSource(source: ImageSource, fetcher: typeof fetch = fetch): Promise<Buffer> {
  if (source.kind === 'local') {
    const info = await stat(source.file).catch(() => null);
    if (!info?.isFile()) throw new HttpError(404, 'NOT_FOUND', 'server.imageNotFound');
    if (info.size > MAX_SOURCE_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'server.imageTooLarge');
    return readFile(source.file);
  }
  const res = await fetcher(source.url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' }).catch(
    () => {
      throw new HttpError(502, 'SERVICE_UNAVAILABLE', 'server.imageFetchFailed');
    },
  );
  if (!res.ok)
    throw new HttpError(
      res.status === 404 ? 404 : 502,
      res.status === 404 ? 'NOT_FOUND' : 'SERVICE_UNAVAILABLE',
      'server.imageFetchFailed',
    );
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('image/')) throw new HttpError(415, 'VALIDATION_FAILED', 'server.notAnImage');
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_SOURCE_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'server.imageTooLarge');
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body ?? []) {
    total += chunk.byteLength;
    if (total > MAX_SOURCE_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'server.imageTooLarge');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
