import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../src/server/http/server.ts';
import { appModules } from '../../src/server/modules/index.ts';
import { defineModule, on } from '../../src/server/modules/module.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

declare module '../../src/server/context.ts' {
  interface AppTopics {
    'probe.said': { text: string };
  }
  interface AppJobs {
    'probe.echo': { n: number };
  }
}

/** Waits until `check` holds (the job worker and the bus deliver in the background). */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A module added the way the modules README says (its own folder's object, added to the list): the
 * app context, the API, the HTTP server, the job runner and the bus pick up every part of it.
 */
describe('a module added to the list', () => {
  const seen: string[] = [];
  const probe = defineModule({
    name: 'probe',
    api: () => new Hono().get('/probe/ping', (c) => c.json({ code: 'OK', message: '', data: 'pong' })),
    paths: () => [
      {
        path: '/probe-files/',
        handle: (req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end(`file ${req.url}`);
        },
      },
    ],
    jobs: () => ({ 'probe.echo': (payload: { n: number }) => void seen.push(`job ${payload.n}`) }),
    housekeeping: [{ name: 'probe.tidy', everyMs: 1000, run: async () => void seen.push('tidy') }],
    subscriptions: [on('probe.said', (_ctx, event) => void seen.push(`heard ${event.text}`))],
    start: () => void seen.push('start'),
    stop: () => void seen.push('stop'),
  });
  let t: TestApp;
  let http: HttpServer;
  let base: string;
  let clientDir: string;

  beforeAll(async () => {
    t = await createTestApp({}, { modules: [...appModules, probe] });
    clientDir = mkdtempSync(path.join(tmpdir(), 'hikari-modules-'));
    http = createHttpServer(t.ctx, {
      clientDir,
      astro: (_req, res) => {
        res.writeHead(404);
        res.end();
      },
    });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (http.server.listening) await http.shutdown(500);
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('starts it once the context is ready', () => {
    expect(seen[0]).toBe('start');
  });

  it('mounts its routes under /api and its own paths on the server', async () => {
    const api = await fetch(`${base}/api/probe/ping`);
    expect(await api.json()).toMatchObject({ data: 'pong' });
    const file = await fetch(`${base}/probe-files/a/b.txt`);
    expect(await file.text()).toBe('file /probe-files/a/b.txt');
  });

  it('runs its jobs after they are enqueued, and its housekeeping on schedule', async () => {
    await t.ctx.jobs.enqueue(t.ctx.db, 'probe.echo', { n: 7 });
    t.ctx.jobs.poke();
    await until(() => seen.includes('job 7') && seen.includes('tidy'));
  });

  it('delivers the bus topics it subscribed to', async () => {
    await t.ctx.bus.publish('probe.said', { text: 'hello' });
    await until(() => seen.includes('heard hello'));
  });

  it('stops it when the app closes', async () => {
    const other = await createTestApp({}, { modules: [probe] });
    await other.close();
    expect(seen.filter((s) => s === 'stop')).toHaveLength(1);
  });

  it('refuses two modules that handle the same job', async () => {
    await expect(createTestApp({}, { modules: [probe, { ...probe, name: 'copy' }] })).rejects.toThrow(/two handlers/);
  });
});
