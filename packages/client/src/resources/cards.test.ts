import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { BadRequestError, CardWaitTimeoutError, ConflictError } from '../core/errors.js';
import type { CardTransaction } from './cards.js';

// client.cards and client.sandbox.cards against an in-process engine: the calls, their types, and the waits.

async function setup() {
  const engine = createEngine({ platform: { regulated: true } });
  const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sandbox: true, sleep: async () => undefined });
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Card Holder' });
  const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  await client.sandbox.fundInternalAccount(usd!.id, 10_000);
  return { engine, client, customer, account: usd!.id };
}

describe('client.cards', () => {
  it('issues, lists with auto-pagination, freezes, unfreezes and closes; refusals are typed errors', async () => {
    const { client, customer, account } = await setup();
    const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account], platformCardId: 'emp-101' });
    expect(card.state).toBe('PROCESSING');
    expect((await client.cards.retrieve(card.id)).state).toBe('ACTIVE');
    await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account] });
    const seen: string[] = [];
    for await (const listed of client.cards.list({ cardholderId: customer.id, limit: 1 })) seen.push(listed.id);
    expect(seen).toHaveLength(2);
    expect((await client.cards.freeze(card.id)).state).toBe('FROZEN');
    expect((await client.cards.unfreeze(card.id)).state).toBe('ACTIVE');
    expect(await client.cards.close(card.id)).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' });
    const conflict = await client.cards.close(card.id).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).code).toBe('CARD_ALREADY_CLOSED');
    await expect(client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: ['InternalAccount:00000000-0000-4000-8000-000000000009'] }))
      .rejects.toMatchObject({ status: 400, code: 'FUNDING_SOURCE_INELIGIBLE' });
    expect((await client.cards.reveal(card.id)).panEmbedUrl).toContain('/cards/');
  });

  it('waitFor moves a virtual clock until the card leaves PROCESSING; a card that never does times out', async () => {
    const { client, customer, account } = await setup();
    const slow = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account], platformCardId: 'slow-005' });
    expect((await client.cards.retrieve(slow.id)).state).toBe('PROCESSING');
    expect((await client.cards.waitFor(slow.id, { advanceClock: true })).state).toBe('ACTIVE');
    const stuck = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account], platformCardId: 'stuck-001' });
    const timedOut = await client.cards.waitFor(stuck.id, { advanceClock: true, timeout: 60_000 }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(CardWaitTimeoutError);
    expect((timedOut as CardWaitTimeoutError).card.state).toBe('PROCESSING');
  });
});

describe('client.sandbox.cards', () => {
  it('authorize resolves with the simulation and its card transaction; clearing and return move it on', async () => {
    const { client, customer, account } = await setup();
    const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account] });
    const { simulation, transaction } = await client.sandbox.cards.authorize(card.id, { amount: 1_250, currency: { code: 'USD' }, merchant: { descriptor: 'COFFEE', mcc: '5814' } });
    expect(simulation).toMatchObject({ outcome: 'APPROVED', kind: 'authorization' });
    const purchase: CardTransaction = transaction!;
    expect(purchase).toMatchObject({ type: 'CARD', status: 'AUTHORIZED', authorizedAmount: { amount: 1_250 } });
    const cleared = await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: purchase.id, amount: 1_250 });
    expect(cleared.issuerTransactionToken).toMatch(/^sandbox_itx_/);
    await client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: purchase.id, amount: 250 });
    const settled = await client.transactions.waitFor(purchase.id);
    expect(settled).toMatchObject({ type: 'CARD', status: 'SETTLED', refundedAmount: { amount: 250 } });
    const declined = await client.sandbox.cards.authorize(card.id, { amount: 10, currency: { code: 'USD' }, merchant: { descriptor: 'PAUSED 003' } });
    expect(declined).toEqual({ simulation: expect.objectContaining({ outcome: 'DECLINED', declineReason: 'CARD_PAUSED' }), transaction: undefined });
    await expect(client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: purchase.id, amount: 5_000 })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('a delayed pull (merchant 005) is waited for with transactions.waitFor and a virtual clock', async () => {
    const { client, customer, account } = await setup();
    const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account] });
    const { transaction } = await client.sandbox.cards.authorize(card.id, { amount: 400, currency: { code: 'USD' }, merchant: { descriptor: 'SLOW 005' } });
    expect(transaction!.pullSummary).toEqual({ count: 1, totalAmount: 0, pendingCount: 1 });
    const pulled = await client.transactions.waitFor(transaction!.id, {
      advanceClock: 5_000, until: (t) => t.type === 'CARD' && t.pullSummary?.pendingCount === 0,
    });
    expect(pulled).toMatchObject({ pullSummary: { count: 1, totalAmount: 400, pendingCount: 0 } });
  });
});
