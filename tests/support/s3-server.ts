import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Storage } from '../../src/server/platform/storage/storage.s3.ts';

/** The part of @20minutes/s3rver (an S3 server in this process, checking SigV4 signatures) used here. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string; configs: string[] }[];
}) => S3rverInstance;

// The package is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverConstructor;

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
