import { expect, it } from 'vitest';
import { BadRequestError, ConflictError, type CardTransaction, type RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Cards through the typed client, over every transport (REFERENCE §15, §16; SPEC §3.6): issuance and each of its
// suffixes, the refusals, each state move, reveal, each of the ten simulators and each merchant suffix.

/** A client for a fresh regulated platform (its customers are APPROVED at creation), optionally without cards. */
async function platform(scope: TransportScope, options: { cards?: boolean } = {}): Promise<RailyardClient> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'cards', regulated: true, ...options });
  return scope.transport.clientFor(created);
}

/** An approved cardholder with a USD account holding `funds` cents, and a card on it. */
async function cardholder(client: RailyardClient, funds = 10_000, platformCardId?: string) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Card Holder' });
  const [account] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  if (funds > 0) await client.sandbox.fundInternalAccount(account!.id, funds);
  const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account!.id], ...(platformCardId ? { platformCardId } : {}) });
  const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount;
  return { customer, account: account!.id, card, balance };
}

const usd = { code: 'USD' };
const merchant = (descriptor = 'COFFEE') => ({ descriptor, mcc: '5814' });
const cardEvents = async (client: RailyardClient) =>
  (await client.sandbox.events.list({ limit: 100 })).data.filter((e) => e.type.startsWith('CARD')).map((e) => e.type).reverse();

