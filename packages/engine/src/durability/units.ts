/**
 * Requests as units of durable work. In a durable engine each platform's requests run one at a time (a FIFO gate
 * per platform: handlers await crypto part way, and without it one request's changes could not be told from
 * another's). Everything the store and the scheduler are told while a platform's gate is held, a job that ran in the
 * meantime included, is that platform's open unit; it is sealed when the gate is let go. Changes made with the gate
 * free (a real-clock job, the end of a webhook attempt, a follow-up) are sealed at the next commit. Sealed units are
 * committed together (group commit), and a reply leaves only once everything sealed before it is durable, so no
 * client ever sees a state a crash could take back. A commit that fails keeps its units for the next attempt, and
 * every reply waiting on it is a 503: a 503 may or may not have been applied; every 2xx was.
 */
import { ApiError } from '../core/errors.js';
import { DIRECTORY_PARTITION } from '../core/directory.js';
import type { Job, JobJournal } from '../core/scheduler.js';
import type { StoreJournal } from '../core/store.js';
import type { UnitGate } from '../core/context.js';
import { type CommitBatch, type DurableBackend, FencedOut, type PartitionChanges, type SharedBackend, type StoredJob, type StoredPlatform } from './backend.js';

/** Seconds a client is told to wait (`Retry-After`) while commits fail. */
export const RETRY_AFTER_SECONDS = 1;
/** How long after a failed commit the next is tried, when no request asks sooner. */
const RETRY_MS = 1_000;

/** One partition's part of a unit: later changes of a record replace earlier ones. */
class PartitionUnit {
  cleared = false;
  readonly records = new Map<string, readonly [string, number, { readonly id: string } | null, string]>();
  readonly next = new Map<string, number>();
  readonly jobs = new Map<string, StoredJob | null>();

  constructor(readonly partition: string) {}

  clear() {
    this.cleared = true;
    this.records.clear();
  }

  /** Folds a later unit's changes of the same partition into this one. */
  absorb(later: PartitionUnit) {
    if (later.cleared) this.clear();
    for (const [key, change] of later.records) this.records.set(key, change);
    for (const [collection, next] of later.next) this.next.set(collection, Math.max(next, this.next.get(collection) ?? 0));
    for (const [id, job] of later.jobs) this.jobs.set(id, job);
  }

  changes(): PartitionChanges {
    return {
      partition: this.partition,
      cleared: this.cleared,
      records: Array.from(this.records.values(), ([collection, seq, record, id]) => [collection, seq, record === null ? null : JSON.stringify(record), id] as const),
      next: [...this.next],
      jobs: [...this.jobs],
    };
  }
}

/** What one platform's unit holds: its partitions' changes, and who waits for it to be durable. */
class Unit {
  readonly partitions = new Map<string, PartitionUnit>();
  readonly whenDurable: (() => void)[] = [];

  constructor(readonly platformId: string) {}

  part(partition: string): PartitionUnit {
    let found = this.partitions.get(partition);
    if (!found) this.partitions.set(partition, (found = new PartitionUnit(partition)));
    return found;
  }
}

interface Gate {
  held: boolean;
  readonly waiting: (() => void)[];
}

/** What the engine tells {@link Durability} about platforms, beyond their records. */
export interface PlatformFacts {
  /** A virtual clock's time for the platform, or undefined on a real clock. */
  clockOf(platformId: string): number | undefined;
  /**
   * Another process holds these platforms now (a shared backend fenced their changes off): their unstored changes are
   * gone, and the engine must stop serving them from memory.
   */
  fencedOut?(platformIds: readonly string[]): void;
}

/** The journal of a durable engine: units, gates and group commit over a {@link DurableBackend}. */
export class Durability implements StoreJournal, UnitGate {
  private readonly open = new Map<string, Unit>();
  private sealed: Unit[] = [];
  /** Units whose commit failed, tried again first. */
  private backlog: Unit[] = [];
  private readonly gates = new Map<string, Gate>();
  private readonly rows = new Map<string, StoredPlatform>();
  private readonly pendingRows = new Map<string, StoredPlatform>();
  private readonly clocks = new Map<string, number | null>();
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private committing = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the last commit failed (told once on stderr, not per request). */
  private failing = false;
  private closed = false;
  /** Commits applied whose wait for the disk is under way (a backend that `appliesAtOnce`), and the last of them. */
  private syncing = 0;
  private lastSync: Promise<void> = Promise.resolve();
  /** Tasks of units whose wait for the disk failed: they run after the next commit that reaches it. */
  private readonly carried: (() => void)[] = [];
  private facts: PlatformFacts = { clockOf: () => undefined };
  /** How often each platform was dropped (lost to another process): a request that saw it change is not answered 2xx. */
  private readonly drops = new Map<string, number>();

