import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHttpServer, type AstroHandler, type HttpServer } from '../../src/server/http/server.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerUser } from '../support/accounts.ts';

/** Fetches through a new connection, so a closed server shows as a refused connection. */
function get(
  port: number,
  urlPath: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the server entry', () => {
  let app: TestApp;
  let http: HttpServer;
  let port: number;
  let clientDir: string;
  const logLines: Record<string, unknown>[] = [];
  const rendered: string[] = [];
  let closingSocket: Promise<number> = Promise.resolve(0);

  beforeAll(async () => {
    app = await createTestApp();
    app.ctx.logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    clientDir = mkdtempSync(path.join(tmpdir(), 'hikari-client-'));
    mkdirSync(path.join(clientDir, '_astro'));
    writeFileSync(path.join(clientDir, '_astro/app.abc123.js'), 'console.log(1)');
    // Stands in for the Astro build output, which this suite does not build.
    const astro: AstroHandler = async (req, res, _next, locals) => {
      rendered.push(req.url ?? '');
      if (req.url === '/slow') await new Promise((r) => setTimeout(r, 300));
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(locals.app === app.ctx ? 'page with context' : 'page without context');
    };
    http = createHttpServer(app.ctx, { clientDir, astro });
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    port = (http.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    if (http.server.listening) await http.shutdown(1000);
    await app.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('routes /api to the API', async () => {
    const res = await get(port, '/api/health');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, code: 'OK' });
  });

  it('serves hashed build files with an immutable cache header', async () => {
    const res = await get(port, '/_astro/app.abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('hands every other path to Astro with the shared context in locals', async () => {
    const res = await get(port, '/some/page');
    expect(res.body).toBe('page with context');
    expect(rendered).toContain('/some/page');
  });

  it('writes one structured log line per request', async () => {
    logLines.length = 0;
    await get(port, '/api/health?x=1');
    const lines = logLines.filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/api/health', status: 200 });
    expect(typeof lines[0]?.durationMs).toBe('number');
  });

  it('refuses a chat upgrade without a valid token with 401', async () => {
    for (const url of [`ws://127.0.0.1:${port}/ws/chat`, `ws://127.0.0.1:${port}/ws/chat?token=forged`]) {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error('upgrade was accepted')));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(401);
    }
  });

  it('accepts a chat upgrade with a valid access token, and closes it with 1001 on shutdown', async () => {
    const { session } = await registerUser(app, 'Chatter');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat?token=${session.hikariAccessToken}`);
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    });
    closingSocket = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  });

  it('on shutdown finishes in-flight requests, then stops accepting', async () => {
    const slow = get(port, '/slow');
    await new Promise((r) => setTimeout(r, 50));
    const stopping = http.shutdown(5000);
    const res = await slow;
    expect(res.status).toBe(200);
    await stopping;
    expect(http.server.listening).toBe(false);
    expect(await closingSocket).toBe(1001);
    await expect(get(port, '/api/health')).rejects.toThrow(/ECONNREFUSED/);
  });
});
