import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ApiSuccess } from '../shared/api.ts';
import { endpointPath, type ResponseOf } from '../shared/contract.ts';
import type { ApiClient } from './api-client.ts';

/** One request a store made: what it asked for (query and body only when it sent them). */
export interface FakeCall {
  method: string;
  path: string;
  query?: unknown;
  body?: unknown;
}

/**
 * A fake API client for store tests: records each call made through a contract and answers it from
 * a queue of deferred results (`answer` / `fail` settle the oldest open one).
 */
export function fakeApi() {
  const calls: FakeCall[] = [];
  const pending: { resolve: (data: unknown) => void; reject: (error: unknown) => void }[] = [];
  const client: Pick<ApiClient, 'call'> = {
    call: (endpoint, ...[input]) => {
      const { params, query, body } = (input ?? {}) as {
        params?: Record<string, string | number>;
        query?: unknown;
        body?: unknown;
      };
      const call: FakeCall = { method: endpoint.method, path: endpointPath(endpoint, params) };
      if (query !== undefined) call.query = query;
      if (body !== undefined) call.body = body;
      calls.push(call);
      return new Promise<ApiSuccess<ResponseOf<typeof endpoint>>>((resolve, reject) => {
        pending.push({
          resolve: (data) =>
            resolve({ success: true, code: 'OK', message: 'ok', data: data as ResponseOf<typeof endpoint> }),
          reject,
        });
      });
    },
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  // Stores load a contract (and its schemas) on their first call, so a request is sent a few turns
  // of the event loop after the action started: wait for it, within bounds (on real turns, which
  // fake timers leave alone).
  const until = async (ready: () => boolean) => {
    for (let i = 0; i < 100 && !ready(); i++) await nextTurn();
  };
  return {
    client,
    calls,
    /** Waits until `count` requests have been sent (by default, one more than so far). */
    async sent(count = calls.length + 1) {
      await until(() => calls.length >= count);
    },
    /** Answers the oldest open request (waiting for it to be sent). */
    async answer(data: unknown) {
      await until(() => pending.length > 0);
      pending.shift()?.resolve(data);
      await settle();
    },
    async fail(error: unknown) {
      await until(() => pending.length > 0);
      pending.shift()?.reject(error);
      await settle();
    },
    open: () => pending.length,
  };
}
