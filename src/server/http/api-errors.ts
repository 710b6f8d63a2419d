import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import type { ApiFailure, ErrorCode } from '../../shared/api.ts';
import { messageRef } from '../../shared/i18n/index.ts';
import { HttpError } from '../platform/errors.ts';
import { infrastructureError, logInfrastructureFailure } from '../platform/infrastructure-failure.ts';
import type { Logger } from '../platform/logger.ts';
import { apiText } from './request-locale.ts';

function failure(code: ErrorCode, message: string, data: ApiFailure['data'] = null): ApiFailure {
  return { success: false, code, message, data };
}

/** `details` of an error with the messages of its issues in the request's language. */
function translatedDetails(c: Context, details: unknown): ApiFailure['data'] {
  if (!details || typeof details !== 'object') return null;
  const data = details as NonNullable<ApiFailure['data']>;
  if (!Array.isArray(data.issues)) return data;
  return { ...data, issues: data.issues.map((issue) => ({ ...issue, message: apiText(c, issue.message) })) };
}

/**
 * The one place that turns a thrown error into an API answer, its messages in the request's language.
 * Unknown errors never leak details.
 */
export function toErrorResponse(c: Context, error: unknown, logger: Logger): Response {
  if (error instanceof HttpError) {
    const data = translatedDetails(c, error.details);
    if (data?.retryAfter) c.header('Retry-After', String(data.retryAfter));
    return c.json(failure(error.code, apiText(c, error.message), data), error.status as ContentfulStatusCode);
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: apiText(c, i.message) }));
    return c.json(
      failure('VALIDATION_FAILED', issues[0]?.message ?? apiText(c, 'validation.request.invalid'), { issues }),
      400,
    );
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return c.json(failure('PAYLOAD_TOO_LARGE', apiText(c, 'server.payloadTooLarge')), 413);
    return c.json(failure(status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', error.message), status);
  }
  if (isClientAbort(c, error)) {
    // The client went away mid-request (a cancelled upload, a closed tab): nothing on our side failed.
    logger.info({ path: c.req.path }, 'request aborted by the client');
    return c.json(failure('UPLOAD_INCOMPLETE', apiText(c, 'epub.networkError')), 400);
  }
  // What the app runs on failed (the database is away, a disk is full): 503/507, logged once a minute.
  const infrastructure = infrastructureError(error);
  if (infrastructure) {
    logInfrastructureFailure(logger, error, { path: c.req.path });
    return toErrorResponse(c, infrastructure, logger);
  }
  logger.error({ err: error, path: c.req.path }, 'unhandled API error');
  return c.json(failure('INTERNAL_ERROR', apiText(c, 'server.internal')), 500);
}

/**
 * The request was cut off by its client: its signal aborted, or reading its body failed as a reset. A
 * reset once the whole request has arrived is not the client's: it is the database's connection.
 */
function isClientAbort(c: Context, error: unknown): boolean {
  if (c.req.raw.signal.aborted) return true;
  if ((c.env as Partial<HttpBindings> | undefined)?.incoming?.complete) return false;
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (
      code === 'ECONNRESET' ||
      code === 'ECONNABORTED' ||
      cause.name === 'AbortError' ||
      cause.message === 'aborted'
    ) {
      return true;
    }
    cause = cause.cause;
  }
  return false;
}

export function notFoundResponse(c: Context): Response {
  const message = apiText(c, messageRef('server.apiNotFound', { method: c.req.method, path: c.req.path }));
  return c.json(failure('NOT_FOUND', message), 404);
}
