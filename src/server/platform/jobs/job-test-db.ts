import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Db, DbDialect } from '../../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db.ts';

/**
 * The database of a jobs test file: created once for the file, with an empty job table before each test.
 * Read `db` and `dialect` inside tests (they exist once the file's setup ran).
 */
export function useJobDatabase(): { readonly db: Db; readonly dialect: DbDialect } {
  let t: TestDatabase | undefined;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.destroy());
  beforeEach(async () => {
    await t!.db.deleteFrom('job').execute();
  });
  return {
    get db() {
      return t!.db;
    },
    get dialect() {
      return t!.dialect;
    },
  };
}
