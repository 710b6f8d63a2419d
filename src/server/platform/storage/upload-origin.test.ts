import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../http/security-headers.ts';
import type { Config } from '../config.ts';
import { uploadOrigin } from './upload-origin.ts';

const s3 = (endpoint: string | undefined, region = 'auto'): Pick<Config, 'storage'> => ({
  storage: { driver: 's3', endpoint, region, bucket: 'hikari-img', accessKeyId: 'k', secretAccessKey: 's' },
});

describe('where browsers PUT uploads', () => {
  it('is our own origin for local storage, the endpoint or the AWS bucket address for S3', () => {
    expect(uploadOrigin({ storage: { driver: 'local', dir: '/tmp/media' } } as Pick<Config, 'storage'>)).toBeNull();
    expect(uploadOrigin(s3('https://acc.r2.cloudflarestorage.com/some/path'))).toBe(
      'https://acc.r2.cloudflarestorage.com',
    );
    expect(uploadOrigin(s3(undefined, 'eu-west-1'))).toBe('https://hikari-img.s3.eu-west-1.amazonaws.com');
  });

  it('is allowed to connect to by the pages, and nothing else is', () => {
    const csp = contentSecurityPolicy({ uploadOrigin: 'https://acc.r2.cloudflarestorage.com' });
    expect(csp).toContain("connect-src 'self' https://acc.r2.cloudflarestorage.com;");
    expect(contentSecurityPolicy({})).toContain("connect-src 'self';");
  });
});
