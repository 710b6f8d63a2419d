import { API_BASE, type ApiFailure, type ApiIssue, type ApiSuccess, type ErrorCode } from '../shared/api.ts';
import type { RefreshData } from '../shared/auth-model.ts';
import {
  endpointPath,
  queryString,
  type AnyEndpoint,
  type CallInput,
  type QueryValue,
  type ResponseOf,
} from '../shared/contract.ts';
import { t } from './locale.ts';
import { applyRefresh, endSession, readAccessToken, readRefreshToken } from './session.ts';
import { toast } from './toast.ts';

/**
 * The API client of spec §7: base /api, 60 s timeout, same-origin credentials, JSON bodies and the
 * access token as a bearer header. A 401 is answered by one shared token refresh and one retry
 * (spec §4); a refresh the server refuses ends the session and sends the person to /login.
 */

export const API_TIMEOUT_MS = 60_000;
/** How long to wait for another tab to store the tokens it won a refresh race with. */
export const ROTATION_WAIT_MS = 5000;
const ROTATION_POLL_MS = 200;

/** Failures that never reached an answer from the server, or got one that is not an envelope. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'BAD_RESPONSE';

export interface ApiErrorInit {
  status: number;
  code: ErrorCode | ClientErrorCode;
  message: string;
  data?: ApiFailure['data'];
  retryAfter?: number | null;
  cause?: unknown;
}

export class ApiError extends Error {
  /** HTTP status; 0 when no answer arrived (network error, timeout). */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly data: ApiFailure['data'];
  /** Seconds to wait before trying again (429: Retry-After header, else data.retryAfter). */
  readonly retryAfter: number | null;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.data = init.data ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** The server's field problems of a 400 VALIDATION_FAILED. */
  get issues(): ApiIssue[] {
    return this.data?.issues ?? [];
  }

  /** The first problem of each field, keyed by field name. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const issue of this.issues) if (issue.path && !errors[issue.path]) errors[issue.path] = issue.message;
    return errors;
  }
}

export type { QueryValue };

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Lets the request outlive the page (pagehide). */
  keepalive?: boolean;
  /** Refresh and retry on a 401. Off for the calls whose 401 means something else (login, refresh…). */
  refreshOn401?: boolean;
}

export type BodyOptions = Omit<RequestOptions, 'body' | 'query'> & Pick<RequestOptions, 'query'>;

/** Options of a contract call besides its params, query and body. */
export type CallOptions = Pick<RequestOptions, 'signal' | 'keepalive' | 'refreshOn401'>;

/** A contract call's arguments: the input may be left out when the endpoint takes none. */
export type CallArgs<E extends AnyEndpoint> =
  object extends CallInput<E>
    ? [input?: CallInput<E>, options?: CallOptions]
    : [input: CallInput<E>, options?: CallOptions];

/** How a refresh ended: new tokens stored; the session is over (logged out); or try again later. */
export type RefreshOutcome = 'refreshed' | 'expired' | 'failed';

export interface ApiClientDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  location: () => { pathname: string; search: string; hash: string };
  /** Client-side navigation (keeps the toast that explains the redirect). */
  navigate: (url: string) => void;
  /** A full page load, so every island starts again with the new session state. */
  assign: (url: string) => void;
  notifyExpired: (message: string) => void;
  /** Runs `fn` after `ms`; returns a cancel function. */
  timer: (fn: () => void, ms: number) => () => void;
  sleep: (ms: number) => Promise<void>;
  timeoutMs?: number;
  base?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiClient {
  /** Calls an endpoint of a contract: its path filled from `params`, the answer typed by the contract. */
  call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<ApiSuccess<ResponseOf<E>>>;
  request<T>(method: Method, path: string, options?: RequestOptions): Promise<ApiSuccess<T>>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<ApiSuccess<T>>;
  post<T>(path: string, body?: unknown, options?: BodyOptions): Promise<ApiSuccess<T>>;
  put<T>(path: string, body?: unknown, options?: BodyOptions): Promise<ApiSuccess<T>>;
  delete<T>(path: string, body?: unknown, options?: BodyOptions): Promise<ApiSuccess<T>>;
  /** Refreshes the tokens; concurrent callers share one request. */
  refresh(): Promise<RefreshOutcome>;
  /** Spec §7 logout: tells the server, then logs out locally and goes home even when the call fails. */
  logout(): Promise<void>;
}

