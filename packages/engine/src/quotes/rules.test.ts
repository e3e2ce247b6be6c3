import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS } from './rules.js';

// The rules that stop money (issue: money movement, item 6) through the public API: each refusal has its code and
// changes nothing.

let engine: Engine;
let credentials: { clientId: string; clientSecret: string };
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body, undefined, credentials);

function onPlatform(options: { regulated?: boolean; skipPaperwork?: boolean }) {
  engine = createEngine();
  credentials = engine.createPlatform(options);
}
beforeEach(() => onPlatform({ regulated: true }));

let count = 0;
const person = (extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL', fullName: `Grace Hopper${++count}x`, platformCustomerId: `grace-${count}`, currencies: ['USD'], ...extra,
});
async function customer(extra: Record<string, unknown> = {}): Promise<{ id: string; usd: string }> {
  const created = await call('POST', '/customers', person(extra));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const usd = (await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`)).body.data[0].id;
  return { id: created.body.id, usd };
}
const bank = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' } });
async function account(customerId: string, info: Record<string, unknown> = bank('123456789'), extra: Record<string, unknown> = {}, currency = 'USD'): Promise<string> {
  const created = await call('POST', '/customers/external-accounts', { customerId, currency, accountInfo: info, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}
const pay = (source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) => call('POST', '/quotes', {
  source: { sourceType: 'ACCOUNT', accountId: source }, destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, ...extra,
});
const fund = (accountId: string, amount: number) => call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount });
const outgoingCount = async () => (await call('GET', '/transactions?type=OUTGOING')).body.totalCount as number;

describe('who may pay', () => {
  it('a customer not yet approved gets 403 USER_NOT_READY; nothing is created', async () => {
    onPlatform({ regulated: false });
    const payer = await customer({ endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: 'V1', acceptanceMethod: 'CHECKBOX' } });
    const refused = await pay(payer.usd, await account(payer.id), 100);
    expect(refused).toMatchObject({ status: 403, body: { code: 'USER_NOT_READY' } });
    expect(await outgoingCount()).toBe(0);
  });

  it('on an unregulated platform an approved customer without terms consent gets 403 END_USER_TERMS_NOT_ACCEPTED', async () => {
    // Paperwork skipping approves at creation, and the platform is still unregulated.
    onPlatform({ skipPaperwork: true });
    const payer = await customer();
    expect((await call('GET', `/customers/${payer.id}`)).body.kycStatus).toBe('APPROVED');
    const refused = await pay(payer.usd, await account(payer.id), 100);
    expect(refused).toMatchObject({ status: 403, body: { code: 'END_USER_TERMS_NOT_ACCEPTED' } });
    await call('PATCH', `/customers/${payer.id}`, { customerType: 'INDIVIDUAL', endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: 'V1', acceptanceMethod: 'CHECKBOX' } });
    expect((await pay(payer.usd, await account(payer.id, bank('223456789')), 100)).status).toBe(201);
  });

  it('a deleted customer gets 410', async () => {
    const payer = await customer();
    const destination = await account(payer.id);
    await call('DELETE', `/customers/${payer.id}`);
    expect((await pay(payer.usd, destination, 100)).status).toBe(410);
  });

  it('a customer may pay any external account of the platform (the reference ties no payee to a payer); the same account on both sides is SELF_PAYMENT', async () => {
    const payer = await customer();
    const other = await customer();
    const theirs = await account(other.id);
    expect(await pay(payer.usd, theirs, 100)).toMatchObject({ status: 201, body: { status: 'PENDING' } });
    expect(await pay(payer.usd, payer.usd, 100)).toMatchObject({ status: 400, body: { code: 'SELF_PAYMENT' } });
    expect(await outgoingCount()).toBe(1);
  });
});

describe('amounts, balances and limits', () => {
  it('an insufficient balance at execution is 409 CONFLICT (reason INSUFFICIENT_BALANCE) and leaves the quote PENDING', async () => {
    const payer = await customer();
    await fund(payer.usd, 999);
    const created = await pay(payer.usd, await account(payer.id), 1_000);
    const refused = await call('POST', `/quotes/${created.body.id}/execute`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { reason: 'INSUFFICIENT_BALANCE', balance: 999, required: 1_000 } } });
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('PENDING');
    await fund(payer.usd, 1);
    expect((await call('POST', `/quotes/${created.body.id}/execute`)).body.status).toBe('PROCESSING');
  });

  it('a refused immediatelyExecute stores nothing: no quote, no transaction, no event', async () => {
    const payer = await customer();
    await fund(payer.usd, 500);
    const before = engine.sandbox(credentials.clientId).events({ limit: 100 }).data.length;
    const refused = await pay(payer.usd, await account(payer.id), 1_000, { immediatelyExecute: true });
    expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'INSUFFICIENT_BALANCE' } });
    expect(await outgoingCount()).toBe(0);
    engine.sandbox(credentials.clientId).advance(60 * 60_000);
    expect(engine.sandbox(credentials.clientId).events({ limit: 100 }).data).toHaveLength(before);
  });

  it('INVALID_AMOUNT for zero or an amount that does not cover the fees; a bad body lists every field', async () => {
    const payer = await customer();
    const mxn = await account(payer.id, { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'G H' } }, {}, 'GBP');
    expect(await pay(payer.usd, mxn, 0)).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
    expect(await pay(payer.usd, mxn, 50)).toMatchObject({ status: 400, body: { code: 'INVALID_AMOUNT' } });
    const bad = await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT' }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$a@b.co' }, lockedCurrencySide: 'SIDEWAYS', lockedCurrencyAmount: -1, remittanceInformation: 'x'.repeat(81) });
    expect(bad.status).toBe(400);
    const fields = bad.body.details.errors.map((e: Json) => e.field).sort();
    expect(fields).toEqual(['lockedCurrencyAmount', 'lockedCurrencySide', 'lookupId', 'remittanceInformation', 'source.accountId']);
  });

  it('the currency terms of PATCH /config: below minAmount AMOUNT_OUT_OF_RANGE, above maxAmount TRANSACTION_SIZE_LIMIT_EXCEEDED', async () => {
    const payer = await customer();
    const destination = await account(payer.id);
    const patched = await call('PATCH', '/config', { supportedCurrencies: [{ currencyCode: 'USD', minAmount: 100, maxAmount: 50_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }] });
    expect(patched.body.supportedCurrencies.find((c: Json) => c.currencyCode === 'USD')).toMatchObject({ minAmount: 100, maxAmount: 50_000 });
    expect(await pay(payer.usd, destination, 99)).toMatchObject({ status: 400, body: { code: 'AMOUNT_OUT_OF_RANGE' } });
    expect(await pay(payer.usd, destination, 50_001)).toMatchObject({ status: 400, body: { code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED' } });
    expect((await pay(payer.usd, destination, 50_000)).status).toBe(201);
  });

  it('429 DAILY_VOLUME_LIMIT_EXCEEDED once the day’s volume would pass the limit; the next UTC day starts afresh', async () => {
    const payer = await customer();
    await fund(payer.usd, 1_000_000);
    const destination = await account(payer.id);
    expect((await call('PUT', '/_sandbox/limits', { dailyVolume: { USD: 10_000 } })).body).toMatchObject({ dailyVolume: { USD: 10_000 } });
    expect((await pay(payer.usd, destination, 6_000, { immediatelyExecute: true })).status).toBe(201);
    const over = await pay(payer.usd, destination, 4_001, { immediatelyExecute: true });
    expect(over).toMatchObject({ status: 429, body: { code: 'DAILY_VOLUME_LIMIT_EXCEEDED', details: { dailyLimit: 10_000, sentToday: 6_000 } } });
    expect(over.headers.get('x-should-retry')).toBe('false');
    const now = engine.sandbox(credentials.clientId).clock().now;
    const nextDay = (Math.floor(Date.parse(now) / 86_400_000) + 1) * 86_400_000;
    expect(over.headers.get('retry-after')).toBe(String(Math.ceil((nextDay - Date.parse(now)) / 1000)));
    const pending = await pay(payer.usd, destination, 4_001);
    expect(pending.status).toBe(201);
    const execute = () => callApi(engine, 'POST', `/quotes/${pending.body.id}/execute`, undefined, { 'idempotency-key': 'exec-over-limit' }, credentials);
    expect((await execute()).status).toBe(429);
    // A 429 is not remembered under its Idempotency-Key: once the limit lifts, the same key executes.
    await call('PUT', '/_sandbox/limits', { dailyVolume: { USD: 20_000 } });
    expect((await execute()).body.status).toBe('PROCESSING');
    await call('PUT', '/_sandbox/limits', { dailyVolume: { USD: 10_000 } });
    expect((await pay(payer.usd, destination, 1, { immediatelyExecute: true })).status).toBe(429);
    engine.sandbox(credentials.clientId).advance(24 * 3600_000);
    expect((await pay(payer.usd, destination, 9_000, { immediatelyExecute: true })).status).toBe(201);
    expect((await call('PUT', '/_sandbox/limits', { dailyVolume: { USD: null } })).body).toMatchObject({ dailyVolume: {} });
  });

  it('purposeOfPayment is required for INR payouts', async () => {
    const payer = await customer();
    const inr = await account(payer.id, { accountType: 'INR_ACCOUNT', vpa: 'grace@upi', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'G H' } }, {}, 'INR');
    expect(await pay(payer.usd, inr, 10_000)).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'purposeOfPayment' }] } } });
    expect((await pay(payer.usd, inr, 10_000, { purposeOfPayment: 'FAMILY_SUPPORT' })).status).toBe(201);
  });
});

describe('accounts pending ownership verification (SPEC §3.1)', () => {
  it('receive below the threshold; at or above it 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', async () => {
    const payer = await customer();
    const wallet = await account(payer.id, { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, { ownershipType: 'FIRST_PARTY' }, 'USDC');
    expect((await call('GET', `/customers/external-accounts/${wallet}`)).body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const below = await pay(payer.usd, wallet, OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS - 1);
    expect(below.status).toBe(201);
    expect(below.body.totalReceivingAmount).toBeGreaterThan(0);
    const at = await pay(payer.usd, wallet, OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS);
    expect(at).toMatchObject({ status: 400, body: { code: 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED' } });
  });
});

describe('transactions: list, cancel, confirm', () => {
  it('lists with filters and cursor pagination, newest first or oldest first', async () => {
    const payer = await customer();
    await fund(payer.usd, 100_000);
    const destination = await account(payer.id);
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) ids.push((await pay(payer.usd, destination, amount, { immediatelyExecute: true })).body.transactionId);
    const first = await call('GET', `/transactions?customerId=${payer.id}&type=OUTGOING&limit=2`);
    expect(first.body).toMatchObject({ totalCount: 3, hasMore: true });
    expect(first.body.data.map((t: Json) => t.id)).toEqual([ids[2], ids[1]]);
    const second = await call('GET', `/transactions?customerId=${payer.id}&type=OUTGOING&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((t: Json) => t.id)).toEqual([ids[0]]);
    const ascending = await call('GET', `/transactions?customerId=${payer.id}&type=OUTGOING&sortOrder=asc&limit=2`);
    expect(ascending.body.data.map((t: Json) => t.id)).toEqual([ids[0], ids[1]]);
    const next = await call('GET', `/transactions?customerId=${payer.id}&type=OUTGOING&sortOrder=asc&limit=2&cursor=${ascending.body.nextCursor}`);
    expect(next.body.data.map((t: Json) => t.id)).toEqual([ids[2]]);
    expect((await call('GET', `/transactions?receiverAccountIdentifier=${destination}`)).body.totalCount).toBe(3);
    expect((await call('GET', `/transactions?senderAccountIdentifier=${payer.usd}`)).body.totalCount).toBe(3);
    expect((await call('GET', `/transactions?type=INCOMING&customerId=${payer.id}`)).body.totalCount).toBe(1);
    expect((await call('GET', '/transactions?status=FAILED')).body.totalCount).toBe(0);
    expect((await call('GET', '/transactions/Transaction:00000000-0000-4000-8000-000000000000')).body.code).toBe('TRANSACTION_NOT_FOUND');
  });

  it('cancels an ACH payout still PROCESSING and refunds it; settled or non-ACH payments cannot be', async () => {
    const payer = await customer();
    await fund(payer.usd, 100_000);
    const slow = await account(payer.id, bank('555000005'));
    const created = await pay(payer.usd, slow, 1_000, { immediatelyExecute: true });
    expect(created.body.status).toBe('PROCESSING');
    const cancelled = await call('POST', `/transactions/${created.body.transactionId}/cancel`, { reason: 'customer asked' });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } } });
    engine.sandbox(credentials.clientId).advance(60_000);
    expect((await call('GET', `/transactions/${created.body.transactionId}`)).body.status).toBe('FAILED');
    expect((await call('GET', `/customers/internal-accounts?customerId=${payer.id}`)).body.data[0].balance.amount).toBe(100_000);
    expect((await call('POST', `/transactions/${created.body.transactionId}/cancel`)).body.code).toBe('TRANSACTION_NOT_CANCELLABLE');
    const rtp = await pay(payer.usd, slow, 1_000, { immediatelyExecute: true, destination: { destinationType: 'ACCOUNT', accountId: slow, paymentRail: 'RTP' } });
    expect((await call('POST', `/transactions/${rtp.body.transactionId}/cancel`)).status).toBe(400);
  });

  it('confirm records the receipt time (now by default; a repeat overwrites)', async () => {
    const payer = await customer();
    await fund(payer.usd, 1_000);
    const paid = await pay(payer.usd, await account(payer.id), 1_000, { immediatelyExecute: true });
    const now = await call('POST', `/transactions/${paid.body.transactionId}/confirm`);
    expect(now.body.receiptDeliveryConfirmedAt).toBe(engine.sandbox(credentials.clientId).clock().now);
    const later = await call('POST', `/transactions/${paid.body.transactionId}/confirm`, { receiptDeliveryConfirmedAt: '2030-01-01T00:00:00Z' });
    expect(later.body.receiptDeliveryConfirmedAt).toBe('2030-01-01T00:00:00Z');
  });

  it('sandbox funding is an incoming payment: INCOMING_PAYMENT.COMPLETED with the transaction as data', async () => {
    const payer = await customer();
    await fund(payer.usd, 4_200);
    const [incoming] = (await call('GET', `/transactions?customerId=${payer.id}`)).body.data;
    expect(incoming).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 4_200 }, destination: { accountId: payer.usd } });
    const event = engine.sandbox(credentials.clientId).events({ type: 'INCOMING_PAYMENT.COMPLETED' }).data[0]!;
    expect(event.data).toEqual(incoming);
  });
});