  constructor(private readonly backend: DurableBackend) {
    for (const row of backend.platforms()) {
      this.rows.set(row.id, row);
      this.clocks.set(row.id, row.clockMs);
    }
  }

  /** Where platform clocks are read when a unit is sealed (set once the engine has them). */
  attach(facts: PlatformFacts): void {
    this.facts = facts;
  }

  /** The stored row of a platform, if it has one. */
  row(platformId: string): StoredPlatform | undefined {
    return this.pendingRows.get(platformId) ?? this.rows.get(platformId);
  }

  /** Changes fields of a platform's stored row as it is now (not as it was read before an await). */
  updatePlatform(platformId: string, fields: Partial<Pick<StoredPlatform, 'webhookKey'>>): void {
    const row = this.row(platformId);
    if (row) this.putPlatform({ ...row, ...fields });
  }

  /**
   * Takes a platform's row as the backend has it now (a shared backend's platform, loaded when this process takes it
   * over): nothing is written.
   */
  adoptRow(row: StoredPlatform): void {
    this.rows.set(row.id, row);
    this.clocks.set(row.id, row.clockMs);
  }

  /** Stores a platform's row (a new platform, `created`, or its webhook key): committed with the next batch. */
  putPlatform(row: StoredPlatform, created = false): void {
    if (created) this.backend.created?.(row.id);
    this.pendingRows.set(row.id, row);
    this.clocks.set(row.id, row.clockMs);
    this.schedule();
  }

  // StoreJournal: a directory entry belongs to the unit of the platform it names.
  put(tenantId: string, collection: string, seq: number, record: { readonly id: string }): void {
    const part = this.unitOf(this.ownerOf(tenantId, record)).part(tenantId);
    part.records.set(`${collection}\u0000${seq}`, [collection, seq, record, record.id]);
    if (seq + 1 > (part.next.get(collection) ?? 0)) part.next.set(collection, seq + 1);
  }

  delete(tenantId: string, collection: string, seq: number, previous: { readonly id: string }): void {
    this.unitOf(this.ownerOf(tenantId, previous)).part(tenantId).records.set(`${collection}\u0000${seq}`, [collection, seq, null, previous.id]);
  }

  clear(tenantId: string): void {
    this.unitOf(tenantId).part(tenantId).clear();
  }

  // JobJournal
  putJob(job: Job, seq: number): void {
    this.unitOf(job.tenantId).part(job.tenantId).jobs.set(job.id, { job, seq });
  }

  deleteJob(job: Job): void {
    this.unitOf(job.tenantId).part(job.tenantId).jobs.set(job.id, null);
  }

  /** The {@link JobJournal} view of this journal. */
  readonly jobJournal: JobJournal = { put: (job, seq) => this.putJob(job, seq), delete: (job) => this.deleteJob(job) };

