import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { SERVER_ERROR_TRIGGERS } from '../sandbox/magic-values.js';
import { QUOTE_LIFETIME_MS } from './rules.js';

// Quotes, execution and settlement (SPEC §3.5, §4.5, §4.6; REFERENCE §4) through the public API.

let engine: Engine;
beforeEach(() => {
  // Regulated: customers are APPROVED at creation and need no terms consent, so money can move at once.
  engine = createEngine({ platform: { regulated: true } });
});
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);

let customers = 0;
async function customer(currencies = ['USD'], extra: Record<string, unknown> = {}): Promise<{ id: string; accounts: Record<string, Json> }> {
  const created = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL', fullName: `Ada Lovelace${++customers}x`, platformCustomerId: `ada-${customers}`, birthDate: '1815-12-10', nationality: 'GB',
    email: `ada${customers}@example.com`, address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' }, currencies, ...extra,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const listed = await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`);
  return { id: created.body.id, accounts: Object.fromEntries(listed.body.data.map((a: Json) => [a.balance.currency.code, a])) };
}
const fund = async (accountId: string, amount: number) => expect((await call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
const balance = async (accountId: string): Promise<number> => {
  const { data } = (await call('GET', '/customers/internal-accounts?limit=100')).body;
  const platform = (await call('GET', '/platform/internal-accounts')).body.data;
  return [...data, ...platform].find((a: Json) => a.id === accountId)!.balance.amount;
};
const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
async function externalAccount(customerId: string, currency: string, accountInfo: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const created = await call('POST', '/customers/external-accounts', { customerId, currency, accountInfo, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}
const usdBank = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', beneficiary });
const gbpBank = (accountNumber: string) => ({ accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber, beneficiary });
const quote = (body: Record<string, unknown>) => call('POST', '/quotes', { lockedCurrencySide: 'SENDING', ...body });
const fromAccount = (accountId: string) => ({ sourceType: 'ACCOUNT', accountId });
const toAccount = (accountId: string, paymentRail?: string) => ({ destinationType: 'ACCOUNT', accountId, ...(paymentRail ? { paymentRail } : {}) });
/** The events of one transaction, oldest first. */
const eventsOf = (transactionId: string) =>
  engine.sandbox().events({ limit: 100 }).data.filter((e) => (e.data as Json).id === transactionId).map((e) => e.type).reverse();
const transaction = async (id: string) => (await call('GET', `/transactions/${id}`)).body;

/** A funded USD payer and an external account to pay. */
async function payout(destination: Record<string, unknown>, currency = 'USD', funds = 1_000_000) {
  const payer = await customer();
  await fund(payer.accounts.USD!.id, funds);
  const account = await externalAccount(payer.id, currency, destination);
  return { payer, source: payer.accounts.USD!.id, account };
}

describe('pricing', () => {
  it('same currency: exchangeRate 1, the amount passes through, fees are zero', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 12_345 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'PENDING', exchangeRate: 1, totalSendingAmount: 12_345, totalReceivingAmount: 12_345, feesIncluded: 0, platformFeesIncluded: 0,
      sendingCurrency: { code: 'USD', decimals: 2 }, receivingCurrency: { code: 'USD' },
    });
    expect(created.body.transactionId).toMatch(/^Transaction:/);
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(QUOTE_LIFETIME_MS.ACCOUNT);
    expect(await transaction(created.body.transactionId)).toMatchObject({ status: 'PENDING', type: 'OUTGOING', quoteId: created.body.id, paymentRail: 'ACH', railSelectionMode: 'AUTO' });
  });

  it('cross currency, SENDING locked: fixed fees first, then the variable rate, then the mid rate rounded down', async () => {
    const { source, account } = await payout(gbpBank('12345678'), 'GBP');
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 10_000 });
    // 10000 − 50 fixed = 9950; 0.2% of 9950 = 19.9 → 20; 9930 × 0.79 = 7844.7 → 7844 pence.
    expect(created.body).toMatchObject({
      totalSendingAmount: 10_000, totalReceivingAmount: 7_844, feesIncluded: 70, platformFeesIncluded: 0,
      rateDetails: { serviceApiFixedFee: 50, serviceApiVariableFeeRate: 0.002, serviceApiVariableFeeAmount: 20, counterpartyMultiplier: 0.79 },
    });
    expect(created.body.exchangeRate).toBeCloseTo(1 / 0.79, 8);
  });

  it('cross currency, RECEIVING locked: the recipient gets exactly the amount for the smallest sending amount', async () => {
    const { source, account } = await payout(gbpBank('12345678'), 'GBP');
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 7_844 });
    expect(created.body).toMatchObject({ totalReceivingAmount: 7_844, totalSendingAmount: 10_000 });
    const lower = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 9_999 });
    expect(lower.body.totalReceivingAmount).toBeLessThan(7_844);
  });

  it('platform fees: standing feeConfigs on cross-currency USD payments, or a per-quote override', async () => {
    const { source, account } = await payout(gbpBank('12345678'), 'GBP');
    const configured = await call('PATCH', '/config', { feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }] });
    expect(configured.status).toBe(200);
    const standing = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 10_000 });
    // 10000 − 50 − 25 = 9925; service 0.2% = 19.85 → 20; platform 1% = 99.25 → 99; 9925 − 20 − 99 = 9806 × 0.79 = 7746.74 → 7746.
    expect(standing.body).toMatchObject({ feesIncluded: 50 + 20 + 25 + 99, platformFeesIncluded: 124, totalReceivingAmount: 7_746 });

    const override = await quote({
      source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 10_000,
      platformFeeOverride: { platformFixedFee: { amount: 0, currency: 'USD' }, platformVariableFeeBps: 0 },
    });
    expect(override.body).toMatchObject({ feesIncluded: 70, platformFeesIncluded: 0 });

    const executed = await call('POST', `/quotes/${standing.body.id}/execute`);
    expect(executed.body.status).toBe('PROCESSING');
    const platformUsd = (await call('GET', '/platform/internal-accounts?currency=USD')).body.data[0];
    expect(platformUsd.balance.amount).toBe(124);
  });

  it('refuses a fee override off a USD sending currency, and non-USD standing fees with 501', async () => {
    const payer = await customer(['MXN']);
    await fund(payer.accounts.MXN!.id, 100_000);
    const account = await externalAccount(payer.id, 'GBP', gbpBank('12345678'));
    const refused = await quote({
      source: fromAccount(payer.accounts.MXN!.id), destination: toAccount(account.id), lockedCurrencyAmount: 10_000,
      platformFeeOverride: { platformFixedFee: { amount: 10, currency: 'MXN' }, platformVariableFeeBps: 10 },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'platformFeeOverride' }] } } });
    const notImplemented = await call('PATCH', '/config', { feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'EUR', variableFeeBps: 10, fixedFee: { amount: 0, currency: 'EUR' } }] });
    expect(notImplemented).toMatchObject({ status: 501, body: { code: 'NOT_IMPLEMENTED' } });
    expect((await call('GET', '/config')).body.feeConfigs).toEqual([]);
  });
});

