/**
 * The port a durable store implements (SQLite in ./sqlite.ts): what it keeps, and the one way the engine writes to
 * it, a batch of whole request units committed together. The engine keeps serving from memory; the backend is where
 * that memory comes back from after a restart. No Node import here: the engine core stays browser-safe.
 */
import type { Job } from '../core/scheduler.js';
import type { StoredEntry } from '../core/store.js';

/** A platform as stored: its record (client secret sealed) and what lives beside its records. */
export interface StoredPlatform {
  readonly id: string;
  readonly clientId: string;
  /** The platform's JSON, its `clientSecret` sealed (core/secrets.ts) under the engine's key. */
  readonly record: string;
  /** A virtual clock's time, epoch ms; null for a platform on the real clock (or not moved yet). */
  readonly clockMs: number | null;
  /** The webhook signing key, PKCS#8 PEM sealed; null until the platform first signs. */
  readonly webhookKey: string | null;
}

/** What changed in one store partition (a platform's state, or the credential directory). */
export interface PartitionChanges {
  readonly partition: string;
  /** Every stored record of the partition goes first (a reset, or a restore): the records below then follow. */
  readonly cleared: boolean;
  /** Records put (JSON text) or deleted (null), by collection and sequence number, with the record's id. */
  readonly records: readonly (readonly [collection: string, seq: number, body: string | null, id: string])[];
  /** One past the highest sequence number each collection touched has given out. */
  readonly next: readonly (readonly [collection: string, next: number])[];
  /** Jobs scheduled (with their order) or gone (null), by id. */
  readonly jobs: readonly (readonly [id: string, job: StoredJob | null])[];
}

/** A job as stored: the job and its place among jobs due at the same instant. */
export interface StoredJob {
  readonly job: Job;
  readonly seq: number;
}

/** One commit: everything sealed since the last one, applied all together or not at all. */
export interface CommitBatch {
  /** Platforms created, or whose clock or webhook key changed (the whole row each time). */
  readonly platforms: readonly StoredPlatform[];
  readonly partitions: readonly PartitionChanges[];
}

/** A durable store behind the engine's memory. */
export interface DurableBackend {
  /** Every platform, in the order they were created. */
  platforms(): StoredPlatform[];
  /**
   * Calls `visit` once per stored collection with its records in ascending sequence order, and one past the highest
   * number it ever gave out. The engine reads `entries` later, a piece at a time between commits: they must not hold
   * the store busy in between (no open cursor), and they stay valid until the store is closed.
   */
  forEachCollection(visit: (partition: string, collection: string, entries: Iterable<StoredEntry>, next: number) => void): void;
  /** Every waiting job with its scheduling order, by partition, each partition's in the order they run. */
  jobs(): Map<string, StoredJob[]>;
  /** Applies a batch atomically; once it returns (or its promise resolves) the batch is durable. Throws if it is not. */
  commit(batch: CommitBatch): void | Promise<void>;
  /**
   * The batch is applied before `commit` returns (a throw means none of it was), and its promise only waits for the
   * disk: the next batch may be committed meanwhile (SQLite: the transaction, then an fsync off the event loop).
   */
  readonly appliesAtOnce?: boolean;
  /**
   * A platform was just created here (its row is in the next batch): a backend shared by several processes makes this
   * process its holder.
   */
  created?(platformId: string): void;
  /** Lets go of the files or connections. */
  close(): void;
}

/**
 * Thrown by `commit` when some platforms of the batch are no longer this process's to write (another process took them
 * over): nothing of the batch was applied, and the batch without those platforms' units may be committed again.
 */
export class FencedOut extends Error {
  override readonly name = 'FencedOut';
  constructor(readonly platformIds: readonly string[]) {
    super(`platforms ${platformIds.join(', ')} are held by another process now`);
  }
}

/** A platform's state as a shared backend loads it when this process takes the platform. */
export interface LoadedPlatform {
  readonly row: StoredPlatform;
  /** Records by collection, ascending sequence numbers, and one past the highest number each collection gave out. */
  readonly collections: ReadonlyMap<string, { readonly entries: StoredEntry[]; readonly next: number }>;
  readonly jobs: readonly StoredJob[];
  /** The credential directory's entries naming this platform: entry id (`kind:key`) and platform id. */
  readonly owners: readonly (readonly [id: string, platformId: string])[];
}

/**
 * A backend several processes share (PostgreSQL): platforms are loaded one by one when this process takes them, not
 * at start, so `forEachCollection` and `jobs` give nothing, and the engine serves only the platforms it holds.
 */
export interface SharedBackend extends DurableBackend {
  readonly lazy: true;
  /** Whether this process holds the platform (may write it). */
  holds(platformId: string): boolean;
}

/** Whether a backend is shared (loads platforms when taken). */
export const isShared = (backend: DurableBackend): backend is SharedBackend => (backend as Partial<SharedBackend>).lazy === true;
