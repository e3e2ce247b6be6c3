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
  /** Replaces all state with `data` (as produced by {@link TenantStore.export}). */
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
  readonly size: number;
}

class MemoryCollection<T extends { id: string }> implements Collection<T> {
  private readonly entries = new Map<string, { seq: number; value: T }>();
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
    return record;
  }
  replace(record: T) {
    const entry = this.entries.get(record.id);
    if (!entry) throw new Error(`unknown id ${record.id}`);
    entry.value = record;
    return record;
  }
  delete(id: string) {
    return this.entries.delete(id);
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
    this.clear();
    for (const [name, records] of Object.entries(data)) {
      const collection = this.collection(name);
      for (const record of structuredClone(records) as { id: string }[]) collection.insert(record);
    }
  }

  clear(): void {
    // Collections stay registered (services hold references to them); only their records go.
    for (const collection of this.collections.values()) for (const record of [...collection.values()]) collection.delete(record.id);
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
