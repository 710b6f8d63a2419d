import { atom, type ReadableAtom } from 'nanostores';
import type { ContentStatus } from '../shared/community/community-model.ts';

/**
 * Saving what an editor holds (a post or an article): drafts save themselves a few seconds after the
 * last change; publishing and updating a published item are explicit. One save at a time: a change made
 * while a save is out is saved after it, from the version that save answered, so the server sees the
 * saves in order and two tabs editing one draft meet a 409 instead of overwriting each other.
 */

/** Seconds of quiet after a change before a draft saves itself. */
export const AUTOSAVE_DELAY_MS = 3000;

export interface SavedContent {
  id: number;
  version: number;
  status: ContentStatus;
  /** Where the item is read once published. */
  url: string;
}

export type AutosaveStatus = 'clean' | 'dirty' | 'saving' | 'saved' | 'error' | 'conflict';

export interface AutosaveState {
  status: AutosaveStatus;
  /** The item once it exists on the server. */
  id: number | null;
  version: number | null;
  published: boolean;
  /** When the last save landed (ms). */
  savedAt: number | null;
  /** What went wrong with the last save, for the page to show. */
  error: string | null;
  /** True while publishing or updating. */
  publishing: boolean;
}

export interface SaveFailure {
  /** 409 CONTENT_CONFLICT: changed elsewhere since this editor loaded it. */
  conflict: boolean;
  message: string;
}

export interface AutosaveDeps<T> {
  /** Creates (id null) or updates the item; throws what `describe` understands. */
  save: (input: T, ref: { id: number | null; version: number | null }, publish: boolean) => Promise<SavedContent>;
  describe: (error: unknown) => SaveFailure;
  /** Calls `fn` after `ms`; returns a cancel function. */
  timer: (fn: () => void, ms: number) => () => void;
  now: () => number;
  /** A new item with nothing in it is not worth a draft. */
  isEmpty: (input: T) => boolean;
  delayMs?: number;
}

export interface Autosave<T> {
  $state: ReadableAtom<AutosaveState>;
  /** The editor changed: a draft saves itself after a quiet moment. */
  change: (input: T) => void;
  /** Saves a draft now (the "save draft" button, leaving the page); true when nothing is left unsaved. */
  flush: () => Promise<boolean>;
  /** Publishes (a draft or a new item) or updates a published one; the saved item, or null on failure. */
  publish: (input: T) => Promise<SavedContent | null>;
  /** Stops the timer (the island unmounts). */
  dispose: () => void;
}

export function createAutosave<T>(
  deps: AutosaveDeps<T>,
  start: { id: number | null; version: number | null; published: boolean },
): Autosave<T> {
  const delay = deps.delayMs ?? AUTOSAVE_DELAY_MS;
  const $state = atom<AutosaveState>({
    status: 'clean',
    id: start.id,
    version: start.version,
    published: start.published,
    savedAt: null,
    error: null,
    publishing: false,
  });
  const set = (patch: Partial<AutosaveState>) => $state.set({ ...$state.get(), ...patch });

  let latest: T | null = null;
  /** Bumped by every change: a save knows whether what it sent is still the latest. */
  let edits = 0;
  let savedEdits = 0;
  let cancelTimer: (() => void) | null = null;
  let inFlight: Promise<void> | null = null;

  const unsaved = () => latest !== null && edits !== savedEdits;

  const land = (saved: SavedContent, sent: number) => {
    savedEdits = Math.max(savedEdits, sent);
    set({
      id: saved.id,
      version: saved.version,
      published: saved.status === 'published',
      savedAt: deps.now(),
      error: null,
      status: edits === savedEdits ? 'saved' : 'dirty',
    });
  };
  const fail = (error: unknown) => {
    const failure = deps.describe(error);
    set({ status: failure.conflict ? 'conflict' : 'error', error: failure.message });
    return failure;
  };

  /** One draft save of the latest input (never for a published item, which saves only on request). */
  function saveDraft(): Promise<void> {
    if (inFlight) return inFlight;
    const state = $state.get();
    if (!unsaved() || state.published || state.status === 'conflict' || latest === null) return Promise.resolve();
    if (state.id === null && deps.isEmpty(latest)) return Promise.resolve();
    const sent = edits;
    const input = latest;
    set({ status: 'saving' });
    inFlight = deps
      .save(input, { id: state.id, version: state.version }, false)
      .then(
        (saved) => land(saved, sent),
        (error: unknown) => void fail(error),
      )
      .finally(() => {
        inFlight = null;
        // Changes made while it was out: save them next (not after a failure, which waits for a change).
        if (unsaved() && $state.get().status === 'dirty') schedule();
      });
    return inFlight;
  }

  function schedule() {
    cancelTimer?.();
    cancelTimer = deps.timer(() => {
      cancelTimer = null;
      void saveDraft();
    }, delay);
  }

  return {
    $state,
    change(input) {
      latest = input;
      edits += 1;
      const state = $state.get();
      if (state.status === 'conflict') return;
      if (state.status !== 'saving') set({ status: 'dirty' });
      if (!state.published) schedule();
    },
    async flush() {
      cancelTimer?.();
      cancelTimer = null;
      // A save already out may have missed the last changes: wait for it, then save again.
      if (inFlight) await inFlight;
      await saveDraft();
      return !unsaved();
    },
    async publish(input) {
      cancelTimer?.();
      cancelTimer = null;
      latest = input;
      edits += 1;
      const sent = edits;
      if (inFlight) await inFlight;
      const state = $state.get();
      if (state.status === 'conflict' || state.publishing) return null;
      set({ publishing: true, status: 'saving' });
      try {
        const saved = await deps.save(input, { id: state.id, version: state.version }, true);
        land(saved, sent);
        return saved;
      } catch (error) {
        fail(error);
        return null;
      } finally {
        set({ publishing: false });
      }
    },
    dispose() {
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}
