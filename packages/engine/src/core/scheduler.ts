import { z } from 'zod';
import type { Clock } from './clock.js';
import { VirtualClock } from './clock.js';

/** The latest instant a JavaScript Date can show: no job or clock reading may pass it. */
export const LATEST_TIME = 8_640_000_000_000_000;

/** A timed transition, kept as data so it survives a snapshot and restore. */
export const JobRecord = z.object({
  id: z.string().min(1),
  tenantId: z.string(),
  /** When it is due, in clock milliseconds. */
  at: z.number().finite().min(0).max(LATEST_TIME),
  /** Which registered handler runs it. */
  kind: z.string().min(1),
  payload: z.unknown(),
});
export type Job = z.infer<typeof JobRecord>;

export type JobHandler = (job: Job) => void;

/** Hears jobs come and go: what a durable store writes behind the scheduler (durability/). */
export interface JobJournal {
  /** A job was scheduled; `seq` orders it among jobs due at the same instant. */
  put(job: Job, seq: number): void;
  /** A job ran or was cancelled. */
  delete(job: Job): void;
}

/** A job in the queue, with the order it was scheduled in (jobs due at one instant run in that order). */
interface Queued {
  readonly job: Job;
  readonly seq: number;
  /** Cancelled: it leaves the heap when it reaches the top (it has left the map of waiting jobs already). */
  cancelled: boolean;
  /** Run: it has left the heap, and leaves the map of waiting jobs with others in bulk ({@link Scheduler.forgetRun}). */
  ran: boolean;
}

/** Whether a job due at `atA`, scheduled `seqA`-th, runs before one due at `atB`, scheduled `seqB`-th. */
const earlier = (atA: number, seqA: number, atB: number, seqB: number) => atA < atB || (atA === atB && seqA < seqB);

/** Whether `a` runs before `b`. */
const runsBefore = (a: Queued, b: Queued) => earlier(a.job.at, a.seq, b.job.at, b.seq);

export class FollowUps {
  private tasks: (() => void)[] = [];
  /** The next task to run. */
  private head = 0;

  add(task: () => void): void {
    this.tasks.push(task);
  }

  /** Runs the queued work, including work it queues in turn. A task that throws is a bug: it is logged. */
  run(): void {
    while (this.head < this.tasks.length) {
      const task = this.tasks[this.head++]!;
      try {
        task();
      } catch (error) {
        console.error('[railyard] internal error in follow-up work', error);
      }
    }
    this.tasks = [];
    this.head = 0;
  }
}

/**
 * Runs jobs when they fall due. With a virtual clock, {@link Scheduler.advance} runs every due job in time order,
 * synchronously, moving the clock to each job's time first. With a real clock a timer wakes it. The queue is
 * a binary heap: scheduling and running a job cost O(log n), so a month of a busy sandbox advances in n log n.
 */
export class Scheduler {
  /**
   * The heap, as parallel arrays: the queued jobs, and their due times and sequence numbers, which the comparisons
   * read from contiguous memory. A heap of objects followed a pointer per comparison (some 17 per job run at 100k).
   */
  private queued: Queued[] = [];
  private dueAt = new Float64Array(64);
  private seqs = new Float64Array(64);
  /**
   * The jobs waiting, by id, and jobs that ran and have not been removed yet (`ran`, counted in `ranStillMapped`). A
   * delete per job run cost half of an advance over 100k jobs (each a few cache misses in a large map); removing
   * them in bulk once they are the larger part walks the map in order instead.
   */
  private live = new Map<string, Queued>();
  private ranStillMapped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private counter = 0;
  private seq = 0;
  private running = false;

  /**
   * @param clock the time the jobs are due on.
   * @param handlers the handler of each kind of job, shared with the schedulers made by {@link Scheduler.withClock}.
   * @param followUps the queue of {@link Scheduler.soon}, shared likewise.
   */
  constructor(
    readonly clock: Clock,
    private readonly handlers = new Map<string, JobHandler>(),
    private readonly followUps = new FollowUps(),
    /** Told of every job scheduled, run or cancelled (a durable store); shared with {@link Scheduler.withClock}'s. */
    private readonly journal?: JobJournal,
  ) {}

