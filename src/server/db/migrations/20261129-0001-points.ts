import { sql, type Kysely } from 'kysely';

// The HikariPoint ledger and daily check-in (issue 15, decision 025).
//
// `point_ledger` holds one row per change of a member's balance, never updated or deleted while the
// account exists: (user_id, seq) is the key, and `users.point_seq` is the number of the member's last
// row, raised in the same UPDATE that moves `users.hikari_point`, so the rows of one member are numbered
// without gaps in the order their changes committed and two writers can never take the same number.
// `balance_after` is the balance that UPDATE returned. Balances that existed before the ledger get an
// 'opening' row, so the sum of a member's rows equals their balance from the start.
//
// `check_in` is one row per member and site day (Asia/Shanghai): the key (user_id, date) is what makes a
// second check-in of the same day impossible, whatever runs at the same time. `users.check_in_streak_end`
// is the last day of the run `users.check_in_streak` counts.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('point_ledger')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_ledger_pk', ['user_id', 'seq'])
    .addCheckConstraint('point_ledger_amount_nonzero', sql`amount <> 0`)
    .addCheckConstraint('point_ledger_balance_nonnegative', sql`balance_after >= 0`)
    .execute();
  await db.schema
    .createTable('check_in')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('is_make_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('check_in_pk', ['user_id', 'date'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('point_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('check_in_streak_end', 'text').execute();

  const now = new Date().toISOString();
  await db
    .insertInto('point_ledger')
    .columns(['user_id', 'seq', 'amount', 'reason', 'reference', 'balance_after', 'created_at'])
    .expression(
      db
        .selectFrom('users')
        .select([
          'id',
          sql.lit(1).as('seq'),
          'hikari_point',
          sql.lit('opening').as('reason'),
          sql<null>`null`.as('reference'),
          'hikari_point as balance',
          sql.lit(now).as('created_at'),
        ])
        .where('hikari_point', '<>', 0),
    )
    .execute();
  await db.updateTable('users').set({ point_seq: 1 }).where('hikari_point', '<>', 0).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('check_in_streak_end').execute();
  await db.schema.alterTable('users').dropColumn('point_seq').execute();
  await db.schema.dropTable('check_in').execute();
  await db.schema.dropTable('point_ledger').execute();
}
