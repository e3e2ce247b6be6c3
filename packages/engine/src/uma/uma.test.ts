import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { SANDBOX_UMA_DOMAIN, SANDBOX_UMA_DOMAINS } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';
import { APPROVAL_WINDOW_MS } from '../transactions/incoming.js';

// UMA (SPEC §4.6; REFERENCE §9, §13, §14): receiver lookups, payments to the sandbox receivers and to customers, and
// incoming UMA payments through the public API.

let engine: Engine;
beforeEach(() => {
  // Webhook deliveries stay in process: no test reaches beyond this machine.
  engine = createEngine({ platform: { regulated: true }, webhooks: { fetch: async () => new Response(null, { status: 202 }) } });
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

let count = 0;
async function customer(extra: Record<string, unknown> = {}): Promise<{ id: string; usd: string; umaAddress: string }> {
  const created = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Uma Payer${++count}x`, currencies: ['USD'], ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const usd = (await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`)).body.data[0].id;
  return { id: created.body.id, usd, umaAddress: created.body.umaAddress };
}
const lookup = (address: string, customerId: string) => call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${customerId}`);
async function payUma(payer: { id: string; usd: string }, address: string, amount: number) {
  const found = await lookup(address, payer.id);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return call('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
    lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true,
  });
}
const balance = async (accountId: string) => (await call('GET', '/customers/internal-accounts?limit=100')).body.data.find((a: Json) => a.id === accountId).balance.amount;

describe('receiver lookup', () => {
  it('knows the sandbox receivers and the platform’s customers; 400 for a malformed address, 404 for nobody', async () => {
    const payer = await customer();
    const receiver = await lookup(`$success.mxn@${SANDBOX_UMA_DOMAIN}`, payer.id);
    expect(receiver.body).toMatchObject({ receiverUmaAddress: `$success.mxn@${SANDBOX_UMA_DOMAIN}`, supportedCurrencies: [{ currency: { code: 'MXN' }, estimatedExchangeRate: 17.25, min: 1 }] });
    expect(receiver.body.lookupId).toMatch(/^Lookup:/);
    const other = await customer();
    expect((await lookup(other.umaAddress, payer.id)).body.supportedCurrencies.map((c: Json) => c.currency.code)).toEqual(['USD']);
    expect(await lookup('alice@example.com', payer.id)).toMatchObject({ status: 400, body: { code: 'INVALID_UMA_ADDRESS' } });
    expect(await lookup(`$nobody@${SANDBOX_UMA_DOMAIN}`, payer.id)).toMatchObject({ status: 404, body: { code: 'UMA_NOT_FOUND' } });
    expect(await lookup('$bob@elsewhere.example', payer.id)).toMatchObject({ status: 404, body: { code: 'UMA_NOT_FOUND' } });
    expect(await lookup(payer.umaAddress, payer.id)).toMatchObject({ status: 400, body: { code: 'SELF_PAYMENT' } });
  });
});

// Every sandbox receiver answers on our domain and on the reference's documented one (sandbox.uma.money).
describe.each(SANDBOX_UMA_DOMAINS)('paying the sandbox receivers at %s', (domain) => {
  it('$success.<cur> settles at once', async () => {
    const payer = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 10_000 });
    const paid = await payUma(payer, `$success.usd@${domain}`, 2_500);
    expect(paid).toMatchObject({ status: 201, body: { status: 'PROCESSING', destination: { destinationType: 'UMA_ADDRESS' } } });
    expect((await call('GET', `/quotes/${paid.body.id}`)).body.status).toBe('COMPLETED');
    expect((await call('GET', `/transactions/${paid.body.transactionId}`)).body.destination).toEqual({ destinationType: 'UMA_ADDRESS', umaAddress: `$success.usd@${domain}`, currency: 'USD' });
    expect(await balance(payer.usd)).toBe(7_500);
  });

  it('$pending.long.<cur> stays PROCESSING for a day of engine time', async () => {
    const payer = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 10_000 });
    const paid = await payUma(payer, `$pending.long.usd@${domain}`, 2_500);
    expect(paid.body.status).toBe('PROCESSING');
    engine.sandbox().advance(23 * 3600_000);
    expect((await call('GET', `/quotes/${paid.body.id}`)).body.status).toBe('PROCESSING');
    engine.sandbox().advance(3600_000);
    expect((await call('GET', `/quotes/${paid.body.id}`)).body.status).toBe('COMPLETED');
  });

  it('$fail.compliance.<cur> fails with COMPLIANCE_REJECTED and the sender is refunded', async () => {
    const payer = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 10_000 });
    const paid = await payUma(payer, `$fail.compliance.usd@${domain}`, 2_500);
    expect((await call('GET', `/transactions/${paid.body.transactionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED', refund: { status: 'COMPLETED' } });
    expect(await balance(payer.usd)).toBe(10_000);
  });
});

