import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createStaticHandler } from '../../src/server/http/static-files.ts';

export interface StaticAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface StaticSite {
  get: (urlPath: string, headers?: Record<string, string>) => Promise<StaticAnswer>;
  close: () => Promise<void>;
}

/**
 * A folder of built files (path → content) served by our static handler on a random port, as the
 * server serves dist/client; paths it does not find answer 404 'not here'.
 */
export async function startStaticSite(files: Record<string, string | Buffer>): Promise<StaticSite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hikari-static-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  const serve = createStaticHandler(dir);
  const server = createServer((req, res) =>
    serve(req, res, () => {
      res.statusCode = 404;
      res.end('not here');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    get: (urlPath, headers = {}) =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      }),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
