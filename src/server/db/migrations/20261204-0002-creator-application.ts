import type { Kysely } from 'kysely';

// The creator centre: creator applications.

// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars -- migrations run against past schemas
export async function up(db: Kysely<any>): Promise<void> {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars -- migrations run against past schemas
export async function down(db: Kysely<any>): Promise<void> {}
