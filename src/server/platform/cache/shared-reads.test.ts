import { describe, expect, it } from 'vitest';
import { createSharedReads } from './shared-reads.ts';

/** A load that resolves when the test says so, counting its calls. */
function controlled<T>() {
  let calls = 0;
  const pending: ((value: T) => void)[] = [];
  const load = () => {
    calls++;
    return new Promise<T>((resolve) => pending.push(resolve));
  };
  return {
    load,
    calls: () => calls,
    finish: (value: T) => pending.shift()?.(value),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('shared reads', () => {
  it('loads a key once for concurrent requests and serves it until it expires', async () => {
    let now = 1_000;
    const reads = createSharedReads({ ttlMs: 5_000, now: () => now });
    const game = controlled<{ id: number; title: string }>();
    const first = reads.get('galgame:1', game.load, () => ['galgame:1']);
    const second = reads.get('galgame:1', game.load, () => ['galgame:1']);
    game.finish({ id: 1, title: 'Hikari' });
    expect(await first).toEqual({ id: 1, title: 'Hikari' });
    expect(await second).toBe(await first);
    expect(game.calls()).toBe(1);

    now += 4_999;
    await reads.get('galgame:1', game.load, () => ['galgame:1']);
    expect(game.calls()).toBe(1);

    now += 1;
    const again = reads.get('galgame:1', game.load, () => ['galgame:1']);
    game.finish({ id: 1, title: 'Hikari 2' });
    expect((await again).title).toBe('Hikari 2');
    expect(game.calls()).toBe(2);
  });

  it('drops the values showing changed data, and only those', async () => {
    const reads = createSharedReads();
    let version = 0;
    const load = (id: number) => () => Promise.resolve({ id, version: ++version });
    const tags = (id: number) => () => [`galgame:${id}`, 'galgames'];
    await reads.get('a', load(1), tags(1));
    await reads.get('b', load(2), tags(2));
    reads.invalidate(['galgame:1']);
    expect((await reads.get('a', load(1), tags(1))).version).toBe(3);
    expect((await reads.get('b', load(2), tags(2))).version).toBe(2);

    reads.invalidate(['galgames']);
    expect(reads.stats().entries).toBe(0);
    await reads.get('a', load(1), tags(1));
    reads.invalidate(['*']);
    expect(reads.stats().entries).toBe(0);
  });

  it('does not keep a load that was running when its data changed, nor hand it to later requests', async () => {
    const reads = createSharedReads();
    const game = controlled<{ title: string }>();
    const before = reads.get('galgame:1', game.load, () => ['galgame:1']);
    await tick();
    reads.invalidate(['galgame:1']);
    // A request after the change does not wait for the old load: it starts its own.
    const after = reads.get('galgame:1', game.load, () => ['galgame:1']);
    expect(game.calls()).toBe(2);
    game.finish({ title: 'old' });
    game.finish({ title: 'new' });
    expect((await before).title).toBe('old');
    expect((await after).title).toBe('new');
    expect((await reads.get('galgame:1', game.load, () => ['galgame:1'])).title).toBe('new');
    expect(game.calls()).toBe(2);
  });

  it('keeps a running load whose data did not change', async () => {
    const reads = createSharedReads();
    const game = controlled<{ title: string }>();
    const running = reads.get('galgame:1', game.load, () => ['galgame:1']);
    await tick();
    reads.invalidate(['galgame:2']);
    game.finish({ title: 'kept' });
    await running;
    expect(reads.stats().entries).toBe(1);
  });

  it('does not keep failures, and every waiting request sees the failure', async () => {
    const reads = createSharedReads();
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('database gone'));
    };
    const results = await Promise.allSettled([reads.get('x', failing, () => []), reads.get('x', failing, () => [])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    expect(reads.stats().entries).toBe(0);
    const thrown = () => {
      throw new Error('synchronous');
    };
    await expect(reads.get('y', thrown, () => [])).rejects.toThrow('synchronous');
    expect(
      await reads.get(
        'y',
        () => Promise.resolve(7),
        () => [],
      ),
    ).toBe(7);
  });

  it('freezes shared values so no request can change them for the others', async () => {
    const reads = createSharedReads();
    const value = await reads.get(
      'list',
      () => Promise.resolve({ items: [{ id: 1, tags: ['a'] }] }),
      () => [],
    );
    expect(() => value.items.push({ id: 2, tags: [] })).toThrow(TypeError);
    expect(() => {
      value.items[0]!.tags[0] = 'b';
    }).toThrow(TypeError);
  });

  it('keeps at most maxEntries values, dropping the least recently used', async () => {
    const reads = createSharedReads({ maxEntries: 2 });
    let loads = 0;
    const load = (v: number) => () => Promise.resolve((loads++, v));
    await reads.get('a', load(1), () => []);
    await reads.get('b', load(2), () => []);
    await reads.get('a', load(1), () => []);
    await reads.get('c', load(3), () => []);
    expect(reads.stats().entries).toBe(2);
    await reads.get('a', load(1), () => []);
    expect(loads).toBe(3);
    await reads.get('b', load(2), () => []);
    expect(loads).toBe(4);
  });
});
