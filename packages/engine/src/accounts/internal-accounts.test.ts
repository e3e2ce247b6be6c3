import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '../config/currencies.js';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// The platform's own internal accounts: one per currency it supports, there before the platform's first request is
// served (so no read changes state), through resets and restores.

const platformAccounts = async (engine: ReturnType<typeof createEngine>, query = '', as?: { clientId: string; clientSecret: string }) => {
  const listed = await callApi(engine, 'GET', `/platform/internal-accounts${query}`, undefined, undefined, as);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data as Json[];
};

describe('platform internal accounts', () => {
  it('holds one account per supported currency on the default platform and on a new one, the same on every read', async () => {
    const engine = createEngine();
    const first = await platformAccounts(engine);
    expect(first.map((a) => a.balance.currency.code)).toEqual(Object.keys(CURRENCIES));
    expect(await platformAccounts(engine)).toEqual(first);
    for (const account of first) {
      expect(account).not.toHaveProperty('customerId');
      expect(account).toMatchObject({ status: 'ACTIVE', balance: { amount: 0 }, totalBalance: { amount: 0 } });
      expect(account.fundingPaymentInstructions.length).toBeGreaterThan(0);
    }
    // Nobody holds the keys of a platform wallet: the USDB account is an ordinary crypto account.
    expect(Object.fromEntries(first.map((a) => [a.balance.currency.code, a.type]))).toEqual({
      USD: 'INTERNAL_FIAT', EUR: 'INTERNAL_FIAT', GBP: 'INTERNAL_FIAT', MXN: 'INTERNAL_FIAT', BRL: 'INTERNAL_FIAT',
      USDC: 'INTERNAL_CRYPTO', BTC: 'INTERNAL_CRYPTO', USDB: 'INTERNAL_CRYPTO',
    });
    expect(first.find((a) => a.balance.currency.code === 'USDB')).not.toHaveProperty('privateEnabled');

    const other = engine.createPlatform({ name: 'other' });
    const theirs = await platformAccounts(engine, '', other);
    expect(theirs.map((a) => a.balance.currency.code)).toEqual(Object.keys(CURRENCIES));
    expect(theirs.some((a) => first.some((mine) => mine.id === a.id))).toBe(false);
    expect((await platformAccounts(engine, '?currency=GBP&type=INTERNAL_FIAT')).map((a) => a.id)).toEqual([first[2]!.id]);
    expect(await platformAccounts(engine, '?currency=GBP&type=INTERNAL_CRYPTO')).toEqual([]);
  });

  it('are there before the first request, so a read changes no state', async () => {
    const engine = createEngine();
    const other = engine.createPlatform({ name: 'fresh' });
    const before = JSON.stringify((await callApi(engine, 'GET', '/_sandbox/snapshot', undefined, undefined, other)).body.collections);
    expect(JSON.parse(before).internalAccounts).toHaveLength(Object.keys(CURRENCIES).length);
    await platformAccounts(engine, '', other);
    expect(JSON.stringify((await callApi(engine, 'GET', '/_sandbox/snapshot', undefined, undefined, other)).body.collections)).toBe(before);
  });

  it('takes sandbox funding, and a platform fee lands in the listed account of the sending currency', async () => {
    const engine = createEngine();
    const [usd] = await platformAccounts(engine, '?currency=USD');
    const funded = await callApi(engine, 'POST', `/sandbox/internal-accounts/${usd!.id}/fund`, { amount: 7_000 });
    expect(funded).toMatchObject({ status: 200, body: { id: usd!.id, balance: { amount: 7_000 } } });
    expect((await engine.webhooks.next('INCOMING_PAYMENT.COMPLETED')).data).toMatchObject({ destination: { accountId: usd!.id } });
    expect((await platformAccounts(engine, '?currency=USD'))[0]!.balance.amount).toBe(7_000);
    expect(await platformAccounts(engine)).toHaveLength(Object.keys(CURRENCIES).length);
  });

  it('are there again after a reset, kept by a snapshot, and opened for a restored snapshot that has none', async () => {
    const engine = createEngine();
    const sandbox = engine.sandbox();
    const before = await platformAccounts(engine);
    const snapshot = structuredClone(sandbox.snapshot());
    sandbox.reset();
    const afterReset = await platformAccounts(engine);
    expect(afterReset.map((a) => a.balance.currency.code)).toEqual(Object.keys(CURRENCIES));
    expect(afterReset.some((a) => before.some((b) => b.id === a.id))).toBe(false);

    sandbox.restore(snapshot);
    expect((await platformAccounts(engine)).map((a) => a.id)).toEqual(before.map((a) => a.id));

    // A snapshot made before platforms held their accounts: the restore opens them.
    const older = structuredClone(snapshot) as { collections: Record<string, unknown[]> };
    older.collections.internalAccounts = [];
    sandbox.restore(older);
    const reopened = await platformAccounts(engine);
    expect(reopened.map((a) => a.balance.currency.code)).toEqual(Object.keys(CURRENCIES));
  });
});
