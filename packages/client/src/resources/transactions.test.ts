import { createEngine, DEFAULT_CREDENTIALS, type Engine } from '@railyard/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { APIUserAbortError, BadRequestError, ConflictError, RailyardError, TransactionWaitTimeoutError } from '../core/errors.js';
import { setup, type Recorded } from '../test-support.js';
import type { Transaction } from './transactions.js';
import { isTransactionSettled } from './wait-for-transaction.js';

// Transactions and waiting for them to settle: against an in-process engine (virtual clock), and against a fake fetch
// for the polling rules. No test depends on wall-clock time.

const beneficiary = { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' };
const usdBank = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT' as const, accountNumber, routingNumber: '021000021', beneficiary });
const gbpBank = (accountNumber: string) => ({ accountType: 'GBP_ACCOUNT' as const, sortCode: '040004', accountNumber, beneficiary });

let engine: Engine;
let client: RailyardClient;
let sleeps: number[];
/** Milliseconds the engine's virtual clock has moved since the test began. */
let clockStart: number;
const clockMoved = () => engine.clock.now() - clockStart;

beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
  sleeps = [];
  clockStart = engine.clock.now();
  client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async (ms) => void sleeps.push(ms) });
});

/** A funded USD payer and a payout to `accountInfo`, executed; returns the transaction id and the payer. */
async function payout(currency: 'USD' | 'GBP', accountInfo: ReturnType<typeof usdBank> | ReturnType<typeof gbpBank>, amount = 10_000) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
  const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  await client.sandbox.fundInternalAccount(usd!.id, 1_000_000);
  const account = await client.externalAccounts.create({ customerId: customer.id, currency, accountInfo });
  const quote = await client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: account.id },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
  });
  const executed = await client.quotes.execute(quote.id);
  return { customer, usd: usd!, transactionId: executed.transactionId, executed };
}
const balanceOf = async (accountCustomer: string) => (await client.internalAccounts.list({ customerId: accountCustomer, currency: 'USD' })).data[0]!.balance.amount;

describe('client.transactions against an in-process engine', () => {
  it('lists across pages with filters, and retrieves', async () => {
    const { customer, transactionId } = await payout('USD', usdBank('123456789'), 100);
    const ids: string[] = [];
    for await (const t of client.transactions.list({ customerId: customer.id, limit: 1, sortOrder: 'asc' })) ids.push(t.id);
    expect(ids).toHaveLength(2); // the sandbox funding (INCOMING), then the payout
    expect(ids[1]).toBe(transactionId);
    const outgoing = await client.transactions.list({ customerId: customer.id, type: 'OUTGOING' });
    expect(outgoing.data.map((t) => t.id)).toEqual([transactionId]);
    const transaction = await client.transactions.retrieve(transactionId);
    expect(transaction).toMatchObject({ type: 'OUTGOING', status: 'COMPLETED', sentAmount: { amount: 100 } });
  });

  it('cancels an ACH payout still PROCESSING (refunded), and confirms receipt delivery', async () => {
    const { customer, transactionId } = await payout('USD', usdBank('555000005'), 1_000);
    const cancelled = await client.transactions.cancel(transactionId, { reason: 'customer asked' });
    expect(cancelled).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } });
    expect(await balanceOf(customer.id)).toBe(1_000_000);
    const again = await client.transactions.cancel(transactionId).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as ConflictError).code).toBe('TRANSACTION_NOT_CANCELLABLE');

    const confirmed = await client.transactions.confirm(transactionId, { receiptDeliveryConfirmedAt: '2030-01-01T00:00:00Z' });
    expect(confirmed.type === 'OUTGOING' && confirmed.receiptDeliveryConfirmedAt).toBe('2030-01-01T00:00:00Z');
    const now = await client.transactions.confirm(transactionId);
    expect(now.type === 'OUTGOING' && now.receiptDeliveryConfirmedAt).toBe((await client.sandbox.clock.get()).now);
  });

  it('approves and rejects incoming UMA payments that wait for the platform; an unanswered one times out', async () => {
    // Webhook deliveries stay in process and answer 202: the platform decides later, by approve or reject (REFERENCE §8).
    engine = createEngine({ platform: { regulated: true }, webhooks: { fetch: async () => new Response(null, { status: 202 }) } });
    clockStart = engine.clock.now();
    client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async (ms) => void sleeps.push(ms) });
    await client.config.update({ webhookEndpoint: 'https://platform.example/webhooks' });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const receive = () => client.sandbox.receiveUma({
      senderUmaAddress: '$grace@elsewhere.example', receiverUmaAddress: customer.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700,
    });
    const first = await receive();
    expect(first).toMatchObject({ type: 'INCOMING', status: 'PENDING', receivedAmount: { amount: 700 } });
    expect((await client.transactions.approve(first.id)).status).toBe('COMPLETED');
    await expect(client.transactions.approve(first.id)).rejects.toBeInstanceOf(ConflictError);
    const second = await receive();
    expect((await client.transactions.reject(second.id, { reason: 'unknown sender' })).status).toBe('REJECTED');
    expect(await balanceOf(customer.id)).toBe(700);

    const third = await receive();
    const timedOut = await client.transactions.waitFor(third.id, { advanceClock: 1_000 });
    expect(timedOut).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect(clockMoved()).toBe(5_000);
  });
});

