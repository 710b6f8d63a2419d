import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutosave, type AutosaveDeps, type SavedContent } from './content-autosave.ts';

interface Draft {
  title: string;
}

class Conflict extends Error {}

function setup(start = { id: null as number | null, version: null as number | null, published: false }) {
  const calls: { input: Draft; id: number | null; version: number | null; publish: boolean }[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  let failNext: Error | null = null;
  let version = start.version ?? 0;
  const deps: AutosaveDeps<Draft> = {
    async save(input, ref, publish) {
      calls.push({ input, ...ref, publish });
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (failNext) {
        const error = failNext;
        failNext = null;
        throw error;
      }
      version += 1;
      const saved: SavedContent = {
        id: ref.id ?? 7,
        version,
        status: publish || start.published ? 'published' : 'draft',
        url: '/community/post/7',
      };
      return saved;
    },
    describe: (error) => ({ conflict: error instanceof Conflict, message: (error as Error).message }),
    timer: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      return () => clearTimeout(handle);
    },
    now: () => Date.now(),
    isEmpty: (draft) => draft.title === '',
    delayMs: 1000,
  };
  const autosave = createAutosave(deps, start);
  return {
    autosave,
    calls,
    hold: (on: boolean) => (hold = on),
    release: () => release?.(),
    failWith: (error: Error) => (failNext = error),
  };
}

describe('content autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves a draft once, after a quiet moment, however many changes came before', async () => {
    const { autosave, calls } = setup();
    autosave.change({ title: 'a' });
    await vi.advanceTimersByTimeAsync(500);
    autosave.change({ title: 'ab' });
    await vi.advanceTimersByTimeAsync(500);
    autosave.change({ title: 'abc' });
    expect(autosave.$state.get().status).toBe('dirty');
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ input: { title: 'abc' }, id: null, version: null, publish: false }]);
    expect(autosave.$state.get()).toMatchObject({ status: 'saved', id: 7, version: 1, published: false });
  });

  it('does not make a draft of a new item with nothing in it', async () => {
    const { autosave, calls } = setup();
    autosave.change({ title: '' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(0);
  });

  it('saves changes made during a save after it, from the version it answered', async () => {
    const { autosave, calls, hold, release } = setup();
    hold(true);
    autosave.change({ title: 'a' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
    autosave.change({ title: 'ab' });
    await vi.advanceTimersByTimeAsync(3000);
    // Still one request out: never two at once.
    expect(calls).toHaveLength(1);
    hold(false);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(autosave.$state.get().status).toBe('dirty');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[1]).toEqual({ input: { title: 'ab' }, id: 7, version: 1, publish: false });
    expect(autosave.$state.get()).toMatchObject({ status: 'saved', version: 2 });
  });

  it('stops on a conflict and says so, whatever changes follow', async () => {
    const { autosave, calls, failWith } = setup({ id: 7, version: 3, published: false });
    failWith(new Conflict('changed in another window'));
    autosave.change({ title: 'x' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(autosave.$state.get()).toMatchObject({ status: 'conflict', error: 'changed in another window' });
    autosave.change({ title: 'xy' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
    expect(await autosave.publish({ title: 'xy' })).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('keeps a failed save for the next change and the save button', async () => {
    const { autosave, calls, failWith } = setup({ id: 7, version: 1, published: false });
    failWith(new Error('offline'));
    autosave.change({ title: 'x' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(autosave.$state.get()).toMatchObject({ status: 'error', error: 'offline' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    expect(await autosave.flush()).toBe(true);
    expect(calls).toHaveLength(2);
    expect(autosave.$state.get()).toMatchObject({ status: 'saved', error: null });
  });

  it('never saves a published item by itself; publishing and updating are explicit', async () => {
    const { autosave, calls } = setup({ id: 7, version: 4, published: true });
    autosave.change({ title: 'edited' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
    expect(autosave.$state.get().status).toBe('dirty');
    const saved = await autosave.publish({ title: 'edited' });
    expect(saved).toMatchObject({ id: 7, version: 5, status: 'published' });
    expect(calls).toEqual([{ input: { title: 'edited' }, id: 7, version: 4, publish: true }]);
    expect(autosave.$state.get()).toMatchObject({ status: 'saved', published: true });
  });

  it('publishes after the save that is out, from its version, and only once for a double click', async () => {
    const { autosave, calls, hold, release } = setup();
    hold(true);
    autosave.change({ title: 'draft' });
    await vi.advanceTimersByTimeAsync(1000);
    const first = autosave.publish({ title: 'final' });
    const second = autosave.publish({ title: 'final' });
    hold(false);
    release();
    const [a, b] = await Promise.all([first, second]);
    const published = calls.filter((call) => call.publish);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ id: 7, version: 1 });
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(autosave.$state.get()).toMatchObject({ published: true, publishing: false });
  });

  it('flushes what is pending at once and reports whether everything is saved', async () => {
    const { autosave, calls } = setup();
    autosave.change({ title: 'now' });
    expect(await autosave.flush()).toBe(true);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
  });
});
