import { readVersion } from '../../src/server/app-context.ts';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiResponse, HealthData } from '../../src/shared/api.ts';
import { WRITE_PROBE_INTERVAL_MS } from '../../src/server/modules/health/health.service.ts';
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
    expect(body.data.failing).toEqual([]);
    expect(body.data.checks.databaseWrite.ok).toBe(true);
    expect(body.data.version).toBe(readVersion());
    expect(body.data.database.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    expect(body.data.database.migrations?.pending).toBe(0);
    expect(body.data.database.migrations?.applied).toBeGreaterThan(0);
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

/** Makes every write of the health probe fail, as a full disk would, on either database. */
async function refuseProbeWrites(app: TestApp, refuse: boolean) {
  const db = app.ctx.db;
  if (app.ctx.dialect === 'sqlite') {
    if (!refuse) {
      await sql`drop trigger health_probe_insert`.execute(db);
      await sql`drop trigger health_probe_update`.execute(db);
      return;
    }
    for (const [name, event] of [
      ['health_probe_insert', 'insert'],
      ['health_probe_update', 'update'],
    ] as const) {
      await sql
        .raw(
          `create trigger ${name} before ${event} on system_state when new.key = 'health.write_probe' ` +
            `begin select raise(abort, 'database or disk is full'); end`,
        )
        .execute(db);
    }
    return;
  }
  if (!refuse) {
    await sql`drop trigger health_probe_refuse on system_state`.execute(db);
    return;
  }
  await sql`create or replace function health_probe_refuse() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device'; end $$`.execute(db);
  await sql`create trigger health_probe_refuse before insert or update on system_state
    for each row when (new.key = 'health.write_probe') execute function health_probe_refuse()`.execute(db);
}

describe('GET /api/health when the database cannot write', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());
  afterEach(() => vi.useRealTimers());

  it('reports degraded with 503 and the failed check, and recovers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    expect((await app.request('/api/health')).status).toBe(200);

    await refuseProbeWrites(app, true);
    // Within the interval the last probe's answer stands: one write per interval at most.
    expect((await app.request('/api/health')).status).toBe(200);

    vi.setSystemTime(new Date(Date.now() + WRITE_PROBE_INTERVAL_MS + 1));
    const res = await app.request('/api/health');
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { success: boolean; code: string; data: HealthData };
    expect(body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(body.data.status).toBe('degraded');
    expect(body.data.failing).toEqual(['databaseWrite']);
    expect(body.data.checks.databaseWrite.ok).toBe(false);
    expect(body.data.checks.database.ok).toBe(true);
    expect(body.data.database.migrations?.pending).toBe(0);

    await refuseProbeWrites(app, false);
    vi.setSystemTime(new Date(Date.now() + WRITE_PROBE_INTERVAL_MS + 1));
    const healed = (await (await app.request('/api/health')).json()) as ApiResponse<HealthData>;
    expect(healed).toMatchObject({ success: true, data: { status: 'ok', failing: [] } });
  });
});
