import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

export interface MigrationState {
  applied: number;
  pending: number;
  latest: string | null;
}

function createMigrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migration',
    migrationLockTableName: 'schema_migration_lock',
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/** Applies every pending migration; returns the names applied. Safe to run from several processes. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return unwrap(await createMigrator(db).migrateToLatest());
}

/** Applies (or reverts) migrations up to and including `name`: a database as it was at that migration. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return unwrap(await createMigrator(db).migrateTo(name));
}

/** Reverts migrations one at a time, newest first, `steps` times (all when omitted). */
export async function migrateDown(db: Db, steps = Number.POSITIVE_INFINITY): Promise<string[]> {
  const migrator = createMigrator(db);
  const reverted: string[] = [];
  for (let i = 0; i < steps; i++) {
    const names = unwrap(await migrator.migrateDown());
    if (names.length === 0) break;
    reverted.push(...names);
  }
  return reverted;
}

export async function migrationState(db: Db): Promise<MigrationState> {
  const all = await createMigrator(db).getMigrations();
  const applied = all.filter((m) => m.executedAt !== undefined);
  return {
    applied: applied.length,
    pending: all.length - applied.length,
    latest: applied.at(-1)?.name ?? null,
  };
}
