import { expect, it } from 'vitest';
import type { CardTransaction, RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Closing a card, over every transport (REFERENCE §15.3, §16): its open authorizations reach a terminal state at once
// and give back what they held; a clearing that arrives after the close is still posted (pulled from the funding
// source, or fronted by the program when the source cannot pay: EXCEPTION); refunds under way still complete.

/** A client for a fresh regulated platform (its customers are APPROVED at creation). */
async function platform(scope: TransportScope): Promise<RailyardClient> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'cards-close', regulated: true });
  return scope.transport.clientFor(created);
}

/** An approved cardholder with a USD account holding `funds` cents, and an ACTIVE card on it. */
async function cardholder(client: RailyardClient, funds: number) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Card Holder' });
  const [account] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  await client.sandbox.fundInternalAccount(account!.id, funds);
  const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account!.id] });
  expect((await client.cards.retrieve(card.id)).state).toBe('ACTIVE');
  const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount;
  return { card, balance };
}

const body = (amount: number, descriptor = 'COFFEE') => ({ amount, currency: { code: 'USD' }, merchant: { descriptor, mcc: '5814' } });
const card = async (client: RailyardClient, id: string) => (await client.transactions.retrieve(id)) as CardTransaction;
/** The card events so far, oldest first: the type, and the status of a card transaction's. */
const cardEvents = async (client: RailyardClient) =>
  (await client.sandbox.events.list({ limit: 100 })).data
    .filter((e) => e.type.startsWith('CARD'))
    .map((e) => (e.type.startsWith('CARD_TRANSACTION.') ? `${e.type} ${(e.data as { id: string }).id}` : e.type))
    .reverse();

describeOverTransports('cards: closing a card', (scope) => {
  it('ends its open authorizations at once: SETTLED, the money held given back, CARD_TRANSACTION.SETTLED for each', async () => {
    const client = await platform(scope);
    const { card: plastic, balance } = await cardholder(client, 10_000);
    const open = (await client.sandbox.cards.authorize(plastic.id, body(1_250))).transaction!;
    const partial = (await client.sandbox.cards.authorize(plastic.id, body(3_000, 'HOTEL'))).transaction!;
    await client.sandbox.cards.simulateClearing(plastic.id, { cardTransactionId: partial.id, amount: 1_000 });
    expect(await card(client, partial.id)).toMatchObject({ status: 'PARTIALLY_SETTLED' });
    expect(await balance()).toBe(10_000 - 1_250 - 3_000);
    const before = (await cardEvents(client)).length;

    expect(await client.cards.close(plastic.id)).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
    expect(await card(client, open.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 }, authorizedAmount: { amount: 1_250 } });
    expect(await card(client, partial.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_000 } });
    expect(await balance()).toBe(10_000 - 1_000);
    expect((await cardEvents(client)).slice(before)).toEqual([
      'CARD.STATE_CHANGE', `CARD_TRANSACTION.SETTLED ${open.id}`, `CARD_TRANSACTION.SETTLED ${partial.id}`,
    ]);

    // Their 7-day expiry was dropped with them: nothing moves or is announced again, and the card takes nothing new.
    await client.sandbox.clock.advance(8 * 24 * 3_600_000);
    expect(await card(client, open.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 } });
    expect(await balance()).toBe(9_000);
    expect((await cardEvents(client)).length).toBe(before + 3);
    expect((await client.sandbox.cards.authorize(plastic.id, body(100))).simulation).toMatchObject({ outcome: 'DECLINED', declineReason: 'CARD_CLOSED' });
  });

  it('a clearing after the close is force-posted: pulled from the funding source, or fronted by the program (EXCEPTION)', async () => {
    const client = await platform(scope);
    const { card: plastic, balance } = await cardholder(client, 10_000);
    const coffee = (await client.sandbox.cards.authorize(plastic.id, body(1_000))).transaction!;
    const rental = (await client.sandbox.cards.authorize(plastic.id, body(2_000, 'CAR RENTAL'))).transaction!;
    await client.cards.close(plastic.id);
    expect(await balance()).toBe(10_000);

    // Cleared above what was authorized (a tip): the whole amount is pulled again, since the close gave the hold back.
    await client.sandbox.cards.simulateClearing(plastic.id, { cardTransactionId: coffee.id, amount: 1_200 });
    expect(await card(client, coffee.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_200 }, settlementSummary: { count: 1, totalAmount: 1_200 } });
    expect(await balance()).toBe(8_800);

    // More than the account holds: the network is paid anyway; the program fronts it and the account is untouched.
    await client.sandbox.cards.simulateClearing(plastic.id, { cardTransactionId: rental.id, amount: 9_000 });
    expect(await card(client, rental.id)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 9_000 } });
    expect(await balance()).toBe(8_800);

    const events = await cardEvents(client);
    expect(events.slice(-2)).toEqual([`CARD_TRANSACTION.SETTLED ${coffee.id}`, `CARD_TRANSACTION.EXCEPTION ${rental.id}`]);
  });

  it('refunds under way still complete: a return of a settled purchase, and a pending merchant credit once it clears', async () => {
    const client = await platform(scope);
    const { card: plastic, balance } = await cardholder(client, 10_000);
    const purchase = (await client.sandbox.cards.authorize(plastic.id, body(2_000, 'SHOES'))).transaction!;
    await client.sandbox.cards.simulateClearing(plastic.id, { cardTransactionId: purchase.id, amount: 2_000 });
    const { issuerTransactionToken } = await client.sandbox.cards.simulateCreditAuthorization(plastic.id, body(300, 'SHOES'));
    const credit = (await client.sandbox.cards.simulation(issuerTransactionToken)).cardTransactionId!;
    expect(await card(client, credit)).toMatchObject({ direction: 'CREDIT', status: 'AUTHORIZED' });
    expect(await balance()).toBe(8_000);

    await client.cards.close(plastic.id);
    expect(await card(client, credit)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 } });

    await client.sandbox.cards.simulateReturn(plastic.id, { cardTransactionId: purchase.id, amount: 500 });
    expect(await card(client, purchase.id)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 500 } });
    await client.sandbox.cards.simulateClearing(plastic.id, { cardTransactionId: credit, amount: 300 });
    expect(await card(client, credit)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 300 } });
    expect(await balance()).toBe(8_000 + 500 + 300);
  });
});
