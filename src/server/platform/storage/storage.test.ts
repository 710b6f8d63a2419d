import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createStorage } from './create-storage.ts';
import { signUploadUrl, verifyUploadUrl, type UploadGrant } from './signed-url.ts';
import { LocalStorage } from './storage.local.ts';
import { S3Storage } from './storage.s3.ts';
import { assertValidKey, contentTypeForKey, isValidKey, StorageError, storageText } from './storage.ts';

describe('storage keys', () => {
  it('accepts the keys uploads are made of', () => {
    for (const key of [
      'avatar/42/a1b2c3.webp',
      'post/6650f1c2e4b0a1b2c3d4e5f6/x_y-z.v2.png',
      'cover.jpg',
      'A/b-1/C_2.gif',
    ]) {
      expect(isValidKey(key), key).toBe(true);
    }
  });

  it.each([
    ['', '不能为空'],
    ['../etc/passwd.png', '. 或 ..'],
    ['a/../b.png', '. 或 ..'],
    ['a/./b.png', '. 或 ..'],
    ['/abs/x.png', '不能以 / 开头'],
    ['a\\b.png', '反斜杠'],
    ['a//b.png', '空的路径段'],
    ['a/b/', '空的路径段'],
    ['a/\u0000b.png', '控制字符'],
    ['a/\nb.png', '控制字符'],
    ['a/\u007fb.png', '控制字符'],
    ['.tmp/x.png', '不能以 . 开头'],
    ['a/.env', '不能以 . 开头'],
    ['a b.png', '只能由字母'],
    ['封面.png', '只能由字母'],
    ['a%2f..%2fb.png', '只能由字母'],
    ['x'.repeat(129) + '.png', '每段不能超过'],
    [Array.from({ length: 9 }, () => 'a').join('/') + '.png', '最多 8 级'],
    ['a/'.repeat(300) + 'b.png', '不能超过 512'],
  ])('refuses %j', (key, reason) => {
    expect(() => assertValidKey(key)).toThrow(StorageError);
    const refusal = (() => {
      try {
        assertValidKey(key);
      } catch (error) {
        return (error as StorageError).message;
      }
      return '';
    })();
    expect(storageText('zh-CN', refusal)).toContain(reason);
    expect(storageText('zh-CN', refusal)).toContain(`存储路径 ${JSON.stringify(key)} 无效`);
    expect(storageText('en', refusal)).toContain('Invalid storage path');
    expect(isValidKey(key)).toBe(false);
  });

  it('refuses what is not a string', () => {
    expect(isValidKey(undefined)).toBe(false);
    expect(isValidKey(42)).toBe(false);
  });

  it('knows the type of each stored kind of file and no other', () => {
    expect(contentTypeForKey('a/b.JPG')).toBe('image/jpeg');
    expect(contentTypeForKey('a/b.webp')).toBe('image/webp');
    expect(contentTypeForKey('a/b.epub')).toBe('application/epub+zip');
    expect(contentTypeForKey('a/b.svg')).toBeNull();
    expect(contentTypeForKey('a/b.html')).toBeNull();
    expect(contentTypeForKey('a/png')).toBeNull();
  });
});

describe('signed upload addresses', () => {
  const secret = 's'.repeat(40);
  const now = Date.UTC(2026, 0, 1);
  const grant: UploadGrant = {
    key: 'post/1/a.png',
    contentType: 'image/png',
    maxBytes: 2048,
    expires: now / 1000 + 60,
  };
  const url = signUploadUrl('http://localhost:4321/media-upload/', grant, secret);
  const target = url.slice('http://localhost:4321'.length);
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as StorageError).code;
    }
    return 'accepted';
  };

  it('round-trips what it grants', () => {
    expect(url).toMatch(
      /^http:\/\/localhost:4321\/media-upload\/post\/1\/a\.png\?exp=\d+&ct=image%2Fpng&max=2048&sig=/,
    );
    expect(verifyUploadUrl(target, '/media-upload', secret, now)).toEqual(grant);
  });

  it('refuses every altered part', () => {
    const verify = (t: string) => codeOf(() => verifyUploadUrl(t, '/media-upload', secret, now));
    expect(verify(target.replace('a.png', 'b.png'))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace('max=2048', 'max=4096'))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace('ct=image%2Fpng', 'ct=image%2Fgif'))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace(/exp=\d+/, `exp=${now / 1000 + 9999}`))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(43)))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace(/&sig=[^&]+/, ''))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target + '&max=1')).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace('/media-upload/', '/other/'))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(verify(target.replace('post/1/', 'post/%E0%A4%A/'))).toBe('UPLOAD_SIGNATURE_INVALID');
    expect(codeOf(() => verifyUploadUrl(target, '/media-upload', 't'.repeat(40), now))).toBe(
      'UPLOAD_SIGNATURE_INVALID',
    );
  });

  it('expires at the signed time', () => {
    expect(codeOf(() => verifyUploadUrl(target, '/media-upload', secret, now + 59_999))).toBe('accepted');
    expect(codeOf(() => verifyUploadUrl(target, '/media-upload', secret, now + 60_000))).toBe('UPLOAD_URL_EXPIRED');
  });
});

describe('createStorage', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hikari-storage-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps media in DATA_DIR/media by default, uploading through our own server', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_ORIGIN: 'https://hikari.example' });
    const storage = createStorage(config, { uploadSecret: 'u'.repeat(32) });
    expect(storage).toBeInstanceOf(LocalStorage);
    expect((storage as LocalStorage).dir).toBe(path.join(dataDir, 'media'));
    expect(storage.publicUrl('a/b.png')).toBe('https://hikari.example/media/a/b.png');
    const signed = await storage.presignPut({
      key: 'a/b.png',
      contentType: 'image/png',
      maxBytes: 10,
      expiresInSeconds: 60,
    });
    expect(signed.url.startsWith('https://hikari.example/media-upload/a/b.png?')).toBe(true);
  });

  it('uses the bucket when STORAGE_DRIVER is s3', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'media',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      IMAGE_BED_URL: 'https://img.example.com',
    });
    const storage = createStorage(config, { uploadSecret: 'u'.repeat(32) });
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.publicUrl('a/b.png')).toBe('https://img.example.com/a/b.png');
    (storage as S3Storage).close();
  });

  it('refuses a short upload secret', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(() => createStorage(config, { uploadSecret: 'short' })).toThrow(/32 characters/);
  });
});
