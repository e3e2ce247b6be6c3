import { describe, expect, it } from 'vitest';
import type { CommitBatch, DurableBackend } from './backend.js';
import { Durability } from './units.js';

/** A backend whose commits take as long as the test says: each waits for `finish()`. */
function slowBackend() {
  const batches: CommitBatch[] = [];
  const pending: (() => void)[] = [];
  const backend: DurableBackend = {
    platforms: () => [],
    forEachCollection: () => undefined,
    jobs: () => new Map(),
    commit: (batch) => {
      batches.push(batch);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    close: () => undefined,
  };
  return { backend, batches, finish: () => pending.shift()?.() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Durability over a backend that commits asynchronously', () => {
  it('answers a waiter that came while a commit was under way, once that commit is done, with nothing new to write', async () => {
    const { backend, batches, finish } = slowBackend();
    const durability = new Durability(backend);
    durability.put('Platform:a', 'customers', 1, { id: 'c1' });
    const first = durability.durable();
    await tick();
    expect(batches).toHaveLength(1);
    // Asked while the commit is under way: its changes are in it, so it waits for it (and for no later commit).
    let answered = false;
    const second = durability.durable().then(() => (answered = true));
    await tick();
    expect(answered).toBe(false);
    finish();
    await first;
    await second;
    expect(answered).toBe(true);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.partitions[0]!.records).toEqual([['customers', 1, '{"id":"c1"}', 'c1']]);
  });

  it('answers 503 to a request whose platform was dropped while it ran (taken over by another process), and stores nothing of it', async () => {
    const { backend, batches, finish } = slowBackend();
    const durability = new Durability(backend);
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const served = durability.serialize('Platform:a', async () => {
      durability.put('Platform:a', 'customers', 1, { id: 'lost' });
      await paused;
      return 'created';
    }, () => undefined);
    const other = durability.serialize('Platform:b', async () => {
      durability.put('Platform:b', 'customers', 1, { id: 'kept' });
      return 'kept';
    }, () => undefined);
    await tick();
    durability.drop(['Platform:a']);
    resume();
    await tick();
    finish();
    await expect(served).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    await expect(other).resolves.toBe('kept');
    expect(batches.flatMap((batch) => batch.partitions.map((part) => part.partition))).toEqual(['Platform:b']);
  });
});