describe('transactions.waitFor, advancing a virtual clock', () => {
  it('resolves a cross-currency payout that takes about 6 minutes without sleeping', async () => {
    const { executed, transactionId } = await payout('GBP', gbpBank('12345003'));
    expect(executed.status).toBe('PROCESSING');
    const settled = await client.transactions.waitFor(transactionId, { advanceClock: true });
    expect(settled).toMatchObject({ id: transactionId, status: 'COMPLETED' });
    expect(clockMoved()).toBe(6 * 60_000); // 36 steps of 10 s; the payout completes on the last one
    expect(sleeps).toEqual([]);
  });

  it('takes the step it is given', async () => {
    const { transactionId } = await payout('GBP', gbpBank('12345003'));
    await client.transactions.waitFor(transactionId, { advanceClock: 4 * 60_000 });
    expect(clockMoved()).toBe(8 * 60_000);
  });

  it('waits for the refund of a failed payout: the payer gets the money back', async () => {
    const { customer, transactionId } = await payout('USD', usdBank('100200005'), 4_000);
    expect(await balanceOf(customer.id)).toBe(1_000_000 - 4_000);
    const failed = await client.transactions.waitFor(transactionId, { advanceClock: true });
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    expect(clockMoved()).toBe(30_000);
    expect(await balanceOf(customer.id)).toBe(1_000_000);
  });

  it('rejects with TransactionWaitTimeoutError once the timeout is spent, with the last state seen', async () => {
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 10_000);
    const address = '$pending.long.usd@uma.sandbox.railyard.dev';
    const { lookupId } = await client.receivers.lookupUma(address, { customerId: customer.id });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' },
      lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    const error = await client.transactions.waitFor(quote.transactionId, { advanceClock: true, timeout: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionWaitTimeoutError);
    expect(error).toBeInstanceOf(RailyardError);
    const timeout = error as TransactionWaitTimeoutError;
    expect(timeout).toMatchObject({ name: 'TransactionWaitTimeoutError', transactionId: quote.transactionId, timeout: 60_000, transaction: { status: 'PROCESSING' } });
    expect(timeout.message).toBe(`Transaction ${quote.transactionId} did not settle after advancing the sandbox clock 60000ms: it is PROCESSING.`);
    expect(clockMoved()).toBe(60_000);
  });
});

