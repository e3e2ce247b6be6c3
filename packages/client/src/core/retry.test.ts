import { describe, expect, it } from 'vitest';
import {
  APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, BadRequestError, ConflictError, InternalServerError,
  NotFoundError, RateLimitError,
} from '../index.js';
import { errorBody, individual, setup } from '../test-support.js';
import { backoffDelay, isRetryableMethod, isRetryableResponse, isRetryableStatus, parseRetryAfter, retryDelay } from './retry.js';

const ok = { body: individual() };
const unavailable = errorBody(503, 'SERVICE_UNAVAILABLE', 'provider down');

describe('retry policy (pure)', () => {
  it('retries 408, 429 and 5xx only', () => {
    expect([400, 401, 403, 404, 405, 408, 409, 410, 422, 423, 429, 500, 501, 502, 503, 504].filter(isRetryableStatus)).toEqual([
      408, 429, 500, 502, 503, 504,
    ]);
  });

  it('does not retry what a retry cannot change: a daily volume limit, or a response replayed for the key', () => {
    const none = new Headers();
    expect(isRetryableResponse(429, none, { code: 'RATE_LIMITED' })).toBe(true);
    expect(isRetryableResponse(429, none, 'Too Many Requests')).toBe(true);
    expect(isRetryableResponse(429, none, { code: 'DAILY_VOLUME_LIMIT_EXCEEDED' })).toBe(false);
    expect(isRetryableResponse(429, new Headers({ 'idempotent-replayed': 'true' }), { code: 'RATE_LIMITED' })).toBe(false);
    expect(isRetryableResponse(409, none, { code: 'CONFLICT' })).toBe(false);
  });

  it('follows the server\'s x-should-retry header over its own rules, as generated SDKs do', () => {
    expect(isRetryableResponse(429, new Headers({ 'x-should-retry': 'false' }), { code: 'RATE_LIMITED' })).toBe(false);
    expect(isRetryableResponse(503, new Headers({ 'x-should-retry': 'false' }), { code: 'SERVICE_UNAVAILABLE' })).toBe(false);
    expect(isRetryableResponse(409, new Headers({ 'x-should-retry': 'true' }), { code: 'CONFLICT' })).toBe(true);
    expect(isRetryableResponse(429, new Headers({ 'x-should-retry': 'maybe' }), { code: 'RATE_LIMITED' })).toBe(true);
  });

  it('retries POST only with an Idempotency-Key', () => {
    expect(isRetryableMethod('GET', false)).toBe(true);
    expect(isRetryableMethod('DELETE', false)).toBe(true);
    expect(isRetryableMethod('PUT', false)).toBe(true);
    expect(isRetryableMethod('PATCH', false)).toBe(true);
    expect(isRetryableMethod('POST', false)).toBe(false);
    expect(isRetryableMethod('POST', true)).toBe(true);
  });

  it('backs off exponentially from 500ms, capped at 8s, with up to 25% jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffDelay(0, 0.999999)).toBe(375);
    expect(backoffDelay(4, 0.5)).toBe(7000);
  });

  it('reads retry-after-ms, Retry-After seconds and Retry-After HTTP dates', () => {
    const now = Date.parse('2025-10-13T12:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1234' }), now)).toBe(1234);
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Mon, 13 Oct 2025 12:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Mon, 13 Oct 2025 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': 'soon', 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'whenever' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(retryDelay(0, new Headers({ 'retry-after': '61' }), 0, now)).toBeUndefined();
    expect(retryDelay(2, new Headers(), 0, now)).toBe(2000);
  });
});

