/**
 * Time for the whole engine. Everything time-dependent reads the clock; timed outcomes are jobs on the
 * Scheduler, so a virtual clock makes them happen on demand and in order.
 */
export interface Clock {
  readonly mode: 'virtual' | 'real';
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A clock that only moves when told to. Starts at `start` (default: the real time at creation, to the second). */
export class VirtualClock implements Clock {
  readonly mode = 'virtual' as const;
  private current: number;

  constructor(start: number | Date = Math.floor(Date.now() / 1000) * 1000) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward to `to`; never backwards. Used by the scheduler while it runs due jobs. */
  setTo(to: number): void {
    if (to > this.current) this.current = to;
  }
}

/** Wall-clock time. */
export class RealClock implements Clock {
  readonly mode = 'real' as const;
  now(): number {
    return Date.now();
  }
}

/** ISO 8601 UTC string of a clock reading. */
export const iso = (ms: number): string => {
  // Records made in the same millisecond share one string (a sandbox makes many per millisecond).
  if (ms !== lastIso.ms) {
    lastIso.ms = ms;
    lastIso.text = new Date(ms).toISOString();
  }
  return lastIso.text;
};
const lastIso = { ms: NaN, text: '' };
