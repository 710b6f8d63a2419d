import type { ErrorCode } from '../../shared/api.ts';

/** The one error type of the server: an HTTP status, a stable code and a message a person can act on. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(status: number, code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, 'VALIDATION_FAILED', message, details);
export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
