import { canonicalJson, diffDocs, type EditDocs, type FieldChange } from '../../../shared/creator/docs.ts';
import type { EditType } from '../../../shared/creator/creator-model.ts';

/** A field both the edit and the item (since the edit's base) changed, to different values. */
export interface FieldConflict {
  field: string;
  base: unknown;
  current: unknown;
  proposed: unknown;
}

export interface MergeResult<T extends EditType> {
  /** The current document with the edit's own changes laid over it, field by field. */
  doc: EditDocs[T];
  /** What applying `doc` changes against the current document. */
  changes: FieldChange[];
  /** Fields changed both since the base and by the edit, to different values (empty: no conflict). */
  conflicts: FieldConflict[];
}

/**
 * Merges an edit made against `base` onto the item as it is now (`current`). The edit's changed fields
 * win only where the item did not change them meanwhile, or changed them to the same value; a field
 * both changed differently is a conflict, taken over only when `overwrite` names exactly the
 * conflicting fields (the answer the editor saw). Fields changed only since the base are kept.
 */
export function mergeEdit<T extends EditType>(
  type: T,
  base: EditDocs[T],
  current: EditDocs[T],
  proposed: EditDocs[T],
  overwrite: readonly string[] = [],
): MergeResult<T> {
  const mine = diffDocs(type, base, proposed);
  const theirs = new Set(diffDocs(type, base, current).map((change) => change.field));
  const now = current as Record<string, unknown>;
  const conflicts: FieldConflict[] = mine
    .filter((change) => theirs.has(change.field) && canonicalJson(now[change.field]) !== canonicalJson(change.after))
    .map((change) => ({
      field: change.field,
      base: change.before,
      current: now[change.field] ?? null,
      proposed: change.after,
    }));
  const accepted = conflicts.length > 0 && sameFields(conflicts, overwrite);
  const merged: Record<string, unknown> = { ...now };
  for (const change of mine) {
    if (conflicts.some((c) => c.field === change.field) && !accepted) continue;
    merged[change.field] = change.after;
  }
  const doc = merged as EditDocs[T];
  return { doc, changes: diffDocs(type, current, doc), conflicts: accepted ? [] : conflicts };
}

function sameFields(conflicts: readonly FieldConflict[], overwrite: readonly string[]): boolean {
  const named = new Set(overwrite);
  return named.size === conflicts.length && conflicts.every((c) => named.has(c.field));
}
