import { customerEndpoints } from '@railyard/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  APIPromise, RailyardClient, RailyardError, createClient, type Customer, type InternalAccount,
} from './index.js';
import { BASE, CLIENT_ID, CLIENT_SECRET, individual, setup } from './test-support.js';

const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

describe('configuration from the environment', () => {
  it('takes the base URL and credentials from RAILYARD_BASE_URL, RAILYARD_CLIENT_ID and RAILYARD_CLIENT_SECRET when not given', async () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { RAILYARD_BASE_URL: 'https://sandbox.example.com/2025-10-13/', RAILYARD_CLIENT_ID: 'env-id', RAILYARD_CLIENT_SECRET: 'env-secret' });
      const sent: Request[] = [];
      const client = createClient({ fetch: async (request: Request) => (sent.push(request), Response.json({ data: [], hasMore: false })) });
      expect(client.baseUrl).toBe('https://sandbox.example.com/2025-10-13');
      await client.customers.list();
      expect(sent[0]!.url).toBe('https://sandbox.example.com/2025-10-13/customers');
      expect(sent[0]!.headers.get('authorization')).toBe(`Basic ${btoa('env-id:env-secret')}`);
      expect(createClient({ baseUrl: 'http://given.example/v', clientId: 'a', clientSecret: 'b' }).baseUrl).toBe('http://given.example/v');
      process.env.RAILYARD_BASE_URL = 'not a url';
      expect(() => createClient()).toThrow('Invalid baseUrl "not a url" (from RAILYARD_BASE_URL)');
    } finally {
      for (const name of ['RAILYARD_BASE_URL', 'RAILYARD_CLIENT_ID', 'RAILYARD_CLIENT_SECRET']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

describe('requests', () => {
  it('creates a customer: POST with JSON body, Basic auth, Accept, a generated Idempotency-Key', async () => {
    const { client, requests } = setup([{ status: 201, body: individual() }]);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    expectTypeOf(customer).toEqualTypeOf<Customer>();
    expect(customer.id).toBe(individual().id);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe(`${BASE}/customers`);
    expect(req!.body).toEqual({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    expect(req!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(req!.headers.get('accept')).toBe('application/json');
    expect(req!.headers.get('authorization')).toBe(basic);
    expect(req!.headers.get('idempotency-key')).toMatch(/^railyard-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('generates a different Idempotency-Key per call', async () => {
    const { client, requests } = setup([{ status: 201, body: individual() }]);
    await client.customers.create({ customerType: 'INDIVIDUAL' });
    await client.customers.create({ customerType: 'INDIVIDUAL' });
    expect(requests[0]!.headers.get('idempotency-key')).not.toBe(requests[1]!.headers.get('idempotency-key'));
  });

  it('encodes path parameters and uses the method and path of the contract', async () => {
    const { client, requests } = setup([{ body: individual() }]);
    await client.customers.retrieve('Customer:a/b?c');
    await client.customers.update('Customer:x y', { customerType: 'INDIVIDUAL', fullName: 'Ada' });
    await client.customers.delete('Customer:1');
    await client.customers.endUserTerms();
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${BASE}/customers/Customer%3Aa%2Fb%3Fc`,
      `PATCH ${BASE}/customers/Customer%3Ax%20y`,
      `DELETE ${BASE}/customers/Customer%3A1`,
      `GET ${BASE}/customers/end-user-terms`,
    ]);
    expect(requests[1]!.body).toEqual({ customerType: 'INDIVIDUAL', fullName: 'Ada' });
    // GETs carry no key; mutating calls do.
    expect(requests.map((r) => r.headers.has('idempotency-key'))).toEqual([false, true, true, false]);
    expect(customerEndpoints.getCustomer.path).toBe('/customers/{customerId}');
  });

  it('refuses an empty path parameter instead of calling another route', async () => {
    const { client, requests } = setup([{ body: individual() }]);
    await expect(client.customers.retrieve('')).rejects.toThrow(RailyardError);
    await expect(client.customers.retrieve('')).rejects.toThrow(/customerId/);
    expect(requests).toHaveLength(0);
  });

  it('serializes list queries: numbers and booleans as strings, undefined dropped', async () => {
    const { client, requests } = setup([{ body: { data: [], hasMore: false, totalCount: 0 } }]);
    const page = await client.customers.list({ limit: 5, customerType: 'BUSINESS', isIncludingDeleted: true, region: undefined });
    expect(page.data).toEqual([]);
    expect(requests[0]!.path).toBe('/2025-10-13/customers');
    expect(Object.fromEntries(requests[0]!.search)).toEqual({ limit: '5', customerType: 'BUSINESS', isIncludingDeleted: 'true' });
    await client.customers.list();
    expect(requests[1]!.url).toBe(`${BASE}/customers`);
  });

  it("lists a customer's internal accounts", async () => {
    const account = {
      id: 'InternalAccount:0190c5a4-7b7e-4d3e-9f4e-6a0b8c1d2e3f', customerId: individual().id, type: 'INTERNAL_FIAT',
      status: 'ACTIVE', balance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
      totalBalance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
      fundingPaymentInstructions: [], createdAt: '2025-10-13T00:00:00.000Z', updatedAt: '2025-10-13T00:00:00.000Z',
    };
    const { client, requests } = setup([{ body: { data: [account], hasMore: false, totalCount: 1 } }]);
    const page = await client.internalAccounts.list({ customerId: individual().id, currency: 'USD' });
    expectTypeOf(page.data[0]!).toEqualTypeOf<InternalAccount>();
    expect(page.data[0]!.balance.currency.code).toBe('USD');
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.path).toBe('/2025-10-13/customers/internal-accounts');
    expect(requests[0]!.search.get('customerId')).toBe(individual().id);
    expect(requests[0]!.search.get('currency')).toBe('USD');
  });

  it('sends per-request headers and removes default ones set to null', async () => {
    const { client, requests } = setup([{ body: individual() }]);
    await client.customers.retrieve('Customer:1', { headers: { 'x-trace': 't-1', accept: null } });
    expect(requests[0]!.headers.get('x-trace')).toBe('t-1');
    expect(requests[0]!.headers.has('accept')).toBe(false);
    expect(requests[0]!.headers.get('authorization')).toBe(basic);
  });

  it('defaults the base URL to the local standalone server and strips a trailing slash', async () => {
    const { client, requests } = setup([{ body: individual() }], { baseUrl: undefined });
    expect(client.baseUrl).toBe('http://127.0.0.1:4100/2025-10-13');
    const other = setup([{ body: individual() }], { baseUrl: 'https://api.example.com/2025-10-13/' });
    expect(other.client.baseUrl).toBe('https://api.example.com/2025-10-13');
    await other.client.customers.retrieve('c');
    expect(other.requests[0]!.url).toBe('https://api.example.com/2025-10-13/customers/c');
    expect(requests).toHaveLength(0);
  });

  it('requires credentials and a valid base URL', () => {
    const fetch = async () => new Response('{}');
    expect(() => createClient({ fetch, clientSecret: 's' })).toThrow(/clientId/);
    expect(() => createClient({ fetch, clientId: 'a', clientSecret: 's', baseUrl: 'not a url' })).toThrow(/baseUrl/);
    expect(() => createClient({ fetch, clientId: 'a', clientSecret: 's', maxRetries: -1 })).toThrow(/maxRetries/);
    expect(new RailyardClient({ fetch, clientId: 'a', clientSecret: 's' })).toBeInstanceOf(RailyardClient);
  });

  it('withOptions makes a client with other credentials and the same fetch', async () => {
    const { client, requests } = setup([{ body: individual() }]);
    const other = client.withOptions({ clientId: 'p2', clientSecret: 'p2-secret' });
    await other.customers.retrieve('c');
    expect(requests[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('p2:p2-secret').toString('base64')}`);
  });

  it('low-level verbs share the same machinery', async () => {
    const { client, requests } = setup([{ body: { ok: true } }]);
    const result = await client.get<{ ok: boolean }>('/customers', { query: { limit: 1 } });
    expect(result).toEqual({ ok: true });
    await client.post('/customers', { body: { a: 1 }, idempotencyKey: 'k-1' });
    expect(requests[0]!.url).toBe(`${BASE}/customers?limit=1`);
    expect(requests[1]!.headers.get('idempotency-key')).toBe('k-1');
  });
});

describe('APIPromise', () => {
  it('withResponse gives data, status, headers and the X-Request-Id', async () => {
    const { client } = setup([{ status: 201, body: individual(), headers: { 'x-request-id': 'req_abc' } }]);
    const promise = client.customers.create({ customerType: 'INDIVIDUAL' });
    expect(promise).toBeInstanceOf(APIPromise);
    expect(promise).toBeInstanceOf(Promise);
    const { data, response } = await promise.withResponse();
    expect(data.id).toBe(individual().id);
    expect(response.status).toBe(201);
    expect(response.requestId).toBe('req_abc');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.retries).toBe(0);
  });

  it('asResponse gives the raw Response with an unread body, even after the data was read', async () => {
    const { client } = setup([{ body: individual() }]);
    const promise = client.customers.retrieve('c');
    const data = await promise;
    const raw = await promise.asResponse();
    expect(raw).toBeInstanceOf(Response);
    expect(raw.bodyUsed).toBe(false);
    expect(await raw.json()).toEqual(data);
  });

  it('sends the request once however often it is awaited', async () => {
    const { client, requests } = setup([{ body: individual() }]);
    const promise = client.customers.retrieve('c');
    await promise;
    await promise.withResponse();
    await promise.then((c) => c.id);
    await promise.finally(() => {});
    expect(requests).toHaveLength(1);
  });

  it('works with Promise.all, then chains and async functions', async () => {
    const { client } = setup([{ body: individual() }]);
    const [a, b] = await Promise.all([client.customers.retrieve('a'), client.customers.retrieve('b')]);
    expect([a.id, b.id]).toEqual([individual().id, individual().id]);
    const name = await client.customers.retrieve('c').then((c) => (c.customerType === 'INDIVIDUAL' ? c.fullName : c.businessInfo.legalName));
    expect(name).toBe('Ada Lovelace');
    const viaAsync = await (async () => client.customers.retrieve('d'))();
    expect(viaAsync.platformCustomerId).toBe('pc-1');
  });

  it('resolves to undefined for 204 responses', async () => {
    const { client } = setup([{ status: 204 }]);
    await expect(client.sandbox.reset()).resolves.toBeUndefined();
  });
});