  /**
   * Runs `work` as the platform's next unit: after the units before it, alone, then `beforeSeal` (the follow-ups it
   * queued), and answers once the unit is durable. A commit that fails answers 503 instead.
   */
  async serialize<T>(platformId: string, work: () => Promise<T>, beforeSeal: () => void): Promise<T> {
    const waited = this.acquire(platformId);
    if (waited) await waited;
    const drops = this.drops.get(platformId);
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await work() };
    } catch (error) {
      outcome = { error };
    } finally {
      try {
        beforeSeal();
      } finally {
        this.release(platformId);
      }
    }
    await this.durable();
    // Its platform moved to another process meanwhile: what it changed was dropped, not stored.
    if (this.drops.get(platformId) !== drops) throw moved();
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /**
   * Forgets every change of these platforms not stored yet (another process holds them now): their requests under
   * way answer 503, and nothing of theirs is committed from here.
   */
  drop(platformIds: readonly string[]): void {
    const lost = new Set(platformIds);
    this.backlog = this.backlog.filter((unit) => !lost.has(unit.platformId));
    this.sealed = this.sealed.filter((unit) => !lost.has(unit.platformId));
    for (const id of lost) {
      this.drops.set(id, (this.drops.get(id) ?? 0) + 1);
      this.open.delete(id);
      this.pendingRows.delete(id);
      this.rows.delete(id);
      this.clocks.delete(id);
    }
  }

  /**
   * Runs `work` with the platform's gate let go (the unit so far sealed), then takes the platform's turn again: for a
   * request that waits on the network, so the platform's other requests are not held up meanwhile.
   */
  async outside<T>(platformId: string, work: () => Promise<T>): Promise<T> {
    if (!this.gates.get(platformId)?.held) return work();
    this.release(platformId);
    try {
      return await work();
    } finally {
      const waited = this.acquire(platformId);
      if (waited) await waited;
    }
  }

  /** Resolves once everything sealed so far is durable (at once when nothing waits); rejects with a 503 if a commit fails. */
  durable(): Promise<void> {
    if (!this.pending()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  /** Calls `task` once the platform's changes so far are durable (a webhook is sent only for an event that stays). */
  afterDurable(platformId: string, task: () => void): void {
    const unit = this.open.get(platformId);
    if (unit) unit.whenDurable.push(task);
    else if (!this.pending()) task();
    else this.unitOf(platformId).whenDurable.push(task);
  }

  /** Commits what is left, synchronously when the backend is (on shutdown). */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    try {
      if (!this.committing) void this.commit();
    } finally {
      this.backend.close();
    }
  }

  private ownerOf(partition: string, record: { readonly id: string }): string {
    return partition === DIRECTORY_PARTITION ? (record as { platformId?: string }).platformId ?? partition : partition;
  }

  private pending(): boolean {
    return this.sealed.length > 0 || this.backlog.length > 0 || this.pendingRows.size > 0 || this.committing || this.syncing > 0 || [...this.open.keys()].some((id) => !this.gates.get(id)?.held);
  }

  private unitOf(platformId: string): Unit {
    let unit = this.open.get(platformId);
    if (!unit) {
      this.open.set(platformId, (unit = new Unit(platformId)));
      if (!this.gates.get(platformId)?.held) this.schedule();
    }
    return unit;
  }

  private acquire(platformId: string): Promise<void> | undefined {
    let gate = this.gates.get(platformId);
    if (!gate) this.gates.set(platformId, (gate = { held: false, waiting: [] }));
    if (!gate.held) {
      gate.held = true;
      return undefined;
    }
    return new Promise((resolve) => gate.waiting.push(resolve));
  }

  private release(platformId: string): void {
    this.seal(platformId);
    const gate = this.gates.get(platformId)!;
    const next = gate.waiting.shift();
    if (next) next();
    else gate.held = false;
  }

  /** Closes the platform's open unit (with its clock, if that moved) and queues it for the next commit. */
  private seal(platformId: string): void {
    const clock = this.facts.clockOf(platformId);
    if (clock !== undefined && clock !== this.clocks.get(platformId)) {
      const row = this.row(platformId);
      if (row) this.putPlatform({ ...row, clockMs: clock });
    }
    const unit = this.open.get(platformId);
    if (!unit) return;
    this.open.delete(platformId);
    if (unit.partitions.size === 0 && unit.whenDurable.length === 0) return;
    this.sealed.push(unit);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the code running now and the microtasks it queued: a synchronous stretch of changes is never cut in two.
    later(() => {
      this.scheduled = false;
      void this.commit();
    });
  }

  private async commit(): Promise<void> {
    if (this.committing) return;
    for (const [platformId] of [...this.open]) if (!this.gates.get(platformId)?.held) this.seal(platformId);
    // A shared backend's platform this process no longer holds: what a forgotten context still did is not stored (its
    // request answers 503), and it does not make the whole batch fenced.
    const holds = (this.backend as Partial<SharedBackend>).holds?.bind(this.backend);
    const units = [...this.backlog, ...this.sealed].filter((unit) => holds === undefined || unit.platformId === DIRECTORY_PARTITION || holds(unit.platformId));
    const rows = [...this.pendingRows.values()].filter((row) => holds === undefined || holds(row.id));
    const waiters = this.waiters;
    this.backlog = [];
    this.sealed = [];
    this.pendingRows.clear();
    this.waiters = [];
    if (units.length === 0 && rows.length === 0) {
      // Nothing new, but what a waiter read may still be on its way to the disk.
      this.lastSync.then(() => waiters.forEach((waiter) => waiter.resolve()), () => waiters.forEach((waiter) => waiter.reject(unavailable())));
      return;
    }
    this.committing = true;
    let done: void | Promise<void>;
    try {
      done = this.backend.commit(batchOf(units, rows));
      if (done instanceof Promise && !this.backend.appliesAtOnce) await done;
    } catch (error) {
      // Nothing of the batch was applied: it is tried again, first, with what comes next.
      this.committing = false;
      if (error instanceof FencedOut) return this.fenced(error.platformIds, units, rows, waiters);
      this.backlog = units;
      for (const row of rows) if (!this.pendingRows.has(row.id)) this.pendingRows.set(row.id, row);
      this.failed(error, waiters);
      return;
    }
    this.committing = false;
    for (const row of rows) this.rows.set(row.id, row);
    if (done instanceof Promise && this.backend.appliesAtOnce) {
      // Applied; only the wait for the disk is left, and the next batch need not wait for it.
      const synced = done;
      this.lastSync = synced.catch(() => undefined);
      this.syncing++;
      if (this.sealed.length > 0 || this.waiters.length > 0) this.schedule();
      try {
        await synced;
      } catch (error) {
        // In the file but maybe not on the disk, and the backend takes nothing more: its waiters are told 503.
        this.carried.push(...units.flatMap((unit) => unit.whenDurable));
        this.failed(error, waiters);
        return;
      } finally {
        this.syncing--;
      }
    }
    if (this.failing) console.error('[railyard] the data store works again');
    this.failing = false;
    for (const waiter of waiters) waiter.resolve();
    const tasks = [...this.carried.splice(0), ...units.flatMap((unit) => unit.whenDurable)];
    for (const task of tasks) task();
    // A waiter that came while this commit was under way waits for the next one (which may have nothing left to write).
    if (this.pending() || this.waiters.length > 0) this.schedule();
  }

  /**
   * Some platforms of a batch are another process's now: their units and rows are dropped (their requests answer 503,
   * and their retries reach the new holder), the engine is told, and the rest is committed again at once. Every waiter
   * of the batch answers 503: which of them waited on a dropped unit is not known.
   */
  private fenced(platformIds: readonly string[], units: readonly Unit[], rows: readonly StoredPlatform[], waiters: readonly { reject: (error: unknown) => void }[]): void {
    this.backlog = [...units];
    for (const row of rows) if (!this.pendingRows.has(row.id)) this.pendingRows.set(row.id, row);
    this.drop(platformIds);
    const refusal = moved();
    for (const waiter of waiters) waiter.reject(refusal);
    this.facts.fencedOut?.(platformIds);
    this.schedule();
  }

  /** A commit failed: its waiters answer 503, once it is said on stderr, and a retry is due. */
  private failed(error: unknown, waiters: readonly { reject: (error: unknown) => void }[]): void {
    if (this.closed) console.error(`[railyard] the last commit before closing failed (${reasonOf(error)})`);
    else if (!this.failing) console.error(`[railyard] could not commit to the data store (${reasonOf(error)}): requests answer 503 until it works again`);
    this.failing = true;
    const refusal = unavailable();
    for (const waiter of waiters) waiter.reject(refusal);
    if (!this.retryTimer && !this.closed) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.schedule();
      }, RETRY_MS);
      (this.retryTimer as { unref?: () => void }).unref?.();
    }
  }

}

