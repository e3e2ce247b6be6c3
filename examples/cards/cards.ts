import type { CardTransaction, RailyardClient } from '@railyard/client';

/**
 * A client for a new sandbox platform that is a regulated institution: its customers are APPROVED at creation, so
 * they can hold a card at once. Each run gets its own platform, so the example can run again against the same server.
 */
export async function cardSandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Cards example', regulated: true });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** `1250` cents as `12.50 USD`. */
const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** A card transaction on one line: status, amounts, and the funding pulls behind it. */
const describe = (t: CardTransaction) =>
  `${t.status} authorized ${usd(t.authorizedAmount.amount)}, settled ${usd(t.settledAmount?.amount ?? 0)}, ` +
  `returned ${usd(t.refundedAmount?.amount ?? 0)}, ${t.pullSummary?.count ?? 0} pulls of ${usd(t.pullSummary?.totalAmount ?? 0)}`;

/**
 * The cards example: a cardholder with 100 USD, a virtual card on their account, a coffee authorized at 12.50 and
 * cleared at 15.00 (a tip: the difference is pulled after the fact), 5.00 of it returned by the merchant, and the
 * ledger entries that moved the money. Returns the trace it printed.
 */
export async function runCards(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };

  // 1. A cardholder (APPROVED on a regulated platform) and the USD account that will fund the card.
  const cardholder = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'cards-grace', fullName: 'Grace Hopper' });
  const [account] = (await client.internalAccounts.list({ customerId: cardholder.id, currency: 'USD' })).data;
  if (!account) throw new Error(`${cardholder.id} has no USD internal account`);
  await client.sandbox.fundInternalAccount(account.id, 10_000);

  // 2. The card: PROCESSING when issued, ACTIVE once the issuer has provisioned it.
  const issued = await client.cards.create({ cardholderId: cardholder.id, form: 'VIRTUAL', fundingSources: [account.id], platformCardId: 'grace-card-042' });
  const card = await client.cards.waitFor(issued.id, { advanceClock: true });
  say(`Card ${card.platformCardId}: ${issued.state} → ${card.state}, ${card.brand} •••• ${card.last4}, expires ${card.expMonth}/${card.expYear}`);

  // 3. A purchase: the network authorizes 12.50; the sandbox pulls it from the funding source.
  const { transaction } = await client.sandbox.cards.authorize(card.id, {
    amount: 1_250, currency: { code: 'USD' }, merchant: { descriptor: 'BLUE BOTTLE COFFEE', mcc: '5814', country: 'US' },
  });
  if (!transaction) throw new Error('the authorization was declined');
  say(`Authorized: ${describe(transaction)}`);

  // 4. The clearing comes in at 15.00 (the tip): the 2.50 beyond the authorization is pulled, then all of it settles.
  await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: transaction.id, amount: 1_500 });
  say(`Cleared: ${describe((await client.transactions.retrieve(transaction.id)) as CardTransaction)}`);

  // 5. The merchant returns 5.00: the purchase stays SETTLED, with refundedAmount.
  await client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: transaction.id, amount: 500 });
  const returned = (await client.transactions.retrieve(transaction.id)) as CardTransaction;
  say(`Returned: ${describe(returned)}`);

  // 6. The ledger: every move is a balanced entry (sandbox snapshot, the ledger collection).
  const snapshot = await client.sandbox.snapshot();
  const entries = (snapshot.collections.ledger ?? []) as { kind: string; reference?: string; postings: { account: string; amount: number }[] }[];
  for (const entry of entries.filter((e) => e.reference === transaction.id)) {
    say(`  ${entry.kind.padEnd(16)} ${entry.postings.map((p) => `${p.account === account.id ? 'cardholder' : p.account} ${p.amount > 0 ? '+' : ''}${usd(p.amount)}`).join(', ')}`);
  }
  const [after] = (await client.internalAccounts.list({ customerId: cardholder.id, currency: 'USD' })).data;
  say(`Balance: ${usd(after!.balance.amount)}`);
  return trace;
}
