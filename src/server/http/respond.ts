import type { Context } from 'hono';
import type { ApiSuccess, SuccessCode } from '../../shared/api.ts';
import type { MessageRef } from '../../shared/i18n/index.ts';
import { apiText } from './request-locale.ts';

/** Answers with the standard envelope `{ success, code, message, data }`, the message in the request's language. */
export function ok<T>(
  c: Context,
  data: T,
  message: MessageRef = 'server.ok',
  code: SuccessCode = 'OK',
  status: 200 | 201 = 200,
) {
  const body: ApiSuccess<T> = { success: true, code, message: apiText(c, message), data };
  return c.json(body, status);
}
