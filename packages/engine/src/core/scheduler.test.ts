import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from './clock.js';
import { Scheduler } from './scheduler.js';

describe('Scheduler on a virtual clock', () => {
  it('runs due jobs in time order, at their own time, including jobs scheduled by jobs', () => {
    const clock = new VirtualClock(0);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    scheduler.register('note', (job) => {
      ran.push(`${job.payload as string}@${clock.now()}`);
      if (job.payload === 'b') scheduler.schedule('t', clock.now() + 5, 'note', 'b+5');
    });
    scheduler.schedule('t', 30, 'note', 'c');
    scheduler.schedule('t', 10, 'note', 'a');
    scheduler.schedule('t', 20, 'note', 'b');
    scheduler.schedule('t', 20, 'note', 'b2');
    expect(scheduler.advance(22)).toBe(22);
    expect(ran).toEqual(['a@10', 'b@20', 'b2@20']);
    scheduler.advance(100);
    expect(ran).toEqual(['a@10', 'b@20', 'b2@20', 'b+5@25', 'c@30']);
    expect(clock.now()).toBe(122);
    expect(scheduler.pending).toBe(0);
  });

  it('runs thousands of jobs in (due time, scheduling order), across cancellations, replacements and rebuilds', () => {
    const clock = new VirtualClock(0);
    const scheduler = new Scheduler(clock);
    const ran: number[] = [];
    scheduler.register('note', (job) => ran.push(job.payload as number));
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    // Due times from a small range, so many jobs share an instant: those run in the order they were scheduled.
    const waiting = new Map<string, { at: number; order: number }>();
    let order = 0;
    for (let i = 0; i < 5_000; i++) {
      const id = `j${random(3_000)}`; // some ids come again: the job waiting under it is replaced
      const at = random(500);
      scheduler.schedule('t', at, 'note', order, id);
      waiting.set(id, { at, order: order++ });
      if (random(3) === 0) {
        // Cancel one that waits: enough of them that the heap is rebuilt more than once.
        const [victim] = [...waiting.keys()].slice(random(waiting.size), random(waiting.size) + 1);
        if (victim !== undefined) {
          scheduler.cancel(victim);
          waiting.delete(victim);
        }
      }
    }
    expect(scheduler.pending).toBe(waiting.size);
    const expected = [...waiting.values()].sort((a, b) => a.at - b.at || a.order - b.order);
    scheduler.advance(250);
    expect(ran).toEqual(expected.filter((job) => job.at <= 250).map((job) => job.order));
    scheduler.advance(250);
    expect(ran).toEqual(expected.map((job) => job.order));
    expect(scheduler.pending).toBe(0);
  });

  it.each([10, 3_000])('forgets the %i jobs that ran: not pending, not found, not exported, and their ids free again', (count) => {
    const clock = new VirtualClock(0);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    // A job is gone while its handler runs: its id can be taken again at once.
    const foundWhileRunning: unknown[] = [];
    scheduler.register('note', (job) => {
      ran.push(job.id);
      foundWhileRunning.push(scheduler.jobOf(job.id));
      if (job.id === 'named-0' && job.payload !== 'again') scheduler.schedule('t', count + 1_000, 'note', 'again', 'named-0');
    });
    for (let i = 0; i < count; i++) scheduler.schedule('t', i + 1, 'note', i, `named-${i}`);
    scheduler.schedule('t', 5_000, 'note', 'later', 'later');
    scheduler.advance(count);
    expect(ran).toHaveLength(count);
    expect(foundWhileRunning.filter((found) => found !== undefined)).toEqual([]);
    // Above 1,024 the jobs that ran have left the scheduler's map in bulk; below, they wait there for the next time.
    const mapped = (scheduler as unknown as { live: Map<string, unknown> }).live.size;
    expect(mapped).toBe(count > 1_024 ? 2 : count + 1);
    // The job named-0 scheduled again under its own name, and the one due later, wait; nothing that ran does.
    expect(scheduler.pending).toBe(2);
    expect(scheduler.jobOf('named-0')?.payload).toBe('again');
    expect(scheduler.jobOf(`named-${count - 1}`)).toBeUndefined();
    expect(scheduler.exportTenant('t').map((job) => job.id)).toEqual(['named-0', 'later']);
    // Cancelling a job that ran changes nothing; scheduling under its id again makes one job waiting, which runs.
    scheduler.cancel(`named-${count - 1}`);
    expect(scheduler.pending).toBe(2);
    scheduler.schedule('t', count + 10, 'note', 'reused', `named-${count - 1}`);
    scheduler.schedule('t', count + 20, 'note', 'reused twice', `named-${count - 1}`);
    expect(scheduler.pending).toBe(3);
    scheduler.advance(10_000);
    expect(ran.slice(count)).toEqual([`named-${count - 1}`, 'named-0', 'later']);
    expect(scheduler.pending).toBe(0);
    expect(scheduler.exportTenant('t')).toEqual([]);
  });

  it('exports and imports one tenant’s jobs', () => {
    const clock = new VirtualClock(0);
    const scheduler = new Scheduler(clock);
    const ran: unknown[] = [];
    scheduler.register('note', (job) => ran.push([job.tenantId, job.payload]));
    scheduler.schedule('a', 10, 'note', 1);
    scheduler.schedule('b', 20, 'note', 2);
    const saved = scheduler.exportTenant('a');
    scheduler.importTenant('a', []);
    expect(scheduler.pending).toBe(1);
    scheduler.importTenant('a', saved);
    scheduler.advance(20);
    expect(ran).toEqual([['a', 1], ['b', 2]]);
  });

  it('refuses a job kind nobody handles', () => {
    const scheduler = new Scheduler(new VirtualClock(0));
    expect(() => scheduler.schedule('t', 1, 'nothing', null)).toThrow(/no handler/);
  });
});

