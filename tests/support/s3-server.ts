import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Storage } from '../../src/server/platform/storage/storage.s3.ts';

interface S3rverObject {
  bucket: string;
  key: string;
}
interface S3rverStore {
  existsObject(bucket: string, key: string): Promise<boolean>;
  putObject(object: S3rverObject): Promise<unknown>;
}
interface S3rverContext {
  method: string;
  get(header: string): string;
  store: S3rverStore;
}

/** The part of @20minutes/s3rver (an S3 server in this process, checking SigV4 signatures) used here. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Koa's middleware list. */
  middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string; configs: string[] }[];
}) => S3rverInstance;

// The package is CommonJS without type declarations.
const require = createRequire(import.meta.url);
const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
const S3Error = require('@20minutes/s3rver/lib/models/error') as new (code: string, message: string) => Error;

/**
 * s3rver 4 ignores `If-None-Match: *` on PUT; S3 (since 2024), R2 and MinIO store the object only
 * while the key is free and answer 412 otherwise. This gives s3rver that rule, checked after the
 * signature (where its object controller stores), so tests see what a real bucket does with our
 * upload addresses. Unlike S3 it is not atomic: two PUTs in the same instant may both pass.
 */
function honourIfNoneMatch(server: S3rverInstance): void {
  server.middleware.unshift(async (ctx, next) => {
    if (ctx.method === 'PUT' && ctx.get('if-none-match') === '*' && !ctx.get('x-amz-copy-source')) {
      const store = ctx.store;
      ctx.store = Object.create(store, {
        putObject: {
          async value(object: S3rverObject) {
            if (await store.existsObject(object.bucket, object.key))
              throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
            return store.putObject(object);
          },
        },
      }) as S3rverStore;
    }
    await next();
  });
}

export interface TestS3Server {
  endpoint: string;
  region: string;
  bucket: string;
  /** The server's built-in account. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Where the server keeps objects. */
  directory: string;
  stop: () => Promise<void>;
}

/** Starts an S3-compatible server on a random port with an empty bucket in a temp folder. */
export async function startS3Server(bucket = 'hikari-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'hikari-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  honourIfNoneMatch(server);
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    directory,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Our S3 driver pointed at a test server, with `publicBaseUrl` as the image bed. */
export function s3StorageFor(server: TestS3Server, publicBaseUrl: string): S3Storage {
  return new S3Storage({
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    publicBaseUrl,
  });
}
