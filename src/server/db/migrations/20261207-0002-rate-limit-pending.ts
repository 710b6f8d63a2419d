import type { Kysely } from 'kysely';

// A login's failure slot is taken before its password is checked. Counted attempts whose answer is not
// known yet are kept apart from the failures they may become, so an attempt that finds a budget full of
// attempts still in flight waits for them instead of being refused (a class logging in together).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('rate_limit')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limit').dropColumn('pending').execute();
}