/**
 * The auth contract brings the request schemas (zod) with it, and this client is on every page: it is
 * loaded only when a call needs it (a refresh, a logout, a 401), so the script every page loads stays small.
 */
export const loadAuthContract = () => import('../shared/auth/auth.contract.ts').then((module) => module.authContract);

/** Calls whose 401 is an answer, not an expired access token. */
async function isNoRefreshPath(path: string): Promise<boolean> {
  const auth = await loadAuthContract();
  return [auth.login, auth.register, auth.refresh, auth.logout].some((endpoint) => endpoint.path === path);
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(header: string | null, nowMs: number = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The login page address that returns to `location` afterwards (spec §2.1 jumpTo). */
export function loginRedirectUrl(location: { pathname: string; search: string; hash: string }): string | null {
  const full = `${location.pathname}${location.search}${location.hash}`;
  // Spec §4: no redirect when already on a login page or on the way back from one.
  if (full.includes('login') || full.includes('jumpTo')) return null;
  return `/login?jumpTo=${encodeURIComponent(full)}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isRefreshData(value: unknown): value is RefreshData {
  return (
    isRecord(value) &&
    typeof value.hikariAccessToken === 'string' &&
    value.hikariAccessToken !== '' &&
    typeof value.hikariRefreshToken === 'string' &&
    value.hikariRefreshToken !== '' &&
    typeof value.refreshTokenExpiry === 'string'
  );
}

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'SERVICE_UNAVAILABLE',
  503: 'SERVICE_UNAVAILABLE',
  504: 'SERVICE_UNAVAILABLE',
};

function toResult<T>(response: Response, text: string): ApiSuccess<T> {
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): handled below by status.
  }
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  if (isRecord(body) && typeof body.code === 'string' && typeof body.success === 'boolean') {
    if (body.success && response.ok) return body as unknown as ApiSuccess<T>;
    if (!body.success) {
      const failure = body as unknown as ApiFailure;
      return throwError({
        status: response.status,
        code: failure.code,
        message: typeof failure.message === 'string' && failure.message ? failure.message : t('error.internal'),
        data: isRecord(failure.data) ? failure.data : null,
        retryAfter: retryAfter ?? failure.data?.retryAfter ?? null,
      });
    }
  }
  return throwError({
    status: response.status,
    code: response.ok ? 'BAD_RESPONSE' : (STATUS_CODES[response.status] ?? 'BAD_RESPONSE'),
    message: t('error.internal'),
    retryAfter,
  });
}

function throwError(init: ApiErrorInit): never {
  throw new ApiError(init);
}

/** A 4xx answer to a refresh is final (the token is unknown, reused, expired); the rest may pass. */
function refusesSession(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status);
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const base = deps.base ?? API_BASE;
  const timeoutMs = deps.timeoutMs ?? API_TIMEOUT_MS;
  let refreshing: Promise<RefreshOutcome> | null = null;

  async function send<T>(method: Method, path: string, options: RequestOptions, token: string | null) {
    const controller = new AbortController();
    let timedOut = false;
    const cancelTimer = deps.timer(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const outer = options.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });

    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const init: RequestInit = { method, headers, credentials: 'same-origin', signal: controller.signal };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    if (options.keepalive) init.keepalive = true;

    let response: Response;
    let text: string;
    try {
      response = await deps.fetch(`${base}${path}${queryString(options.query)}`, init);
      text = await response.text();
    } catch (error) {
      if (timedOut) throw new ApiError({ status: 0, code: 'TIMEOUT', message: t('auth.error.timeout'), cause: error });
      // The caller gave up: let its own abort reason through.
      if (outer?.aborted) throw error;
      throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: t('auth.error.network'), cause: error });
    } finally {
      cancelTimer();
      outer?.removeEventListener('abort', forward);
    }
    return toResult<T>(response, text);
  }

  /** Spec §4/§8: toast, local logout, and to /login with the way back (unless already there). */
  function expire(message: string = t('auth.sessionExpired')): void {
    deps.notifyExpired(message);
    endSession();
    const target = loginRedirectUrl(deps.location());
    if (target) deps.navigate(target);
  }

  /** After losing a refresh race the winner's tokens arrive in the shared cookie; wait a moment for them. */
  async function rotatedElsewhere(sent: string): Promise<boolean> {
    for (let waited = 0; ; waited += ROTATION_POLL_MS) {
      const current = readRefreshToken();
      if (current && current !== sent) return true;
      if (waited >= ROTATION_WAIT_MS) return false;
      await deps.sleep(ROTATION_POLL_MS);
    }
  }

  async function runRefresh(): Promise<RefreshOutcome> {
    const token = readRefreshToken();
    if (!token) {
      expire();
      return 'expired';
    }
    try {
      const { refresh: endpoint } = await loadAuthContract();
      // Always keepalive: a page left mid-refresh (a click on a link) must not cancel it, or the server
      // would have used the token up while the browser never got the new one (the answer also sets them
      // as cookies, which the browser stores after the page is gone).
      const answer = await send<RefreshData>(
        endpoint.method,
        endpoint.path,
        { body: { token }, keepalive: true },
        null,
      );
      if (!isRefreshData(answer.data))
        throw new ApiError({ status: 200, code: 'BAD_RESPONSE', message: 'bad refresh' });
      applyRefresh(answer.data);
      return 'refreshed';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOKEN_ALREADY_ROTATED' && (await rotatedElsewhere(token)))
        return 'refreshed';
      if (refusesSession(error)) {
        expire();
        return 'expired';
      }
      // Offline, timed out or a server error: the refresh token may still be good, so keep the session.
      console.warn('[auth] token refresh failed, will try again later', error);
      return 'failed';
    }
  }

  function refresh(): Promise<RefreshOutcome> {
    refreshing ??= runRefresh().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<ApiSuccess<T>> {
    const token = readAccessToken();
    try {
      return await send<T>(method, path, options, token);
    } catch (error) {
      // A member banned meanwhile: their logins were ended on the server, so this tab logs out too.
      if (error instanceof ApiError && error.code === 'ACCOUNT_BANNED' && token) {
        expire(error.message);
        throw error;
      }
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      if (!(options.refreshOn401 ?? !(await isNoRefreshPath(path)))) throw error;
      const current = readAccessToken();
      // Another request or tab already stored a newer token while this one was out: just retry.
      if (!current || current === token) {
        if ((await refresh()) !== 'refreshed') throw error;
      }
      return send<T>(method, path, options, readAccessToken());
    }
  }

  function call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<ApiSuccess<ResponseOf<E>>> {
    const [input, options] = args as [
      { params?: Record<string, string | number>; query?: Record<string, QueryValue>; body?: unknown } | undefined,
      CallOptions | undefined,
    ];
    return request<ResponseOf<E>>(endpoint.method, endpointPath(endpoint, input?.params), {
      ...options,
      query: input?.query,
      body: input?.body,
    });
  }

  return {
    call,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, body, options) => request('DELETE', path, { ...options, body }),
    refresh,
    async logout() {
      const hikariRefreshToken = readRefreshToken();
      try {
        await call((await loadAuthContract()).logout, { body: hikariRefreshToken ? { hikariRefreshToken } : {} });
      } catch (error) {
        console.error('[auth] logout call failed; logging out locally', error);
      }
      endSession();
      deps.assign('/');
    },
  };
}

/** The client every island uses. */
export const api: ApiClient = createApiClient({
  fetch: (url, init) => fetch(url, init),
  location: () => window.location,
  navigate: (url) => {
    import('astro:transitions/client').then(({ navigate }) => navigate(url)).catch(() => window.location.assign(url));
  },
  assign: (url) => window.location.assign(url),
  notifyExpired: (message) => toast.error(message),
  timer: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