describe('execution and the state moves of §3.5', () => {
  it('PENDING → PROCESSING → COMPLETED: debits the source, announces each move, same transactionId', async () => {
    const { source, account } = await payout(usdBank('123456789'), 'USD', 50_000);
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 20_000 });
    const executed = await call('POST', `/quotes/${created.body.id}/execute`, undefined, { 'idempotency-key': 'exec-1' });
    // SPEC §4.5: execute answers PROCESSING; the sandbox settles right after, so the next read is COMPLETED.
    expect(executed).toMatchObject({ status: 200, body: { id: created.body.id, transactionId: created.body.transactionId, status: 'PROCESSING' } });
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(source)).toBe(30_000);
    const settled = await transaction(created.body.transactionId);
    expect(settled).toMatchObject({ status: 'COMPLETED', sentAmount: { amount: 20_000 }, receivedAmount: { amount: 20_000 } });
    expect(settled.settledAt).toBe(engine.sandbox().clock().now);
    expect(eventsOf(created.body.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);

    const replay = await call('POST', `/quotes/${created.body.id}/execute`, undefined, { 'idempotency-key': 'exec-1' });
    expect(replay.body).toEqual(executed.body);
    const again = await call('POST', `/quotes/${created.body.id}/execute`);
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(await balance(source)).toBe(30_000);
  });

  it('PENDING → EXPIRED when expiresAt passes on the clock; execute is then 409', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 100 });
    engine.sandbox().advance(QUOTE_LIFETIME_MS.ACCOUNT - 1);
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('PENDING');
    engine.sandbox().advance(1);
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('EXPIRED');
    expect((await transaction(created.body.transactionId)).status).toBe('EXPIRED');
    expect(eventsOf(created.body.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.EXPIRED']);
    const late = await call('POST', `/quotes/${created.body.id}/execute`);
    expect(late).toMatchObject({ status: 409 });
    expect(late.body.message).toContain('expired');
    expect(await balance(source)).toBe(1_000_000);
  });

  it('immediatelyExecute creates and sends in one request', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 500, immediatelyExecute: true });
    expect(created).toMatchObject({ status: 201, body: { status: 'PROCESSING' } });
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(source)).toBe(1_000_000 - 500);
  });

  it('the deliberate 500s: a quote whose description names one fails with that code and stores nothing', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    for (const [description, code] of Object.entries(SERVER_ERROR_TRIGGERS)) {
      const refused = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 500, immediatelyExecute: true, description });
      expect(refused).toMatchObject({ status: 500, body: { status: 500, code } });
    }
    expect((await call('GET', '/transactions?type=OUTGOING')).body.data).toEqual([]);
    expect(await balance(source)).toBe(1_000_000);
    // Only the whole description triggers.
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 500, description: 'about sandbox:switch-error' });
    expect(created.status).toBe(201);
  });

  it('1,000 concurrent executes of one quote make one payment and one debit', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 700 });
    const results = await Promise.all(Array.from({ length: 1000 }, () => call('POST', `/quotes/${created.body.id}/execute`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(999);
    expect(await balance(source)).toBe(1_000_000 - 700);
    const { body } = await call('GET', `/transactions?customerId=${(await transaction(created.body.transactionId)).customerId}&type=OUTGOING`);
    expect(body.totalCount).toBe(1);
  });

  it('internal transfers credit the receiving account with an incoming payment', async () => {
    const payer = await customer();
    const payee = await customer(['USD', 'MXN']);
    await fund(payer.accounts.USD!.id, 10_000);
    const created = await quote({ source: fromAccount(payer.accounts.USD!.id), destination: toAccount(payee.accounts.MXN!.id), lockedCurrencyAmount: 10_000, immediatelyExecute: true });
    expect(created.body.status).toBe('PROCESSING');
    // 10000 − 50 = 9950; 0.2% → 20; 9930 × 17.25 = 171292.5 → 171292 centavos.
    expect(created.body.totalReceivingAmount).toBe(171_292);
    expect(await balance(payee.accounts.MXN!.id)).toBe(171_292);
    const incoming = (await call('GET', `/transactions?customerId=${payee.id}&type=INCOMING`)).body.data[0];
    expect(incoming).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', direction: 'CREDIT', quoteId: created.body.id, receivedAmount: { amount: created.body.totalReceivingAmount } });
  });
});

