import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../index.js';
import { BASE, CLIENT_ID, CLIENT_SECRET, errorBody, fakeFetch, individual, setup } from '../test-support.js';
import { Logger, REDACTED, redactBody, redactHeaders } from './logger.js';

const credentials = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');

describe('debug logging', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('logs method, URL, status, duration and retries', async () => {
    const lines: string[] = [];
    const { client } = setup([errorBody(503, 'SERVICE_UNAVAILABLE', 'down'), { body: individual() }], { debug: { log: (l) => lines.push(l) } });
    await client.customers.retrieve('Customer:1');
    const url = 'http://127.0.0.1:4100/2025-10-13/customers/Customer%3A1';
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(new RegExp(`^\\[railyard\\] request GET ${url.replace(/[.?]/g, '\\$&')} attempt=1/3 `));
    expect(lines[1]).toMatch(/^\[railyard\] response 503 GET \S+ ms=\d+ attempt=1\/3 request-id=req_1 body=/);
    expect(lines[1]).toContain('"code":"SERVICE_UNAVAILABLE"');
    expect(lines[2]).toMatch(/^\[railyard\] retry GET \S+ in 500ms after=status 503 retry=1\/2$/);
    expect(lines[3]).toMatch(/request GET .* attempt=2\/3/);
    expect(lines[4]).toMatch(/^\[railyard\] response 200 GET \S+ ms=\d+ attempt=2\/3 request-id=req_2$/);
  });

  it('redacts Authorization, Service-Wallet-Signature and clientSecret values', async () => {
    const lines: string[] = [];
    const platform = { id: 'Platform:1', name: 'p', clientId: 'p2', clientSecret: 'p2-secret-value', regulated: false, skipPaperwork: false };
    const { client, requests } = setup([{ status: 201, body: platform }], { debug: { log: (l) => lines.push(l) } });
    await client.sandbox.platforms.create(
      { name: 'p', clientSecret: 'p2-secret-value' },
      { headers: { 'Service-Wallet-Signature': 'stamp-abcdef123456' } },
    );
    // The request itself still carries the real values.
    expect(requests[0]!.headers.get('authorization')).toBe(`Basic ${credentials}`);
    expect(requests[0]!.headers.get('service-wallet-signature')).toBe('stamp-abcdef123456');
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const secret of [CLIENT_SECRET, credentials, 'p2-secret-value', 'stamp-abcdef123456']) expect(log).not.toContain(secret);
    expect(log).toContain(`"authorization":"Basic ${REDACTED}"`);
    expect(log).toContain(`"service-wallet-signature":"${REDACTED}"`);
    expect(log).toContain(`"clientSecret":"${REDACTED}"`);
    expect(log).toContain('"name":"p"');
    expect(log).toContain('"idempotency-key":"railyard-');
  });

  it('scrubs the client secret even where no rule knows it', async () => {
    const lines: string[] = [];
    const { client } = setup([errorBody(400, 'INVALID_INPUT', `bad value ${CLIENT_SECRET}`)], { debug: { log: (l) => lines.push(l) } });
    await client.customers.retrieve('c').catch(() => undefined);
    expect(lines.join('\n')).not.toContain(CLIENT_SECRET);
    expect(lines.join('\n')).toContain(`bad value ${REDACTED}`);
  });

  it('is off by default, on with RAILYARD_DEBUG=1, and `debug: false` wins over the env', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { fetch } = fakeFetch([{ body: individual() }]);
      await createClient({ fetch, clientId: 'a', clientSecret: 'secret-1' }).customers.retrieve('c');
      expect(spy).not.toHaveBeenCalled();
      vi.stubEnv('RAILYARD_DEBUG', '1');
      await createClient({ fetch, clientId: 'a', clientSecret: 'secret-1' }).customers.retrieve('c');
      expect(spy).toHaveBeenCalled();
      expect(String(spy.mock.calls[0]![0])).toMatch(/^\[railyard\] request GET /);
      spy.mockClear();
      await createClient({ fetch, clientId: 'a', clientSecret: 'secret-1', debug: false }).customers.retrieve('c');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('redaction helpers', () => {
    expect(redactHeaders(new Headers({ Authorization: 'Basic abc', 'X-Other': '1', cookie: 'a=b' }))).toEqual({
      authorization: `Basic ${REDACTED}`, 'x-other': '1', cookie: REDACTED,
    });
    expect(redactBody({ a: [{ clientSecret: 'x', b: 1 }], ClientSecret: 'y', n: null, identifier: '123-45-6789' })).toEqual({
      a: [{ clientSecret: REDACTED, b: 1 }], ClientSecret: REDACTED, n: null, identifier: REDACTED,
    });
    expect(redactBody({ signature: '0xabc', signatureScheme: 'bip137', assertion: { signature: 'sig' }, encryptedOtpBundle: '{}' })).toEqual({
      signature: REDACTED, signatureScheme: 'bip137', assertion: { signature: REDACTED }, encryptedOtpBundle: REDACTED,
    });
    const lines: string[] = [];
    new Logger({ debug: { log: (l) => lines.push(l) } }, ['abc', 'longsecret']).log('x longsecret abc');
    // Secrets shorter than 4 characters are not scrubbed (they would mangle ordinary text).
    expect(lines).toEqual([`[railyard] x ${REDACTED} abc`]);
  });
});

