import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import { LocalStorage } from './storage.local.ts';
import { S3Storage } from './storage.s3.ts';

/** The secret that signs the local driver's upload addresses, derived from JWT_SECRET. */
export function uploadSecret(config: Pick<Config, 'jwtSecret'>): string {
  return createHmac('sha256', config.jwtSecret).update('hikari:media-upload').digest('hex');
}

export interface CreateStorageOptions {
  /** Signs the local driver's upload addresses (unused by S3, which signs with its own keys). */
  uploadSecret: string;
  /** Path of the local upload handler on our own server. */
  uploadPath?: string;
  onError?: (error: unknown) => void;
}

/** The storage driver the configuration asks for (STORAGE_DRIVER, S3_*, IMAGE_BED_URL). */
export function createStorage(
  config: Pick<Config, 'storage' | 'imageBedUrl' | 'publicOrigin'>,
  options: CreateStorageOptions,
): LocalStorage | S3Storage {
  const { storage } = config;
  if (storage.driver === 's3') {
    return new S3Storage({
      endpoint: storage.endpoint,
      region: storage.region,
      bucket: storage.bucket,
      accessKeyId: storage.accessKeyId,
      secretAccessKey: storage.secretAccessKey,
      publicBaseUrl: config.imageBedUrl,
    });
  }
  return new LocalStorage({
    dir: storage.dir,
    secret: options.uploadSecret,
    uploadBaseUrl: `${config.publicOrigin}${options.uploadPath ?? '/media-upload'}`,
    publicBaseUrl: config.imageBedUrl,
    onError: options.onError,
  });
}
