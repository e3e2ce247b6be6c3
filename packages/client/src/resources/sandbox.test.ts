import { describe, expect, it } from 'vitest';
import { ConflictError, SandboxOnlyError, createClient } from '../index.js';
import { fakeFetch, setup } from '../test-support.js';

const clock = { now: '2025-10-13T00:00:05.000Z', mode: 'virtual' };
const snapshot = { format: 'railyard-snapshot@2', takenAt: '2025-10-13T00:00:00.000Z', collections: { customers: [] } };

describe('client.sandbox', () => {
  it('calls the control plane under the base URL', async () => {
    const { client, requests } = setup((req) => {
      if (req.path.endsWith('/_sandbox/reset') || req.path.endsWith('/_sandbox/restore')) return { status: 204 };
      if (req.path.endsWith('/_sandbox/snapshot')) return { body: snapshot };
      if (req.path.endsWith('/_sandbox/openapi.json')) return { body: { openapi: '3.1.0' } };
      if (req.path.endsWith('/_sandbox/events')) return { body: { data: [], hasMore: false, totalCount: 0 } };
      if (req.path.endsWith('/_sandbox/platforms')) return { status: 201, body: { id: 'Platform:1', name: 'n', clientId: 'c', clientSecret: 's', regulated: true, skipPaperwork: false } };
      return { body: clock };
    });
    expect(await client.sandbox.clock.get()).toEqual(clock);
    expect((await client.sandbox.clock.advance(5000)).now).toBe(clock.now);
    await client.sandbox.clock.advance({ ms: 7 });
    await expect(client.sandbox.reset()).resolves.toBeUndefined();
    const snap = await client.sandbox.snapshot();
    await client.sandbox.restore(snap);
    await client.sandbox.events.list({ type: 'CUSTOMER.UPDATED', limit: 10 });
    const platform = await client.sandbox.platforms.create({ regulated: true });
    expect(platform.regulated).toBe(true);
    expect((await client.sandbox.openapi()).openapi).toBe('3.1.0');

    const base = 'http://127.0.0.1:4100/2025-10-13';
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${base}/_sandbox/clock`,
      `POST ${base}/_sandbox/clock/advance`,
      `POST ${base}/_sandbox/clock/advance`,
      `POST ${base}/_sandbox/reset`,
      `GET ${base}/_sandbox/snapshot`,
      `POST ${base}/_sandbox/restore`,
      `GET ${base}/_sandbox/events?type=CUSTOMER.UPDATED&limit=10`,
      `POST ${base}/_sandbox/platforms`,
      `GET ${base}/_sandbox/openapi.json`,
    ]);
    expect(requests[1]!.body).toEqual({ ms: 5000 });
    expect(requests[2]!.body).toEqual({ ms: 7 });
    expect(requests[3]!.rawBody).toBe('');
    expect(requests[5]!.body).toEqual(snapshot);
    expect(requests[7]!.body).toEqual({ regulated: true });
  });

  it('reads one event, redelivers it, lists the jobs and the invitations, and asks who the credentials are', async () => {
    const event = { id: 'Webhook:1', type: 'TEST', timestamp: clock.now, data: {}, deliveries: [], payload: '{}', signature: 'sig' };
    const { client, requests } = setup((req) => {
      if (req.path.includes('/_sandbox/events/')) return { body: event };
      if (req.path.endsWith('/_sandbox/whoami')) return { body: { platformId: 'Platform:1', credential: 'platform', id: 'c', permissions: ['VIEW'] } };
      return { body: { data: [], hasMore: false, totalCount: 0 } };
    });
    expect((await client.sandbox.events.retrieve('Webhook:1')).signature).toBe('sig');
    await client.sandbox.events.redeliver('Webhook:1');
    expect((await client.sandbox.jobs.list({ dueBefore: clock.now, limit: 5 })).totalCount).toBe(0);
    await client.sandbox.invitations({ limit: 3 });
    expect((await client.sandbox.whoami()).credential).toBe('platform');
    const base = 'http://127.0.0.1:4100/2025-10-13';
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${base}/_sandbox/events/Webhook%3A1`,
      `POST ${base}/_sandbox/events/Webhook%3A1/redeliver`,
      `GET ${base}/_sandbox/jobs?dueBefore=${encodeURIComponent(clock.now)}&limit=5`,
      `GET ${base}/_sandbox/invitations?limit=3`,
      `GET ${base}/_sandbox/whoami`,
    ]);
  });

  it('reads the health check, GET /_sandbox/health under the base URL', async () => {
    const health = { status: 'ok', version: '1.2.3', apiVersion: '2025-10-13', uptimeSeconds: 42 };
    const { client, requests } = setup(() => ({ body: health }));
    expect(await client.sandbox.health()).toEqual(health);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET http://127.0.0.1:4100/2025-10-13/_sandbox/health']);
  });

  it('surfaces control-plane errors as typed errors', async () => {
    const { client } = setup([{ status: 409, body: { status: 409, code: 'INVALID_STATE_TRANSITION', message: 'the clock is real' } }]);
    const error = await client.sandbox.clock.advance(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('INVALID_STATE_TRANSITION');
  });

  it('refuses a production base URL before sending anything', async () => {
    const { client, requests } = setup([{ body: clock }], { baseUrl: 'https://api.example.com/2025-10-13' });
    expect(client.isSandbox).toBe(false);
    const error = await client.sandbox.clock.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxOnlyError);
    expect((error as Error).message).toMatch(/api\.example\.com.*sandbox: true/);
    await expect(client.sandbox.reset()).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.sandbox.events.list()).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.sandbox.health()).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.post('/_sandbox/reset')).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.post('/customers/../_sandbox/reset')).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.post('/customers/%2e%2e/_sandbox/reset')).rejects.toBeInstanceOf(SandboxOnlyError);
    expect(requests).toHaveLength(0);
    // The regular API still works against it.
    await client.get('/customers/end-user-terms');
    expect(requests).toHaveLength(1);
  });

  it('decides by host, option and fetch', () => {
    const fetch = fakeFetch([{ body: clock }]).fetch;
    const isSandbox = (options: Parameters<typeof createClient>[0]) =>
      createClient({ clientId: 'a', clientSecret: 'b', ...options }).isSandbox;
    expect(isSandbox({ baseUrl: 'http://localhost:4100/2025-10-13' })).toBe(true);
    expect(isSandbox({ baseUrl: 'http://127.0.0.1:4100/2025-10-13' })).toBe(true);
    expect(isSandbox({ baseUrl: 'http://127.8.9.10/2025-10-13' })).toBe(true);
    expect(isSandbox({ baseUrl: 'http://[::1]:4100/2025-10-13' })).toBe(true);
    expect(isSandbox({ baseUrl: 'https://api.sandbox.example.com/2025-10-13' })).toBe(true);
    expect(isSandbox({})).toBe(true); // default base URL is loopback
    expect(isSandbox({ fetch })).toBe(true); // in-memory engine
    expect(isSandbox({ baseUrl: 'https://api.example.com/2025-10-13' })).toBe(false);
    expect(isSandbox({ baseUrl: 'https://api.example.com/2025-10-13', fetch })).toBe(false);
    expect(isSandbox({ baseUrl: 'https://127.0.0.1.example.com/2025-10-13' })).toBe(false);
    expect(isSandbox({ baseUrl: 'https://api.example.com/sandbox/2025-10-13' })).toBe(false); // path does not count
    expect(isSandbox({ baseUrl: 'https://api.example.com/2025-10-13', sandbox: true })).toBe(true);
    expect(isSandbox({ baseUrl: 'http://localhost:4100/2025-10-13', sandbox: false })).toBe(false);
    expect(isSandbox({ fetch, sandbox: false })).toBe(false);
  });

  it('allows the control plane with an explicit sandbox: true on any host', async () => {
    const { client, requests } = setup([{ body: clock }], { baseUrl: 'https://railyard.internal/2025-10-13', sandbox: true });
    await client.sandbox.clock.get();
    expect(requests[0]!.url).toBe('https://railyard.internal/2025-10-13/_sandbox/clock');
  });
});