describe('external-account outcomes by primary identifier (SPEC §4.6, first table)', () => {
  const rows = [
    { suffix: '002', failureReason: 'QUOTE_EXECUTION_FAILED', afterMs: 0 },
    { suffix: '003', failureReason: 'ACCOUNT_INVALID', afterMs: 0 },
    { suffix: '004', failureReason: 'ACCOUNT_CANNOT_RECEIVE', afterMs: 0 },
    { suffix: '005', failureReason: 'QUOTE_EXECUTION_FAILED', afterMs: 30_000 },
  ];
  it.each(rows)('as destination, $suffix fails with $failureReason after $afterMs ms and refunds the source', async ({ suffix, failureReason, afterMs }) => {
    const { source, account } = await payout(usdBank(`100200${suffix}`));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 4_000, immediatelyExecute: true });
    expect(created.body.status).toBe('PROCESSING'); // even an immediate failure is reported on the next read
    if (afterMs > 0) {
      expect(await balance(source)).toBe(1_000_000 - 4_000);
      engine.sandbox().advance(afterMs - 1);
      expect((await transaction(created.body.transactionId)).status).toBe('PROCESSING');
      engine.sandbox().advance(1);
    }
    const failed = await transaction(created.body.transactionId);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason, refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    expect(failed.refund.reference).toMatch(/^Refund:/);
    expect(await balance(source)).toBe(1_000_000);
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('FAILED');
    expect(eventsOf(created.body.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
  });

  it('any other suffix settles at once: right after the response, no clock advance', async () => {
    const { source, account } = await payout(usdBank('100200001'));
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 4_000, immediatelyExecute: true });
    expect(created.body.status).toBe('PROCESSING');
    expect((await transaction(created.body.transactionId)).status).toBe('COMPLETED');
  });

  it.each(rows)('as a pulled source, $suffix fails with $failureReason and nothing is collected', async ({ suffix, failureReason, afterMs }) => {
    const payer = await customer();
    const pulled = await externalAccount(payer.id, 'USD', usdBank(`900100${suffix}`));
    const created = await quote({ source: fromAccount(pulled.id), destination: toAccount(payer.accounts.USD!.id), lockedCurrencyAmount: 2_500, immediatelyExecute: true });
    expect(created.status).toBe(201);
    engine.sandbox().advance(afterMs);
    expect(await transaction(created.body.transactionId)).toMatchObject({ status: 'FAILED', failureReason });
    expect((await transaction(created.body.transactionId)).refund).toBeUndefined();
    expect(eventsOf(created.body.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED']);
    expect(await balance(payer.accounts.USD!.id)).toBe(0);
  });

  it('a pull from a good account credits the internal account', async () => {
    const payer = await customer();
    const pulled = await externalAccount(payer.id, 'USD', usdBank('900100001'));
    const created = await quote({ source: fromAccount(pulled.id), destination: toAccount(payer.accounts.USD!.id), lockedCurrencyAmount: 2_500, immediatelyExecute: true });
    expect(created.body.status).toBe('PROCESSING');
    expect(await balance(payer.accounts.USD!.id)).toBe(2_500);
  });
});