  /**
   * A scheduler of its own on `clock` (a platform's own virtual clock): its jobs wait on that clock alone, while the
   * job handlers, the follow-up queue and the journal are this one's.
   */
  withClock(clock: Clock): Scheduler {
    return new Scheduler(clock, this.handlers, this.followUps, this.journal);
  }

  /** Registers the handler for a kind of job. */
  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Whether a kind of job has a handler. */
  handles(kind: string): boolean {
    return this.handlers.has(kind);
  }

  /**
   * Schedules a job; returns its id. A caller that will cancel the job may name it (`id`, unique among the jobs
   * waiting); scheduling an id again replaces the job waiting under it.
   */
  schedule(tenantId: string, at: number, kind: string, payload: unknown, id?: string): string {
    if (!this.handlers.has(kind)) throw new Error(`no handler registered for job kind ${kind}`);
    const job: Job = { id: id ?? `job-${++this.counter}`, tenantId, at, kind, payload };
    this.cancel(job.id);
    this.insert(job);
    this.arm();
    return job.id;
  }

  /**
   * Queues work to run right after the operation under way has produced its answer, without waiting for the clock: a
   * request's response is built first, then its follow-up runs (the HTTP layer calls {@link Scheduler.runSoon} after
   * each request, and every job is followed by it), so the next read sees the follow-up done. Used for what the
   * sandbox settles "instantly" but the API reports as under way (execute answers PROCESSING).
   */
  soon(task: () => void): void {
    this.followUps.add(task);
  }

  /** Runs the queued follow-up work, including work it queues in turn. */
  runSoon(): void {
    this.followUps.run();
  }

  /** A waiting job by id. */
  jobOf(jobId: string): Job | undefined {
    return this.waiting(jobId)?.job;
  }

  /** Removes a waiting job (nothing happens for one that ran or never was). */
  cancel(jobId: string): void {
    const queued = this.live.get(jobId);
    if (!queued) return;
    this.live.delete(jobId);
    if (queued.ran) {
      this.ranStillMapped--;
      return;
    }
    queued.cancelled = true;
    this.journal?.delete(queued.job);
    // Cancelled jobs wait in the heap until they reach the top; rebuild before they outnumber the live ones.
    if (this.queued.length > 1024 && this.queued.length > 2 * this.pending) this.rebuild();
  }

  /** Moves a virtual clock forward by `ms`, running every job due on the way. */
  advance(ms: number): number {
    if (!(this.clock instanceof VirtualClock)) throw new Error('only a virtual clock can be advanced');
    const target = this.clock.now() + ms;
    this.runDue(target);
    this.clock.setTo(target);
    return this.clock.now();
  }

  /**
   * Runs every job due by now, in order (a restore brings back jobs whose time passed while the state was elsewhere:
   * they run as part of it, so no read finds a state that should have moved already).
   */
  runDueNow(): void {
    this.runDue(this.clock.now());
    this.arm();
  }

  /** Jobs of one tenant, in the order they will run, for snapshots. */
  exportTenant(tenantId: string): Job[] {
    return this.waitingJobs()
      .filter((q) => q.job.tenantId === tenantId)
      .sort((a, b) => (runsBefore(a, b) ? -1 : 1))
      .map((q) => ({ ...q.job }));
  }