describe('log levels and a logger', () => {
  afterEach(() => vi.unstubAllEnvs());

  /** A logger that records each line with its level. */
  const recorder = () => {
    const lines: string[] = [];
    const logger = {
      error: (l: string) => lines.push(`error ${l}`), warn: (l: string) => lines.push(`warn ${l}`),
      info: (l: string) => lines.push(`info ${l}`), debug: (l: string) => lines.push(`debug ${l}`),
    };
    return { lines, logger };
  };

  it("'info' writes retries and what is given up, not each request; every line redacted", async () => {
    const { lines, logger } = recorder();
    const refused = new TypeError(`connect ECONNREFUSED (sent ${CLIENT_SECRET})`);
    const { client } = setup([refused], { logLevel: 'info', logger, maxRetries: 1 });
    await expect(client.customers.retrieve('c')).rejects.toThrow();
    expect(lines.map((l) => l.replace(/ ms=\d+/, ''))).toEqual([
      `info [railyard] retry GET ${BASE}/customers/c in 500ms after=Connection error (GET ${BASE}/customers/c): connect ECONNREFUSED (sent ${REDACTED}) retry=1/1`,
      `error [railyard] failed GET ${BASE}/customers/c attempt=2/2 error=Connection error (GET ${BASE}/customers/c): connect ECONNREFUSED (sent ${REDACTED})`,
    ]);
  });

  it("'warn' writes a retry the client will not make; 'error' does not", async () => {
    const script = [errorBody(429, 'RATE_LIMITED', 'slow down'), { body: individual() }].map((reply, i) => (i === 0 ? { ...reply, headers: { 'retry-after': '3600' } } : reply));
    const warn = recorder();
    await setup([script[0]!], { logLevel: 'warn', logger: warn.logger }).client.customers.retrieve('c').catch(() => undefined);
    expect(warn.lines).toEqual([`warn [railyard] not retrying GET ${BASE}/customers/c: Retry-After is longer than the client waits`]);
    const error = recorder();
    await setup([script[0]!], { logLevel: 'error', logger: error.logger }).client.customers.retrieve('c').catch(() => undefined);
    expect(error.lines).toEqual([]);
  });

  it("'debug' writes each request and response, with Authorization redacted", async () => {
    const { lines, logger } = recorder();
    await setup([{ body: individual() }], { logLevel: 'debug', logger }).client.customers.retrieve('c');
    expect(lines.map((l) => l.split(' ').slice(0, 4).join(' '))).toEqual(['debug [railyard] request GET', 'debug [railyard] response 200']);
    expect(lines[0]).toContain(`"authorization":"Basic ${REDACTED}"`);
    expect(lines.join('\n')).not.toContain(credentials);
  });

  it('logLevel wins over debug; without a logger, each level goes to its console method', async () => {
    const { lines, logger } = recorder();
    await setup([{ body: individual() }], { logLevel: 'off', debug: true, logger }).client.customers.retrieve('c');
    expect(lines).toEqual([]);
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await setup([errorBody(503, 'SERVICE_UNAVAILABLE', 'down'), { body: individual() }], { logLevel: 'info' }).client.customers.retrieve('c');
      expect(info.mock.calls.map((call) => String(call[0]))).toEqual([`[railyard] retry GET ${BASE}/customers/c in 500ms after=status 503 retry=1/2`]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
      stderr.mockRestore();
    }
  });

  it('follows RAILYARD_LOG when it names a level, and refuses a logLevel that is not one', async () => {
    vi.stubEnv('RAILYARD_LOG', 'INFO');
    const { lines, logger } = recorder();
    await setup([errorBody(503, 'SERVICE_UNAVAILABLE', 'down'), { body: individual() }], { logger }).client.customers.retrieve('c');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info \[railyard\] retry GET /);
    vi.stubEnv('RAILYARD_LOG', '1'); // not a level: ignored
    const quiet = recorder();
    await setup([{ body: individual() }], { logger: quiet.logger }).client.customers.retrieve('c');
    expect(quiet.lines).toEqual([]);
    expect(() => setup([], { logLevel: 'verbose' as never })).toThrow(/logLevel must be one of off, error, warn, info, debug, not verbose/);
  });
});
