import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHARDS, SPLIT_AT, ShardedMap, shardOf } from './sharded-map.js';

type Key = string | number | bigint | boolean | undefined | null | { readonly label: string };

/** Replays `operations` on a ShardedMap and on a Map, comparing every answer and every key at the end. */
function replay(operations: readonly (readonly ['set' | 'delete' | 'get', Key, number])[], keys: readonly Key[], splitAt = SPLIT_AT) {
  const sharded = new ShardedMap<Key, number>(splitAt);
  const plain = new Map<Key, number>();
  let largest = 0;
  for (const [operation, key, value] of operations) {
    if (operation === 'set') {
      expect(sharded.set(key, value)).toBe(sharded);
      plain.set(key, value);
    } else if (operation === 'delete') {
      expect(sharded.delete(key)).toBe(plain.delete(key));
    } else {
      expect(sharded.get(key)).toBe(plain.get(key));
    }
    expect(sharded.size).toBe(plain.size);
    largest = Math.max(largest, plain.size);
  }
  expect(sharded.spread).toBe(largest > splitAt);
  for (const key of keys) {
    expect(sharded.has(key)).toBe(plain.has(key));
    expect(sharded.get(key)).toBe(plain.get(key));
  }
  return sharded;
}

describe('ShardedMap', () => {
  const object = { label: 'object key' };
  const oddKeys: Key[] = ['', 'é', '😀', 0, -0, -7, 2 ** 40, 1.5, Number.NaN, 10n, true, false, undefined, null, object];

  it('answers as a Map does, below the split and across it, for keys of every type', () => {
    const ids = Array.from({ length: SPLIT_AT + SPLIT_AT / 2 }, (_, i) => `Customer:${(0x19000000000 + i * 7919).toString(16)}`);
    const operations: ['set' | 'delete' | 'get', Key, number][] = [];
    for (const [i, key] of oddKeys.entries()) operations.push(['set', key, i]);
    for (const [i, id] of ids.entries()) {
      operations.push(['set', id, i]);
      if (i % 3 === 0) operations.push(['set', id, -i]); // a second set of a key keeps the size
      if (i % 7 === 0) operations.push(['delete', ids[i >> 1]!, 0]);
      if (i % 11 === 0) operations.push(['delete', `missing-${i}`, 0]);
      if (i % 5 === 0) operations.push(['get', ids[i >> 2]!, 0]);
    }
    for (const key of oddKeys) operations.push(['get', key, 0], ['delete', key, 0], ['get', key, 0], ['set', key, 1]);
    const sharded = replay(operations, [...oddKeys, ...ids, 'never set', 12345]);
    expect(sharded.size).toBeGreaterThan(SPLIT_AT);
    expect(sharded.get(object)).toBe(1);
    expect(sharded.get({ label: 'object key' })).toBeUndefined(); // objects by identity, as a Map
    expect(sharded.get(Number.NaN)).toBe(1); // SameValueZero, as a Map
    expect(sharded.get(0)).toBe(sharded.get(-0));
  });

  it('matches a Map through random operations on a key set small enough to repeat, split at 4 entries', () => {
    const key = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: -50, max: 50 }),
      fc.constantFrom<Key>(0.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 7n, true, undefined, null),
    );
    const operation = fc.tuple(fc.constantFrom('set', 'delete', 'get'), key, fc.integer());
    fc.assert(fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
      replay(operations as ['set' | 'delete' | 'get', Key, number][], operations.map(([, k]) => k), 4);
    }), { numRuns: 200 });
  });

  it('starts again from one map after clear, and splits again when it grows', () => {
    const map = new ShardedMap<string, number>();
    for (let i = 0; i <= SPLIT_AT; i++) map.set(`k${i}`, i);
    expect(map.spread).toBe(true);
    map.clear();
    expect([map.size, map.spread]).toEqual([0, false]);
    expect(map.get('k1')).toBeUndefined();
    for (let i = 0; i <= SPLIT_AT + 1; i++) map.set(`again${i}`, i);
    expect(map.size).toBe(SPLIT_AT + 2);
    expect(map.get(`again${SPLIT_AT}`)).toBe(SPLIT_AT);
    expect(map.get('k1')).toBeUndefined();
  });
});

describe('shardOf', () => {
  /** The fullest shard over the average, for `keys`. */
  const skew = (keys: readonly unknown[]) => {
    const counts = new Array<number>(SHARDS).fill(0);
    for (const key of keys) counts[shardOf(key)]!++;
    return Math.max(...counts) / (keys.length / SHARDS);
  };

  it('spreads ids and user-chosen keys that differ anywhere (the fullest shard within 1.5× of the average)', () => {
    const n = 100_000;
    expect(skew(Array.from({ length: n }, (_, i) => `user-${i}`))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => `${i}-tenant`))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => `Transaction:019a${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}`))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => `person${i}@example.com`))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => i))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => -i))).toBeLessThan(1.5);
  });

  it('spreads numbers by all their bits: steps of 100 and 256, timestamps a second apart, fractions, bigints', () => {
    const n = 100_000;
    expect(skew(Array.from({ length: n }, (_, i) => i * 100))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => i * 256))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => 1_790_000_000_000 + i * 1000))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => i / 7))).toBeLessThan(1.5);
    expect(skew(Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_000n))).toBeLessThan(1.5);
  });

  it('puts keys a Map takes as one key in one shard: 0 and -0, every NaN', () => {
    expect(shardOf(-0)).toBe(shardOf(0));
    const otherNaN = new Float64Array(new Uint32Array([1, 0x7ff80000]).buffer)[0]!;
    expect(shardOf(otherNaN)).toBe(shardOf(Number.NaN));
  });

  it('names a shard in range for every key', () => {
    for (const key of ['', 'a', '😀', 0, -1, 2 ** 53, -(2 ** 53), 0.5, Number.NaN, Infinity, true, undefined, null, {}, Symbol('s'), 10n]) {
      const shard = shardOf(key);
      expect(Number.isInteger(shard) && shard >= 0 && shard < SHARDS).toBe(true);
    }
  });
});
