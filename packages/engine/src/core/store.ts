import { deepFreeze } from './freeze.js';
import { SeqList } from './seq-list.js';
import { ShardedMap } from './sharded-map.js';
import { Slots } from './slots.js';

/**
 * State, partitioned per platform (tenant). Records are plain JSON values, replaced (never changed in place), so a
 * tenant can be snapshotted and restored as JSON. The in-memory store is the default; another
 * implementation (durable, shared) can be injected with `createEngine({ store })`: the domain areas only use these
 * interfaces.
 */
export interface Store {
  /** The state of one platform, created empty on first use. */
  tenant(tenantId: string): TenantStore;
}

export interface TenantStore {
  /**
   * A collection of records, created on first use. `options` declare its indexes and its creation time; a later call
   * may add indexes (they are built from the records already there), never change one.
   */
  collection<T extends { id: string }>(name: string, options?: CollectionOptions<T>): Collection<T>;
  /** Every collection as arrays of records in insertion order. */
  export(): Record<string, unknown[]>;
  /**
   * Replaces all state with `data` (as produced by {@link TenantStore.export}), all or nothing: a duplicate id
   * throws before anything changes. The records become the store's: the caller must not change them afterwards.
   */
  import(data: Record<string, unknown[]>): void;
  clear(): void;
}

/**
 * Hears every change of a memory store's records: what a durable store writes behind it (durability/). Records are
 * addressed by tenant, collection and sequence number, the number every cursor is made of, so a reload keeps cursors.
 */
export interface StoreJournal {
  /** A record was inserted or replaced under `seq`. */
  put(tenantId: string, collection: string, seq: number, record: { readonly id: string }): void;
  /** The record under `seq` was deleted. */
  delete(tenantId: string, collection: string, seq: number, previous: { readonly id: string }): void;
  /** Every record of the tenant is gone (a reset, or a restore about to put its records). */
  clear(tenantId: string): void;
}

/** A stored record with the sequence number it had: what {@link MemoryStore.load} takes back. */
export type StoredEntry = readonly [seq: number, record: { readonly id: string }];

/** The in-memory store, which can also be filled from a durable copy of itself. */
export interface MemoryStore extends Store {
  /**
   * Puts stored records back under the sequence numbers they had (so cursors made before still work), without telling
   * the journal. `next` is one past the highest number each collection ever gave out, so a record deleted at the end
   * never has its number given again. Entries must come in ascending `seq` per collection.
   */
  load(tenantId: string, collections: ReadonlyMap<string, Iterable<StoredEntry>>, next?: ReadonlyMap<string, number>): void;
  /**
   * Forgets a tenant's records without telling the journal (another process serves the tenant now). Whoever still
   * holds its store may read it; its changes reach the journal no more.
   */
  unload(tenantId: string): void;
  /**
   * Like {@link MemoryStore.load} for one collection, read later: the records are taken from `entries` a few at a time by
   * {@link MemoryStore.loadSome}, and all that are left at once when the collection is first used (so nothing ever
   * sees it half loaded). A store started on many records answers before it has read them all.
   */
  loadLater(tenantId: string, collection: string, entries: Iterator<StoredEntry>, next: number): void;
  /** Loads up to `budget` records of the collections given to {@link MemoryStore.loadLater}; false once none are left. */
  loadSome(budget: number): boolean;
}

/** A record with its insertion sequence number: the stable sort key of every list. */
export interface Entry<T> {
  readonly seq: number;
  readonly value: T;
}

/** The keys a record is found under in an index: one value, or several (an array: each element is a key). */
export type IndexKeys<T> = (record: T) => unknown;

/**
 * An index: its keys, and the fields they are computed from (`reads`), so that replacing a record whose fields are the
 * same (the same values or objects) skips the index. Without `reads`, every replace recomputes the keys.
 */
export type IndexDefinition<T> = IndexKeys<T> | { readonly keys: IndexKeys<T>; readonly reads: readonly string[] };

