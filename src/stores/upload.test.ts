import { describe, expect, it, vi } from 'vitest';
import { pageTranslator } from '../shared/i18n/page-messages.ts';
import { UploadFailure } from './image-compress.ts';
import { publicImageUrl, uploadFailureText, uploadImage, type UploadDeps } from './upload.ts';

const image = (type = 'image/jpeg') => new Blob([new Uint8Array(16)], { type });

function deps(overrides: Partial<UploadDeps> = {}): UploadDeps & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    loggedIn: () => true,
    imageBedUrl: () => 'https://img.example.org/',
    compress: vi.fn(async () => {
      calls.push('compress');
      return { blob: image('image/webp'), width: 800, height: 600, quality: 0.8, iterations: 1, passedThrough: false };
    }),
    requestAddress: vi.fn(async (target, format, size) => {
      calls.push(`address ${target.type}/${target.id} ${format} ${size}`);
      return {
        url: 'https://bucket.example.org/comment/7/abc123.webp?X-Amz-Signature=zz',
        headers: { 'Content-Type': 'image/webp' },
        expiresAt: '2026-11-24T00:05:00.000Z',
        maxBytes: 4 * 1024 * 1024,
        key: 'comment/7/abc123.webp',
        publicUrl: 'https://img.example.org/comment/7/abc123.webp',
      };
    }),
    put: vi.fn(async () => void calls.push('put')),
    ...overrides,
  };
}

describe('uploading one image', () => {
  it('compresses, asks for an address, PUTs, and answers the public URL, reporting each state', async () => {
    const transport = deps();
    const states: string[] = [];
    const result = await uploadImage(
      image(),
      { type: 'comment', id: 7 },
      { onStatus: (s) => states.push(s) },
      transport,
    );
    expect(transport.calls).toEqual(['compress', 'address comment/7 webp 16', 'put']);
    expect(states).toEqual(['processing', 'uploading', 'done']);
    expect(result).toEqual({
      url: 'https://img.example.org/comment/7/abc123.webp',
      width: 800,
      height: 600,
      bytes: 16,
    });
  });

  it('stops before any work for visitors, no file and files that are not images (spec §5)', async () => {
    for (const [file, loggedIn, reason] of [
      [image(), false, 'upload.loginFirst'],
      [null, true, 'upload.selectImage'],
      [new Blob(['<svg/>'], { type: 'text/html' }), true, 'upload.invalidType'],
    ] as const) {
      const transport = deps({ loggedIn: () => loggedIn });
      const failure = await uploadImage(file, { type: 'comment', id: 1 }, {}, transport).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(UploadFailure);
      expect((failure as UploadFailure).reason).toBe(reason);
      expect(transport.calls).toEqual([]);
    }
  });

  it('says which step failed, in the reader language', async () => {
    const t = pageTranslator('en');
    const storage = deps({
      put: async () => {
        throw new UploadFailure('upload.reason.storage', { status: 'Forbidden' });
      },
    });
    const failure = await uploadImage(image(), { type: 'comment', id: 1 }, {}, storage).catch((e: unknown) => e);
    expect(uploadFailureText(t, failure)).toBe('upload failed: Failed to upload file to R2: Forbidden');
    expect(uploadFailureText(t, 'upload.loginFirst')).toBe('please log in first');
    expect(uploadFailureText(pageTranslator('zh-CN'), 'upload.loginFirst')).toBe('请先登录');
  });
});

describe('the public URL of an upload (spec §7)', () => {
  it('is the image bed, type/id and the last segment of the address, without its query', () => {
    const chat = { type: 'private_message/12', id: 3 };
    expect(
      publicImageUrl(
        '/media/',
        chat,
        'http://localhost:4321/api/media/upload/private_message/12/3/k9x_A-1.webp?sig=a/b',
      ),
    ).toBe('/media/private_message/12/3/k9x_A-1.webp');
    for (const bad of [
      'https://bucket.example.org/',
      'https://bucket.example.org/a/..',
      'https://bucket.example.org/x/noext',
    ])
      expect(() => publicImageUrl('/media', chat, bad)).toThrow(UploadFailure);
  });
});
