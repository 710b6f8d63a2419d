import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, HealthData } from '../../src/shared/api.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('GET /api/health', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('reports version, database dialect and migration state', async () => {
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as ApiResponse<HealthData>;
    expect(body.success).toBe(true);
    if (!body.success) return;
    expect(body.code).toBe('OK');
    expect(body.data.status).toBe('ok');
    expect(body.data.version).toBe('0.0.0-test');
    expect(body.data.database.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    expect(body.data.database.migrations.pending).toBe(0);
    expect(body.data.database.migrations.applied).toBeGreaterThan(0);
  });

  it('answers unknown API paths with a 404 in the standard envelope', async () => {
    const res = await app.request('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, code: 'NOT_FOUND', data: null });
  });

  it('refuses bodies over 1 MB with 413', async () => {
    const res = await app.request('/api/health', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});