/** An index on one field of the record. */
export const onField = <T, K extends keyof T & string>(name: K): IndexDefinition<T> => ({ keys: (record) => record[name], reads: [name] });

export interface CollectionOptions<T> {
  /** Named indexes: lists and `findBy` read them instead of every record. */
  readonly indexes?: Readonly<Record<string, IndexDefinition<T>>>;
  /**
   * When a record was created, in epoch ms. While records arrive in creation order (the engine clock never goes back),
   * a time range of a list is a range of the insertion order, found by binary search.
   */
  readonly createdAt?: (record: T) => number;
}

/**
 * What a list asks for. Every condition must hold. `where` names indexes and the key each must hold; `createdFrom`
 * and `createdTo` bound the creation time (inclusive, epoch ms); `filter` is what no index serves, with a `key` that
 * names the condition exactly (two filters with one key must accept the same records), so its count can be kept.
 */
export interface ListQuery<T> {
  readonly where?: Readonly<Record<string, unknown>>;
  readonly createdFrom?: number | undefined;
  readonly createdTo?: number | undefined;
  readonly filter?: { readonly key: string; readonly test: (record: T) => boolean } | undefined;
  readonly descending: boolean;
  /** The sequence number of the last record of the previous page: the page starts after it. */
  readonly after?: number | undefined;
  readonly limit: number;
}

/** One page: the records in order, whether more follow, and how many records the query matches in all. */
export interface ListResult<T> {
  readonly entries: Entry<T>[];
  readonly hasMore: boolean;
  readonly total: number;
}

export interface Collection<T extends { id: string }> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Adds a new record. */
  insert(record: T): T;
  /** Replaces an existing record, keeping its place in lists. */
  replace(record: T): T;
  delete(id: string): boolean;
  /** Records in insertion order. */
  values(): IterableIterator<T>;
  /** Records found under `value` in the index `field` (declared, or else the field itself), in insertion order. */
  findBy<K extends keyof T & string>(field: K, value: T[K]): T[];
  /**
   * A page of the records a query matches. It reads the page from the narrowest index in the query, from the cursor's
   * position (found by binary search), so its cost does not grow with the collection; see `ListQuery`.
   */
  list(query: ListQuery<T>): ListResult<T>;
  readonly size: number;
}

/**
 * The records an index holds under one key: the sequence number itself while there is one (unique keys, the common
 * case for ids and references, cost no list), a {@link SeqList} from the second on.
 */
type Postings = number | SeqList;

interface Index<T> {
  readonly keysOf: IndexKeys<T>;
  readonly reads: readonly string[] | undefined;
  lists: ShardedMap<unknown, Postings>;
}

/** A kept count of the records one query shape matches, updated on every change. */
interface KeptCount<T> {
  readonly matches: (record: T) => boolean;
  count: number;
}

/** Up to how many candidates a list counts its matches on the spot rather than keeping the count. */
const COUNT_NOW = 2048;
/** How many query shapes a collection keeps counts for (the most recently used). */
const KEPT_COUNTS = 64;
const EMPTY = new SeqList();

/** The keys of `record` in an index: each element of an array, or the one value. */
function keysIn<T>(keysOf: IndexKeys<T>, record: T): unknown[] {
  const keys = keysOf(record);
  if (!Array.isArray(keys)) return [keys];
  return keys.length < 2 ? keys : [...new Set(keys)];
}

const sameKeys = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/** Files `seq` under each key of `record` in `index` (no array for the common single key). */
function addKeys<T>(index: Index<T>, record: T, seq: number) {
  const keys = index.keysOf(record);
  if (!Array.isArray(keys)) addPosting(index, keys, seq);
  else for (const key of keys.length < 2 ? keys : new Set(keys)) addPosting(index, key, seq);
}

function removeKeys<T>(index: Index<T>, record: T, seq: number) {
  const keys = index.keysOf(record);
  if (!Array.isArray(keys)) removePosting(index, keys, seq);
  else for (const key of keys.length < 2 ? keys : new Set(keys)) removePosting(index, key, seq);
}

