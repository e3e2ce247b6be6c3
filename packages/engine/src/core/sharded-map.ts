/**
 * A `Map` for keys that may number in the millions: a collection's ids and its index keys. V8 grows a `Map` by
 * rehashing every entry at once when it doubles, so the insert that takes one past 2^20 entries stalls for hundreds of
 * milliseconds (~400 ms per map on the machine of docs/benchmarks.md; a collection with two unique indexes passes that
 * mark in three maps on the same insert). Past {@link SPLIT_AT} entries this map spreads its keys over
 * {@link SHARDS} maps by a hash of the key, so each doubling rehashes a 256th of the entries, and the shards, which
 * fill at slightly different rates, double on different inserts.
 *
 * Below {@link SPLIT_AT} it is one plain `Map` (a sandbox in a test suite never hashes a key). It has no iteration
 * order: the store keeps order in its sequence lists, never in these maps.
 */
export class ShardedMap<K, V> {
  private whole: Map<K, V> | undefined = new Map();
  private shards: Map<K, V>[] = [];
  private count = 0;

  /** @param splitAt entries past which the keys spread over the shards ({@link SPLIT_AT}; tests split small maps). */
  constructor(private readonly splitAt = SPLIT_AT) {}

  /** Whether the keys are spread over the shards (once past the split, until a clear). */
  get spread(): boolean {
    return this.whole === undefined;
  }

  get size(): number {
    return this.whole ? this.whole.size : this.count;
  }

  get(key: K): V | undefined {
    return this.whole ? this.whole.get(key) : this.shards[shardOf(key)]!.get(key);
  }

  has(key: K): boolean {
    return this.whole ? this.whole.has(key) : this.shards[shardOf(key)]!.has(key);
  }

  set(key: K, value: V): this {
    if (this.whole) {
      this.whole.set(key, value);
      if (this.whole.size > this.splitAt) this.split(this.whole);
      return this;
    }
    const shard = this.shards[shardOf(key)]!;
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  delete(key: K): boolean {
    if (this.whole) return this.whole.delete(key);
    const deleted = this.shards[shardOf(key)]!.delete(key);
    if (deleted) this.count--;
    return deleted;
  }

  clear(): void {
    this.whole = new Map();
    this.shards = [];
    this.count = 0;
  }

  private split(whole: Map<K, V>) {
    this.shards = Array.from({ length: SHARDS }, () => new Map<K, V>());
    for (const [key, value] of whole) this.shards[shardOf(key)]!.set(key, value);
    this.count = whole.size;
    this.whole = undefined;
  }
}

/** Entries at which a {@link ShardedMap} spreads over its shards (a rehash of this many takes a few milliseconds). */
export const SPLIT_AT = 1 << 13;
const SHARD_BITS = 8;
/** Shards of a split {@link ShardedMap}: at 10 million keys each holds ~40k, whose rehash takes ~10 ms. */
export const SHARDS = 1 << SHARD_BITS;

/**
 * The shard of a key, by a hash of what makes two keys the same key for a `Map` (SameValueZero): a string's UTF-16
 * units (FNV-1a: ids differ in their last characters, user-chosen keys such as `user-1`, `user-2` anywhere); a
 * number's 64 bits, with -0 taken as 0 (a timestamp or an amount in steps of 100 would fill a few shards by its low
 * bits alone); a bigint's decimal digits. NaN, booleans, `undefined`, `null` and objects (equal only to themselves)
 * go to shard 0, where they are few: an index holds one key per distinct value, and these have few.
 */
export function shardOf(key: unknown): number {
  if (typeof key === 'string') return stringShard(key);
  if (typeof key === 'number') {
    if (key !== key) return 0; // NaN: every NaN is the same key
    NUMBER[0] = key === 0 ? 0 : key;
    return Math.imul(NUMBER_WORDS[0]! ^ Math.imul(NUMBER_WORDS[1]!, 0x85ebca6b), 0x9e3779b1) >>> (32 - SHARD_BITS);
  }
  if (typeof key === 'bigint') return stringShard(key.toString());
  return 0;
}

function stringShard(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> SHARD_BITS) ^ (hash >>> 16) ^ (hash >>> 24)) & (SHARDS - 1);
}

/** A number's IEEE 754 bits, read as two 32-bit words. */
const NUMBER = new Float64Array(1);
const NUMBER_WORDS = new Uint32Array(NUMBER.buffer);
