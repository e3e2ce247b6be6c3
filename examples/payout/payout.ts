import type { RailyardClient, Transaction } from '@railyard/client';

/** The sandbox's UMA receiver that accepts USD and always succeeds. */
const UMA_RECEIVER = '$success.usd@uma.sandbox.railyard.dev';

/**
 * A client for a new sandbox platform that is a regulated institution: its customers are APPROVED at creation, so they
 * can move money at once (on an unregulated platform they are approved through onboarding first, and accept the
 * end-user terms). Each run gets its own platform, so the example can run again and again against the same server.
 */
export async function regulatedSandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Payout example', regulated: true });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** `12345` cents as `123.45 USD`. */
const money = (amount: number, currency: { code: string; decimals: number }) => `${(amount / 10 ** currency.decimals).toFixed(currency.decimals)} ${currency.code}`;

/** One line about where a payment ended: settled, or failed with its reason and what happened to the refund. */
function outcome(transaction: Transaction): string {
  if (transaction.type === 'CARD') return transaction.status;
  if (transaction.status !== 'FAILED') return transaction.status;
  return `FAILED (${transaction.failureReason ?? 'no reason given'})${transaction.refund ? `, refund ${transaction.refund.status}` : ''}`;
}

/**
 * The payout example: create a customer, fund its USD account, pay a US bank account and an UMA address, and wait for
 * each payment to settle. Returns the trace it printed.
 */
export async function runPayout(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };
  // Wait by advancing the sandbox clock when it is virtual; against a real clock (or in production) this polls.
  const settle = (transactionId: string) => client.transactions.waitFor(transactionId, { advanceClock: true, timeout: 15 * 60_000 });

  // 1. A customer, and the USD internal account the sandbox opened for it.
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', platformCustomerId: 'payout-ada', fullName: 'Ada Lovelace', birthDate: '1815-12-10', nationality: 'GB',
    address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
  });
  const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  if (!usd) throw new Error(`${customer.id} has no USD internal account`);
  say(`Customer ${customer.id} (${customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus}) with ${usd.id}`);

  // 2. Money in: the sandbox credits the account as an incoming payment.
  const funded = await client.sandbox.fundInternalAccount(usd.id, 50_000);
  say(`Funded: balance ${money(funded.balance.amount, funded.balance.currency)}`);

  // 3. A payout to a US bank account: quote (amounts and fees fixed until expiresAt), execute, wait.
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  });
  const quote = await client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id },
    destination: { destinationType: 'ACCOUNT', accountId: bank.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 12_000,
    description: 'Payout to checking',
  });
  say(`Quote ${quote.id}: send ${money(quote.totalSendingAmount, quote.sendingCurrency)}, receive ${money(quote.totalReceivingAmount, quote.receivingCurrency)}, fees ${money(quote.feesIncluded, quote.sendingCurrency)}`);
  // execute() always carries an Idempotency-Key, so its retries can never pay twice.
  const executed = await client.quotes.execute(quote.id);
  say(`Executed: ${executed.status}`);
  const payout = await settle(quote.transactionId);
  say(`Bank payout ${payout.id}: ${outcome(payout)}`);

  // 4. A payment to an UMA address: look the receiver up (for this payer), then quote with its lookupId.
  const receiver = await client.receivers.lookupUma(UMA_RECEIVER, { customerId: customer.id });
  say(`UMA receiver ${receiver.receiverUmaAddress} takes ${receiver.supportedCurrencies.map((c) => c.currency.code).join(', ')}`);
  const umaQuote = await client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.receiverUmaAddress, currency: 'USD' },
    lookupId: receiver.lookupId,
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 2_500,
    description: 'Dinner',
  });
  await client.quotes.execute(umaQuote.id);
  const umaPayment = await settle(umaQuote.transactionId);
  say(`UMA payment ${umaPayment.id}: ${outcome(umaPayment)}`);

  // 5. What happened, as the transaction list tells it (oldest first).
  for await (const transaction of client.transactions.list({ customerId: customer.id, sortOrder: 'asc' })) {
    const amount = transaction.type === 'INCOMING' ? transaction.receivedAmount : transaction.type === 'OUTGOING' ? transaction.sentAmount : transaction.authorizedAmount;
    say(`  ${transaction.type.padEnd(8)} ${money(amount.amount, amount.currency).padStart(12)}  ${outcome(transaction)}`);
  }
  const [after] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  say(`Balance: ${money(after!.balance.amount, after!.balance.currency)}`);
  return trace;
}