describe('cross-currency destination outcomes (SPEC §4.6, second table)', () => {
  const send = async (suffix: string) => {
    const { source, account } = await payout(gbpBank(`12345${suffix}`), 'GBP');
    const created = await quote({ source: fromAccount(source), destination: toAccount(account.id), lockedCurrencyAmount: 10_000, immediatelyExecute: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { source, id: created.body.transactionId as string, quoteStatus: created.body.status as string };
  };
  const refundEvents = (last: string) => ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', `OUTGOING_PAYMENT.${last}`];

  it('002: quote execution failed, refunded', async () => {
    const { source, id } = await send('002');
    expect(await transaction(id)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { status: 'COMPLETED' } });
    expect(await balance(source)).toBe(1_000_000);
    expect(eventsOf(id)).toEqual(refundEvents('REFUND_COMPLETED'));
  });

  it('003: completes after about 6 minutes', async () => {
    const { id, quoteStatus } = await send('003');
    expect(quoteStatus).toBe('PROCESSING');
    engine.sandbox().advance(6 * 60_000 - 1);
    expect((await transaction(id)).status).toBe('PROCESSING');
    engine.sandbox().advance(1);
    expect((await transaction(id)).status).toBe('COMPLETED');
  });

  it('004: counterparty delivery failed, refunded', async () => {
    const { source, id } = await send('004');
    expect(await transaction(id)).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE', refund: { status: 'COMPLETED' } });
    expect(await balance(source)).toBe(1_000_000);
  });

  it('005: completes, then the receiving bank returns it (PAYOUT_RETURNED) and the source is refunded', async () => {
    const { source, id } = await send('005');
    expect((await transaction(id)).status).toBe('COMPLETED');
    expect(await balance(source)).toBe(1_000_000 - 10_000);
    engine.sandbox().advance(60_000);
    expect(await transaction(id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED', refund: { status: 'COMPLETED' } });
    expect(await balance(source)).toBe(1_000_000);
    expect(eventsOf(id)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED']);
  });

  it('005 with platform fees: the service gives its fee back, the platform keeps its own, no money is made', async () => {
    await call('PATCH', '/config', { feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }] });
    const { source, id } = await send('005');
    const { fees, platformFees } = await transaction(id);
    expect(platformFees).toBeGreaterThan(0);
    engine.sandbox().advance(60_000);
    expect(await balance(source)).toBe(1_000_000 - platformFees);
    const platformUsd = (await call('GET', '/platform/internal-accounts?currency=USD')).body.data[0];
    expect(platformUsd.balance.amount).toBe(platformFees);
    const ledger = engine.sandbox().snapshot().collections.ledger as Json[];
    const net = (account: string) => ledger.flatMap((e) => e.postings).filter((p: Json) => p.account === account).reduce((sum: number, p: Json) => sum + p.amount, 0);
    expect(net('fees:USD')).toBe(0);
    expect(net('world:USD')).toBe(-1_000_000);
    expect(fees).toBeGreaterThan(platformFees);
  });

  it('006: user cancellation, refunded with reason USER_CANCELLATION', async () => {
    const { id } = await send('006');
    expect(await transaction(id)).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } });
  });

  it('007: payout and refund failed; the money stays with the service', async () => {
    const { source, id } = await send('007');
    expect(await transaction(id)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { status: 'FAILED' } });
    expect(await balance(source)).toBe(1_000_000 - 10_000);
    expect(eventsOf(id)).toEqual(refundEvents('REFUND_FAILED'));
  });

  it('any other suffix completes at once', async () => {
    const { id } = await send('001');
    expect((await transaction(id)).status).toBe('COMPLETED');
  });
});

