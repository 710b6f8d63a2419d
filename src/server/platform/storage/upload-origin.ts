import type { Config } from '../config.ts';

/**
 * The origin browsers PUT uploads to when it is not our own (S3: the endpoint, path-style, or AWS's
 * virtual-hosted bucket address), for the pages' Content-Security-Policy; null for local storage.
 */
export function uploadOrigin(config: Pick<Config, 'storage'>): string | null {
  const { storage } = config;
  if (storage.driver !== 's3') return null;
  if (storage.endpoint) return new URL(storage.endpoint).origin;
  const region = storage.region === 'auto' ? 'us-east-1' : storage.region;
  return `https://${storage.bucket}.s3.${region}.amazonaws.com`;
}
