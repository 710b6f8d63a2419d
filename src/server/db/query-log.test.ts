import { sql, type LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-db.ts';
import { connectDatabase, queryLog, type DatabaseHandle } from './connect.ts';

interface Warned {
  fields: Record<string, unknown>;
  message: string;
}

function recorder() {
  const warned: Warned[] = [];
  return {
    warned,
    logger: {
      warn: (fields: Record<string, unknown>, message: string) => warned.push({ fields, message }),
      info: () => {},
      error: () => {},
    },
  };
}

const event = (ms: number, level: 'query' | 'error' = 'query'): LogEvent =>
  level === 'query'
    ? {
        level,
        query: { sql: 'select * from users where email = ?', parameters: ['someone@example.org'] } as never,
        queryDurationMillis: ms,
      }
    : { level, error: new Error('x'), query: { sql: 'select 1', parameters: [] } as never, queryDurationMillis: ms };

describe('slow-query log hook', () => {
  it('warns about queries slower than the threshold with the SQL text and duration, never the parameters', () => {
    const { warned, logger } = recorder();
    const log = queryLog({ logger, slowQueryMs: 20 });
    log?.(event(19.9));
    log?.(event(20));
    expect(warned).toEqual([]);
    log?.(event(20.04));
    log?.(event(120.26, 'error'));
    expect(warned).toEqual([
      { message: 'slow query', fields: { durationMs: 20, sql: 'select * from users where email = ?' } },
      { message: 'slow query', fields: { durationMs: 120.3, sql: 'select 1', failed: true } },
    ]);
    expect(JSON.stringify(warned)).not.toContain('someone@example.org');
  });

  it('is off at 0 ms or without a logger, and still reports durations to an observer', () => {
    expect(queryLog({ logger: recorder().logger, slowQueryMs: 0 })).toBeUndefined();
    expect(queryLog({ slowQueryMs: 20 })).toBeUndefined();
    const seen: number[] = [];
    const log = queryLog({ slowQueryMs: 0, onQuery: (q) => seen.push(q.durationMs) });
    log?.(event(3));
    expect(seen).toEqual([3]);
  });
});

describe('slow-query log on the database', () => {
  let t: TestDatabase;
  let handle: DatabaseHandle;
  const { warned, logger } = recorder();
  beforeAll(async () => {
    t = await createTestDatabase();
    handle = connectDatabase(t.target, { logger, slowQueryMs: 5, poolSize: 1 });
  });
  afterAll(async () => {
    await handle.close();
    await t.destroy();
  });

  it('logs a query that takes longer than SLOW_QUERY_MS, and not a quick one', async () => {
    await sql`select ${'quick@example.org'} as v`.execute(handle.db);
    expect(warned).toEqual([]);
    // A few hundred thousand rows of a recursive count take well over 5 ms on either database.
    const slow = await sql<{ n: number }>`
      with recursive c(x) as (select 1 union all select x + 1 from c where x < ${300_000})
      select count(*) as n from c where ${'secret@example.org'} <> ''`.execute(handle.db);
    expect(Number(slow.rows[0]?.n)).toBe(300_000);
    expect(warned).toHaveLength(1);
    const [entry] = warned;
    expect(entry?.message).toBe('slow query');
    expect(entry?.fields.durationMs).toBeGreaterThan(5);
    expect(entry?.fields.sql).toMatch(/with recursive c\(x\)/);
    expect(JSON.stringify(warned)).not.toMatch(/secret@example\.org|300000/);
  });
});
