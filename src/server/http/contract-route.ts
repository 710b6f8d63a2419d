import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { SuccessCode } from '../../shared/api.ts';
import type { MessageRef } from '../../shared/i18n/index.ts';
import type { AnyEndpoint, AuthMode, Contract, ResponseOf } from '../../shared/contract.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../modules/users/users.tables.ts';
import { optionalLogin, requireLogin } from './auth-guard.ts';
import { ok } from './respond.ts';
import { jsonBody, queryOf } from './validate.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Viewer<A extends AuthMode> = A extends 'required' ? UserRow : A extends 'optional' ? UserRow | null : null;

/** What a handler receives: the request parsed with the endpoint's schemas, and the caller its guard found. */
export interface RouteInput<E extends AnyEndpoint> {
  params: Parsed<E['params']>;
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
  user: Viewer<E['auth']>;
}

/** A successful answer in the standard envelope, its `data` typed by the contract. */
export interface Reply<T> {
  data: T;
  message?: MessageRef;
  code?: SuccessCode;
  status?: 200 | 201;
}

/** Handlers answer a Reply; a Response is for answers outside the envelope (a file, a degraded health). */
export type RouteHandler<E extends AnyEndpoint> = (
  c: Context,
  input: RouteInput<E>,
) => Reply<ResponseOf<E>> | Response | Promise<Reply<ResponseOf<E>> | Response>;

export type ContractHandlers<C extends Contract> = { [K in keyof C]: RouteHandler<C[K]> };

function guard(ctx: AppContext, auth: AuthMode): MiddlewareHandler[] {
  if (auth === 'required') return [requireLogin(ctx) as MiddlewareHandler];
  if (auth === 'optional') return [optionalLogin(ctx) as MiddlewareHandler];
  return [];
}

/**
 * Mounts one endpoint: its method and path, the auth guard it names, then params, query and body
 * parsed with its schemas (a bad one answers 400 VALIDATION_FAILED with the issues) before the handler.
 */
export function mountEndpoint<E extends AnyEndpoint>(
  app: Hono,
  ctx: AppContext,
  endpoint: E,
  handler: RouteHandler<E>,
): void {
  app.on(endpoint.method, [endpoint.path], ...guard(ctx, endpoint.auth), async (c) => {
    const input = {
      params: endpoint.params ? endpoint.params.parse(c.req.param()) : undefined,
      query: endpoint.query ? queryOf(c, endpoint.query) : undefined,
      body: endpoint.body ? await jsonBody(c, endpoint.body) : undefined,
      user: endpoint.auth === 'none' ? null : ((c.var as { user?: UserRow | null }).user ?? null),
    } as RouteInput<E>;
    const answer = await handler(c, input);
    if (answer instanceof Response) return answer;
    return ok(c, answer.data, answer.message, answer.code, answer.status);
  });
}

/** A Hono app with every endpoint of a contract mounted, in the contract's order; each needs its handler. */
export function contractRoutes<C extends Contract>(ctx: AppContext, contract: C, handlers: ContractHandlers<C>): Hono {
  const app = new Hono();
  for (const name of Object.keys(contract) as (keyof C & string)[]) {
    mountEndpoint(app, ctx, contract[name] as C[typeof name], handlers[name]);
  }
  return app;
}
