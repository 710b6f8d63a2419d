import type { Db } from '../../db/database.ts';
import type { TargetDefinition } from '../../platform/targets/targets.ts';

/** Users are pointed at by their public numeric userId; their page is their space. */
export const userTarget: TargetDefinition = {
  type: 'user',
  async find(db: Db, ids: readonly number[]) {
    const rows = await db.selectFrom('users').select(['id', 'user_id', 'name']).where('user_id', 'in', ids).execute();
    return new Map(
      rows.map((row) => [
        row.user_id,
        { type: 'user', id: row.user_id, title: row.name, url: `/space/${row.user_id}`, ownerId: row.id },
      ]),
    );
  },
};