describeOverTransports('cards', (scope) => {
  it('issues PROCESSING, then ACTIVE; 001 stays PROCESSING, 002 is rejected, 005 is ACTIVE after 30 s', async () => {
    const client = await platform(scope);
    const { card, customer, account } = await cardholder(client, 0, 'emp-042');
    expect(card).toMatchObject({ state: 'PROCESSING', last4: '0042', currency: 'USD', cardholderId: customer.id });
    expect(await client.cards.retrieve(card.id)).toMatchObject({ state: 'ACTIVE', brand: 'VISA' });
    const issue = (platformCardId: string) => client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account], platformCardId });
    const [waiting, rejected, slow] = await Promise.all([issue('w-001'), issue('r-002'), issue('s-005')]);
    expect((await client.cards.retrieve(rejected.id))).toMatchObject({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
    expect((await client.cards.retrieve(slow.id)).state).toBe('PROCESSING');
    const before = Date.parse((await client.sandbox.clock.get()).now);
    expect((await client.cards.waitFor(slow.id, { advanceClock: 5_000 })).state).toBe('ACTIVE');
    expect(Date.parse((await client.sandbox.clock.get()).now) - before).toBe(30_000);
    expect((await client.cards.retrieve(waiting.id)).state).toBe('PROCESSING');
    expect(await cardEvents(client)).toEqual(['CARD.STATE_CHANGE', 'CARD.STATE_CHANGE', 'CARD.STATE_CHANGE']);
  });

  it('refuses: CARDHOLDER_KYC_NOT_APPROVED, FUNDING_SOURCE_INELIGIBLE (accounts ending 002 and 003), CARD_LIMIT_REACHED, 501 without cards', async () => {
    const client = await platform(scope);
    const pending = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Pending Person001' });
    const [pendingAccount] = (await client.internalAccounts.list({ customerId: pending.id })).data;
    await expect(client.cards.create({ cardholderId: pending.id, form: 'VIRTUAL', fundingSources: [pendingAccount!.id] }))
      .rejects.toMatchObject({ status: 400, code: 'CARDHOLDER_KYC_NOT_APPROVED' });

    // Generated ids never end in a trigger: give two accounts such ids by restoring an edited snapshot.
    const { customer, account } = await cardholder(client, 0);
    const other = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Other Holder' });
    const [otherAccount] = (await client.internalAccounts.list({ customerId: other.id })).data;
    const renamed = { [account]: `${account.slice(0, -3)}002`, [otherAccount!.id]: `${otherAccount!.id.slice(0, -3)}003` };
    let text = JSON.stringify(await client.sandbox.snapshot());
    for (const [from, to] of Object.entries(renamed)) text = text.split(from).join(to);
    await client.sandbox.restore(JSON.parse(text));
    await expect(client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [renamed[account]!] }))
      .rejects.toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE', message: expect.stringContaining('balance check') });
    await expect(client.cards.create({ cardholderId: other.id, form: 'VIRTUAL', fundingSources: [renamed[otherAccount!.id]!] }))
      .rejects.toMatchObject({ code: 'FUNDING_SOURCE_INELIGIBLE', message: expect.stringContaining('closed') });

    const limited = await cardholder(client, 0);
    await client.sandbox.limits.set({ liveCards: { perCardholder: 1 } });
    await expect(client.cards.create({ cardholderId: limited.customer.id, form: 'VIRTUAL', fundingSources: [limited.account] }))
      .rejects.toMatchObject({ status: 409, code: 'CARD_LIMIT_REACHED' });

    const noCards = await platform(scope, { cards: false });
    await expect(noCards.cards.list()).rejects.toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
  });

  it('moves ACTIVE → FROZEN → ACTIVE → CLOSED with their events; refused moves are 409 with their codes', async () => {
    const client = await platform(scope);
    const { card, account } = await cardholder(client, 0);
    expect((await client.cards.freeze(card.id)).state).toBe('FROZEN');
    await expect(client.cards.freeze(card.id)).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    expect((await client.cards.unfreeze(card.id)).state).toBe('ACTIVE');
    expect((await client.cards.update(card.id, { fundingSources: [account], maxSpendPerTransaction: 500 })).maxSpendPerTransaction).toBe(500);
    expect((await client.cards.close(card.id)).stateReason).toBe('CLOSED_BY_PLATFORM');
    await expect(client.cards.close(card.id)).rejects.toMatchObject({ code: 'CARD_ALREADY_CLOSED' });
    const notMutable = await client.cards.update(card.id, { maxSpendPerTransaction: null }).catch((error: unknown) => error);
    expect(notMutable).toBeInstanceOf(ConflictError);
    expect((notMutable as ConflictError).code).toBe('CARD_NOT_MUTABLE');
    expect(await cardEvents(client)).toEqual(['CARD.STATE_CHANGE', 'CARD.STATE_CHANGE', 'CARD.STATE_CHANGE', 'CARD.FUNDING_SOURCE_CHANGE', 'CARD.STATE_CHANGE']);
  });

  it('reveals a page with the card number ending in last4', async () => {
    const client = await platform(scope);
    const { card } = await cardholder(client, 0, 'emp-314');
    const { panEmbedUrl } = await client.cards.reveal(card.id);
    const page = await scope.transport.raw(new URL(panEmbedUrl).pathname, { method: 'GET' });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/id="pan">4000 \d{4} \d{4} 0314</);
  });

  it('authorization, clearing above it, return and reversal: the money follows through the ledger', async () => {
    const client = await platform(scope);
    const { card, balance } = await cardholder(client, 10_000);
    const { transaction } = await client.sandbox.cards.authorize(card.id, { amount: 1_250, currency: usd, merchant: merchant() });
    const purchase: CardTransaction = transaction!;
    expect(purchase).toMatchObject({ type: 'CARD', status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 1_250 } });
    await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: purchase.id, amount: 1_500 });
    await client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: purchase.id, amount: 500 });
    expect(await client.transactions.retrieve(purchase.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_500 }, refundedAmount: { amount: 500 }, pullSummary: { count: 2 } });
    expect(await balance()).toBe(9_000);
    await client.sandbox.cards.simulateReturnReversal(card.id, { cardTransactionId: purchase.id });
    expect(await client.transactions.retrieve(purchase.id)).toMatchObject({ refundedAmount: { amount: 0 } });
    expect(await balance()).toBe(8_500);
    const listed = await client.transactions.list({ limit: 5 });
    expect(listed.data[0]).toMatchObject({ id: purchase.id, type: 'CARD' });
    expect(await cardEvents(client)).toEqual(['CARD.STATE_CHANGE', 'CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED']);
    await expect(client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: purchase.id, amount: 10_000 })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('the other simulators: credit, financial, credit advice, balance inquiry, authorization advice, partial clearing and expiry', async () => {
    const client = await platform(scope);
    const { card, balance } = await cardholder(client, 10_000);
    const run = async (token: Promise<{ issuerTransactionToken: string }>) => client.sandbox.cards.simulation((await token).issuerTransactionToken);
    const body = (amount: number) => ({ amount, currency: usd, merchant: merchant('STORE') });

    const credit = await run(client.sandbox.cards.simulateCreditAuthorization(card.id, body(300)));
    await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: credit.cardTransactionId!, amount: 300 });
    expect(await client.transactions.retrieve(credit.cardTransactionId!)).toMatchObject({ direction: 'CREDIT', status: 'SETTLED' });
    const refund = await run(client.sandbox.cards.simulateFinancialCreditAuthorization(card.id, body(200)));
    expect(await client.transactions.retrieve(refund.cardTransactionId!)).toMatchObject({ direction: 'CREDIT', status: 'SETTLED', settledAmount: { amount: 200 } });
    const atm = await run(client.sandbox.cards.simulateFinancialAuthorization(card.id, body(2_000)));
    expect(await client.transactions.retrieve(atm.cardTransactionId!)).toMatchObject({ direction: 'DEBIT', status: 'SETTLED' });
    const advice = await run(client.sandbox.cards.simulateCreditAuthorizationAdvice(card.id, body(50)));
    expect(await client.transactions.retrieve(advice.cardTransactionId!)).toMatchObject({ direction: 'CREDIT', status: 'AUTHORIZED' });
    expect(await run(client.sandbox.cards.simulateBalanceInquiry(card.id, { merchant: merchant('ATM') }))).toMatchObject({ outcome: 'APPROVED' });
    expect(await balance()).toBe(10_000 + 300 + 200 - 2_000);

    const hotel = await run(client.sandbox.cards.simulateAuthorization(card.id, body(3_000)));
    await client.sandbox.cards.simulateAuthorizationAdvice(card.id, { cardTransactionId: hotel.cardTransactionId!, amount: 4_000 });
    await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: hotel.cardTransactionId!, amount: 1_000 });
    expect(await client.transactions.retrieve(hotel.cardTransactionId!)).toMatchObject({ status: 'PARTIALLY_SETTLED', authorizedAmount: { amount: 4_000 } });
    await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: hotel.cardTransactionId!, amount: 0 });
    expect(await client.transactions.retrieve(hotel.cardTransactionId!)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_000 } });
    expect(await balance()).toBe(10_000 + 300 + 200 - 2_000 - 1_000);
  });

  it('merchant suffixes: 002 and 003 decline, 005 delays the pull 30 s, 006 fails it (EXCEPTION at settlement)', async () => {
    const client = await platform(scope);
    const { card, balance } = await cardholder(client, 10_000);
    const authorize = (descriptor: string, amount = 1_000) => client.sandbox.cards.authorize(card.id, { amount, currency: usd, merchant: merchant(descriptor) });
    expect((await authorize('SHOP 002')).simulation).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect((await authorize('SHOP 003')).simulation).toMatchObject({ outcome: 'DECLINED', declineReason: 'CARD_PAUSED' });

    const slow = (await authorize('SLOW 005')).transaction!;
    expect(slow.pullSummary).toEqual({ count: 1, totalAmount: 0, pendingCount: 1 });
    const pulled = await client.transactions.waitFor(slow.id, { advanceClock: 10_000, until: (t) => t.type === 'CARD' && t.pullSummary?.pendingCount === 0 });
    expect(pulled).toMatchObject({ pullSummary: { totalAmount: 1_000 } });
    expect(await balance()).toBe(9_000);

    const flaky = (await authorize('FLAKY 006', 700)).transaction!;
    await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: flaky.id, amount: 700 });
    expect(await client.transactions.retrieve(flaky.id)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 700 } });
    expect(await balance()).toBe(9_000);
  });
});
