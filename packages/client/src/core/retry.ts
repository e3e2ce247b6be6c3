/**
 * Retry policy: which failures are retried, for which methods, and how long to wait in between.
 * Pure functions, so the rules can be tested without a network.
 * @module
 */

/** First backoff delay in milliseconds; doubled on every further attempt. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Ceiling of the computed backoff delay. */
export const MAX_RETRY_DELAY_MS = 8_000;
/**
 * The longest `Retry-After` the client waits for. A server asking for longer gets no retry: the error is
 * returned to the caller at once (with the header still readable on the error).
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth trying again: request timeout, rate limit, and every server error but 501 (not implemented stays so). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

/**
 * Error codes whose answer a retry cannot change: `DAILY_VOLUME_LIMIT_EXCEEDED` (429) holds until the next UTC day.
 */
export const NON_RETRYABLE_CODES: ReadonlySet<string> = new Set(['DAILY_VOLUME_LIMIT_EXCEEDED']);

/**
 * Whether an error response is worth trying again. The server's `x-should-retry` header decides when present (`true`
 * or `false`, as generated SDKs read it). Otherwise: a retryable status ({@link isRetryableStatus}), unless its code is
 * one of {@link NON_RETRYABLE_CODES}, or the server replayed a stored response for the request's `Idempotency-Key`
 * (`Idempotent-Replayed: true`: the same key gets the same answer every time).
 */
export function isRetryableResponse(status: number, headers: Headers, body: unknown): boolean {
  const advice = headers.get('x-should-retry');
  if (advice === 'true') return true;
  if (advice === 'false') return false;
  if (!isRetryableStatus(status)) return false;
  if (headers.get('idempotent-replayed') === 'true') return false;
  const code = body !== null && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
  return !(typeof code === 'string' && NON_RETRYABLE_CODES.has(code));
}

/**
 * Whether a request with this method may be sent again without risking a second effect.
 * GET, HEAD, PUT, PATCH and DELETE may; POST only when it carries an `Idempotency-Key` (the server then
 * replays the first response instead of acting twice).
 */
export function isRetryableMethod(method: string, hasIdempotencyKey: boolean): boolean {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
      return true;
    case 'POST':
      return hasIdempotencyKey;
    default:
      return false;
  }
}

/**
 * The delay the server asked for, in milliseconds: `retry-after-ms`, else `Retry-After` as seconds or as an
 * HTTP date (relative to `now`). `undefined` when neither header is present or parseable.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter for retry number `retry` (0 for the first retry):
 * `min(500ms * 2^retry, 8s)`, reduced by up to 25% at random so that many clients do not retry in lockstep.
 *
 * @param random - A number in [0, 1), `Math.random()` by default (injectable for tests).
 */
export function backoffDelay(retry: number, random: number = Math.random()): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - 0.25 * random));
}

/**
 * How long to wait before retry number `retry` after a response: the server's `Retry-After` / `retry-after-ms`
 * when present (exactly, without jitter), else {@link backoffDelay}. Returns `undefined` when the server asks
 * for more than {@link MAX_RETRY_AFTER_MS}: not worth waiting for inside one call.
 */
export function retryDelay(retry: number, headers: Headers | undefined, random: number = Math.random(), now: number = Date.now()): number | undefined {
  const asked = headers ? parseRetryAfter(headers, now) : undefined;
  if (asked === undefined) return backoffDelay(retry, random);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

/** Waits `ms` milliseconds. The default `sleep` of the client; tests inject their own. */
export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