  /**
   * The first `limit` of one tenant's waiting jobs due at or before `until`, in the order they will run, and how many
   * are due by then in all. One pass over the waiting jobs, keeping the soonest `limit` in order (limit is small).
   */
  upcoming(tenantId: string, limit: number, until = LATEST_TIME): { jobs: Job[]; total: number } {
    const soonest: Queued[] = [];
    let total = 0;
    for (const queued of this.live.values()) {
      if (queued.ran || queued.cancelled || queued.job.tenantId !== tenantId || queued.job.at > until) continue;
      total++;
      if (soonest.length === limit && !runsBefore(queued, soonest[limit - 1]!)) continue;
      let at = soonest.length;
      while (at > 0 && runsBefore(queued, soonest[at - 1]!)) at--;
      soonest.splice(at, 0, queued);
      if (soonest.length > limit) soonest.pop();
    }
    return { jobs: soonest.map((q) => ({ ...q.job })), total };
  }

  /** Replaces one tenant's jobs. */
  importTenant(tenantId: string, jobs: Job[]): void {
    for (const queued of this.waitingJobs()) if (queued.job.tenantId === tenantId) this.cancel(queued.job.id);
    for (const job of jobs) {
      // Only ids this scheduler could have given move its counter (a restored `job-<400 digits>` must not make it
      // Infinity); a named job keeps its name.
      const given = /^job-(\d{1,15})$/.exec(job.id);
      if (given) this.counter = Math.max(this.counter, Number(given[1]));
      // An id another platform's job holds is not this snapshot's to take: the job gets a fresh one.
      const taken = this.waiting(job.id);
      const id = taken && taken.job.tenantId !== tenantId ? `job-${++this.counter}` : job.id;
      this.cancel(id);
      this.insert({ ...job, id, tenantId });
    }
    this.arm();
  }

  /**
   * Puts stored jobs back as they were (ids and scheduling order kept, so jobs due together run in the order they did
   * before, and a later reload agrees), without telling the journal: for a durable store's reload.
   */
  loadJobs(jobs: readonly { readonly job: Job; readonly seq: number }[]): void {
    for (const { job, seq } of jobs) {
      const given = /^job-(\d{1,15})$/.exec(job.id);
      if (given) this.counter = Math.max(this.counter, Number(given[1]));
      this.seq = Math.max(this.seq, seq);
    }
    for (const { job, seq } of jobs) {
      let loaded = job;
      if (this.waiting(job.id) !== undefined) {
        // Numbered by another process (a platform loaded from a shared store): renumbered here, and stored so.
        loaded = { ...job, id: `job-${++this.counter}` };
        this.journal?.delete(job);
        this.journal?.put(loaded, seq);
      }
      this.push({ job: loaded, seq, cancelled: false, ran: false });
    }
    this.arm();
  }

  /** Forgets a tenant's waiting jobs without telling the journal (another process serves the tenant now). */
  unloadTenant(tenantId: string): void {
    for (const queued of this.waitingJobs()) {
      if (queued.job.tenantId !== tenantId) continue;
      queued.cancelled = true;
      this.live.delete(queued.job.id);
    }
  }

  /** Number of jobs waiting. */
  get pending(): number {
    return this.live.size - this.ranStillMapped;
  }

  /** Stops the real-clock timer (server shutdown). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private insert(job: Job) {
    const queued: Queued = { job, seq: ++this.seq, cancelled: false, ran: false };
    this.push(queued);
    this.journal?.put(job, queued.seq);
  }

  private push(queued: Queued) {
    const { job } = queued;
    this.live.set(job.id, queued);
    const index = this.queued.length;
    if (index === this.dueAt.length) this.grow();
    this.queued.push(queued);
    this.dueAt[index] = job.at;
    this.seqs[index] = queued.seq;
    this.siftUp(index);
  }

  private grow() {
    const dueAt = new Float64Array(this.dueAt.length * 2);
    const seqs = new Float64Array(this.seqs.length * 2);
    dueAt.set(this.dueAt);
    seqs.set(this.seqs);
    this.dueAt = dueAt;
    this.seqs = seqs;
  }

  /** The next job to run, dropping cancelled ones from the top. */
  private peek(): Queued | undefined {
    while (this.queued.length > 0 && this.queued[0]!.cancelled) this.pop();
    return this.queued[0];
  }

