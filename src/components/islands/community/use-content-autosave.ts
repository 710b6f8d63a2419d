import { useEffect, useMemo } from 'react';
import { createAutosave, type Autosave, type SavedContent } from '../../../stores/content-autosave.ts';
import { describeSaveError } from '../../../stores/content-editor.ts';

const timer = (fn: () => void, ms: number) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

/**
 * The autosave of an editor's item: `initial` is what the editor opened (null: a new item); it lives as
 * long as the editor and stops its timer when the editor goes.
 */
export function useContentAutosave<T>(
  save: (input: T, ref: { id: number | null; version: number | null }, publish: boolean) => Promise<SavedContent>,
  isEmpty: (input: T) => boolean,
  initial: { id: number; version: number; status: string } | null,
): Autosave<T> {
  const autosave = useMemo(
    () =>
      createAutosave<T>(
        { save, describe: describeSaveError, timer, now: () => Date.now(), isEmpty },
        { id: initial?.id ?? null, version: initial?.version ?? null, published: initial?.status === 'published' },
      ),
    // One autosave per opened item; `save` and `isEmpty` are module-level functions.
    [initial],
  );
  useEffect(() => () => autosave.dispose(), [autosave]);
  return autosave;
}