describe('Scheduler follow-up work (soon / runSoon)', () => {
  it('runs queued work in order, including work it queues, and keeps going past a task that throws', () => {
    const scheduler = new Scheduler(new VirtualClock(0));
    const ran: string[] = [];
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    scheduler.soon(() => {
      ran.push('a');
      scheduler.soon(() => ran.push('a+'));
    });
    scheduler.soon(() => {
      throw new Error('boom');
    });
    scheduler.soon(() => ran.push('b'));
    expect(ran).toEqual([]);
    scheduler.runSoon();
    expect(ran).toEqual(['a', 'b', 'a+']);
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
    scheduler.runSoon();
    expect(ran).toEqual(['a', 'b', 'a+']);
  });

  it('runs the work a job queues before the next job, at that job’s time', () => {
    const clock = new VirtualClock(0);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    scheduler.register('note', (job) => {
      ran.push(`${job.payload as string}@${clock.now()}`);
      scheduler.soon(() => ran.push(`after ${job.payload as string}@${clock.now()}`));
    });
    scheduler.schedule('t', 10, 'note', 'a');
    scheduler.schedule('t', 20, 'note', 'b');
    scheduler.advance(30);
    expect(ran).toEqual(['a@10', 'after a@10', 'b@20', 'after b@20']);
  });
});


describe('Scheduler journal and reload (a durable store behind it)', () => {
  it('tells the journal every job scheduled, replaced, cancelled and run; a reload keeps ids and the order of jobs due together', () => {
    const heard: string[] = [];
    const journal = { put: (job: { id: string }, seq: number) => heard.push(`put ${job.id} ${seq}`), delete: (job: { id: string }) => heard.push(`delete ${job.id}`) };
    const scheduler = new Scheduler(new VirtualClock(0), undefined, undefined, journal);
    const ran: unknown[] = [];
    scheduler.register('note', (job) => ran.push(job.payload));
    scheduler.schedule('a', 10, 'note', 'first');
    scheduler.schedule('a', 10, 'note', 'second', 'named');
    scheduler.schedule('a', 10, 'note', 'replaced', 'named');
    const gone = scheduler.schedule('a', 5, 'note', 'cancelled');
    scheduler.cancel(gone);
    const waiting = scheduler.exportTenant('a');
    expect(heard).toEqual(['put job-1 1', 'put named 2', 'delete named', 'put named 3', 'put job-2 4', 'delete job-2']);

    const reloaded = new Scheduler(new VirtualClock(0));
    const again: unknown[] = [];
    reloaded.register('note', (job) => again.push([job.id, job.payload]));
    reloaded.loadJobs(waiting.map((job, i) => ({ job, seq: i + 1 })));
    // Past the highest id waiting (the number of a job cancelled since may come again: no record keeps an unnamed job's id).
    expect(reloaded.schedule('a', 10, 'note', 'after')).toBe('job-2');
    reloaded.advance(10);
    expect(again).toEqual([['job-1', 'first'], ['named', 'replaced'], ['job-2', 'after']]);
    heard.length = 0;
    scheduler.advance(10);
    expect(heard).toEqual(['delete job-1', 'delete named']);
    expect(ran).toEqual(['first', 'replaced']);
  });

  it("renumbers a loaded job whose id another tenant's job holds (numbered by another process), and stores the new number", () => {
    const heard: string[] = [];
    const journal = { put: (job: { id: string; tenantId: string }, seq: number) => heard.push(`put ${job.tenantId} ${job.id} ${seq}`), delete: (job: { id: string; tenantId: string }) => heard.push(`delete ${job.tenantId} ${job.id}`) };
    const scheduler = new Scheduler(new VirtualClock(0), undefined, undefined, journal);
    const ran: string[] = [];
    scheduler.register('note', (job) => ran.push(`${job.tenantId} ${job.id} ${job.payload as string}`));
    scheduler.schedule('a', 10, 'note', 'mine');
    heard.length = 0;
    scheduler.loadJobs([{ job: { id: 'job-1', tenantId: 'b', at: 5, kind: 'note', payload: 'theirs' }, seq: 7 }]);
    expect(heard).toEqual(['delete b job-1', 'put b job-2 7']);
    scheduler.advance(10);
    expect(ran).toEqual(['b job-2 theirs', 'a job-1 mine']);
  });

  it('forgets an unloaded tenant without telling the journal, and keeps the others', () => {
    const heard: string[] = [];
    const journal = { put: () => undefined, delete: (job: { id: string }) => heard.push(`delete ${job.id}`) };
    const scheduler = new Scheduler(new VirtualClock(0), undefined, undefined, journal);
    const ran: string[] = [];
    scheduler.register('note', (job) => ran.push(job.payload as string));
    scheduler.schedule('a', 10, 'note', 'a1');
    scheduler.schedule('b', 10, 'note', 'b1');
    scheduler.unloadTenant('a');
    expect(scheduler.pending).toBe(1);
    scheduler.advance(10);
    expect(ran).toEqual(['b1']);
    expect(heard).toEqual(['delete job-2']);
  });
});
