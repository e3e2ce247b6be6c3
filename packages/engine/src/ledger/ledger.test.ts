import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';

type Json = Record<string, any>;

async function setup() {
  const engine = createEngine();
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await engine.fetch(apiRequest(method, path, body));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Fay Funded', currencies: ['USD', 'USDC'] })).body;
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[];
  return { engine, call, accounts };
}

describe('sandbox funding and the ledger', () => {
  it('credits an internal account at once, from the outside world, and announces the balance', async () => {
    const { engine, call, accounts } = await setup();
    const usd = accounts.find((a) => a.balance.currency.code === 'USD')!;
    const funded = await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 12_345 });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ id: usd.id, balance: { amount: 12_345, currency: { code: 'USD' } }, totalBalance: { amount: 12_345 } });
    await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 655 });
    const listed = (await call('GET', `/customers/internal-accounts?currency=USD`)).body.data[0];
    expect(listed.balance.amount).toBe(13_000);
    const event = engine.sandbox().events({ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED' }).data[0]!;
    expect((event.data as Json).balance.amount).toBe(13_000);
    const ledger = engine.sandbox().snapshot().collections.ledger as Json[];
    expect(ledger).toHaveLength(2);
    expect(ledger[0]!.postings).toEqual([{ account: 'world:USD', amount: -12_345 }, { account: usd.id, amount: 12_345 }]);
  });

  it('refuses bad amounts and unknown accounts without moving money', async () => {
    const { engine, call, accounts } = await setup();
    const usd = accounts[0]!;
    for (const amount of [0, -5, 1.5, 100_000_000_001, '100']) {
      const refused = await call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount });
      expect(refused.status, String(amount)).toBe(400);
    }
    const unknown = await call('POST', '/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000/fund', { amount: 1 });
    expect(unknown.status).toBe(404);
    expect(engine.sandbox().snapshot().collections.ledger).toBeUndefined();
  });

  it('keeps the sum over all accounts, the outside world included, at zero', async () => {
    const { engine, call, accounts } = await setup();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(accounts.length - 1), fc.integer({ min: 1, max: 100_000_000_000 })), { maxLength: 15 }), async (fundings) => {
        for (const [index, amount] of fundings) await call('POST', `/sandbox/internal-accounts/${accounts[index]!.id}/fund`, { amount });
        const ledger = (engine.sandbox().snapshot().collections.ledger ?? []) as Json[];
        const sums: Record<string, number> = {};
        for (const entry of ledger) for (const p of entry.postings) sums[entry.currency] = (sums[entry.currency] ?? 0) + p.amount;
        expect(Object.values(sums).every((sum) => sum === 0)).toBe(true);
        for (const account of accounts) {
          const credited = ledger.flatMap((e) => e.postings).filter((p: Json) => p.account === account.id).reduce((s: number, p: Json) => s + p.amount, 0);
          const listed = (await call('GET', `/customers/internal-accounts?currency=${account.balance.currency.code}`)).body.data[0];
          expect(listed.balance.amount).toBe(credited);
        }
      }),
      { numRuns: 25, seed: Number(process.env.FC_SEED ?? 20261122) },
    );
  });
});
