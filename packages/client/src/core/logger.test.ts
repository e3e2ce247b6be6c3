import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../index.js';
import { CLIENT_ID, CLIENT_SECRET, errorBody, fakeFetch, individual, setup } from '../test-support.js';
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
    new Logger({ log: (l) => lines.push(l) }, ['abc', 'longsecret']).log('x longsecret abc');
    // Secrets shorter than 4 characters are not scrubbed (they would mangle ordinary text).
    expect(lines).toEqual([`[railyard] x ${REDACTED} abc`]);
  });
});