/** The postings of a key as a list (a one-record list for a single sequence number). */
function asList(postings: Postings | undefined): SeqList {
  if (postings === undefined) return EMPTY;
  if (typeof postings !== 'number') return postings;
  const list = new SeqList();
  list.add(postings);
  return list;
}

function addPosting<T>(index: Index<T>, key: unknown, seq: number) {
  const postings = index.lists.get(key);
  if (postings === undefined) {
    index.lists.set(key, seq);
  } else if (typeof postings === 'number') {
    if (postings === seq) return;
    const list = asList(postings);
    list.add(seq);
    index.lists.set(key, list);
  } else {
    postings.add(seq);
  }
}

function removePosting<T>(index: Index<T>, key: unknown, seq: number) {
  const postings = index.lists.get(key);
  if (postings === undefined) return;
  if (typeof postings === 'number') {
    if (postings === seq) index.lists.delete(key);
    return;
  }
  postings.delete(seq);
  if (postings.size === 1) index.lists.set(key, postings.first!);
  else if (postings.size === 0) index.lists.delete(key);
}

/**
 * Records by sequence number: a collection numbers its own records 1, 2, 3, … in insertion order, so a record's slot is
 * its number (no map from numbers to records, no entry objects), and its live numbers are kept in {@link SeqList} order.
 */
class MemoryCollection<T extends { id: string }> implements Collection<T> {
  private seqOf = new ShardedMap<string, number>();
  private slots = new Slots<T>();
  private order = new SeqList();
  private readonly indexes = new Map<string, Index<T>>();
  private readonly applied = new WeakSet<CollectionOptions<T>>();
  private createdAt: ((record: T) => number) | undefined;
  /** Whether records arrived in creation order (so a time range is a range of sequence numbers). */
  private chronological = true;
  private lastCreated = -Infinity;
  private readonly counts = new Map<string, KeptCount<T>>();
  /** Stored records not read yet ({@link MemoryStore.loadLater}): every use of the collection reads them first. */
  private unread: { readonly entries: Iterator<StoredEntry>; readonly next: number; failed?: Error } | undefined;

  constructor(options?: CollectionOptions<T>, private readonly journal?: CollectionJournal) {
    if (options) this.configure(options);
  }

  /** Adds the indexes and creation time `options` declare that this collection does not have yet. */
  configure(options: CollectionOptions<T>): void {
    if (this.applied.has(options)) return;
    this.applied.add(options);
    for (const [name, definition] of Object.entries(options.indexes ?? {})) {
      if (!this.indexes.has(name)) this.defineIndex(name, definition);
    }
    if (options.createdAt && !this.createdAt) {
      this.createdAt = options.createdAt;
      this.rescanCreation();
    }
  }

  get(id: string) {
    if (this.unread) this.readAll();
    const seq = this.seqOf.get(id);
    return seq === undefined ? undefined : this.slots.at(seq);
  }

  has(id: string) {
    if (this.unread) this.readAll();
    return this.seqOf.has(id);
  }

  insert(record: T) {
    if (this.unread) this.readAll();
    const seq = this.slots.length;
    // One lookup in what is the largest map of a busy sandbox, not two: a duplicate id (a bug of an injected id
    // generator, or of a caller) shows as a map that did not grow, and the entry it replaced is put back.
    const known = this.seqOf.size;
    this.seqOf.set(record.id, seq);
    if (this.seqOf.size === known) {
      this.seqOf.set(record.id, this.slots.findSeq((stored) => stored.id === record.id)!);
      throw new Error(`duplicate id ${record.id}`);
    }
    deepFreeze(record);
    this.slots.push(record);
    this.order.add(seq);
    for (const index of this.indexes.values()) addKeys(index, record, seq);
    this.noteCreated(record);
    for (const kept of this.counts.values()) if (kept.matches(record)) kept.count++;
    this.journal?.put(seq, record);
    return record;
  }

