import { expect } from 'vitest';
import type { ApiFailure, ApiResponse, ApiSuccess } from '../../src/shared/api.ts';
import type { CodeRequestData, SessionData } from '../../src/shared/auth.ts';
import type { UserGroup } from '../../src/shared/auth-model.ts';
import { signAccessToken } from '../../src/server/modules/auth/tokens.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import type { TestApp } from './test-app.ts';

let ipCounter = 1;
/** A fresh client address per call, so rate limits of one test do not leak into another. */
export const freshIp = () => `10.9.${Math.floor(ipCounter / 250)}.${ipCounter++ % 250}`;

export async function post<T = unknown>(
  app: TestApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await app.request(`/api${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': headers['x-forwarded-for'] ?? freshIp(),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { res, body: (await res.json()) as ApiResponse<T> };
}

export async function call<T = unknown>(app: TestApp, method: string, path: string, token?: string, body?: unknown) {
  const res = await app.request(`/api${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': freshIp(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { res, body: (await res.json()) as ApiResponse<T> };
}

export type Answer = Awaited<ReturnType<typeof call>>;

/** A member made straight in the database, with an access token for `call`. */
export interface Account {
  id: string;
  userId: number;
  name: string;
  token: string;
}

/** A member of `group` made straight in the database, with a signed access token (no login round trip). */
export async function makeAccount(app: TestApp, name: string, group: UserGroup = 'user'): Promise<Account> {
  const user = await createUser(app.ctx.db, { name, email: `${name}@example.test`, passwordHash: 'x', group });
  const token = await signAccessToken(app.ctx.config.jwtSecret, { id: user.id, group });
  return { id: user.id, userId: user.user_id, name, token };
}

/** The answer is a failure with this status and code. */
export function expectFailure(answer: Answer, status: number, code: ApiFailure['code']): void {
  expect(answer.res.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.success).toBe(false);
  expect((answer.body as ApiFailure).code).toBe(code);
}

export function data<T>(body: ApiResponse<T>): T {
  if (!body.success) throw new Error(`expected success, got ${body.code}: ${body.message}`);
  return (body as ApiSuccess<T>).data;
}

/** Registers through the real endpoints: code request, the mailed code, register. */
export async function registerUser(app: TestApp, name: string, password = 'correct horse battery') {
  const email = `${name.toLowerCase()}@example.test`;
  const requested = await post<CodeRequestData>(app, '/v2/email/verification-code/request', {
    email,
    type: 'register',
  });
  const { uuid } = data(requested.body);
  const code = await app.outbox.codeFor(email);
  const registered = await post<SessionData>(app, '/v2/user/register', { name, email, password, code, uuid });
  return { email, password, session: data(registered.body) };
}