describe('client.sandbox money moves', () => {
  const transaction = { id: 'Transaction:1', type: 'OUTGOING', status: 'COMPLETED', direction: 'DEBIT', customerId: 'Customer:1', platformCustomerId: 'p' };

  it('pays a real-time quote, receives an UMA payment and sets limits', async () => {
    const { client, requests } = setup((req) => (req.path.endsWith('/_sandbox/limits') ? { body: { dailyVolume: { USD: 500_000 } } } : { body: transaction }));
    expect((await client.sandbox.send({ quoteId: 'Quote:1', currencyCode: 'USD' })).id).toBe('Transaction:1');
    await client.sandbox.send({ quoteId: 'Quote:1', currencyCode: 'USD', currencyAmount: 2_999 });
    await client.sandbox.receiveUma({ senderUmaAddress: '$grace@elsewhere.example', customerId: 'Customer:1', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 });
    expect(await client.sandbox.limits.set({ dailyVolume: { USD: 500_000, EUR: null } })).toEqual({ dailyVolume: { USD: 500_000 } });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /2025-10-13/sandbox/send',
      'POST /2025-10-13/sandbox/send',
      'POST /2025-10-13/sandbox/uma/receive',
      'PUT /2025-10-13/_sandbox/limits',
    ]);
    expect(requests.map((r) => r.body)).toEqual([
      { quoteId: 'Quote:1', currencyCode: 'USD' },
      { quoteId: 'Quote:1', currencyCode: 'USD', currencyAmount: 2_999 },
      { senderUmaAddress: '$grace@elsewhere.example', customerId: 'Customer:1', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 },
      { dailyVolume: { USD: 500_000, EUR: null } },
    ]);
    expect(requests[0]!.headers.get('idempotency-key')).toMatch(/^railyard-/);
  });

  it('refuses them against a production base URL before sending anything', async () => {
    const { client, requests } = setup([{ body: transaction }], { baseUrl: 'https://api.example.com/2025-10-13' });
    await expect(client.sandbox.send({ quoteId: 'Quote:1', currencyCode: 'USD' })).rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.sandbox.receiveUma({ senderUmaAddress: '$a@b.example', customerId: 'Customer:1', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1 }))
      .rejects.toBeInstanceOf(SandboxOnlyError);
    await expect(client.sandbox.limits.set({ dailyVolume: { USD: 1 } })).rejects.toBeInstanceOf(SandboxOnlyError);
    expect(requests).toHaveLength(0);
    // The money moves of the API itself still go out.
    await client.transactions.retrieve('Transaction:1');
    expect(requests).toHaveLength(1);
  });
});
