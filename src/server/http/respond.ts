import type { Context } from 'hono';
import type { ApiSuccess, SuccessCode } from '../../shared/api.ts';

/** Answers with the standard envelope `{ success, code, message, data }`. */
export function ok<T>(c: Context, data: T, message = 'ok', code: SuccessCode = 'OK', status: 200 | 201 = 200) {
  const body: ApiSuccess<T> = { success: true, code, message, data };
  return c.json(body, status);
}
