import { createHmac, timingSafeEqual } from 'node:crypto';
import { encodeKeyPath, isValidKey, StorageError } from './storage.ts';

/** What a signed upload address allows: one PUT of one key, with one type, up to a size, until a time. */
export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix time in seconds after which the address no longer works. */
  expires: number;
}

// Names what the signature is for, so an HMAC made with the same secret for anything else never verifies.
const PURPOSE = 'hikari-media-upload-v1';

function sign(grant: UploadGrant, secret: string): Buffer {
  const message = [PURPOSE, 'PUT', grant.key, String(grant.expires), grant.contentType, String(grant.maxBytes)];
  // Neither keys nor content types can hold a newline, so the joined message is unambiguous.
  return createHmac('sha256', secret).update(message.join('\n')).digest();
}

/** `<baseUrl>/<key>?exp=…&ct=…&max=…&sig=…`; the last path segment is the object's file name. */
export function signUploadUrl(baseUrl: string, grant: UploadGrant, secret: string): string {
  const query = new URLSearchParams({
    exp: String(grant.expires),
    ct: grant.contentType,
    max: String(grant.maxBytes),
    sig: sign(grant, secret).toString('base64url'),
  });
  return `${baseUrl.replace(/\/+$/, '')}/${encodeKeyPath(grant.key)}?${query}`;
}

const invalid = () => new StorageError(403, 'UPLOAD_SIGNATURE_INVALID', 'server.storage.signatureInvalid');

function single(query: URLSearchParams, name: string, pattern: RegExp): string {
  const values = query.getAll(name);
  const value = values[0];
  if (values.length !== 1 || value === undefined || !pattern.test(value)) throw invalid();
  return value;
}

function decodeKey(rawKeyPath: string): string {
  try {
    return rawKeyPath.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw invalid();
  }
}

/**
 * Checks a request target (`/media-upload/a/b.webp?exp=…`) against the secret and the clock, and
 * returns what it grants. Anything altered answers UPLOAD_SIGNATURE_INVALID; a genuine but old
 * address answers UPLOAD_URL_EXPIRED.
 */
export function verifyUploadUrl(requestTarget: string, pathPrefix: string, secret: string, nowMs: number): UploadGrant {
  const queryStart = requestTarget.indexOf('?');
  const rawPath = queryStart === -1 ? requestTarget : requestTarget.slice(0, queryStart);
  const query = new URLSearchParams(queryStart === -1 ? '' : requestTarget.slice(queryStart + 1));
  const prefix = pathPrefix.replace(/\/+$/, '') + '/';
  if (!rawPath.startsWith(prefix)) throw invalid();
  const key = decodeKey(rawPath.slice(prefix.length));
  if (!isValidKey(key)) throw invalid();

  const grant: UploadGrant = {
    key,
    expires: Number(single(query, 'exp', /^\d{1,12}$/)),
    contentType: single(query, 'ct', /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/),
    maxBytes: Number(single(query, 'max', /^\d{1,15}$/)),
  };
  const given = Buffer.from(single(query, 'sig', /^[A-Za-z0-9_-]{43}$/), 'base64url');
  const expected = sign(grant, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  if (grant.expires * 1000 <= nowMs) {
    throw new StorageError(403, 'UPLOAD_URL_EXPIRED', 'server.storage.urlExpired');
  }
  return grant;
}