  replace(record: T) {
    if (this.unread) this.readAll();
    const seq = this.seqOf.get(record.id);
    if (seq === undefined) throw new Error(`unknown id ${record.id}`);
    deepFreeze(record);
    const previous = this.slots.at(seq)!;
    for (const index of this.indexes.values()) {
      if (index.reads && index.reads.every((field) => (previous as Record<string, unknown>)[field] === (record as Record<string, unknown>)[field])) continue;
      const before = keysIn(index.keysOf, previous);
      const after = keysIn(index.keysOf, record);
      if (sameKeys(before, after)) continue;
      for (const key of before) removePosting(index, key, seq);
      for (const key of after) addPosting(index, key, seq);
    }
    if (this.createdAt && this.createdAt(previous) !== this.createdAt(record)) this.chronological = false;
    for (const kept of this.counts.values()) kept.count += Number(kept.matches(record)) - Number(kept.matches(previous));
    this.slots.set(seq, record);
    this.journal?.put(seq, record);
    return record;
  }

  delete(id: string) {
    if (this.unread) this.readAll();
    const seq = this.seqOf.get(id);
    if (seq === undefined) return false;
    const record = this.slots.at(seq)!;
    this.seqOf.delete(id);
    this.slots.set(seq, undefined);
    this.order.delete(seq);
    for (const index of this.indexes.values()) removeKeys(index, record, seq);
    for (const kept of this.counts.values()) if (kept.matches(record)) kept.count--;
    this.journal?.delete(seq, record);
    return true;
  }

