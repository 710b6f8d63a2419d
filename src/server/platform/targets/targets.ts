import { sql } from 'kysely';
import type { UserGroup } from '../../../shared/auth-model.ts';
import type { TargetRef, TargetSummary, TargetType } from '../../../shared/targets.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../errors.ts';

/** Who is asking: visibility of drafts, hidden and removed items depends on it. */
export type TargetViewer = { id: string; group: UserGroup } | null;

/** What the registry knows about one item the viewer may see. */
export interface TargetInfo extends TargetSummary {
  /** The account that owns it (author, uploader), or null when nobody does (catalogue entries). */
  ownerId: string | null;
}

/** Counters an item keeps about what points at it. */
export type TargetCounter = 'favorite' | 'comment' | 'like';

/** A counter kept in a column of the item's own table. */
export interface CounterColumn {
  table: string;
  idColumn: string;
  column: string;
}

/** One target type, registered by the module that owns the items. */
export interface TargetDefinition {
  type: TargetType;
  /**
   * The items among `ids` that exist and that `viewer` may see (others are left out). `registry` is for
   * items that point at other targets (a comment is visible where its target is).
   */
  find: (
    db: Db,
    ids: readonly number[],
    viewer: TargetViewer,
    registry: TargetRegistry,
  ) => Promise<Map<number, TargetInfo>>;
  /** The counters it keeps; a type without a counter cannot be favourited, liked or commented. */
  counters?: Partial<Record<TargetCounter, CounterColumn>>;
}

/** Every registered target type, and what can be done with their items. */
export interface TargetRegistry {
  types: () => TargetType[];
  has: (type: TargetType) => boolean;
  /** The items of one type the viewer may see. An unregistered type has none. */
  find: (db: Db, type: TargetType, ids: readonly number[], viewer: TargetViewer) => Promise<Map<number, TargetInfo>>;
  /** One item the viewer may see, or 404 NOT_FOUND (unknown type, missing, or hidden from the viewer). */
  require: (db: Db, ref: TargetRef, viewer: TargetViewer) => Promise<TargetInfo>;
  /** Whether the type keeps `counter` (so the action that moves it is allowed). */
  keeps: (type: TargetType, counter: TargetCounter) => boolean;
  /** Adds `delta` to a counter (never below 0); no-op for types that do not keep it. Use inside the write's transaction. */
  adjust: (db: Db, ref: TargetRef, counter: TargetCounter, delta: number) => Promise<void>;
  /** A counter's value, 0 for types that do not keep it or items that do not exist. */
  read: (db: Db, ref: TargetRef, counter: TargetCounter) => Promise<number>;
  /** The column of a counter, for recounts done by the module that owns what is counted. */
  counterColumn: (type: TargetType, counter: TargetCounter) => CounterColumn | null;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

export function createTargetRegistry(definitions: readonly TargetDefinition[]): TargetRegistry {
  const byType = new Map<TargetType, TargetDefinition>();
  for (const definition of definitions) {
    if (byType.has(definition.type)) throw new Error(`Target type "${definition.type}" is registered twice.`);
    for (const spec of Object.values(definition.counters ?? {})) {
      // Names go into SQL as identifiers: only plain lower-case names are accepted.
      if (![spec.table, spec.idColumn, spec.column].every((name) => IDENT.test(name))) {
        throw new Error(`Counter of target type "${definition.type}" names an invalid table or column.`);
      }
    }
    byType.set(definition.type, definition);
  }
  const counterColumn = (type: TargetType, counter: TargetCounter) => byType.get(type)?.counters?.[counter] ?? null;
  const find: TargetRegistry['find'] = async (db, type, ids, viewer) => {
    const definition = byType.get(type);
    if (!definition || ids.length === 0) return new Map();
    return definition.find(db, [...new Set(ids)], viewer, registry);
  };

  const registry: TargetRegistry = {
    types: () => [...byType.keys()],
    has: (type) => byType.has(type),
    find,
    async require(db, ref, viewer) {
      const found = (await find(db, ref.type, [ref.id], viewer)).get(ref.id);
      if (!found) throw new HttpError(404, 'NOT_FOUND', 'server.targetNotFound');
      return found;
    },
    keeps: (type, counter) => counterColumn(type, counter) !== null,
    async adjust(db, ref, counter, delta) {
      const spec = counterColumn(ref.type, counter);
      if (!spec || delta === 0) return;
      const column = sql.ref(spec.column);
      await sql`update ${sql.table(spec.table)} set ${column} = case when ${column} + ${delta} < 0 then 0 else ${column} + ${delta} end where ${sql.ref(spec.idColumn)} = ${ref.id}`.execute(
        db,
      );
    },
    async read(db, ref, counter) {
      const spec = counterColumn(ref.type, counter);
      if (!spec) return 0;
      const { rows } = await sql<{
        n: number | string;
      }>`select ${sql.ref(spec.column)} as n from ${sql.table(spec.table)} where ${sql.ref(spec.idColumn)} = ${ref.id}`.execute(
        db,
      );
      return Number(rows[0]?.n ?? 0);
    },
    counterColumn,
  };
  return registry;
}
