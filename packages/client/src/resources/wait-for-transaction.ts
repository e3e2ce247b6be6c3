/**
 * Waiting for a transaction to settle: poll it on a real clock, or move a sandbox's virtual clock forward instead of
 * sleeping, until it reaches a final state (or the caller's own condition), within a time budget.
 * @module
 */
import { controlPlaneEndpoints, paymentEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import { MethodNotAllowedError, NotFoundError, RailyardError, TransactionWaitTimeoutError } from '../core/errors.js';
import type { RequestOptions } from '../core/types.js';
import type { Transaction } from './transactions.js';

/** Default milliseconds between two reads of the transaction on a real clock. */
export const DEFAULT_WAIT_INTERVAL_MS = 1_000;
/** Default milliseconds the virtual clock is moved between two reads with `advanceClock: true`. */
export const DEFAULT_CLOCK_STEP_MS = 10_000;
/** Default time budget of `client.transactions.waitFor`: 10 minutes. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

/** Options of {@link Transactions.waitFor} (and, with `until` on their own resource, of every `waitFor`). */
export interface WaitForOptions {
  /** Milliseconds between two reads of the transaction when polling. Default 1000. */
  interval?: number;
  /**
   * How long to wait in all, in milliseconds, before rejecting with a {@link TransactionWaitTimeoutError}. Default
   * 600000 (10 minutes); `Infinity` waits for ever. On a real clock this is time spent waiting; when the virtual clock is
   * advanced it is the engine time moved forward (so a sandbox payment that takes "about 6 minutes" fits the default).
   */
  timeout?: number;
  /**
   * Against a Railyard sandbox whose clock is virtual (`GET /_sandbox/clock` reports `mode: 'virtual'`), move the
   * clock forward instead of sleeping: `true` moves it 10 s at a time, a number sets the step in milliseconds. Time on a
   * virtual clock moves only when someone advances it, so tests against one (in process, or `railyard serve --clock
   * virtual`) want this. Advancing runs every job that falls due, for every platform of the engine (other quotes may
   * expire). Ignored, and the transaction polled instead, when the client does not point at a sandbox, when the
   * clock is real, or when the server has no `/_sandbox/clock`. Default `false`: never touch the clock.
   */
  advanceClock?: boolean | number;
  /**
   * Resolve as soon as this returns true, instead of at a final state (see {@link isTransactionSettled}), e.g.
   * `(t) => t.status !== 'PENDING'`.
   */
  until?: (transaction: Transaction) => boolean;
  /** Aborts the wait (and any request under way); it then rejects with an {@link APIUserAbortError}. */
  signal?: AbortSignal;
  /** Options of each request the wait sends (`timeout` per attempt, `maxRetries`, `headers`). */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'>;
}

/** Statuses after which an incoming or outgoing transaction does not move on by itself. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'EXPIRED', 'REJECTED', 'REFUNDED']);
/** Card-transaction statuses that are final. */
const FINAL_CARD_STATUSES: ReadonlySet<string> = new Set(['SETTLED', 'EXCEPTION']);

/**
 * Whether a transaction has settled: COMPLETED, FAILED, EXPIRED, REJECTED or REFUNDED (a card transaction: SETTLED or
 * EXCEPTION), and, when it carries a refund (a failed payout is refunded automatically), that refund is no longer
 * PENDING. A payout the receiving bank returns later can still move from COMPLETED to FAILED; a webhook tells you.
 */
export function isTransactionSettled(transaction: Transaction): boolean {
  if (transaction.type === 'CARD') return FINAL_CARD_STATUSES.has(transaction.status);
  return FINAL_STATUSES.has(transaction.status) && transaction.refund?.status !== 'PENDING';
}

/** Reads how to wait: by sleeping, or by moving a virtual clock `step` ms at a time. */
async function chooseStrategy(
  client: RailyardClient, advanceClock: boolean | number | undefined, request: RequestOptions,
): Promise<{ advance: false } | { advance: true; step: number }> {
  if (advanceClock === undefined || advanceClock === false || !client.isSandbox) return { advance: false };
  const step = advanceClock === true ? DEFAULT_CLOCK_STEP_MS : advanceClock;
  if (!Number.isInteger(step) || step <= 0) throw new RailyardError(`advanceClock must be true or a positive whole number of milliseconds, got ${step}.`);
  try {
    const clock = await client.call(controlPlaneEndpoints.getSandboxClock, {}, request);
    return clock.mode === 'virtual' ? { advance: true, step } : { advance: false };
  } catch (error) {
    // A sandbox that is not a Railyard engine has no control plane: poll it.
    if (error instanceof NotFoundError || error instanceof MethodNotAllowedError) return { advance: false };
    throw error;
  }
}

function validDuration(value: number | undefined, name: string, fallback: number, minimum = 0): number {
  if (value === undefined) return fallback;
  if (Number.isNaN(value) || value < minimum) throw new RailyardError(`${name} must be at least ${minimum} milliseconds, got ${value}.`);
  return value;
}

/** How {@link pollUntil} reads, judges and reports: the resource, when it is done, and the error when time runs out. */
export interface PollTarget<T> {
  read(request: RequestOptions): Promise<T>;
  done(value: T): boolean;
  timedOut(last: T, timeout: number, advancedClock: boolean): Error;
}

/**
 * Reads a resource until `target.done` holds, waiting in between by sleeping `interval` ms, or by advancing a
 * sandbox's virtual clock (see {@link WaitForOptions.advanceClock}); rejects with `target.timedOut(...)` once `timeout`
 * is spent. Shared by every `waitFor` of the client.
 *
 * @param sleep - Waits `ms` (ending early with an {@link APIUserAbortError} on abort): the client's own sleep.
 */
export async function pollUntil<T>(
  client: RailyardClient,
  target: PollTarget<T>,
  options: Omit<WaitForOptions, 'until'>,
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>,
): Promise<T> {
  // At least 10 ms between reads: `interval: 0` would busy-poll the API.
  const interval = validDuration(options.interval, 'interval', DEFAULT_WAIT_INTERVAL_MS, 10);
  const timeout = validDuration(options.timeout, 'timeout', DEFAULT_WAIT_TIMEOUT_MS);
  const request: RequestOptions = { ...options.requestOptions, ...(options.signal ? { signal: options.signal } : {}) };

  const strategy = await chooseStrategy(client, options.advanceClock, request);
  // Time spent is the larger of the wall time and the time slept or advanced: a virtual clock moves faster than the
  // wall, and an injected sleep may return at once.
  const started = Date.now();
  let waited = 0;
  const spent = () => Math.max(Date.now() - started, waited);

  let value = await target.read(request);
  while (!target.done(value)) {
    const remaining = timeout - spent();
    if (remaining <= 0) throw target.timedOut(value, timeout, strategy.advance);
    if (strategy.advance) {
      const ms = Math.ceil(Math.min(strategy.step, remaining));
      await client.call(controlPlaneEndpoints.advanceSandboxClock, { body: { ms } }, request);
      waited += ms;
    } else {
      const ms = Math.min(interval, remaining);
      await sleep(ms, options.signal);
      waited += ms;
    }
    value = await target.read(request);
  }
  return value;
}

/**
 * Reads the transaction until it has settled ({@link isTransactionSettled}) or `until` holds (see {@link pollUntil}).
 * Rejects with a {@link TransactionWaitTimeoutError} once `timeout` is spent, carrying the last state seen.
 */
export function waitForTransaction(
  client: RailyardClient,
  transactionId: string,
  options: WaitForOptions,
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>,
): Promise<Transaction> {
  return pollUntil(client, {
    read: (request) => client.call(paymentEndpoints.getTransaction, { params: { transactionId } }, request),
    done: options.until ?? isTransactionSettled,
    timedOut: (transaction, timeout, advancedClock) => new TransactionWaitTimeoutError({ transactionId, transaction, timeout, advancedClock }),
  }, options, sleep);
}
