import { expect, it } from 'vitest';
import { ConflictError, type RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Money movement through the typed client (SPEC §3.5, §4.5, §4.6), over every transport: quotes, execution, waiting
// for settlement by advancing the sandbox's virtual clock (every transport runs one), refunds, UMA and real-time funding.

const beneficiary = { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' };
const usdBank = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT' as const, accountNumber, routingNumber: '021000021', beneficiary });
const gbpBank = (accountNumber: string) => ({ accountType: 'GBP_ACCOUNT' as const, sortCode: '040004', accountNumber, beneficiary });

/** A client for a fresh regulated platform: its customers are APPROVED at creation, so money moves at once. */
async function regulatedPlatform(scope: TransportScope): Promise<RailyardClient> {
  const platform = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'payments', regulated: true });
  return scope.transport.clientFor(platform);
}

/** A customer with a USD internal account funded with `funds` cents. */
async function fundedCustomer(client: RailyardClient, funds = 100_000) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada', fullName: 'Ada Lovelace' });
  expect(customer.customerType === 'INDIVIDUAL' && customer.kycStatus).toBe('APPROVED');
  const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  const funded = await client.sandbox.fundInternalAccount(usd!.id, funds);
  expect(funded.balance.amount).toBe(funds);
  const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount;
  return { customer, usd: usd!, balance };
}

const fromAccount = (accountId: string) => ({ sourceType: 'ACCOUNT' as const, accountId });
const toAccount = (accountId: string) => ({ destinationType: 'ACCOUNT' as const, accountId });

describeOverTransports('payments', (scope) => {
  it('funds, quotes, executes and completes a USD payout to a bank account', async () => {
    const client = await regulatedPlatform(scope);
    const { customer, usd, balance } = await fundedCustomer(client);
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('123456789') });

    const quote = await client.quotes.create({ source: fromAccount(usd.id), destination: toAccount(bank.id), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 25_000 });
    expect(quote).toMatchObject({ status: 'PENDING', exchangeRate: 1, totalSendingAmount: 25_000, totalReceivingAmount: 25_000, feesIncluded: 0 });
    const executed = await client.quotes.execute(quote.id);
    expect(executed).toMatchObject({ id: quote.id, transactionId: quote.transactionId });

    const settled = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
    expect(settled).toMatchObject({ type: 'OUTGOING', status: 'COMPLETED', quoteId: quote.id, sentAmount: { amount: 25_000, currency: { code: 'USD' } } });
    expect(settled.type === 'OUTGOING' && settled.settledAt).toBeTruthy();
    expect(await balance()).toBe(100_000 - 25_000);
    const outgoing = await client.transactions.list({ customerId: customer.id, type: 'OUTGOING' });
    expect(outgoing.data.map((t) => t.id)).toEqual([quote.transactionId]);
  });

  it('an execute repeated with its Idempotency-Key replays the payment instead of paying twice', async () => {
    const client = await regulatedPlatform(scope);
    const { customer, usd, balance } = await fundedCustomer(client);
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('123456789') });
    const quote = await client.quotes.create({ source: fromAccount(usd.id), destination: toAccount(bank.id), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });

    const first = await client.quotes.execute(quote.id, undefined, { idempotencyKey: `execute-${quote.id}` });
    const { data: again, response } = await client.quotes.execute(quote.id, undefined, { idempotencyKey: `execute-${quote.id}` }).withResponse();
    expect(again).toEqual(first);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    await expect(client.quotes.execute(quote.id)).rejects.toBeInstanceOf(ConflictError);
    expect(await balance()).toBe(100_000 - 10_000);
  });

  it('a cross-currency payout to a GBP account ending 003 completes after about 6 minutes of sandbox time', async () => {
    const client = await regulatedPlatform(scope);
    const { customer, usd } = await fundedCustomer(client);
    const gbp = await client.externalAccounts.create({ customerId: customer.id, currency: 'GBP', accountInfo: gbpBank('12345003') });
    const quote = await client.quotes.create({ source: fromAccount(usd.id), destination: toAccount(gbp.id), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
    expect(quote).toMatchObject({ sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'GBP' } });
    expect(quote.exchangeRate).not.toBe(1);

    const executed = await client.quotes.execute(quote.id);
    expect(executed.status).toBe('PROCESSING');
    const before = Date.parse((await client.sandbox.clock.get()).now);
    const settled = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
    expect(settled).toMatchObject({ status: 'COMPLETED', receivedAmount: { amount: quote.totalReceivingAmount, currency: { code: 'GBP' } } });
    expect(Date.parse((await client.sandbox.clock.get()).now) - before).toBe(6 * 60_000);
    expect((await client.quotes.retrieve(quote.id)).status).toBe('COMPLETED');
  });

  it('a payout to a USD account ending 002 fails and its refund restores the balance', async () => {
    const client = await regulatedPlatform(scope);
    const { customer, usd, balance } = await fundedCustomer(client);
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('100200002') });
    const quote = await client.quotes.create({ source: fromAccount(usd.id), destination: toAccount(bank.id), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 40_000 });
    await client.quotes.execute(quote.id);

    const failed = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    expect(await balance()).toBe(100_000);
    expect((await client.transactions.list({ customerId: customer.id, status: 'FAILED' })).data.map((t) => t.id)).toEqual([quote.transactionId]);
  });

  it('pays an UMA address found with lookupUma', async () => {
    const client = await regulatedPlatform(scope);
    const { customer, usd, balance } = await fundedCustomer(client);
    const address = '$success.usd@uma.sandbox.railyard.dev';
    const receiver = await client.receivers.lookupUma(address, { customerId: customer.id });
    expect(receiver).toMatchObject({ receiverUmaAddress: address, supportedCurrencies: [{ currency: { code: 'USD' } }] });

    const quote = await client.quotes.create({
      source: fromAccount(usd.id), destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' },
      lookupId: receiver.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_500, description: 'Dinner',
    });
    await client.quotes.execute(quote.id);
    const settled = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
    expect(settled).toMatchObject({ status: 'COMPLETED', destination: { destinationType: 'UMA_ADDRESS', umaAddress: address } });
    expect(await balance()).toBe(100_000 - 2_500);
  });

  it('funds a payout in real time: the quote carries payment instructions and sandbox.send pays them', async () => {
    const client = await regulatedPlatform(scope);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'grace', fullName: 'Grace Hopper' });
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('123456789') });
    const quote = await client.quotes.create({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id }, destination: toAccount(bank.id),
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_000,
    });
    const instructions = quote.paymentInstructions?.[0]?.accountOrWalletInfo as { accountType: string; reference?: string } | undefined;
    expect(instructions).toMatchObject({ accountType: 'USD_ACCOUNT' });
    expect(instructions?.reference).toBeTruthy();
    await expect(client.quotes.execute(quote.id)).rejects.toBeInstanceOf(ConflictError);

    const paid = await client.sandbox.send({ quoteId: quote.id, currencyCode: 'USD' });
    expect(paid).toMatchObject({ id: quote.transactionId, source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' } });
    const settled = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
    expect(settled).toMatchObject({ status: 'COMPLETED', sentAmount: { amount: 3_000 } });
  });
});