describe('UMA lookups', () => {
  it('a quote must use a lookup made for its address; the reference\'s LookupRequest:<uuid> form names the same lookup', async () => {
    const payer = await customer();
    const found = await lookup(`$success.usd@${SANDBOX_UMA_DOMAIN}`, payer.id);
    const wrongAddress = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${SANDBOX_UMA_DOMAIN}` },
      lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100,
    });
    expect(wrongAddress).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'lookupId' }] } } });
    const unknown = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.usd@${SANDBOX_UMA_DOMAIN}` },
      lookupId: 'Lookup:00000000-0000-4000-8000-000000000000', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100,
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'LOOKUP_REQUEST_NOT_FOUND' } });
    const documentedForm = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.usd@${SANDBOX_UMA_DOMAIN}` },
      lookupId: found.body.lookupId.replace('Lookup:', 'LookupRequest:'), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100,
    });
    expect(documentedForm).toMatchObject({ status: 201, body: { destination: { destinationType: 'UMA_ADDRESS' } } });
  });
});

describe('UMA between customers, and incoming UMA payments', () => {
  it('a lookup may name the sending address: it becomes the incoming payment’s source, and may not be the receiver', async () => {
    const payer = await customer();
    const payee = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 1_000 });
    const self = await call('GET', `/receiver/uma/${encodeURIComponent(payee.umaAddress)}?customerId=${payer.id}&senderUmaAddress=${encodeURIComponent(payee.umaAddress)}`);
    expect(self.body.code).toBe('SELF_PAYMENT');
    const found = await call('GET', `/receiver/uma/${encodeURIComponent(payee.umaAddress)}?customerId=${payer.id}&senderUmaAddress=${encodeURIComponent('$Shop@Payer.Example')}`);
    const paid = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: payee.umaAddress },
      lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    expect(paid.body.status).toBe('PROCESSING');
    const [incoming] = (await call('GET', `/transactions?customerId=${payee.id}&type=INCOMING`)).body.data;
    expect(incoming.source).toMatchObject({ sourceType: 'UMA_ADDRESS', umaAddress: '$shop@payer.example' });

    // Another payer may use the lookup, but sends from its own address, never from the one the first payer named.
    const other = await customer();
    await call('POST', `/sandbox/internal-accounts/${other.usd}/fund`, { amount: 1_000 });
    const reused = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: other.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: payee.umaAddress },
      lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    expect(reused.status).toBe(201);
    const [latest] = (await call('GET', `/transactions?customerId=${payee.id}&type=INCOMING`)).body.data;
    expect(latest.source).toMatchObject({ sourceType: 'UMA_ADDRESS', umaAddress: other.umaAddress });
  });

  it('paying another customer’s UMA address credits its internal account with an incoming payment', async () => {
    const payer = await customer();
    const payee = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 10_000 });
    const paid = await payUma(payer, payee.umaAddress, 4_000);
    expect(paid.body.status).toBe('PROCESSING');
    expect((await call('GET', `/quotes/${paid.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(payee.usd)).toBe(4_000);
    const [incoming] = (await call('GET', `/transactions?customerId=${payee.id}&type=INCOMING`)).body.data;
    expect(incoming).toMatchObject({ source: { sourceType: 'UMA_ADDRESS', umaAddress: payer.umaAddress }, receivedAmount: { amount: 4_000 } });
  });

  it('a receiver that can no longer take the payment fails it (ACCOUNT_CANNOT_RECEIVE) and the payer is refunded', async () => {
    const payer = await customer();
    const payee = await customer();
    await call('POST', `/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 10_000 });
    const deposit = await call('POST', '/customers/external-accounts', {
      customerId: payee.id, currency: 'GBP', defaultUmaDepositAccount: true,
      accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'U P' } },
    });
    const found = await lookup(payee.umaAddress, payer.id);
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: payee.umaAddress, currency: 'GBP' },
      lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    await call('DELETE', `/customers/external-accounts/${deposit.body.id}`);
    const executed = await call('POST', `/quotes/${quote.body.id}/execute`);
    expect(executed.body.status).toBe('PROCESSING');
    expect((await call('GET', `/quotes/${quote.body.id}`)).body.status).toBe('FAILED');
    expect((await call('GET', `/transactions/${quote.body.transactionId}`)).body).toMatchObject({ failureReason: 'ACCOUNT_CANNOT_RECEIVE', refund: { status: 'COMPLETED' } });
    expect(await balance(payer.usd)).toBe(10_000);
  });

  it('POST /sandbox/uma/receive credits the primary internal account, or the default UMA deposit account', async () => {
    const payee = await customer();
    const received = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', receiverUmaAddress: payee.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1_500 });
    expect(received).toMatchObject({ status: 200, body: { type: 'INCOMING', status: 'COMPLETED', destination: { accountId: payee.usd }, receivedAmount: { amount: 1_500 } } });
    expect(await balance(payee.usd)).toBe(1_500);

    const deposit = await call('POST', '/customers/external-accounts', {
      customerId: payee.id, currency: 'USD', defaultUmaDepositAccount: true,
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Uma Payer' } },
    });
    const forwarded = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 500 });
    expect(forwarded.body.destination.accountId).toBe(deposit.body.id);
    expect(await balance(payee.usd)).toBe(1_500);
  });

  it('refuses a sender paying itself, unknown receivers and currencies the customer cannot hold', async () => {
    const payee = await customer();
    const self = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: payee.umaAddress, receiverUmaAddress: payee.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1 });
    expect(self.body.code).toBe('SELF_PAYMENT');
    const unknown = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$a@b.example', receiverUmaAddress: '$ghost@nowhere.example', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1 });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'UMA_NOT_FOUND' } });
    const currency = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$a@b.example', customerId: payee.id, receivingCurrencyCode: 'MXN', receivingCurrencyAmount: 1 });
    expect(currency.body.code).toBe('INVALID_CURRENCY');
    const someoneElse = await customer();
    const contradicting = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$a@b.example', customerId: payee.id, receiverUmaAddress: someoneElse.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1 });
    expect(contradicting).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'receiverUmaAddress' }] } } });
    expect((await call('GET', `/transactions?customerId=${payee.id}`)).body.totalCount).toBe(0);
  });

  it('takes both receiverUmaAddress and customerId, as the reference documents: the customer receives', async () => {
    const payee = await customer();
    const same = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$success.usd@sandbox.uma.money', customerId: payee.id, receiverUmaAddress: payee.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 });
    expect(same).toMatchObject({ status: 200, body: { status: 'COMPLETED', customerId: payee.id } });
    // The reference's example names an address of its own docs beside the customer: the customer receives.
    const documented = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$success.usd@sandbox.uma.money', receiverUmaAddress: '$receiver@uma.domain', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 1000 });
    expect(documented).toMatchObject({ status: 200, body: { customerId: payee.id, receivedAmount: { amount: 1000 } } });
  });

  it('with a webhook endpoint the platform approves or rejects (else it times out); approve and reject need a pending payment', async () => {
    const payee = await customer();
    await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/webhooks' });
    const receive = (amount: number) => call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: amount });

    const approved = (await receive(100)).body;
    expect(approved.status).toBe('PENDING');
    expect(engine.sandbox().events({ type: 'INCOMING_PAYMENT.PENDING' }).data).toHaveLength(1);
    const approval = await call('POST', `/transactions/${approved.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Uma Payer' } });
    expect(approval.body).toMatchObject({ status: 'COMPLETED', counterpartyInformation: { FULL_NAME: 'Uma Payer' } });
    expect(await balance(payee.usd)).toBe(100);
    expect((await call('POST', `/transactions/${approved.id}/approve`)).body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');

    const rejected = (await receive(200)).body;
    expect((await call('POST', `/transactions/${rejected.id}/reject`, { reason: 'unknown sender' })).body.status).toBe('REJECTED');

    const ignored = (await receive(300)).body;
    engine.sandbox().advance(APPROVAL_WINDOW_MS);
    expect((await call('GET', `/transactions/${ignored.id}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect((await call('POST', `/transactions/${ignored.id}/reject`)).status).toBe(409);
    expect(await balance(payee.usd)).toBe(100);
  });
});