describe('real-time funding', () => {
  it('carries payment instructions with a reference, and executes when POST /sandbox/send pays it', async () => {
    const payer = await customer();
    const account = await externalAccount(payer.id, 'USD', usdBank('123456789'));
    const created = await quote({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: toAccount(account.id), lockedCurrencyAmount: 3_000 });
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(QUOTE_LIFETIME_MS.REALTIME_FUNDING);
    const info = created.body.paymentInstructions[0].accountOrWalletInfo;
    expect(info).toMatchObject({ accountType: 'USD_ACCOUNT', routingNumber: '021000021', bankName: 'Railyard Sandbox Bank' });
    expect(info.reference).toMatch(/^RY\d{10}$/);

    expect((await call('POST', `/quotes/${created.body.id}/execute`)).status).toBe(409);
    const wrongCurrency = await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' });
    expect(wrongCurrency).toMatchObject({ status: 400, body: { code: 'INVALID_CURRENCY' } });
    const paid = await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD' });
    expect(paid).toMatchObject({ status: 200, body: { id: created.body.transactionId, status: 'PROCESSING', source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' } } });
    expect((await transaction(created.body.transactionId)).status).toBe('COMPLETED');
    expect((await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD' })).status).toBe(409);
  });

  it('another amount than the quote fails with FUNDING_AMOUNT_MISMATCH and is sent back', async () => {
    const payer = await customer();
    const created = await quote({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: toAccount(payer.accounts.USD!.id), lockedCurrencyAmount: 3_000 });
    const paid = await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD', currencyAmount: 2_999 });
    expect(paid.body.status).toBe('PROCESSING');
    expect(await transaction(created.body.transactionId)).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH', refund: { status: 'COMPLETED' } });
    expect(await balance(payer.accounts.USD!.id)).toBe(0);
  });

  it('stablecoins name their network; real-time quotes ignore immediatelyExecute and wait for their money', async () => {
    const payer = await customer(['USD', 'USDC']);
    const missing = await quote({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: payer.id }, destination: toAccount(payer.accounts.USD!.id), lockedCurrencyAmount: 3_000_000 });
    expect(missing).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'source.cryptoNetwork' }] } } });
    const base = await quote({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: payer.id, cryptoNetwork: 'BASE' }, destination: toAccount(payer.accounts.USD!.id), lockedCurrencyAmount: 3_000_000 });
    expect(base.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'BASE_WALLET', assetType: 'USDC' });
    expect(base.body.paymentInstructions[0].accountOrWalletInfo.address).toMatch(/^0x[0-9a-f]{40}$/);
    const immediate = await quote({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: toAccount(payer.accounts.USDC!.id), lockedCurrencyAmount: 100, immediatelyExecute: true });
    expect(immediate).toMatchObject({ status: 201, body: { status: 'PENDING', paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT' } }] } });
    expect((await transaction(immediate.body.transactionId)).status).toBe('PENDING');
  });
});

