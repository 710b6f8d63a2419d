import type { ErrorCode } from '../../shared/api.ts';
import type { MessageRef } from '../../shared/i18n/index.ts';

/**
 * The one error type of the server: an HTTP status, a stable code and a message a person can act on.
 * The message is a message reference (a key and its parameters, `messageRef`), written in the
 * request's language when the error becomes an answer; so are the messages of `details.issues`.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(status: number, code: ErrorCode, message: MessageRef, details?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** A problem of one field, for `details.issues`. */
export const fieldIssue = (path: string, message: MessageRef) => ({ issues: [{ path, message }] });

export const badRequest = (message: MessageRef, details?: unknown) =>
  new HttpError(400, 'VALIDATION_FAILED', message, details);
export const notFound = (message: MessageRef) => new HttpError(404, 'NOT_FOUND', message);