describe('retry loop', () => {
  it('retries a GET on 503 with backoff and succeeds on the third attempt', async () => {
    const { client, requests, sleeps } = setup([unavailable, unavailable, ok]);
    const { data, response } = await client.customers.retrieve('c').withResponse();
    expect(data.id).toBe(individual().id);
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
    expect(response.retries).toBe(2);
    expect(response.requestId).toBe('req_3');
  });

  it('gives up after maxRetries (default 2) and throws the last error', async () => {
    const { client, requests, sleeps } = setup([errorBody(500, 'INTERNAL_ERROR', 'boom')]);
    const error = await client.customers.retrieve('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).code).toBe('INTERNAL_ERROR');
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('honours maxRetries from the client and per request', async () => {
    const a = setup([unavailable], { maxRetries: 4 });
    await expect(a.client.customers.retrieve('c')).rejects.toBeInstanceOf(InternalServerError);
    expect(a.requests).toHaveLength(5);
    expect(a.sleeps).toEqual([500, 1000, 2000, 4000]);
    const b = setup([unavailable]);
    await expect(b.client.customers.retrieve('c', { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(b.requests).toHaveLength(1);
    expect(b.sleeps).toEqual([]);
  });

  it('retries 408 and 429 but not other 4xx', async () => {
    for (const status of [408, 429]) {
      const { client, requests } = setup([{ status, body: { status, code: 'X', message: 'x' } }, ok]);
      await client.customers.retrieve('c');
      expect(requests, `status ${status}`).toHaveLength(2);
    }
    const cases = [
      [errorBody(400, 'INVALID_INPUT', 'bad'), BadRequestError],
      [errorBody(404, 'USER_NOT_FOUND', 'no'), NotFoundError],
      [errorBody(409, 'CONFLICT', 'dup'), ConflictError],
    ] as const;
    for (const [reply, Class] of cases) {
      const { client, requests } = setup([reply, ok]);
      await expect(client.customers.retrieve('c')).rejects.toBeInstanceOf(Class);
      expect(requests).toHaveLength(1);
    }
  });

  it('gives up at once on 429 DAILY_VOLUME_LIMIT_EXCEEDED: the limit holds until the next UTC day', async () => {
    const { client, requests, sleeps } = setup([errorBody(429, 'DAILY_VOLUME_LIMIT_EXCEEDED', 'over the limit', { dailyLimit: 10_000, sentToday: 6_000 }), ok]);
    const error = await client.quotes.execute('Quote:1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).details).toEqual({ dailyLimit: 10_000, sentToday: 6_000 });
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a POST with its generated Idempotency-Key, sending the same key every time', async () => {
    const { client, requests } = setup([unavailable, errorBody(502, 'INTERNAL_ERROR', 'bad gateway'), { status: 201, body: individual() }]);
    await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada' });
    expect(requests).toHaveLength(3);
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^railyard-/);
    expect(new Set(keys).size).toBe(1);
    expect(requests.map((r) => r.rawBody)).toEqual(Array(3).fill(JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada' })));
  });

  it("reuses the caller's Idempotency-Key on every retry (option or header)", async () => {
    const a = setup([unavailable, { status: 201, body: individual() }]);
    await a.client.customers.create({ customerType: 'INDIVIDUAL' }, { idempotencyKey: 'signup-42' });
    expect(a.requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['signup-42', 'signup-42']);
    const b = setup([unavailable, { status: 201, body: individual() }]);
    await b.client.customers.create({ customerType: 'INDIVIDUAL' }, { headers: { 'Idempotency-Key': 'hdr-1' } });
    expect(b.requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['hdr-1', 'hdr-1']);
  });

  it('never retries a POST sent without a key (idempotencyKey: null)', async () => {
    const { client, requests, sleeps } = setup([unavailable, { status: 201, body: individual() }]);
    await expect(client.customers.create({ customerType: 'INDIVIDUAL' }, { idempotencyKey: null })).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.has('idempotency-key')).toBe(false);
    expect(sleeps).toEqual([]);
    // The low-level verb follows the same rule.
    const low = setup([new TypeError('fetch failed'), ok]);
    await expect(low.client.post('/customers', { body: {}, idempotencyKey: null })).rejects.toBeInstanceOf(APIConnectionError);
    expect(low.requests).toHaveLength(1);
  });

  it('retries PATCH and DELETE (idempotent by key and by method)', async () => {
    const { client, requests } = setup([unavailable, ok, unavailable, ok]);
    await client.customers.update('c', { customerType: 'INDIVIDUAL', fullName: 'B' });
    await client.customers.delete('c');
    expect(requests.map((r) => r.method)).toEqual(['PATCH', 'PATCH', 'DELETE', 'DELETE']);
    expect(requests[0]!.headers.get('idempotency-key')).toBe(requests[1]!.headers.get('idempotency-key'));
    expect(requests[2]!.headers.get('idempotency-key')).toBe(requests[3]!.headers.get('idempotency-key'));
    expect(requests[0]!.headers.get('idempotency-key')).not.toBe(requests[2]!.headers.get('idempotency-key'));
  });

  it('waits exactly what Retry-After or retry-after-ms asks for', async () => {
    const rateLimited = (headers: Record<string, string>) => ({ ...errorBody(429, 'RATE_LIMITED', 'slow down'), headers });
    const a = setup([rateLimited({ 'retry-after': '3' }), rateLimited({ 'retry-after-ms': '1234' }), ok]);
    await a.client.customers.retrieve('c');
    expect(a.sleeps).toEqual([3000, 1234]);
    const inFiveSeconds = new Date(Date.now() + 5000).toUTCString();
    const b = setup([{ ...errorBody(503, 'SERVICE_UNAVAILABLE', 'x'), headers: { 'retry-after': inFiveSeconds } }, ok]);
    await b.client.customers.retrieve('c');
    expect(b.sleeps).toHaveLength(1);
    expect(b.sleeps[0]).toBeGreaterThan(3000);
    expect(b.sleeps[0]).toBeLessThanOrEqual(5000);
  });

  it('does not retry when Retry-After is longer than a minute; the error keeps the header', async () => {
    const { client, requests, sleeps } = setup([{ ...errorBody(429, 'RATE_LIMITED', 'slow down'), headers: { 'retry-after': '300' } }, ok]);
    const error = await client.customers.retrieve('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('300');
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('applies jitter from the random source', async () => {
    const { client, sleeps } = setup([unavailable, unavailable, ok], { random: () => 0.5 });
    await client.customers.retrieve('c');
    expect(sleeps).toEqual([438, 875]);
  });

  it('retries connection errors and wraps the final one in APIConnectionError', async () => {
    const a = setup([new TypeError('fetch failed'), ok]);
    await expect(a.client.customers.retrieve('c')).resolves.toMatchObject({ id: individual().id });
    expect(a.requests).toHaveLength(2);
    expect(a.sleeps).toEqual([500]);
    const b = setup([new TypeError('ECONNREFUSED')]);
    const error = await b.client.customers.retrieve('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(b.requests).toHaveLength(3);
  });
});

describe('timeouts and aborts', () => {
  it('times out an attempt that never answers', async () => {
    const { client, requests } = setup(['hang'], { timeout: 30, maxRetries: 0 });
    const started = Date.now();
    const error = await client.customers.retrieve('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/timed out after 30ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(requests).toHaveLength(1);
  });

  it('times out even when the fetch ignores its signal, and retries timeouts', async () => {
    const { client, requests, sleeps } = setup(['hang-ignoring-signal', 'hang-ignoring-signal', ok]);
    const data = await client.customers.retrieve('c', { timeout: 20 });
    expect(data.id).toBe(individual().id);
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('passes an aborted signal to fetch on timeout', async () => {
    const { client, requests } = setup(['hang'], { maxRetries: 0 });
    await expect(client.customers.retrieve('c', { timeout: 10 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('rejects with APIUserAbortError when the caller aborts, without retrying', async () => {
    const { client, requests, sleeps } = setup(['hang']);
    const controller = new AbortController();
    const promise = client.customers.retrieve('c', { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(promise).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('sends nothing with an already aborted signal', async () => {
    const { client, requests } = setup([ok]);
    await expect(client.customers.retrieve('c', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(0);
  });

  it('stops waiting for a retry when the caller aborts', async () => {
    const controller = new AbortController();
    const { client, requests } = setup([unavailable, ok], {
      sleep: () => {
        setTimeout(() => controller.abort(), 5);
        return new Promise(() => {});
      },
    });
    await expect(client.customers.retrieve('c', { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
  });
});
