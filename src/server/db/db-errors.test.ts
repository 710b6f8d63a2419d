import { describe, expect, it } from 'vitest';
import { infrastructureFailure, isDatabaseUnavailable, isStorageFull, isUniqueViolation } from './db-errors.ts';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database errors', () => {
  it('knows a server that is away from a query it refused', () => {
    for (const error of [
      coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('08006'),
      coded('53300', 'sorry, too many clients already'),
      coded('25006', 'cannot execute INSERT in a read-only transaction'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      // Node's connection attempt to every address of a name, and an error wrapped by a caller.
      Object.assign(new AggregateError([coded('ECONNREFUSED')], 'connect failed'), {}),
      new Error('saving failed', { cause: coded('ETIMEDOUT') }),
      Object.assign(new Error('database is locked'), { errcode: 5 }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(infrastructureFailure(error)).toBe('database-unavailable');
    }
    for (const error of [coded('23505'), coded('42P01'), coded('28P01'), new Error('boom'), null, 'text', 42]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(infrastructureFailure(error)).toBeNull();
    }
  });

  it('knows a full disk on either database and under the media folder', () => {
    for (const error of [
      Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 }),
      coded('53100', 'could not extend file: No space left on device'),
      coded('ENOSPC', 'no space left on device, write'),
      coded('EDQUOT'),
    ]) {
      expect(isStorageFull(error)).toBe(true);
      expect(infrastructureFailure(error)).toBe('storage-full');
    }
    expect(isStorageFull(Object.assign(new Error('constraint'), { errcode: 19 }))).toBe(false);
  });

  it('still tells unique violations on both databases', () => {
    expect(isUniqueViolation(coded('23505'))).toBe(true);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.name'))).toBe(true);
    expect(isUniqueViolation(coded('ECONNREFUSED'))).toBe(false);
  });
});
