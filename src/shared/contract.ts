import type { z } from 'zod';
import { API_BASE } from './api.ts';

/**
 * The contract toolkit: each module declares its endpoints once (method, path, request schemas,
 * answer type, who may call it), and the server mounts them while the client calls them from the
 * same declaration. Safe for both sides: only zod types and plain data.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `required`: a valid bearer token or 401; `optional`: identifies the caller when a token is sent. */
export type AuthMode = 'required' | 'optional' | 'none';

declare const RESPONSE: unique symbol;
/** The type of an answer's `data`, carried at compile time only (`response: as<FavoriteState>()`). */
export interface ResponseType<T> {
  readonly [RESPONSE]?: (value: T) => T;
}
export const as = <T>(): ResponseType<T> => ({});

type Schema = z.ZodType | undefined;

export interface Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends Schema = Schema,
  Query extends Schema = Schema,
  Body extends Schema = Schema,
  R = unknown,
  A extends AuthMode = AuthMode,
> {
  readonly method: M;
  /** Relative to /api, in Hono syntax: `/galgame/:id/rating`. */
  readonly path: P;
  readonly params: Params;
  readonly query: Query;
  readonly body: Body;
  readonly response: ResponseType<R>;
  readonly auth: A;
  /** What the endpoint does, in one line (the README's API tables show it). */
  readonly summary: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest endpoint, for constraints only
export type AnyEndpoint = Endpoint<HttpMethod, string, Schema, Schema, Schema, any, AuthMode>;
/** A module's endpoints, named for what they do. */
export type Contract = Readonly<Record<string, AnyEndpoint>>;

export function endpoint<
  const M extends HttpMethod,
  const P extends string,
  R,
  Params extends Schema = undefined,
  Query extends Schema = undefined,
  Body extends Schema = undefined,
  const A extends AuthMode = 'none',
>(init: {
  method: M;
  path: P;
  params?: Params;
  query?: Query;
  body?: Body;
  response: ResponseType<R>;
  auth?: A;
  summary: string;
}): Endpoint<M, P, Params, Query, Body, R, A> {
  return {
    method: init.method,
    path: init.path,
    params: init.params as Params,
    query: init.query as Query,
    body: init.body as Body,
    response: init.response,
    auth: (init.auth ?? 'none') as A,
    summary: init.summary,
  };
}

/** The `data` type of an endpoint's answer. */
export type ResponseOf<E> =
  E extends Endpoint<HttpMethod, string, Schema, Schema, Schema, infer R, AuthMode> ? R : never;

/** The names of a path's `:params`: `'/galgame/:id/rating'` gives `'id'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type QueryValue = string | number | boolean | null | undefined;

/** A query as code writes it: text fields may also be given as numbers (`itemId: 3`). */
type QueryFields<T> = { [K in keyof T]: T[K] | (string extends T[K] ? number : never) };

type ParamsPart<P extends string> = [PathParamNames<P>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParamNames<P>, string | number> };
type QueryPart<Q> = Q extends z.ZodType
  ? object extends z.input<Q>
    ? { query?: QueryFields<z.input<Q>> }
    : { query: QueryFields<z.input<Q>> }
  : { query?: undefined };
type BodyPart<B> = B extends z.ZodType ? { body: z.input<B> } : { body?: undefined };

/** What a caller passes for an endpoint: its path params, query and body, each typed from the contract. */
export type CallInput<E extends AnyEndpoint> = ParamsPart<E['path']> & QueryPart<E['query']> & BodyPart<E['body']>;

/** The path (relative to /api) with its `:params` filled in, each encoded. */
export function endpointPath(e: AnyEndpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return e.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${e.method} ${e.path}: missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
}

export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== null && value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The full address of a call (`/api/…?…`), for links and plain fetches. */
export function endpointUrl<E extends AnyEndpoint>(e: E, input: Pick<CallInput<E>, 'params' | 'query'>): string {
  const { params, query } = input as { params?: Record<string, string | number>; query?: Record<string, QueryValue> };
  return `${API_BASE}${endpointPath(e, params)}${queryString(query)}`;
}
