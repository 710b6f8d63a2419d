import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalStorage } from '../../src/server/platform/storage/storage.local.ts';
import type { TestApp } from './test-app.ts';

export interface SignedPutServer {
  storage: LocalStorage;
  /** Origin the upload addresses' paths are PUT to. */
  base: string;
  close: () => Promise<void>;
}

/** Serves the test app's signed PUT endpoint (the local storage driver's uploads) on a random port. */
export async function startSignedPutServer(app: Pick<TestApp, 'ctx'>): Promise<SignedPutServer> {
  const storage = app.ctx.storage;
  if (!(storage instanceof LocalStorage)) throw new Error('the tests run on the local driver');
  const server = createServer((req, res) => void storage.handleSignedPut(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    storage,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