describe('transactions.waitFor, polling', () => {
  it('sleeps between reads on a clock it does not advance (here the sleep moves the engine clock, as time would)', async () => {
    const moving = createClient({
      fetch: engine.fetch, ...DEFAULT_CREDENTIALS,
      sleep: async (ms) => {
        sleeps.push(ms);
        engine.sandbox().advance(ms);
      },
    });
    client = moving;
    const { transactionId } = await payout('USD', usdBank('100200005'), 4_000);
    const failed = await moving.transactions.waitFor(transactionId, { interval: 5_000 });
    expect(failed).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED' } });
    expect(sleeps).toEqual([5_000, 5_000, 5_000, 5_000, 5_000, 5_000]);
  });

  /** A fake server whose transaction goes through `states`, one per read (the last one repeats). */
  const server = (states: Partial<Transaction>[], clockMode: 'virtual' | 'real' = 'virtual') => {
    let reads = 0;
    return (req: Recorded) => {
      if (req.path.endsWith('/_sandbox/clock')) return { body: { now: '2025-10-13T00:00:00.000Z', mode: clockMode } };
      if (req.path.endsWith('/_sandbox/clock/advance')) return { body: { now: '2025-10-13T00:00:10.000Z', mode: clockMode } };
      const state = states[Math.min(reads++, states.length - 1)];
      return { body: { id: 'Transaction:1', type: 'OUTGOING', direction: 'DEBIT', customerId: 'Customer:1', platformCustomerId: 'p', ...state } };
    };
  };

  it('reads until a final state, sleeping `interval` in between', async () => {
    const { client: fake, requests, sleeps: slept } = setup(server([{ status: 'PENDING' }, { status: 'PROCESSING' }, { status: 'COMPLETED' }]));
    const settled = await fake.transactions.waitFor('Transaction:1', { interval: 250 });
    expect(settled.status).toBe('COMPLETED');
    expect(slept).toEqual([250, 250]);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('GET /2025-10-13/transactions/Transaction%3A1'));
  });

  it('keeps waiting while the refund of a failed payout is PENDING', async () => {
    const refund = { reference: 'Refund:1', initiatedAt: '2025-10-13T00:00:00.000Z' };
    const { client: fake, sleeps: slept } = setup(server([
      { status: 'PROCESSING' },
      { status: 'FAILED', refund: { ...refund, status: 'PENDING' } },
      { status: 'FAILED', refund: { ...refund, status: 'COMPLETED' } },
    ]));
    const settled = await fake.transactions.waitFor('Transaction:1');
    expect(settled).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED' } });
    expect(slept).toEqual([1_000, 1_000]);
  });

  it('resolves on `until` instead of a final state', async () => {
    const { client: fake, requests } = setup(server([{ status: 'PENDING' }, { status: 'PROCESSING' }, { status: 'COMPLETED' }]));
    const moved = await fake.transactions.waitFor('Transaction:1', { until: (t) => t.status !== 'PENDING' });
    expect(moved.status).toBe('PROCESSING');
    expect(requests).toHaveLength(2);
  });

  it('falls back to polling on a real sandbox clock, and never asks a production host for its clock', async () => {
    const real = setup(server([{ status: 'PROCESSING' }, { status: 'COMPLETED' }], 'real'));
    await real.client.transactions.waitFor('Transaction:1', { advanceClock: true, interval: 10 });
    expect(real.requests.map((r) => r.path.split('/').slice(2).join('/'))).toEqual(['_sandbox/clock', 'transactions/Transaction%3A1', 'transactions/Transaction%3A1']);
    expect(real.sleeps).toEqual([10]);

    const production = setup(server([{ status: 'PROCESSING' }, { status: 'COMPLETED' }]), { baseUrl: 'https://api.example.com/2025-10-13' });
    await production.client.transactions.waitFor('Transaction:1', { advanceClock: true });
    expect(production.requests.every((r) => !r.path.includes('_sandbox'))).toBe(true);
    expect(production.sleeps).toEqual([1_000]);
  });

  it('advances a virtual clock over the wire with POST /_sandbox/clock/advance', async () => {
    const { client: fake, requests, sleeps: slept } = setup(server([{ status: 'PROCESSING' }, { status: 'COMPLETED' }]));
    await fake.transactions.waitFor('Transaction:1', { advanceClock: 30_000 });
    expect(requests.map((r) => `${r.method} ${r.path.split('/').slice(2).join('/')}`)).toEqual([
      'GET _sandbox/clock', 'GET transactions/Transaction%3A1', 'POST _sandbox/clock/advance', 'GET transactions/Transaction%3A1',
    ]);
    expect(requests[2]!.body).toEqual({ ms: 30_000 });
    expect(slept).toEqual([]);
  });

  it('times out with the last state seen, never sleeping past the timeout', async () => {
    const { client: fake, requests, sleeps: slept } = setup(server([{ status: 'PROCESSING' }]));
    const error = await fake.transactions.waitFor('Transaction:1', { interval: 1_000, timeout: 3_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionWaitTimeoutError);
    expect((error as TransactionWaitTimeoutError).transaction.status).toBe('PROCESSING');
    expect((error as Error).message).toMatch(/did not settle after waiting 3000ms: it is PROCESSING\.$/);
    expect(slept.every((ms) => ms > 0 && ms <= 1_000)).toBe(true);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3_000);
    expect(requests).toHaveLength(slept.length + 1);

    const immediate = setup(server([{ status: 'PROCESSING' }]));
    await expect(immediate.client.transactions.waitFor('Transaction:1', { timeout: 0 })).rejects.toBeInstanceOf(TransactionWaitTimeoutError);
    expect(immediate.requests).toHaveLength(1);
  });

  it('honours an AbortSignal', async () => {
    const controller = new AbortController();
    const { client: fake, requests } = setup(server([{ status: 'PROCESSING' }]), { sleep: async () => controller.abort(new Error('user left')) });
    const error = await fake.transactions.waitFor('Transaction:1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
    await expect(fake.transactions.waitFor('Transaction:1', { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
  });

  it('refuses nonsense options', async () => {
    const { client: fake } = setup(server([{ status: 'PROCESSING' }]));
    await expect(fake.transactions.waitFor('Transaction:1', { interval: -1 })).rejects.toThrow(/interval must be at least 10 milliseconds/);
    await expect(fake.transactions.waitFor('Transaction:1', { interval: 0 })).rejects.toThrow(/interval must be at least 10 milliseconds/);
    await expect(fake.transactions.waitFor('Transaction:1', { advanceClock: 0.5 })).rejects.toThrow(/advanceClock must be true or a positive whole number/);
    await expect(fake.transactions.waitFor('', {})).rejects.toThrow(/Missing path parameter "transactionId"/);
  });
});

describe('isTransactionSettled', () => {
  const outgoing = (status: string, refund?: 'PENDING' | 'COMPLETED' | 'FAILED') => ({
    id: 'Transaction:1', type: 'OUTGOING', status, ...(refund ? { refund: { reference: 'r', initiatedAt: 't', status: refund } } : {}),
  }) as unknown as Transaction;
  it('is true for final states whose refund, if any, is no longer pending', () => {
    for (const status of ['COMPLETED', 'FAILED', 'EXPIRED', 'REJECTED', 'REFUNDED']) expect(isTransactionSettled(outgoing(status)), status).toBe(true);
    for (const status of ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING']) expect(isTransactionSettled(outgoing(status)), status).toBe(false);
    expect(isTransactionSettled(outgoing('FAILED', 'PENDING'))).toBe(false);
    expect(isTransactionSettled(outgoing('FAILED', 'COMPLETED'))).toBe(true);
    expect(isTransactionSettled(outgoing('FAILED', 'FAILED'))).toBe(true);
    expect(isTransactionSettled({ type: 'CARD', status: 'AUTHORIZED' } as unknown as Transaction)).toBe(false);
    expect(isTransactionSettled({ type: 'CARD', status: 'SETTLED' } as unknown as Transaction)).toBe(true);
  });
});

describe('BadRequestError on a cancel of another rail', () => {
  it('an RTP payout cannot be cancelled', async () => {
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 10_000);
    const account = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('555000005') });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: account.id, paymentRail: 'RTP' },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    await expect(client.transactions.cancel(quote.transactionId)).rejects.toBeInstanceOf(BadRequestError);
  });
});
