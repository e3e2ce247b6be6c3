import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { startServer, type RunningServer } from '../server/server.js';
import { callApi } from '../testing/requests.js';
import { FailureThrottle } from './throttle.js';

// Brute-force limits on credentials (issue 32, hole 9): failed Basic-auth attempts and unknown device codes are
// counted per credential and per source; past a limit every attempt is 429 RATE_LIMITED with Retry-After.

describe('FailureThrottle', () => {
  it('locks a credential after its failures, right or wrong, until the oldest leaves the window', () => {
    let now = 0;
    const throttle = new FailureThrottle({ perCredential: 3, perSource: 100, windowMs: 1_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      throttle.check('client', undefined);
      throttle.fail('client', undefined);
      now += 100;
    }
    const locked = (() => { try { throttle.check('client', undefined); } catch (error) { return error as { status: number; headers: Record<string, string> }; } })();
    expect([locked?.status, locked?.headers['retry-after']]).toEqual([429, '1']);
    expect(() => throttle.check('another', undefined)).not.toThrow();
    now = 1_001;
    expect(() => throttle.check('client', undefined)).not.toThrow();
  });

  it('locks a source whatever credential it tries; a locked source adds nothing to a credential', () => {
    const throttle = new FailureThrottle({ perCredential: 5, perSource: 2, windowMs: 60_000 }, () => 0);
    throttle.fail('a', '10.0.0.1');
    throttle.fail('b', '10.0.0.1');
    expect(() => throttle.check('c', '10.0.0.1')).toThrow(/from this address/);
    expect(() => throttle.check('c', '10.0.0.2')).not.toThrow();
  });

  it('locks a credential only for the source that failed with it: nobody locks another client out', () => {
    const throttle = new FailureThrottle({ perCredential: 2, perSource: 100 }, () => 0);
    throttle.fail('client', '203.0.113.9');
    throttle.fail('client', '203.0.113.9');
    expect(() => throttle.check('client', '203.0.113.9')).toThrow(/with this credential/);
    expect(() => throttle.check('client', '198.51.100.4')).not.toThrow();
    expect(() => throttle.check('client', undefined)).not.toThrow();
    // A long credential counts under its hash (a key stays small whatever was sent).
    const long = 'x'.repeat(12_000);
    throttle.fail(long, undefined);
    throttle.fail(long, undefined);
    expect(() => throttle.check(long, undefined)).toThrow();
  });

  it('counts no loopback source unless told to', () => {
    const throttle = new FailureThrottle({ perSource: 1 }, () => 0);
    throttle.fail(undefined, '127.0.0.1');
    throttle.fail(undefined, '::1');
    expect(() => throttle.check(undefined, '127.0.0.1')).not.toThrow();
    const strict = new FailureThrottle({ perSource: 1, loopbackExempt: false }, () => 0);
    strict.fail(undefined, '::ffff:127.0.0.1');
    expect(() => strict.check(undefined, '::ffff:127.0.0.1')).toThrow();
  });
});

describe('in process', () => {
  it('a client id guessed 100 times is 429 with Retry-After, also for the right secret', async () => {
    const engine = createEngine();
    const wrong = { clientId: 'sandbox-client-id', clientSecret: 'guess' };
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) statuses.add((await callApi(engine, 'GET', '/customers', undefined, undefined, wrong)).status);
    expect([...statuses]).toEqual([401]);
    const locked = await callApi(engine, 'GET', '/customers');
    expect([locked.status, locked.body.code, Number(locked.headers.get('retry-after'))]).toEqual([429, 'RATE_LIMITED', expect.any(Number)]);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await callApi(createEngine({ authThrottle: false }), 'GET', '/customers', undefined, undefined, wrong)).status).toBe(401);
  });
});

describe('over HTTP, per source', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Loopback is exempt by default (every local client is one address): counted here, as a remote address is.
    server = await startServer(createEngine({ authThrottle: { loopbackExempt: false } }), { port: 0 });
  });
  afterAll(() => server.close());

  it('unknown device codes from one address: 429 after 30, then every redeem from it, until the window frees', async () => {
    const redeem = async (code: string) => (await fetch(`${server.baseUrl}/agents/device-codes/${code}/redeem`, { method: 'POST' }));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await redeem(`GUESS${String(i).padStart(3, '0')}-AGENT-AAAA-BBBB`)).status);
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    const locked = await redeem('ANOTHER1-AGENT-AAAA-BBBB');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await locked.json()) as { code: string }).code).toBe('RATE_LIMITED');
    // Basic auth from that address is locked too.
    const basic = await fetch(`${server.baseUrl}/customers`, { headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` } });
    expect(basic.status).toBe(429);
  });
});