  /**
   * Puts a stored record back under its sequence number (numbers given out in between, deleted since, stay empty).
   * For {@link MemoryStore.load}, on a collection filled in ascending order.
   */
  placeAt(seq: number, record: T): void {
    if (seq < this.slots.length) throw new Error(`sequence number ${seq} of ${record.id} is not after the last one placed`);
    if (this.seqOf.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    while (this.slots.length < seq) this.slots.push(undefined);
    this.seqOf.set(record.id, seq);
    deepFreeze(record);
    this.slots.push(record);
    this.order.add(seq);
    for (const index of this.indexes.values()) addKeys(index, record, seq);
    this.noteCreated(record);
  }

  /** Reads up to `budget` of the stored records not read yet (all by default); the number read. */
  readSome(budget = Infinity): number {
    const unread = this.unread;
    if (unread === undefined) return 0;
    // A read that failed fails every use after it: a collection is never served with part of its records.
    if (unread.failed !== undefined) throw unread.failed;
    let read = 0;
    while (read < budget) {
      let entry: IteratorResult<StoredEntry>;
      try {
        entry = unread.entries.next();
      } catch (error) {
        unread.failed = error instanceof Error ? error : new Error(String(error));
        throw unread.failed;
      }
      if (entry.done) {
        this.unread = undefined;
        this.reserveUpTo(unread.next);
        break;
      }
      this.placeAt(entry.value[0], entry.value[1] as T);
      read++;
    }
    return read;
  }

  /** Whether stored records are still to be read. */
  get reading(): boolean {
    return this.unread !== undefined;
  }

  /** Records given to read later ({@link MemoryStore.loadLater}), placed as they are read. */
  readLater(entries: Iterator<StoredEntry>, next: number): void {
    this.unread = { entries, next };
  }

  private readAll(): void {
    this.readSome();
  }

  /** Makes sure no number below `next` is given out again. */
  reserveUpTo(next: number): void {
    while (this.slots.length < next) this.slots.push(undefined);
  }

  /** Tells the journal every record, under its number (after an import swapped them in). */
  journalAll(): void {
    if (this.unread) this.readAll();
    if (this.journal) this.slots.forEach((record, seq) => this.journal!.put(seq, record));
  }

  *values() {
    if (this.unread) this.readAll();
    yield* this.slots.values();
  }

  get size() {
    if (this.unread) this.readAll();
    return this.seqOf.size;
  }

  findBy<K extends keyof T & string>(field: K, value: T[K]): T[] {
    if (this.unread) this.readAll();
    const postings = this.indexNamed(field).lists.get(value);
    if (postings === undefined) return [];
    if (typeof postings === 'number') return [this.slots.at(postings)!];
    const found: T[] = [];
    for (const seq of postings.between(0, Number.MAX_SAFE_INTEGER, false)) found.push(this.slots.at(seq)!);
    return found;
  }

  list(query: ListQuery<T>): ListResult<T> {
    if (this.unread) this.readAll();
    const conditions = Object.entries(query.where ?? {}).map(([name, key]) => {
      const index = this.indexNamed(name);
      return { index, key, list: asList(index.lists.get(key)) };
    });
    // The narrowest index drives the walk; the other conditions are checked on the records it yields.
    const driver = conditions.reduce<(typeof conditions)[number] | undefined>((best, c) => (best === undefined || c.list.size < best.list.size ? c : best), undefined);
    const others = conditions.filter((c) => c !== driver);
    const timed = query.createdFrom !== undefined || query.createdTo !== undefined;
    const byOrder = timed && this.createdAt !== undefined && this.chronological;
    const inTime = (record: T) => {
      if (!timed) return true;
      const created = this.createdAt ? this.createdAt(record) : NaN;
      return (query.createdFrom === undefined || created >= query.createdFrom) && (query.createdTo === undefined || created <= query.createdTo);
    };
    const residual = [
      ...others.map((c) => (record: T) => keysIn(c.index.keysOf, record).includes(c.key)),
      ...(timed && !byOrder ? [inTime] : []),
      ...(query.filter ? [query.filter.test] : []),
    ];
    const accepts = (record: T) => residual.every((test) => test(record));

    const source = driver?.list ?? this.order;
    const [low, high] = byOrder ? this.seqRange(query.createdFrom, query.createdTo) : [0, Number.MAX_SAFE_INTEGER];
    let from = low;
    let to = high;
    if (query.after !== undefined) {
      if (query.descending) to = Math.min(to, query.after - 1);
      else from = Math.max(from, query.after + 1);
    }
    const entries: Entry<T>[] = [];
    let hasMore = false;
    for (const seq of source.between(from, to, query.descending)) {
      const value = this.slots.at(seq)!;
      if (!accepts(value)) continue;
      if (entries.length === query.limit) {
        hasMore = true;
        break;
      }
      entries.push({ seq, value });
    }

    const candidates = source.countBetween(low, high);
    const countMatches = () => {
      let count = 0;
      for (const seq of source.between(low, high, false)) if (accepts(this.slots.at(seq)!)) count++;
      return count;
    };
    // Every candidate matches, or few enough to count now; else the count is kept, updated by every change.
    const total = residual.length === 0 ? candidates
      : candidates <= COUNT_NOW ? countMatches()
        : this.keptCount(query, countMatches, (record) => conditions.every((c) => keysIn(c.index.keysOf, record).includes(c.key)) && inTime(record) && (query.filter?.test(record) ?? true));
    return { entries, hasMore, total };
  }

  /**
   * An empty collection with this one's indexes and creation time. A restore fills it aside, record by record (each
   * record's keys computed while it is at hand, not in one more pass per index), then {@link adopt}s it.
   */
  emptyLike(): MemoryCollection<T> {
    const twin = new MemoryCollection<T>();
    for (const [name, index] of this.indexes) twin.indexes.set(name, { keysOf: index.keysOf, reads: index.reads, lists: new ShardedMap() });
    twin.createdAt = this.createdAt;
    return twin;
  }

  /**
   * Takes over the records and indexes of `twin`, an {@link emptyLike} of this collection filled since (used to swap in
   * a restored state at once). Its indexes were built with this one's definitions, so they are taken as they are.
   */
  adopt(twin: MemoryCollection<T>) {
    this.unread = undefined; // replaced: what was stored goes
    this.seqOf = twin.seqOf;
    this.slots = twin.slots;
    this.order = twin.order;
    this.counts.clear();
    for (const [name, index] of this.indexes) index.lists = twin.indexes.get(name)!.lists;
    this.chronological = twin.chronological;
    this.lastCreated = twin.lastCreated;
  }

  private defineIndex(name: string, definition: IndexDefinition<T>): Index<T> {
    const index: Index<T> = typeof definition === 'function'
      ? { keysOf: definition, reads: undefined, lists: new ShardedMap() }
      : { keysOf: definition.keys, reads: definition.reads, lists: new ShardedMap() };
    this.fill(index);
    this.indexes.set(name, index);
    return index;
  }

  private fill(index: Index<T>) {
    this.slots.forEach((record, seq) => addKeys(index, record, seq));
  }

  /** The index `name`; one on the field of that name when none was declared. */
  private indexNamed(name: string): Index<T> {
    return this.indexes.get(name) ?? this.defineIndex(name, onField(name as keyof T & string));
  }

  private rescanCreation() {
    this.chronological = true;
    this.lastCreated = -Infinity;
    this.slots.forEach((record) => this.noteCreated(record));
  }

  private noteCreated(record: T) {
    if (!this.createdAt) return;
    const created = this.createdAt(record);
    if (!(created >= this.lastCreated)) this.chronological = false;
    else this.lastCreated = created;
  }

  /** The sequence numbers of the records created in `[from, to]`, by binary search over the insertion order. */
  private seqRange(from: number | undefined, to: number | undefined): [number, number] {
    const createdAt = this.createdAt!;
    const createdOf = (rank: number) => createdAt(this.slots.at(this.order.at(rank))!);
    // The first rank created at or after `time` (or, `strictly`, after it).
    const firstAtLeast = (time: number, strictly: boolean) => {
      let low = 0;
      let high = this.order.size;
      while (low < high) {
        const mid = (low + high) >>> 1;
        const created = createdOf(mid);
        if (strictly ? created <= time : created < time) low = mid + 1;
        else high = mid;
      }
      return low;
    };
    const start = from === undefined ? 0 : firstAtLeast(from, false);
    const end = to === undefined ? this.order.size : firstAtLeast(to, true);
    if (start >= end) return [1, 0];
    return [this.order.at(start), this.order.at(end - 1)];
  }

  private keptCount(query: ListQuery<T>, count: () => number, matches: (record: T) => boolean): number {
    const key = JSON.stringify([
      Object.entries(query.where ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)), query.createdFrom ?? null, query.createdTo ?? null, query.filter?.key ?? null,
    ]);
    let kept = this.counts.get(key);
    if (kept) {
      this.counts.delete(key); // most recently used last
    } else {
      kept = { matches, count: count() };
      if (this.counts.size >= KEPT_COUNTS) this.counts.delete(this.counts.keys().next().value!);
    }
    this.counts.set(key, kept);
    return kept.count;
  }
}

