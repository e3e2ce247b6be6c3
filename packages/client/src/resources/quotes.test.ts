import { createEngine, DEFAULT_CREDENTIALS, type Engine } from '@railyard/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { APIConnectionError, ConflictError, NotFoundError } from '../core/errors.js';
import { setup } from '../test-support.js';

// Quotes and UMA receiver lookups: against an in-process engine, and the wire details against a fake fetch.

const quote = {
  id: 'Quote:1', status: 'COMPLETED', transactionId: 'Transaction:1', createdAt: '2025-10-13T00:00:00.000Z', expiresAt: '2025-10-13T00:05:00.000Z',
};
const usdBank = (accountNumber: string) => ({
  accountType: 'USD_ACCOUNT' as const, accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' },
});

/** A regulated sandbox (customers are APPROVED at creation), a funded USD payer and a bank account to pay. */
async function payer(client: RailyardClient, funds = 100_000) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
  const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  await client.sandbox.fundInternalAccount(usd!.id, funds);
  const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('123456789') });
  return { customer, usd: usd!, bank };
}
const balanceOf = async (client: RailyardClient, customerId: string) =>
  (await client.internalAccounts.list({ customerId, currency: 'USD' })).data[0]!.balance.amount;

describe('client.quotes against an in-process engine', () => {
  let engine: Engine;
  let client: RailyardClient;
  beforeEach(() => {
    engine = createEngine({ platform: { regulated: true } });
    client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
  });

  it('lists quotes newest first, page by page (the deprecated GET /quotes)', async () => {
    const { usd, bank } = await payer(client);
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) {
      ids.push((await client.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
        lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
      })).id);
    }
    const first = await client.quotes.list({ limit: 2 });
    expect(first.data.map((q) => q.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    expect(first.totalCount).toBe(3);
    const all: string[] = [];
    for await (const q of client.quotes.list({ limit: 2 })) all.push(q.id);
    expect(all).toEqual([...ids].reverse());
  });

  it('creates, retrieves and executes a quote; a second execute is a ConflictError and pays nothing', async () => {
    const { customer, usd, bank } = await payer(client);
    const created = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 12_345, description: 'Invoice 42',
    });
    expect(created).toMatchObject({ status: 'PENDING', exchangeRate: 1, totalSendingAmount: 12_345, totalReceivingAmount: 12_345, sendingCurrency: { code: 'USD' } });
    expect((await client.quotes.retrieve(created.id)).transactionId).toBe(created.transactionId);

    const executed = await client.quotes.execute(created.id);
    expect(executed).toMatchObject({ id: created.id, transactionId: created.transactionId, status: 'PROCESSING' });
    expect((await client.quotes.retrieve(created.id)).status).toBe('COMPLETED');
    expect(await balanceOf(client, customer.id)).toBe(100_000 - 12_345);
    await expect(client.quotes.execute(created.id)).rejects.toBeInstanceOf(ConflictError);
    expect(await balanceOf(client, customer.id)).toBe(100_000 - 12_345);
    await expect(client.quotes.retrieve('Quote:00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('execute always sends an Idempotency-Key: a retry after a lost response replays the payment instead of paying twice', async () => {
    const keys: (string | null)[] = [];
    let lost = 0;
    // The engine executes the quote, then the connection drops before the response arrives (once).
    const flaky = async (request: Request): Promise<Response> => {
      const execute = request.url.endsWith('/execute');
      if (execute) keys.push(request.headers.get('idempotency-key'));
      const response = await engine.fetch(request);
      if (execute && lost++ === 0) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const flakyClient = createClient({ fetch: flaky, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
    const { customer, usd, bank } = await payer(flakyClient);
    const created = await flakyClient.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 20_000,
    });

    // Even a caller asking for no key gets one: execute is the call that must never run twice.
    const { data, response } = await flakyClient.quotes.execute(created.id, undefined, { idempotencyKey: null }).withResponse();
    expect(data.status).toBe('PROCESSING'); // the replayed first answer
    expect(response.retries).toBe(1);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^railyard-[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);

    expect(await balanceOf(flakyClient, customer.id)).toBe(100_000 - 20_000);
    const payments = await flakyClient.transactions.list({ customerId: customer.id, type: 'OUTGOING' });
    expect(payments.totalCount).toBe(1);
    expect(payments.data[0]).toMatchObject({ id: created.transactionId, status: 'COMPLETED' });

    // A new call is a new request: the engine refuses to execute the quote again.
    await expect(flakyClient.quotes.execute(created.id)).rejects.toBeInstanceOf(ConflictError);
    expect(await balanceOf(flakyClient, customer.id)).toBe(100_000 - 20_000);
  });

  it('a lost response on every attempt surfaces as a connection error; the quote was paid once', async () => {
    const lossy = async (request: Request): Promise<Response> => {
      const response = await engine.fetch(request);
      if (request.url.endsWith('/execute')) throw new TypeError('fetch failed');
      return response;
    };
    const lossyClient = createClient({ fetch: lossy, ...DEFAULT_CREDENTIALS, sleep: async () => undefined, maxRetries: 3 });
    const { customer, usd, bank } = await payer(lossyClient);
    const created = await lossyClient.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    await expect(lossyClient.quotes.execute(created.id)).rejects.toBeInstanceOf(APIConnectionError);
    expect((await lossyClient.quotes.retrieve(created.id)).status).toBe('COMPLETED');
    expect(await balanceOf(lossyClient, customer.id)).toBe(100_000 - 1_000);
  });

  it('looks up an UMA receiver and pays it with the lookupId', async () => {
    const { customer, usd } = await payer(client);
    const address = '$success.usd@uma.sandbox.railyard.dev';
    const receiver = await client.receivers.lookupUma(address, { customerId: customer.id });
    expect(receiver).toMatchObject({ receiverUmaAddress: address, supportedCurrencies: [{ currency: { code: 'USD' } }] });
    expect(receiver.lookupId).toMatch(/^Lookup:/);
    const created = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' },
      lookupId: receiver.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_500, immediatelyExecute: true,
    });
    expect(created.status).toBe('PROCESSING');
    expect((await client.quotes.retrieve(created.id)).status).toBe('COMPLETED');
    const error = await client.receivers.lookupUma('$nobody.usd@uma.sandbox.railyard.dev', { customerId: customer.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('UMA_NOT_FOUND');
  });

  it('updates the platform configuration: a standing fee shows on the next cross-currency quote', async () => {
    const updated = await client.config.update({
      feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }],
    });
    expect(updated.feeConfigs).toEqual([{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }]);
    expect((await client.config.retrieve()).feeConfigs).toEqual(updated.feeConfigs);
    const { customer, usd } = await payer(client);
    const gbp = await client.externalAccounts.create({
      customerId: customer.id, currency: 'GBP',
      accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    const priced = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: gbp.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
    });
    expect(priced.platformFeesIncluded).toBe(124);
  });
});

