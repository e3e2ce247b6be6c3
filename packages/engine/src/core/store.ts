/**
 * State, partitioned per platform (tenant). Records are plain JSON values so a tenant can be snapshotted and restored
 * as JSON (DESIGN §5). The in-memory store is the default; another implementation can be injected.
 */
export interface Store {
  /** The state of one platform, created empty on first use. */
  tenant(tenantId: string): TenantStore;
}

export interface TenantStore {
  collection<T extends { id: string }>(name: string): Collection<T>;
  /** Every collection as arrays of records in insertion order. */
  export(): Record<string, unknown[]>;
  /**
   * Replaces all state with `data` (as produced by {@link TenantStore.export}), all or nothing: a duplicate id
   * throws before anything changes.
   */
  import(data: Record<string, unknown[]>): void;
  clear(): void;
}

/** A record with its insertion sequence number: the stable sort key of every list. */
export interface Entry<T> {
  readonly seq: number;
  readonly value: T;
}

export interface Collection<T extends { id: string }> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Adds a new record. */
  insert(record: T): T;
  /** Replaces an existing record, keeping its place in lists. */
  replace(record: T): T;
  delete(id: string): boolean;
  /** Records newest first, each with its sequence number. */
  newestFirst(): Entry<T>[];
  /** Records in insertion order. */
  values(): IterableIterator<T>;
  /** Records whose `field` equals `value`, through an index kept up to date on every change. */
  findBy<K extends keyof T & string>(field: K, value: T[K]): T[];
  readonly size: number;
}

class MemoryCollection<T extends { id: string }> implements Collection<T> {
  private readonly entries = new Map<string, { seq: number; value: T }>();
  /** field → value → ids, built on a field's first lookup. */
  private readonly indexes = new Map<string, Map<unknown, Set<string>>>();
  constructor(private readonly nextSeq: () => number) {}

  get(id: string) {
    return this.entries.get(id)?.value;
  }
  has(id: string) {
    return this.entries.has(id);
  }
  insert(record: T) {
    if (this.entries.has(record.id)) throw new Error(`duplicate id ${record.id}`);
    this.entries.set(record.id, { seq: this.nextSeq(), value: record });
    this.indexAdd(record);
    return record;
  }
  replace(record: T) {
    const entry = this.entries.get(record.id);
    if (!entry) throw new Error(`unknown id ${record.id}`);
    this.indexRemove(entry.value);
    entry.value = record;
    this.indexAdd(record);
    return record;
  }
  delete(id: string) {
    const entry = this.entries.get(id);
    if (entry) this.indexRemove(entry.value);
    return this.entries.delete(id);
  }
  findBy<K extends keyof T & string>(field: K, value: T[K]): T[] {
    let index = this.indexes.get(field);
    if (!index) {
      index = new Map();
      this.indexes.set(field, index);
      for (const { value: record } of this.entries.values()) addTo(index, record[field], record.id);
    }
    return [...(index.get(value) ?? [])].map((id) => this.entries.get(id)!.value);
  }
  private indexAdd(record: T) {
    for (const [field, index] of this.indexes) addTo(index, record[field as keyof T], record.id);
  }
  private indexRemove(record: T) {
    for (const [field, index] of this.indexes) {
      const ids = index.get(record[field as keyof T]);
      ids?.delete(record.id);
      if (ids?.size === 0) index.delete(record[field as keyof T]);
    }
  }
  newestFirst(): Entry<T>[] {
    return [...this.entries.values()].reverse();
  }
  *values() {
    for (const entry of this.entries.values()) yield entry.value;
  }
  get size() {
    return this.entries.size;
  }
  /** Takes over another collection's records (used to swap in a restored state at once). */
  adopt(other: MemoryCollection<T>) {
    this.entries.clear();
    for (const [id, entry] of other.entries) this.entries.set(id, entry);
    this.indexes.clear();
  }
}

function addTo(index: Map<unknown, Set<string>>, key: unknown, id: string) {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}

class MemoryTenantStore implements TenantStore {
  private readonly collections = new Map<string, MemoryCollection<{ id: string }>>();
  private seq = 0;
  private readonly next = () => ++this.seq;

  collection<T extends { id: string }>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new MemoryCollection(this.next);
      this.collections.set(name, found);
    }
    return found as unknown as Collection<T>;
  }

  export(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    for (const [name, collection] of this.collections) {
      if (collection.size > 0) out[name] = structuredClone([...collection.values()]);
    }
    return out;
  }

  import(data: Record<string, unknown[]>): void {
    // Build the new state aside; a duplicate id throws here, before the current state is touched.
    const staged = new Map<string, MemoryCollection<{ id: string }>>();
    for (const [name, records] of Object.entries(data)) {
      const collection = new MemoryCollection<{ id: string }>(this.next);
      for (const record of structuredClone(records) as { id: string }[]) collection.insert(record);
      staged.set(name, collection);
    }
    this.clear();
    for (const [name, collection] of staged) (this.collection(name) as MemoryCollection<{ id: string }>).adopt(collection);
  }

  clear(): void {
    // Collections stay registered (services may hold them); only their records go.
    const empty = new MemoryCollection<{ id: string }>(this.next);
    for (const collection of this.collections.values()) collection.adopt(empty);
  }
}

/** The default store: everything in memory. */
export function createMemoryStore(): Store {
  const tenants = new Map<string, TenantStore>();
  return {
    tenant(tenantId) {
      let found = tenants.get(tenantId);
      if (!found) {
        found = new MemoryTenantStore();
        tenants.set(tenantId, found);
      }
      return found;
    },
  };
}
