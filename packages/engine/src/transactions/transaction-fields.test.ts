import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { SANDBOX_UMA_DOMAIN } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';

// The fields of SPEC §2.8 / §2.9 that say how a payment settled or why it waits, filled where they apply.

function setup(options: { webhookAnswer?: number } = {}) {
  const engine: Engine = createEngine({
    platform: { regulated: true, name: 'Acme Payouts' },
    webhooks: { fetch: async () => new Response(JSON.stringify({ code: 'MORE', message: 'who sent this?', requiredFields: ['FULL_NAME'] }), { status: options.webhookAnswer ?? 200 }) },
  });
  const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
  const customer = async (currencies: string[]) => {
    const created = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Fay Fields', currencies })).body;
    const accounts = (await call('GET', `/customers/internal-accounts?customerId=${created.id}`)).body.data as Json[];
    return { id: created.id as string, accounts: Object.fromEntries(accounts.map((a) => [a.balance.currency.code, a])) as Record<string, Json> };
  };
  const transaction = async (id: string) => (await call('GET', `/transactions/${id}`)).body;
  return { engine, call, customer, transaction };
}

describe('payment instructions name the account holder (SPEC §2.8)', () => {
  it('on internal accounts and on real-time funding quotes: the sandbox account held for the platform', async () => {
    const { call, customer } = setup();
    const payer = await customer(['USD', 'EUR', 'GBP', 'MXN']);
    for (const code of ['USD', 'EUR', 'GBP', 'MXN']) {
      expect(payer.accounts[code]!.fundingPaymentInstructions[0].accountOrWalletInfo.accountHolderName, code).toBe('Railyard Sandbox FBO Acme Payouts');
    }
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: { destinationType: 'ACCOUNT', accountId: payer.accounts.MXN!.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    expect(quote.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'USD_ACCOUNT', accountHolderName: 'Railyard Sandbox FBO Acme Payouts', reference: expect.any(String) });
  });
});

describe('onChainTransaction (SPEC §2.9)', () => {
  const cases = [
    { accountType: 'SOLANA_WALLET', currency: 'USDC', address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', network: 'SOLANA', hash: /^[1-9A-HJ-NP-Za-km-z]{80,90}$/ },
    { accountType: 'BASE_WALLET', currency: 'USDC', address: '0x52908400098527886e0f7030069857d2e4169ee7', network: 'BASE', hash: /^0x[0-9a-f]{64}$/ },
    { accountType: 'SPARK_WALLET', currency: 'BTC', address: 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc', network: 'SPARK', hash: /^[0-9a-f]{64}$/ },
  ];
  it.each(cases)('a payout to a $accountType settles on $network, reported on the destination once COMPLETED', async ({ accountType, currency, address, network, hash }) => {
    const { call, customer, transaction } = setup();
    const payer = await customer([currency]);
    await call('POST', `/sandbox/internal-accounts/${payer.accounts[currency]!.id}/fund`, { amount: 10_000_000 });
    const wallet = await call('POST', '/customers/external-accounts', { customerId: payer.id, currency, accountInfo: { accountType, address } });
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(201);
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.accounts[currency]!.id }, destination: { destinationType: 'ACCOUNT', accountId: wallet.body.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000_000, immediatelyExecute: true,
    });
    expect(quote.body.status).toBe('PROCESSING');
    const settled = await transaction(quote.body.transactionId);
    expect(settled.status).toBe('COMPLETED');
    expect(settled.destination.onChainTransaction).toEqual({ network, transactionHash: expect.stringMatching(hash) });
    expect(settled.source).not.toHaveProperty('onChainTransaction');
  });

  it('a payout to a bank account has none; a real-time crypto payment reports its funding transfer on the source', async () => {
    const { call, customer, transaction } = setup();
    const payer = await customer(['USD', 'USDC']);
    const funded = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: payer.id, cryptoNetwork: 'BASE' },
      destination: { destinationType: 'ACCOUNT', accountId: payer.accounts.USD!.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000_000,
    });
    await call('POST', '/sandbox/send', { quoteId: funded.body.id, currencyCode: 'USDC' });
    const arrived = await transaction(funded.body.transactionId);
    expect(arrived.source.onChainTransaction).toEqual({ network: 'BASE', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(arrived.destination).not.toHaveProperty('onChainTransaction');
  });
});