  private pop(): Queued {
    const top = this.queued[0]!;
    const last = this.queued.pop()!;
    const size = this.queued.length;
    if (size > 0) {
      this.queued[0] = last;
      this.dueAt[0] = this.dueAt[size]!;
      this.seqs[0] = this.seqs[size]!;
      this.siftDown(0);
    }
    return top;
  }

  /** Moves the entry at heap position `from` to `to`. */
  private move(from: number, to: number) {
    this.queued[to] = this.queued[from]!;
    this.dueAt[to] = this.dueAt[from]!;
    this.seqs[to] = this.seqs[from]!;
  }

  private siftUp(index: number) {
    const item = this.queued[index]!;
    const at = this.dueAt[index]!;
    const seq = this.seqs[index]!;
    const { dueAt, seqs } = this;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!earlier(at, seq, dueAt[parent]!, seqs[parent]!)) break;
      this.move(parent, index);
      index = parent;
    }
    this.queued[index] = item;
    dueAt[index] = at;
    seqs[index] = seq;
  }

  private siftDown(index: number) {
    const size = this.queued.length;
    const item = this.queued[index]!;
    const at = this.dueAt[index]!;
    const seq = this.seqs[index]!;
    const { dueAt, seqs } = this;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && earlier(dueAt[right]!, seqs[right]!, dueAt[left]!, seqs[left]!) ? right : left;
      if (!earlier(dueAt[child]!, seqs[child]!, at, seq)) break;
      this.move(child, index);
      index = child;
    }
    this.queued[index] = item;
    dueAt[index] = at;
    seqs[index] = seq;
  }

  /** Rebuilds the heap from the live jobs (Floyd's heapify, O(n)). */
  private rebuild() {
    this.queued = this.waitingJobs();
    this.dueAt = new Float64Array(Math.max(64, this.queued.length * 2));
    this.seqs = new Float64Array(this.dueAt.length);
    this.queued.forEach((queued, index) => {
      this.dueAt[index] = queued.job.at;
      this.seqs[index] = queued.seq;
    });
    for (let i = (this.queued.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private runDue(until: number) {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.peek(); next !== undefined && next.job.at <= until; next = this.peek()) {
        this.pop();
        next.ran = true;
        this.ranStillMapped++;
        const { job } = next;
        this.journal?.delete(job);
        if (this.clock instanceof VirtualClock) this.clock.setTo(job.at);
        try {
          this.handlers.get(job.kind)?.(job);
        } catch (error) {
          // A job that fails (a restored one pointing at nothing, or a bug) is logged and dropped: the clock goes on,
          // and the jobs after it still run.
          console.error(`[railyard] job ${job.kind} ${job.id} failed`, error);
        }
        this.runSoon();
      }
    } finally {
      this.running = false;
      if (this.ranStillMapped > 1024 && this.ranStillMapped > this.pending) this.forgetRun();
    }
  }

  /** A job that has not run and is not cancelled, by id. */
  private waiting(jobId: string): Queued | undefined {
    const queued = this.live.get(jobId);
    return queued?.ran ? undefined : queued;
  }

  private waitingJobs(): Queued[] {
    const waiting: Queued[] = [];
    for (const queued of this.live.values()) if (!queued.ran) waiting.push(queued);
    return waiting;
  }

  /** Removes the jobs that ran from the map of waiting jobs, keeping the others in the order they were scheduled. */
  private forgetRun() {
    const kept = new Map<string, Queued>();
    for (const [id, queued] of this.live) if (!queued.ran) kept.set(id, queued);
    this.live = kept;
    this.ranStillMapped = 0;
  }

  private arm() {
    if (this.clock.mode !== 'real') return;
    this.stop();
    const first = this.peek();
    if (!first) return;
    const delay = Math.max(0, Math.min(first.job.at - this.clock.now(), 2 ** 31 - 1));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runDue(this.clock.now());
      this.arm();
    }, delay);
    (this.timer as { unref?: () => void }).unref?.();
  }
}
