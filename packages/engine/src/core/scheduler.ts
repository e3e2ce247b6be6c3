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

/**
 * Runs jobs when they fall due. With a virtual clock, {@link Scheduler.advance} runs every due job in time order,
 * synchronously, moving the clock to each job's time first (DESIGN §5). With a real clock a timer wakes it.
 */
export class Scheduler {
  private jobs: Job[] = [];
  /** Work to run right after the operation under way (see {@link Scheduler.soon}). */
  private readonly soonTasks: (() => void)[] = [];
  private readonly handlers = new Map<string, JobHandler>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private counter = 0;
  private running = false;

  constructor(private readonly clock: Clock) {}

  /** Registers the handler for a kind of job. */
  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Whether a kind of job has a handler. */
  handles(kind: string): boolean {
    return this.handlers.has(kind);
  }

  /** Schedules a job; returns its id. */
  schedule(tenantId: string, at: number, kind: string, payload: unknown): string {
    if (!this.handlers.has(kind)) throw new Error(`no handler registered for job kind ${kind}`);
    const job: Job = { id: `job-${++this.counter}`, tenantId, at, kind, payload };
    this.insert(job);
    this.arm();
    return job.id;
  }

  /**
   * Queues work to run right after the operation under way has produced its answer, without waiting for the clock: a
   * request's response is built first, then its follow-up runs (the HTTP layer calls {@link Scheduler.runSoon} after
   * each request, and every job is followed by it), so the next read sees the follow-up done. Used for what the
   * sandbox settles "instantly" but the API reports as under way (SPEC §4.5: execute answers PROCESSING).
   */
  soon(task: () => void): void {
    this.soonTasks.push(task);
  }

  /** Runs the queued follow-up work, including work it queues in turn. A task that throws is a bug: it is logged. */
  runSoon(): void {
    for (let task = this.soonTasks.shift(); task !== undefined; task = this.soonTasks.shift()) {
      try {
        task();
      } catch (error) {
        console.error('[railyard] internal error in follow-up work', error);
      }
    }
  }

  cancel(jobId: string): void {
    this.jobs = this.jobs.filter((j) => j.id !== jobId);
  }

  /** Moves a virtual clock forward by `ms`, running every job due on the way. */
  advance(ms: number): number {
    if (!(this.clock instanceof VirtualClock)) throw new Error('only a virtual clock can be advanced');
    const target = this.clock.now() + ms;
    this.runDue(target);
    this.clock.setTo(target);
    return this.clock.now();
  }

  /** Jobs of one tenant, for snapshots. */
  exportTenant(tenantId: string): Job[] {
    return this.jobs.filter((j) => j.tenantId === tenantId).map((j) => ({ ...j }));
  }

  /** Replaces one tenant's jobs. */
  importTenant(tenantId: string, jobs: Job[]): void {
    this.jobs = this.jobs.filter((j) => j.tenantId !== tenantId);
    for (const job of jobs) {
      this.counter = Math.max(this.counter, Number(job.id.replace(/\D/g, '')) || 0);
      this.insert({ ...job, tenantId });
    }
    this.arm();
  }

  /** Number of jobs waiting. */
  get pending(): number {
    return this.jobs.length;
  }

  /** Stops the real-clock timer (server shutdown). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private insert(job: Job) {
    // Stable: a job scheduled later for the same instant runs after the earlier ones.
    let i = this.jobs.length;
    while (i > 0 && this.jobs[i - 1]!.at > job.at) i--;
    this.jobs.splice(i, 0, job);
  }

  private runDue(until: number) {
    if (this.running) return;
    this.running = true;
    try {
      while (this.jobs.length > 0 && this.jobs[0]!.at <= until) {
        const job = this.jobs.shift()!;
        if (this.clock instanceof VirtualClock) this.clock.setTo(job.at);
        this.handlers.get(job.kind)?.(job);
        this.runSoon();
      }
    } finally {
      this.running = false;
    }
  }

  private arm() {
    if (this.clock.mode !== 'real') return;
    this.stop();
    const first = this.jobs[0];
    if (!first) return;
    const delay = Math.max(0, Math.min(first.at - this.clock.now(), 2 ** 31 - 1));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runDue(this.clock.now());
      this.arm();
    }, delay);
    (this.timer as { unref?: () => void }).unref?.();
  }
}