describe('reconciliationInstructions.transactionHash: the settlement leg of an UMA payment (SPEC §2.9)', () => {
  it('is set when the UMA payment completes, and absent from other payments', async () => {
    const { call, customer, transaction } = setup();
    const payer = await customer(['USD']);
    await call('POST', `/sandbox/internal-accounts/${payer.accounts.USD!.id}/fund`, { amount: 10_000 });
    const address = `$success.usd@${SANDBOX_UMA_DOMAIN}`;
    const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${payer.id}`)).body;
    const paid = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.accounts.USD!.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
      lookupId: lookup.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    const uma = await transaction(paid.body.transactionId);
    expect(uma.reconciliationInstructions).toEqual({ reference: expect.any(String), transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const other = await customer(['USD']);
    const internal = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.accounts.USD!.id }, destination: { destinationType: 'ACCOUNT', accountId: other.accounts.USD!.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    expect((await transaction(internal.body.transactionId)).reconciliationInstructions).not.toHaveProperty('transactionHash');
  });
});

describe('pendingReason (SPEC §2.9)', () => {
  it('COMPLIANCE_REVIEW while a $pending.long payment waits; gone once it settles', async () => {
    const { engine, call, customer, transaction } = setup();
    const payer = await customer(['USD']);
    await call('POST', `/sandbox/internal-accounts/${payer.accounts.USD!.id}/fund`, { amount: 10_000 });
    const address = `$pending.long.usd@${SANDBOX_UMA_DOMAIN}`;
    const lookup = (await call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${payer.id}`)).body;
    const paid = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.accounts.USD!.id }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
      lookupId: lookup.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    expect(await transaction(paid.body.transactionId)).toMatchObject({ status: 'PROCESSING', pendingReason: 'COMPLIANCE_REVIEW' });
    engine.sandbox().advance(24 * 3600_000);
    const settled = await transaction(paid.body.transactionId);
    expect(settled.status).toBe('COMPLETED');
    expect(settled).not.toHaveProperty('pendingReason');
  });

  it('COUNTERPARTY_INFORMATION_REQUIRED while the platform answered 422 to an incoming payment; gone once approved', async () => {
    const { engine, call, customer, transaction } = setup({ webhookAnswer: 422 });
    const payee = await customer(['USD']);
    await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
    const incoming = (await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 })).body;
    await engine.webhooks.settled();
    expect(await transaction(incoming.id)).toMatchObject({ status: 'PENDING', pendingReason: 'COUNTERPARTY_INFORMATION_REQUIRED' });
    const approved = await call('POST', `/transactions/${incoming.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Fay Fields' } });
    expect(approved.body.status).toBe('COMPLETED');
    expect(approved.body).not.toHaveProperty('pendingReason');
  });
});

describe('failureReason LIMIT_EXCEEDED (SPEC §2.9)', () => {
  it('money that arrives for a real-time quote past the payer\'s daily volume is sent back', async () => {
    const { call, customer, transaction } = setup();
    const payer = await customer(['USD', 'MXN']);
    await call('PUT', '/_sandbox/limits', { dailyVolume: { USD: 1_000 } });
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: { destinationType: 'ACCOUNT', accountId: payer.accounts.MXN!.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_500,
    });
    expect(quote.status).toBe(201); // the limit applies when money is sent, not to the price
    await call('POST', '/sandbox/send', { quoteId: quote.body.id, currencyCode: 'USD' });
    expect(await transaction(quote.body.transactionId)).toMatchObject({ status: 'FAILED', failureReason: 'LIMIT_EXCEEDED', refund: { status: 'COMPLETED' } });
    expect((await call('GET', `/customers/internal-accounts?customerId=${payer.id}&currency=MXN`)).body.data[0].balance.amount).toBe(0);
  });
});

describe('incoming payments sent back (SPEC §6 INCOMING_PAYMENT.REFUND_*)', () => {
  it('a rejected payment is refunded to its sender; one that times out too, with reason TIMEOUT; nothing is credited', async () => {
    const { engine, call, customer, transaction } = setup({ webhookAnswer: 202 });
    const payee = await customer(['USD']);
    await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
    const receive = async () => (await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 300 })).body;
    const rejected = await receive();
    const answer = await call('POST', `/transactions/${rejected.id}/reject`, { reason: 'unknown sender' });
    expect(answer.body).toMatchObject({ status: 'REJECTED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED', reference: expect.stringMatching(/^Refund:/) } });
    const ignored = await receive();
    engine.sandbox().advance(60_000);
    expect(await transaction(ignored.id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT', refund: { status: 'COMPLETED', reason: 'TIMEOUT' } });
    const types = engine.sandbox().events({ limit: 100 }).data.filter((e) => (e.data as Json).id === rejected.id).map((e) => e.type).reverse();
    expect(types).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.REFUND_PENDING', 'INCOMING_PAYMENT.REFUND_COMPLETED']);
    expect(payee.accounts.USD!.balance.amount).toBe(0);
    expect((await call('GET', `/customers/internal-accounts?customerId=${payee.id}`)).body.data[0].balance.amount).toBe(0);
  });
});