describe('client.quotes on the wire', () => {
  it('sends the documented paths, bodies and keys', async () => {
    const { client, requests } = setup((req) => (req.path.endsWith('/quotes') ? { status: 201, body: quote } : { body: quote }));
    await client.quotes.create({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: 'Customer:1' },
      destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1' }, lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 500,
    });
    await client.quotes.retrieve('Quote:1');
    await client.quotes.execute('Quote:1');
    await client.quotes.execute('Quote:1', { scaFactor: 'PASSKEY' }, { idempotencyKey: 'pay-invoice-42' });
    await client.quotes.execute('Quote:1', undefined, { headers: { 'Idempotency-Key': 'from-header', 'X-Trace': 't1' } });
    await client.quotes.execute('Quote:1', undefined, { idempotencyKey: '', headers: { 'idempotency-key': null } });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /2025-10-13/quotes',
      'GET /2025-10-13/quotes/Quote%3A1',
      'POST /2025-10-13/quotes/Quote%3A1/execute',
      'POST /2025-10-13/quotes/Quote%3A1/execute',
      'POST /2025-10-13/quotes/Quote%3A1/execute',
      'POST /2025-10-13/quotes/Quote%3A1/execute',
    ]);
    expect(requests[0]!.body).toMatchObject({ lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 500 });
    expect(requests[2]!.rawBody).toBe('');
    expect(requests[3]!.body).toEqual({ scaFactor: 'PASSKEY' });
    const keys = requests.slice(2).map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^railyard-/);
    expect(keys.slice(1, 3)).toEqual(['pay-invoice-42', 'from-header']);
    expect(keys[3]).toMatch(/^railyard-/);
    expect(requests[4]!.headers.get('x-trace')).toBe('t1');
  });

  it('URL-encodes the UMA address into the lookup path', async () => {
    const { client, requests } = setup([{ body: { lookupId: 'Lookup:1', receiverUmaAddress: '$a.b+c@x.test', supportedCurrencies: [] } }]);
    await client.receivers.lookupUma('$a.b+c@x.test', { customerId: 'Customer:1', senderUmaAddress: '$me@y.test' });
    expect(requests[0]!.url).toBe(
      'http://127.0.0.1:4100/2025-10-13/receiver/uma/%24a.b%2Bc%40x.test?customerId=Customer%3A1&senderUmaAddress=%24me%40y.test',
    );
  });

  it('sends PATCH /config', async () => {
    const { client, requests } = setup([{ body: { id: 'Platform:1', supportedCurrencies: [], feeConfigs: [], isRegulatedFinancialInstitution: false } }]);
    await client.config.update({ umaDomain: 'pay.example.com' });
    expect(requests[0]).toMatchObject({ method: 'PATCH', path: '/2025-10-13/config', body: { umaDomain: 'pay.example.com' } });
  });
});