/** Runs `task` once the event loop is free: `setImmediate` where there is one (Node), else a zero timeout. */
export const later: (task: () => void) => void = typeof (globalThis as { setImmediate?: unknown }).setImmediate === 'function'
  ? (task) => (globalThis as unknown as { setImmediate: (task: () => void) => void }).setImmediate(task)
  : (task) => setTimeout(task, 0);

/** The units as one batch: each partition's changes folded in order, so a record changed twice is written once. */
function batchOf(units: readonly Unit[], platforms: readonly StoredPlatform[]): CommitBatch {
  const parts = new Map<string, PartitionUnit>();
  for (const unit of units) {
    for (const [partition, part] of unit.partitions) {
      let folded = parts.get(partition);
      if (!folded) parts.set(partition, (folded = new PartitionUnit(partition)));
      folded.absorb(part);
    }
  }
  return { platforms, partitions: Array.from(parts.values(), (part) => part.changes()) };
}

const reasonOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** The 503 a reply gets when its platform moved to another process before its changes were stored. */
function moved(): ApiError {
  return new ApiError(503, 'SERVICE_UNAVAILABLE', 'The platform of this request moved to another server of the sandbox while its changes were being stored; they may or may not have been applied: retry it, with the same Idempotency-Key where it takes one', undefined, {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}

/** The 503 a reply gets when what it would show could not be made durable. */
function unavailable(): ApiError {
  return new ApiError(503, 'SERVICE_UNAVAILABLE', 'The sandbox could not store this request durably (its data store is unavailable); it may or may not have been applied: retry it, with the same Idempotency-Key where it takes one', undefined, {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}
