import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../platform/logger.ts';
import { toErrorResponse } from './api-errors.ts';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('answers to errors of what the API runs on', () => {
  const logs: string[] = [];
  const record = (level: string) => (_: unknown, message: string) => logs.push(`${level} ${message}`);
  const logger = { info: record('info'), warn: record('warn'), error: record('error') } as unknown as Logger;
  const api = new Hono();
  api.get('/refused', () => {
    throw coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
  });
  // A reset once the whole request has arrived: the database's connection, not the client's.
  api.get('/reset', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw coded('ECONNRESET', 'read ECONNRESET');
  });
  api.post('/full', () => {
    throw Object.assign(new Error('database or disk is full'), { errcode: 13 });
  });
  api.onError((error, c) => toErrorResponse(c, error, logger));
  const server = createServer(getRequestListener(api.fetch));
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 503 DATABASE_UNAVAILABLE while the database is away and 507 STORAGE_FULL on a full disk, in the reader’s language', async () => {
    for (const path of ['/refused', '/reset']) {
      const res = await fetch(base + path, { headers: { cookie: 'hikari_locale=en' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({
        success: false,
        code: 'DATABASE_UNAVAILABLE',
        message: 'The database cannot be reached right now; please try again in a moment',
      });
    }
    const full = await fetch(`${base}/full`, { method: 'POST', body: '{}' });
    expect(full.status).toBe(507);
    expect(await full.json()).toMatchObject({
      code: 'STORAGE_FULL',
      message: '服务器存储空间已满，暂时无法保存，请稍后再试',
    });
    expect(logs.filter((l) => l.startsWith('error'))).toHaveLength(2);
    expect(logs.some((l) => l.includes('aborted by the client'))).toBe(false);
  });
});
