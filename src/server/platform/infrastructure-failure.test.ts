import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.ts';
import { createFailureLog, infrastructureError } from './infrastructure-failure.ts';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const full = Object.assign(new Error('database or disk is full'), { errcode: 13 });

describe('infrastructure failures', () => {
  it('answer 503 DATABASE_UNAVAILABLE or 507 STORAGE_FULL with a wait, and nothing for other errors', () => {
    expect(infrastructureError(refused)).toMatchObject({
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      message: 'server.databaseUnavailable',
      details: { retryAfter: 5 },
    });
    expect(infrastructureError(full)).toMatchObject({ status: 507, code: 'STORAGE_FULL', details: { retryAfter: 60 } });
    expect(infrastructureError(new Error('boom'))).toBeNull();
    // An error already meant for people keeps its own answer.
    expect(infrastructureError(new HttpError(409, 'CONFLICT', 'server.forbidden'))).toBeNull();
  });

  it('are logged with their cause once a minute, counting the ones in between', () => {
    let now = 1_000_000;
    const lines: [Record<string, unknown>, string][] = [];
    const logger = {
      error: (fields: object, message: string) => lines.push([fields as Record<string, unknown>, message]),
    };
    const log = createFailureLog(() => now);
    expect(log(logger, refused, { path: '/api/a' })).toBe(true);
    for (let i = 0; i < 50; i++) log(logger, refused);
    expect(log(logger, full)).toBe(true);
    expect(log(logger, new Error('boom'))).toBe(false);
    expect(lines.map(([, message]) => message)).toEqual([
      'the database cannot be reached; answering 503',
      'the disk is full; writes answer 507 until space is freed',
    ]);
    expect(lines[0]![0]).toMatchObject({ err: refused, path: '/api/a' });
    now += 60_000;
    log(logger, refused);
    expect(lines[2]![0]).toMatchObject({ moreSinceLastLine: 50 });
  });
});