describe('deprecated transfers (REFERENCE §9)', () => {
  it('/transfer-out pays from an internal account and returns the transaction', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const sent = await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: account.id, paymentRail: 'WIRE' }, amount: 2_000, remittanceInformation: 'INV-42' });
    expect(sent).toMatchObject({ status: 201, body: { type: 'OUTGOING', status: 'PROCESSING', paymentRail: 'WIRE', railSelectionMode: 'MANUAL', sentAmount: { amount: 2_000 } } });
    expect((await transaction(sent.body.id)).status).toBe('COMPLETED');
    expect(await balance(source)).toBe(1_000_000 - 2_000);
    expect((await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: account.id }, amount: 0 })).status).toBe(400);
  });

  it('/transfer-out without an amount sends the whole available balance; an empty source is 409 with nothing created', async () => {
    const { source, account } = await payout(usdBank('123456789'));
    const sent = await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: account.id } });
    expect(sent).toMatchObject({ status: 201, body: { status: 'PROCESSING', sentAmount: { amount: 1_000_000 } } });
    expect(await balance(source)).toBe(0);
    const transactions = (await call('GET', '/transactions?limit=100')).body.data.length;
    const empty = await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: account.id } });
    expect(empty).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { reason: 'INSUFFICIENT_BALANCE', balance: 0 } } });
    expect((await call('GET', '/transactions?limit=100')).body.data.length).toBe(transactions);
    const unknown = await call('POST', '/transfer-out', { source: { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' }, destination: { accountId: account.id } });
    expect(unknown.status).toBe(404);
    // An empty source's payee unknown, or its customer unable to pay: that answer comes first, as with an amount.
    const nowhere = await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: 'ExternalAccount:00000000-0000-4000-8000-000000000000' } });
    expect(nowhere.status).toBe(404);
    const owner = (await call('GET', `/customers/internal-accounts?limit=100`)).body.data.find((a: { id: string }) => a.id === source).customerId;
    expect((await call('DELETE', `/customers/${owner}`)).status).toBeLessThan(300);
    expect((await call('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: account.id } })).body.code).toBe('CUSTOMER_DELETED');
  });

  it('/transfer-in without an amount pulls the most one pull may carry: the platform\'s single-transaction maximum', async () => {
    const payer = await customer();
    const pulled = await externalAccount(payer.id, 'USD', usdBank('900100001'));
    const received = await call('POST', '/transfer-in', { source: { accountId: pulled.id }, destination: { accountId: payer.accounts.USD!.id } });
    expect(received).toMatchObject({ status: 201, body: { status: 'PROCESSING', sentAmount: { amount: 100_000_000, currency: { code: 'USD' } } } });
    expect(await balance(payer.accounts.USD!.id)).toBe(100_000_000);
    // A lower maximum in the platform's terms is the amount pulled.
    const terms = (await call('GET', '/config')).body.supportedCurrencies.map((c: { currencyCode: string; maxAmount: number }) => (c.currencyCode === 'USD' ? { ...c, maxAmount: 2_500 } : c));
    expect((await call('PATCH', '/config', { supportedCurrencies: terms })).status).toBe(200);
    const capped = await call('POST', '/transfer-in', { source: { accountId: pulled.id }, destination: { accountId: payer.accounts.USD!.id } });
    expect(capped.body.sentAmount.amount).toBe(2_500);
    const unknown = await call('POST', '/transfer-in', { source: { accountId: 'ExternalAccount:00000000-0000-4000-8000-000000000000' }, destination: { accountId: payer.accounts.USD!.id } });
    expect(unknown.status).toBe(404);
  });

  it('/transfer-in pulls from a pullable external account; other account types are refused', async () => {
    const payer = await customer();
    const pulled = await externalAccount(payer.id, 'USD', usdBank('900100001'));
    const received = await call('POST', '/transfer-in', { source: { accountId: pulled.id }, destination: { accountId: payer.accounts.USD!.id }, amount: 1_500 });
    expect(received).toMatchObject({ status: 201, body: { status: 'PROCESSING', source: { sourceType: 'ACCOUNT', accountId: pulled.id } } });
    expect(await balance(payer.accounts.USD!.id)).toBe(1_500);
    const gbp = await externalAccount(payer.id, 'GBP', gbpBank('12345678'));
    const refused = await call('POST', '/transfer-in', { source: { accountId: gbp.id }, destination: { accountId: payer.accounts.USD!.id }, amount: 1_500 });
    expect(refused).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'source.accountId' }] } } });
  });
});