/** What one collection tells the store's journal. */
interface CollectionJournal {
  put(seq: number, record: { readonly id: string }): void;
  delete(seq: number, previous: { readonly id: string }): void;
}

class MemoryTenantStore implements TenantStore {
  private readonly collections = new Map<string, MemoryCollection<{ id: string }>>();
  /** Unloaded: changes are no longer the journal's (see {@link MemoryStore.unload}). */
  detached = false;

  constructor(private readonly tenantId: string, private readonly journal: StoreJournal | undefined) {}

  private journalOf(name: string): CollectionJournal | undefined {
    const { journal, tenantId } = this;
    if (journal === undefined) return undefined;
    return {
      put: (seq, record) => this.detached || journal.put(tenantId, name, seq, record),
      delete: (seq, previous) => this.detached || journal.delete(tenantId, name, seq, previous),
    };
  }

  collection<T extends { id: string }>(name: string, options?: CollectionOptions<T>): Collection<T> {
    let found = this.collections.get(name) as MemoryCollection<T> | undefined;
    if (!found) {
      found = new MemoryCollection<T>(options, this.journalOf(name));
      this.collections.set(name, found as unknown as MemoryCollection<{ id: string }>);
    } else if (options) {
      found.configure(options);
    }
    return found;
  }

  export(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    for (const [name, collection] of this.collections) {
      if (collection.size > 0) out[name] = [...collection.values()];
    }
    return out;
  }

