import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo } from '../../src/server/db/migrator.ts';
import { createUser } from '../../src/server/modules/users/users.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-db.ts';

const NAME = '20261206-0002-update-request-summary';
const at = '2026-11-01T00:00:00.000Z';

// Requests written before their title and changed fields had columns get them from their documents.
describe(`migration ${NAME}`, () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await migrateTo(t.db, '20261206-0001-revision-downloads');
  });
  afterAll(async () => t.destroy());

  it('fills in the title and the changed fields of the requests there are', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables before this migration
    const db = t.db as any;
    const user = await createUser(t.db, { name: 'summary_member', email: 'summary@example.test', passwordHash: 'x' });
    const row = (id: number, item_type: string, doc: unknown, changes: unknown) => ({
      id,
      item_type,
      item_id: null,
      doc: typeof doc === 'string' ? doc : JSON.stringify(doc),
      changes: typeof changes === 'string' ? changes : JSON.stringify(changes),
      user_id: user.id,
      created_at: at,
      updated_at: at,
    });
    await db
      .insertInto('update_request')
      .values([
        row(1, 'galgame', { title: 'Original', titleZh: '中文名' }, [
          { field: 'titleZh', before: '', after: '中文名' },
        ]),
        row(2, 'person', { name: 'Someone', nameZh: '' }, [{ field: 'name' }, { field: 'aliases' }]),
        row(3, 'volume', { title: '', titleZh: '', number: 4 }, []),
        row(4, 'tag', 'not json', 'not json either'),
      ])
      .execute();
    await migrateTo(t.db, NAME);
    const rows = await t.db.selectFrom('update_request').select(['id', 'title', 'fields']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 1, title: '中文名', fields: '["titleZh"]' },
      { id: 2, title: 'Someone', fields: '["name","aliases"]' },
      { id: 3, title: '#4', fields: '[]' },
      { id: 4, title: '', fields: '[]' },
    ]);
  });
});
