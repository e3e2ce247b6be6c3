import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { createEngine } from '../engine.js';
import { apiRequest, callApi, type Json } from '../testing/requests.js';

describe('control plane over HTTP', () => {
  it('answers at the root and under the base path', async () => {
    const engine = createEngine({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
    const root = await engine.fetch(apiRequest('GET', '/_sandbox/clock'));
    expect(await root.json()).toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'virtual' });
    const advanced = await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 1500 }));
    expect(await advanced.json()).toEqual({ now: '2026-01-01T00:00:01.500Z', mode: 'virtual' });
    const versioned = await engine.fetch(new Request('http://x/2025-10-13/_sandbox/clock', { headers: apiRequest('GET', '/x').headers }));
    expect((await versioned.json()).now).toBe('2026-01-01T00:00:01.500Z');
  });

  it('refuses to advance a real clock with 409', async () => {
    const engine = createEngine({ clock: 'real' });
    const response = await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 1 }));
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain('--clock virtual');
  });

  it('refuses a broken snapshot with 400, lists what is wrong, and keeps the state', async () => {
    const engine = createEngine();
    await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Kept Person' }, { 'idempotency-key': 'kept' }));
    const before = engine.sandbox().snapshot();
    const good = before.collections.customers![0] as { id: string };
    const response = await engine.fetch(apiRequest('POST', '/_sandbox/restore', {
      format: 'railyard-snapshot@2',
      takenAt: '2026-01-01T00:00:00Z',
      collections: {
        customers: [good, good],
        internalAccounts: [{ id: 'InternalAccount:1' }],
        gadgets: [],
        jobs: [{ id: 'job-1', tenantId: 'x', at: 'soon', kind: 'nothing', payload: null }],
      },
    }));
    expect(response.status).toBe(400);
    const fields = (await response.json()).details.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('collections.customers.1.id'); // a repeated id
    expect(fields).toContain('collections.internalAccounts.0.type');
    expect(fields).toContain('collections.gadgets');
    expect(fields).toContain('collections.jobs.0.at');
    expect(engine.sandbox().snapshot().collections).toEqual(before.collections);
  });

  it('refuses a job of a kind it does not run', async () => {
    const engine = createEngine();
    const response = await engine.fetch(apiRequest('POST', '/_sandbox/restore', {
      format: 'railyard-snapshot@2', takenAt: '2026-01-01T00:00:00Z',
      collections: { jobs: [{ id: 'job-1', tenantId: 'x', at: 5, kind: 'nothing', payload: null }] },
    }));
    expect(response.status).toBe(400);
    expect((await response.json()).details.errors).toEqual([{ field: 'collections.jobs.0.kind', message: 'is not a kind of job this sandbox runs' }]);
  });

  it('restores a snapshot into another engine', async () => {
    const first = createEngine();
    const created = await (await first.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Moved Person' }))).json();
    const second = createEngine();
    const restored = await second.fetch(apiRequest('POST', '/_sandbox/restore', first.sandbox().snapshot()));
    expect(restored.status).toBe(204);
    const fetched = await second.fetch(apiRequest('GET', `/customers/${created.id}`));
    expect(await fetched.json()).toEqual(created);
  });

  it('a restored record serializes exactly as the one the snapshot was taken of (keys in the same order)', async () => {
    const engine = createEngine();
    const created = await (await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ordered Person', email: 'o@example.com' }))).json();
    const read = async () => (await engine.fetch(apiRequest('GET', `/customers/${created.id}`))).text();
    const before = await read();
    const snapshot = await (await engine.fetch(apiRequest('GET', '/_sandbox/snapshot'))).json();
    expect((await engine.fetch(apiRequest('POST', '/_sandbox/restore', snapshot))).status).toBe(204);
    // Parsing used to put keys in schema order: `email` moved ahead of `umaAddress`, `fullName` to the end.
    expect(await read()).toBe(before);
  });

  it('a large snapshot does not hold requests that arrive while it is written', async () => {
    const engine = createEngine();
    for (let i = 0; i < 1500; i++) await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Person ${i}` }));
    const order: string[] = [];
    const snapshot = engine.fetch(apiRequest('GET', '/_sandbox/snapshot')).then(async (response) => {
      order.push('snapshot');
      return response.json();
    });
    await new Promise((resolve) => setImmediate(resolve));
    await engine.fetch(apiRequest('GET', '/_sandbox/clock')).then(() => order.push('clock'));
    const taken = await snapshot;
    // Written in one go (3,000 records and their events), the snapshot was answered before the clock was even asked.
    expect(order).toEqual(['clock', 'snapshot']);
    expect(taken.collections.customers).toHaveLength(1500);
  });

  it('will not advance the clock past the last date', async () => {
    const engine = createEngine({ clock: new VirtualClock(8_640_000_000_000_000 - 1000) });
    const refused = await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 2000 }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).details.errors[0]).toMatchObject({ field: 'ms', constraint: { maximum: 1000 } });
    expect((await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 1000 }))).status).toBe(200);
  });

  it('creates a platform whose credentials work and whose data is its own', async () => {
    const engine = createEngine();
    const created = await engine.fetch(apiRequest('POST', '/_sandbox/platforms', { regulated: true, clientId: 'tenant-two', clientSecret: 'secret-two-long' }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ clientId: 'tenant-two', clientSecret: 'secret-two-long', regulated: true, skipPaperwork: false });
    const bare = await engine.fetch(apiRequest('POST', '/_sandbox/platforms'));
    expect(bare.status).toBe(201);
    expect((await bare.json()).clientId).toMatch(/^client-/);
    const duplicate = await engine.fetch(apiRequest('POST', '/_sandbox/platforms', { clientId: 'tenant-two' }));
    expect(duplicate.status).toBe(409);
    const as = { clientId: 'tenant-two', clientSecret: 'secret-two-long' };
    await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Tenant Two' }, {}, as));
    const reset = await engine.fetch(apiRequest('POST', '/_sandbox/reset'));
    expect(reset.status).toBe(204);
    expect((await (await engine.fetch(apiRequest('GET', '/customers', undefined, {}, as))).json()).totalCount).toBe(1);
  });
});

describe('in-process snapshots', () => {
  const setUp = async () => {
    const engine = createEngine();
    const created = await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Snap Shot' }));
    return { engine, customerId: ((await created.json()) as { id: string }).id };
  };
  const customerNames = async (engine: ReturnType<typeof createEngine>) =>
    ((await (await engine.fetch(apiRequest('GET', '/customers'))).json()) as { data: { fullName: string }[] }).data.map((c) => c.fullName);

  it('share the records frozen: neither the caller nor the engine changes the other', async () => {
    const { engine, customerId } = await setUp();
    const snapshot = engine.sandbox().snapshot();
    const [customer] = snapshot.collections.customers as { fullName: string; currencies: string[]; address?: { line1: string } }[];
    expect(() => {
      customer!.fullName = 'Changed';
    }).toThrow(TypeError);
    // All the way down (tests set nothing special: this is how every engine runs).
    expect(() => customer!.currencies.push('XXX')).toThrow(TypeError);
    const [account] = snapshot.collections.internalAccounts as { balance: { currency: object } }[];
    expect(Object.isFrozen(account!.balance)).toBe(true);
    expect(Object.isFrozen(account!.balance.currency)).toBe(true);
    expect(Object.isFrozen(snapshot.collections)).toBe(true);
    await engine.fetch(apiRequest('PATCH', `/customers/${customerId}`, { customerType: 'INDIVIDUAL', fullName: 'Renamed Later' }));
    expect(customer!.fullName).toBe('Snap Shot');
    engine.sandbox().restore(snapshot);
    expect(await customerNames(engine)).toEqual(['Snap Shot']);
  });

  it('restore into another platform, and an edited copy is checked like any snapshot', async () => {
    const { engine } = await setUp();
    const other = engine.createPlatform();
    engine.sandbox(other.clientId).restore(engine.sandbox().snapshot());
    expect((engine.sandbox(other.clientId).snapshot().collections.customers as unknown[]).length).toBe(1);
    const edited = structuredClone(engine.sandbox().snapshot());
    (edited.collections.customers![0] as { fullName: string }).fullName = 'Edited Copy';
    engine.sandbox().restore(edited);
    expect(await customerNames(engine)).toEqual(['Edited Copy']);
    (edited.collections.customers![0] as { id: string }).id = 'not-an-id';
    expect(() => engine.sandbox().restore(edited)).toThrow();
    expect(await customerNames(engine)).toEqual(['Edited Copy']);
  });
});

describe('each platform has its own virtual clock', () => {
  it("advancing one platform's clock moves neither another platform's time nor its jobs (a quote keeps its validity)", async () => {
    const engine = createEngine({ clock: new VirtualClock(Date.UTC(2026, 0, 1)), platform: { regulated: true } });
    const other = engine.createPlatform({ regulated: true });
    const asOther = { clientId: other.clientId, clientSecret: other.clientSecret };
    const call = (method: string, path: string, body?: unknown, credentials?: typeof asOther) => callApi(engine, method, path, body, {}, credentials);

    const payer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Clock Keeper', currencies: ['USD', 'MXN'] })).body;
    const accounts = (await call('GET', `/customers/internal-accounts?customerId=${payer.id}`)).body.data as { id: string; balance: { currency: { code: string } } }[];
    const [usd, mxn] = ['USD', 'MXN'].map((code) => accounts.find((a) => a.balance.currency.code === code)!.id);
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 });
    const quote = (await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: mxn },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    })).body;
    expect(quote.status).toBe('PENDING');

    // The other platform starts at the engine's time and moves a day on its own.
    expect((await call('GET', '/_sandbox/clock', undefined, asOther)).body.now).toBe('2026-01-01T00:00:00.000Z');
    expect((await call('POST', '/_sandbox/clock/advance', { ms: 86_400_000 }, asOther)).body.now).toBe('2026-01-02T00:00:00.000Z');
    expect((await call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-01T00:00:00.000Z');
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('PENDING');

    // Its own advance still expires it.
    await call('POST', '/_sandbox/clock/advance', { ms: 86_400_000 });
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('EXPIRED');
    expect((await call('GET', '/_sandbox/clock', undefined, asOther)).body.now).toBe('2026-01-02T00:00:00.000Z');
  });
});

describe('restore checks the whole snapshot and reaches no other platform', () => {
  const setUp = async () => {
    const engine = createEngine({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
    const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Kept Safe' })).body;
    const [account] = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as { id: string }[];
    await call('POST', `/sandbox/internal-accounts/${account!.id}/fund`, { amount: 5_000 });
    const snapshot = structuredClone(engine.sandbox().snapshot()) as { format: string; takenAt: string; collections: Record<string, Record<string, unknown>[]> };
    const state = async () => JSON.stringify((await call('GET', '/_sandbox/snapshot')).body.collections);
    return { engine, call, snapshot, state, accountId: account!.id };
  };
  const refused = async (call: (m: string, p: string, b?: unknown) => Promise<{ status: number; body: Json }>, body: unknown) => {
    const response = await call('POST', '/_sandbox/restore', body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    return response.body.details.errors as { field: string; message: string }[];
  };

  it('refuses collections named constructor or __proto__ (a 500 and a silent wipe before), changing nothing', async () => {
    const { call, snapshot, state } = await setUp();
    const before = await state();
    for (const name of ['constructor', '__proto__', 'toString']) {
      const text = JSON.stringify(snapshot).replace('"collections":{', `"collections":{"${name}":[],`);
      const response = await call('POST', '/_sandbox/restore', text);
      expect(response.status, name).toBe(400);
      expect(response.body.details.errors.map((e: { field: string }) => e.field), name).toEqual([`collections.${name}`]);
    }
    expect(await state()).toBe(before);
  });

  it('refuses a balance the ledger does not back (money cannot be minted by editing a snapshot)', async () => {
    const { call, snapshot, state, accountId } = await setUp();
    const before = await state();
    const accounts = snapshot.collections.internalAccounts!;
    const index = accounts.findIndex((a) => a.id === accountId);
    const edited = accounts[index] as { balance: { amount: number } };
    expect(edited.balance.amount).toBe(5_000);
    edited.balance.amount = 5_000_000;
    const errors = await refused(call, snapshot);
    expect(errors).toEqual([{ field: `collections.internalAccounts.${index}.balance.amount`, message: `is 5000000, but the ledger's USD postings to ${accountId} add up to 5000` }]);
    expect(await state()).toBe(before);
  });

  it('refuses job ids it could not have given (a 400-digit id made the job counter Infinity) and payloads nested too deep', async () => {
    const { call, snapshot, state } = await setUp();
    const before = await state();
    const job = { id: `job-${'9'.repeat(400)}`, tenantId: 'x', at: Date.UTC(2026, 0, 2), kind: 'payments.settle', payload: {} };
    expect((await refused(call, { ...snapshot, collections: { ...snapshot.collections, jobs: [job] } })).map((e) => e.field)).toEqual(['collections.jobs.0.id']);
    const deep = `${'{"deep":'.repeat(5_000)}"bottom"${'}'.repeat(5_000)}`;
    const deepJob = JSON.stringify({ ...job, id: 'job-1', payload: 'DEEP' }).replace('"DEEP"', deep);
    const text = JSON.stringify(snapshot).replace('"collections":{', `"collections":{"jobs":[${deepJob}],`).replace(/,"jobs":\[[^\]]*\]/, '');
    expect((await refused(call, text)).map((e) => e.field)).toEqual(['collections']);
    expect(await state()).toBe(before);
    expect((await call('GET', '/_sandbox/snapshot')).status).toBe(200);
  });

  it("a restored job that points at nothing neither stops the clock nor reaches another platform's jobs", async () => {
    const { engine, call, snapshot } = await setUp();
    const other = engine.createPlatform();
    const asOther = { clientId: other.clientId, clientSecret: other.clientSecret };
    const bogus = { id: 'job-7', tenantId: engine.defaultPlatform.id, at: Date.UTC(2026, 0, 1, 1), kind: 'payments.settle', payload: { transactionId: 'Transaction:00000000-0000-4000-8000-000000000000' } };
    const restored = await callApi(engine, 'POST', '/_sandbox/restore', { format: snapshot.format, takenAt: snapshot.takenAt, collections: { jobs: [bogus] } }, {}, asOther);
    expect(restored.status).toBe(204);
    // The job is the other platform's, whatever tenant it named: the default platform's state has no such job.
    expect((engine.sandbox().snapshot().collections.jobs as { id: string }[]).map((j) => j.id)).not.toContain('job-7');
    const advanced = await callApi(engine, 'POST', '/_sandbox/clock/advance', { ms: 86_400_000 }, {}, asOther);
    expect(advanced).toMatchObject({ status: 200, body: { now: '2026-01-02T00:00:00.000Z' } });
    expect(engine.sandbox(other.clientId).snapshot().collections.jobs).toEqual([]);
    expect((await call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-01T00:00:00.000Z');
  });
});
