import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import type { ApiFailure, ErrorCode } from '../../shared/api.ts';
import { HttpError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

function failure(code: ErrorCode, message: string, data: ApiFailure['data'] = null): ApiFailure {
  return { success: false, code, message, data };
}

/** The one place that turns a thrown error into an API answer. Unknown errors never leak details. */
export function toErrorResponse(c: Context, error: unknown, logger: Logger): Response {
  if (error instanceof HttpError) {
    const data = error.details && typeof error.details === 'object' ? (error.details as ApiFailure['data']) : null;
    if (data?.retryAfter) c.header('Retry-After', String(data.retryAfter));
    return c.json(failure(error.code, error.message, data), error.status as ContentfulStatusCode);
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return c.json(failure('VALIDATION_FAILED', issues[0]?.message ?? '请求参数不正确', { issues }), 400);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return c.json(failure('PAYLOAD_TOO_LARGE', '请求内容过大'), 413);
    return c.json(failure(status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', error.message), status);
  }
  logger.error({ err: error, path: c.req.path }, 'unhandled API error');
  return c.json(failure('INTERNAL_ERROR', '服务器开小差了，请稍后再试'), 500);
}

export function notFoundResponse(c: Context): Response {
  return c.json(failure('NOT_FOUND', `API not found: ${c.req.method} ${c.req.path}`), 404);
}
