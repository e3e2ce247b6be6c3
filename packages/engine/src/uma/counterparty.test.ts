import { ERROR_CODES } from '@railyard/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { SANDBOX_UMA_DOMAIN, SANDBOX_UMA_DOMAINS, UMA_COUNTERPARTY_FAILURES } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';

// Sandbox receivers that fail as an UMA counterparty would (REFERENCE §11 codes): each answers its status and code at
// its step, and nothing is created or moved.

let engine: Engine;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

let count = 0;
async function payer(extra: Record<string, unknown> = {}): Promise<{ id: string; usd: string }> {
  const created = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Counter Party${++count}x`, currencies: ['USD'], ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const usd = (await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`)).body.data[0].id;
  await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
  return { id: created.body.id, usd };
}
const lookup = (address: string, customerId: string) => call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${customerId}`);
const quote = (from: { usd: string }, address: string, lookupId: string, extra: Record<string, unknown> = {}) => call('POST', '/quotes', {
  source: { sourceType: 'ACCOUNT', accountId: from.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
  lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true, ...extra,
});
/** What a refused request must leave unchanged: the payer's balance and the platform's transactions. */
async function state(from: { usd: string }) {
  const accounts = (await call('GET', '/customers/internal-accounts?limit=100')).body.data as Json[];
  const transactions = (await call('GET', '/transactions?limit=100')).body.data as Json[];
  return { balance: accounts.find((a) => a.id === from.usd)!.balance.amount, transactions: transactions.length };
}
const UNUSED_LOOKUP = 'Lookup:00000000-0000-4000-8000-000000000000';

const failures = Object.entries(UMA_COUNTERPARTY_FAILURES);

describe('the failure table', () => {
  it('pairs every code with a status that carries it', () => {
    for (const [, failure] of failures) expect((ERROR_CODES[failure.status] as readonly string[])).toContain(failure.code);
  });
});

describe.each(failures.filter(([, failure]) => failure.step === 'lookup'))('$%s.<cur> fails at the lookup', (handle, failure) => {
  it(`answers ${failure.status} ${failure.code} to the lookup and to a quote naming it, on every sandbox domain`, async () => {
    const from = await payer();
    const before = await state(from);
    for (const domain of SANDBOX_UMA_DOMAINS) {
      const address = `$${handle}.usd@${domain}`;
      const looked = await lookup(address, from.id);
      expect(looked).toMatchObject({ status: failure.status, body: { status: failure.status, code: failure.code, details: { receiverUmaAddress: address, step: 'lookup' } } });
      expect(looked.body.message).toContain(failure.behaviour);
      const quoted = await quote(from, address, UNUSED_LOOKUP);
      expect(quoted).toMatchObject({ status: failure.status, body: { code: failure.code } });
    }
    expect(await state(from)).toEqual(before);
  });
});

describe.each(failures.filter(([, failure]) => failure.step === 'quote' && !('failsOnce' in failure)))('$%s.<cur> fails at the quote', (handle, failure) => {
  it(`looks up fine, then answers ${failure.status} ${failure.code} to every quote`, async () => {
    const from = await payer();
    const address = `$${handle}.eur@${SANDBOX_UMA_DOMAIN}`;
    const looked = await lookup(address, from.id);
    expect(looked.status).toBe(200);
    expect(looked.body.supportedCurrencies.map((c: Json) => c.currency.code)).toEqual(['EUR']);
    const before = await state(from);
    for (let attempt = 0; attempt < 2; attempt++) {
      const quoted = await quote(from, address, looked.body.lookupId);
      expect(quoted).toMatchObject({ status: failure.status, body: { code: failure.code, details: { step: 'quote' } } });
    }
    expect(await state(from)).toEqual(before);
  });
});

describe('$fail.quote.once.<cur>', () => {
  it('fails the first quote of each lookup with the retryable QUOTE_REQUEST_FAILED; the retry goes through', async () => {
    const from = await payer();
    const address = `$fail.quote.once.usd@${SANDBOX_UMA_DOMAIN}`;
    const first = await lookup(address, from.id);
    const before = await state(from);
    expect(await quote(from, address, first.body.lookupId)).toMatchObject({ status: 400, body: { code: 'QUOTE_REQUEST_FAILED' } });
    expect(await state(from)).toEqual(before);
    const retried = await quote(from, address, first.body.lookupId);
    expect(retried).toMatchObject({ status: 201, body: { status: 'PROCESSING' } });
    expect((await state(from)).balance).toBe(before.balance - 1_000);
    // A new lookup fails its first quote again.
    const second = await lookup(address, from.id);
    expect((await quote(from, address, second.body.lookupId)).body.code).toBe('QUOTE_REQUEST_FAILED');
  });
});

describe('$payer.data.<cur>', () => {
  const address = `$payer.data.usd@${SANDBOX_UMA_DOMAIN}`;

  it('lists the payer fields it requires; a payer lacking a mandatory one gets 400 MISSING_MANDATORY_USER_INFO', async () => {
    const from = await payer();
    const looked = await lookup(address, from.id);
    expect(looked.body.requiredPayerDataFields).toEqual([{ name: 'BIRTH_DATE', mandatory: true }, { name: 'NATIONALITY', mandatory: false }]);
    const before = await state(from);
    const refused = await quote(from, address, looked.body.lookupId);
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'MISSING_MANDATORY_USER_INFO', details: { errors: [{ field: 'senderCustomerInfo.BIRTH_DATE', constraint: { required: true } }] } },
    });
    expect(await state(from)).toEqual(before);
    // Given in senderCustomerInfo, the quote goes through (the optional NATIONALITY may stay out).
    const given = await quote(from, address, looked.body.lookupId, { senderCustomerInfo: { BIRTH_DATE: '1990-04-01' } });
    expect(given).toMatchObject({ status: 201, body: { status: 'PROCESSING' } });
  });

  it('takes the field from the paying customer when it has it', async () => {
    const from = await payer({ birthDate: '1985-06-15' });
    const looked = await lookup(address, from.id);
    expect(await quote(from, address, looked.body.lookupId)).toMatchObject({ status: 201 });
  });

  it('the platform paying has no customer record: only senderCustomerInfo covers the field', async () => {
    // The platform names the address it pays from: a lookup needs customerId or senderUmaAddress.
    const looked = await call('GET', `/receiver/uma/${encodeURIComponent(address)}?senderUmaAddress=${encodeURIComponent('$platform@payer.example')}`);
    const body = {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
      lookupId: looked.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    };
    expect((await call('POST', '/quotes', body)).body.code).toBe('MISSING_MANDATORY_USER_INFO');
    expect((await call('POST', '/quotes', { ...body, senderCustomerInfo: { BIRTH_DATE: '1990-04-01' } })).status).toBe(201);
  });
});