  import(data: Record<string, unknown[]>): void {
    // Build the new state aside; a duplicate id, or a record an index cannot key, throws here, before the current state
    // is touched. A collection not registered yet is staged plain: the one registered for it below has no indexes either.
    const staged = new Map<string, MemoryCollection<{ id: string }>>();
    for (const [name, records] of Object.entries(data)) {
      const collection = this.collections.get(name)?.emptyLike() ?? new MemoryCollection<{ id: string }>();
      for (const record of records as { id: string }[]) collection.insert(record);
      staged.set(name, collection);
    }
    this.clear();
    for (const [name, collection] of staged) {
      const target = this.collection(name) as MemoryCollection<{ id: string }>;
      target.adopt(collection);
      target.journalAll();
    }
  }

  clear(): void {
    // Collections stay registered (services may hold them), with their indexes; only their records go.
    for (const collection of this.collections.values()) collection.adopt(collection.emptyLike());
    if (!this.detached) this.journal?.clear(this.tenantId);
  }

  /** Collections with stored records still to read, in the order they were given. */
  readonly unread = new Set<MemoryCollection<{ id: string }>>();

  loadLater(name: string, entries: Iterator<StoredEntry>, next: number): void {
    const target = this.collection(name) as MemoryCollection<{ id: string }>;
    target.readLater(entries, next);
    this.unread.add(target);
  }

  /** Reads up to `budget` stored records; the number read. */
  readSome(budget: number): number {
    let read = 0;
    for (const collection of this.unread) {
      read += collection.readSome(budget - read);
      // Done, here or by its first use.
      if (!collection.reading) this.unread.delete(collection);
      if (read >= budget) break;
    }
    return read;
  }

  load(collections: ReadonlyMap<string, Iterable<StoredEntry>>, next?: ReadonlyMap<string, number>): void {
    for (const name of new Set([...collections.keys(), ...(next?.keys() ?? [])])) {
      const target = this.collection(name) as MemoryCollection<{ id: string }>;
      const staged = target.emptyLike();
      for (const [seq, record] of collections.get(name) ?? []) staged.placeAt(seq, record);
      staged.reserveUpTo(next?.get(name) ?? 0);
      target.adopt(staged);
    }
  }
}

/**
 * The default store: everything in memory. With a `journal`, every change is also told to it (a durable store writes
 * them behind the memory one, which stays what every read is served from).
 */
export function createMemoryStore(options: { journal?: StoreJournal } = {}): MemoryStore {
  const tenants = new Map<string, MemoryTenantStore>();
  const tenant = (tenantId: string): MemoryTenantStore => {
    let found = tenants.get(tenantId);
    if (!found) {
      found = new MemoryTenantStore(tenantId, options.journal);
      tenants.set(tenantId, found);
    }
    return found;
  };
  return {
    tenant,
    load: (tenantId, collections, next) => tenant(tenantId).load(collections, next),
    loadLater: (tenantId, collection, entries, next) => tenant(tenantId).loadLater(collection, entries, next),
    loadSome(budget) {
      let read = 0;
      for (const found of tenants.values()) {
        if (found.unread.size === 0) continue;
        read += found.readSome(budget - read);
        if (read >= budget) return true;
      }
      return [...tenants.values()].some((found) => found.unread.size > 0);
    },
    unload(tenantId) {
      const found = tenants.get(tenantId);
      if (found === undefined) return;
      found.detached = true;
      tenants.delete(tenantId);
    },
  };
}

