import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { CARD_AUTHORIZATION_TTL_MS } from '../sandbox/magic-values.js';
import { delegatedKeyLegs, walletSession } from '../../../../test/support/wallet-signing.js';

// The sandbox card network (REFERENCE §13, §15.5, §16; SPEC §3.6): the ten simulators, card transactions in
// GET /transactions, funding pulls in priority order through the ledger, the merchant suffixes, settlement, returns.

let engine: Engine;
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});

const USD = { code: 'USD' };
const merchant = (descriptor = 'BLUE BOTTLE COFFEE') => ({ descriptor, mcc: '5814', country: 'US' });

/** An approved cardholder with a USD card funded by their USD account, holding `funds` cents. */
async function cardWith(funds: number, extra: Json = {}) {
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Card Holder', currencies: ['USD'] })).body;
  const account = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id as string;
  if (funds > 0) await call('POST', `/sandbox/internal-accounts/${account}/fund`, { amount: funds });
  const card = (await call('POST', '/cards', { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account], ...extra })).body;
  return { customer, card, account };
}

const balanceOf = async (accountId: string) => (await call('GET', `/customers/internal-accounts?limit=100`)).body.data.find((a: Json) => a.id === accountId).balance.amount;
const simulate = async (cardId: string, kind: string, body: Json) => {
  const answer = await call('POST', `/sandbox/cards/${cardId}/simulate/${kind}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return (await call('GET', `/_sandbox/cards/simulations/${answer.body.issuerTransactionToken}`)).body;
};
const authorize = (cardId: string, amount: number, descriptor?: string) => simulate(cardId, 'authorization', { amount, currency: USD, merchant: merchant(descriptor) });
const transaction = async (id: string) => (await call('GET', `/transactions/${id}`)).body;
const cardEvents = () => engine.sandbox().events({ limit: 100 }).data.filter((e) => e.type.startsWith('CARD_TRANSACTION.')).reverse();
const ledgerTotals = () => {
  const sums: Record<string, number> = {};
  for (const entry of (engine.sandbox().snapshot().collections.ledger ?? []) as Json[]) for (const p of entry.postings) sums[entry.currency] = (sums[entry.currency] ?? 0) + p.amount;
  return sums;
};
const ledgerBalance = (account: string) => {
  let sum = 0;
  for (const entry of (engine.sandbox().snapshot().collections.ledger ?? []) as Json[]) for (const p of entry.postings) if (p.account === account) sum += p.amount;
  return sum;
};

describe('authorization and clearing', () => {
  it('authorizes by pulling from the funding source, then settles a clearing; the docs example: 1250 cleared at 1500 pulls twice', async () => {
    const { card, account, customer } = await cardWith(10_000);
    const approved = await authorize(card.id, 1_250);
    expect(approved).toMatchObject({ kind: 'authorization', outcome: 'APPROVED', cardTransactionId: expect.stringMatching(/^CardTransaction:/), cardId: card.id });
    const authorized = await transaction(approved.cardTransactionId);
    expect(authorized).toMatchObject({
      type: 'CARD', status: 'AUTHORIZED', direction: 'DEBIT', authorizedAmount: { amount: 1_250, currency: { code: 'USD' } }, accountId: account,
      customerId: customer.id, platformCustomerId: customer.platformCustomerId, cardId: card.id, issuerTransactionToken: approved.issuerTransactionToken,
      merchant: merchant(), pullSummary: { count: 1, totalAmount: 1_250, pendingCount: 0 }, settledAmount: { amount: 0 },
    });
    expect(authorized.createdAt).toBe(authorized.authorizedAt);
    expect(await balanceOf(account)).toBe(8_750);
    expect(ledgerBalance('card-network:USD')).toBe(1_250);

    await simulate(card.id, 'clearing', { cardTransactionId: approved.cardTransactionId, amount: 1_500 });
    expect(await transaction(approved.cardTransactionId)).toMatchObject({
      status: 'SETTLED', settledAmount: { amount: 1_500 }, authorizedAmount: { amount: 1_250 },
      pullSummary: { count: 2, totalAmount: 1_500, pendingCount: 0 }, settlementSummary: { count: 1, totalAmount: 1_500 },
    });
    expect(await balanceOf(account)).toBe(8_500);
    expect(ledgerBalance('card-network:USD')).toBe(0);
    expect(ledgerTotals()).toEqual({ USD: 0 });
    expect(cardEvents().map((e) => e.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED']);
  });

  it('settles in parts: PARTIALLY_SETTLED, then SETTLED; a clearing of 0 expires the rest, which goes back', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 3_000);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: { amount: 1_000 } });
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 2_000 });
    expect((await transaction(cardTransactionId)).status).toBe('SETTLED');

    const second = await authorize(card.id, 2_000);
    await simulate(card.id, 'clearing', { cardTransactionId: second.cardTransactionId, amount: 500 });
    await simulate(card.id, 'clearing', { cardTransactionId: second.cardTransactionId, amount: 0 });
    expect(await transaction(second.cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 500 } });
    expect(await balanceOf(account)).toBe(10_000 - 3_000 - 500);
    expect(ledgerBalance('card-network:USD')).toBe(0);
    // Nothing more can clear a final transaction.
    const late = await call('POST', `/sandbox/cards/${card.id}/simulate/clearing`, { cardTransactionId, amount: 10 });
    expect(late).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'cardTransactionId' }] } } });
  });

  it('expires an authorization left 7 days: it is final and the money goes back', async () => {
    const { card, account } = await cardWith(5_000);
    const { cardTransactionId } = await authorize(card.id, 4_000);
    engine.sandbox().advance(CARD_AUTHORIZATION_TTL_MS - 1);
    expect((await transaction(cardTransactionId)).status).toBe('AUTHORIZED');
    engine.sandbox().advance(1);
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 } });
    expect(await balanceOf(account)).toBe(5_000);
  });

  it('declines what the funding sources cannot cover (INSUFFICIENT_FUNDS): no transaction, no money moved', async () => {
    const { card, account } = await cardWith(1_000);
    expect(await authorize(card.id, 1_001)).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await authorize(card.id, 1_000)).toMatchObject({ outcome: 'APPROVED' });
    expect((await call('GET', '/transactions')).body.data.filter((t: Json) => t.type === 'CARD')).toHaveLength(1);
    expect(await balanceOf(account)).toBe(0);
  });

  it('pulls from the funding sources in priority order, the first that covers the amount; a USDB wallet (with an ACTIVE delegated key) at 1 USDB = 1 USD', async () => {
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Two Sources', currencies: ['USD', 'USDB'], email: 'two@example.com' })).body;
    const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[];
    const wallet = accounts.find((a) => a.balance.currency.code === 'USDB')!.id;
    const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 5_000 });
    const card = (await call('POST', '/cards', { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [wallet, usd] })).body;
    // The wallet, first, is empty: the USD account pays.
    const first = await authorize(card.id, 1_250);
    expect(await transaction(first.cardTransactionId)).toMatchObject({ accountId: usd, pullSummary: { totalAmount: 1_250 } });
    await call('POST', `/sandbox/internal-accounts/${wallet}/fund`, { amount: 20_000_000 });
    // The wallet holds enough, but funds a card only with an ACTIVE delegated key: the USD account pays again.
    const beforeKey = await authorize(card.id, 1_250);
    expect(await transaction(beforeKey.cardTransactionId)).toMatchObject({ accountId: usd });
    await delegatedKeyLegs(engine, { cardId: card.id, internalAccountId: wallet, nickname: 'card' }, await walletSession(engine, wallet));
    // Now the wallet covers it: 12.50 USD pulls 12.500000 USDB.
    const second = await authorize(card.id, 1_250);
    expect(await transaction(second.cardTransactionId)).toMatchObject({ accountId: wallet, authorizedAmount: { amount: 1_250, currency: { code: 'USD' } }, pullSummary: { totalAmount: 12_500_000 } });
    expect(await balanceOf(wallet)).toBe(7_500_000);
    expect(await balanceOf(usd)).toBe(2_500);
    // Neither covers 80 USD.
    expect(await authorize(card.id, 8_000)).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect(ledgerTotals()).toEqual({ USD: 0, USDB: 0 });
  });

  it('converts a foreign purchase into the card currency at the sandbox mid rate', async () => {
    const { card } = await cardWith(100_000);
    const approved = await simulate(card.id, 'authorization', { amount: 1_000, currency: { code: 'EUR' }, merchant: merchant('CAFE DE FLORE') });
    const converted = (await transaction(approved.cardTransactionId)).authorizedAmount.amount;
    expect(converted).toBeGreaterThan(1_000);
    expect(converted).toBeLessThan(1_300);
    expect((await call('POST', `/sandbox/cards/${card.id}/simulate/authorization`, { amount: 1_000, currency: { code: 'XYZ' }, merchant: merchant() })).body.code).toBe('INVALID_CURRENCY');
  });
});

describe('declines', () => {
  it('by merchant suffix: 002 INSUFFICIENT_FUNDS, 003 CARD_PAUSED; by card state: frozen, closed, not provisioned', async () => {
    const { card } = await cardWith(10_000);
    expect(await authorize(card.id, 100, 'SHOP 002')).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await authorize(card.id, 100, 'SHOP 003')).toMatchObject({ outcome: 'DECLINED', declineReason: 'CARD_PAUSED' });
    await call('PATCH', `/cards/${card.id}`, { state: 'FROZEN' });
    expect(await authorize(card.id, 100)).toMatchObject({ declineReason: 'CARD_PAUSED' });
    await call('PATCH', `/cards/${card.id}`, { state: 'CLOSED' });
    expect(await authorize(card.id, 100)).toMatchObject({ declineReason: 'CARD_CLOSED' });
    const waiting = await cardWith(10_000, { platformCardId: 'slow-001' });
    expect(await authorize(waiting.card.id, 100)).toMatchObject({ declineReason: 'CARD_NOT_ACTIVE' });
    expect(cardEvents()).toEqual([]);
  });

  it('maxSpendPerTransaction: exactly the limit is approved, a cent more declined; a clearing may settle above it', async () => {
    const { card } = await cardWith(10_000, { maxSpendPerTransaction: 2_000 });
    expect(await authorize(card.id, 2_001)).toMatchObject({ outcome: 'DECLINED', declineReason: 'SPEND_LIMIT_EXCEEDED' });
    const { cardTransactionId } = await authorize(card.id, 2_000);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 2_400 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 2_400 } });
  });

  it('balance inquiry: a zero-amount check of the card, creating no transaction', async () => {
    const { card } = await cardWith(0);
    expect(await simulate(card.id, 'balance_inquiry', { merchant: merchant('ATM 42') })).toMatchObject({ kind: 'balance_inquiry', outcome: 'APPROVED' });
    expect(await simulate(card.id, 'balance_inquiry', { merchant: merchant('ATM 003') })).toMatchObject({ outcome: 'DECLINED', declineReason: 'CARD_PAUSED' });
    expect((await call('GET', '/transactions')).body.data.filter((t: Json) => t.type === 'CARD')).toEqual([]);
  });
});

describe('returns (SPEC §3.6)', () => {
  it('a return leaves the purchase SETTLED with refundedAmount and re-fires CARD_TRANSACTION.SETTLED; a full return too', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 4_000);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 4_000 });
    await simulate(card.id, 'return', { cardTransactionId, amount: 1_500 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 1_500 }, refundSummary: { count: 1, totalAmount: 1_500 } });
    expect(await balanceOf(account)).toBe(7_500);
    await simulate(card.id, 'return', { cardTransactionId, amount: 2_500 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 4_000 }, refundSummary: { count: 2 } });
    expect(await balanceOf(account)).toBe(10_000);
    expect(cardEvents().map((e) => e.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED']);
    expect(cardEvents()[3]!.data).toMatchObject({ refundedAmount: { amount: 4_000 } });
  });

  it('refuses a return above what is settled and not returned, or of a purchase not settled (400, nothing moves)', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 4_000);
    const early = await call('POST', `/sandbox/cards/${card.id}/simulate/return`, { cardTransactionId, amount: 10 });
    expect(early.body).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('no settled clearing') });
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_000 });
    const over = await call('POST', `/sandbox/cards/${card.id}/simulate/return`, { cardTransactionId, amount: 1_001 });
    expect(over.body).toMatchObject({ details: { errors: [{ field: 'amount', message: expect.stringContaining('at most 1000') }] } });
    expect(await balanceOf(account)).toBe(6_000);
  });

  it('a return reversal takes the latest return back', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 3_000);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 3_000 });
    expect((await call('POST', `/sandbox/cards/${card.id}/simulate/return_reversal`, { cardTransactionId })).body.message).toContain('no return to reverse');
    await simulate(card.id, 'return', { cardTransactionId, amount: 1_000 });
    await simulate(card.id, 'return', { cardTransactionId, amount: 500 });
    await simulate(card.id, 'return_reversal', { cardTransactionId });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 1_000 }, refundSummary: { count: 1, totalAmount: 1_000 } });
    expect(await balanceOf(account)).toBe(8_000);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });
});

describe('credits and single-message events', () => {
  it('a credit authorization is AUTHORIZED with direction CREDIT; its clearing pays the funding source', async () => {
    const { card, account } = await cardWith(0);
    const { cardTransactionId } = await simulate(card.id, 'credit_authorization', { amount: 2_000, currency: USD, merchant: merchant('SHOE STORE') });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT', pullSummary: { count: 0 } });
    expect(await balanceOf(account)).toBe(0);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 2_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 2_000 } });
    expect(await balanceOf(account)).toBe(2_000);
  });

  it('a financial credit is a standalone refund: CREDIT, SETTLED at once, the value in settledAmount', async () => {
    const { card, account } = await cardWith(0);
    const { cardTransactionId } = await simulate(card.id, 'financial_credit_authorization', { amount: 750, currency: USD, merchant: merchant('SHOE STORE') });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', direction: 'CREDIT', settledAmount: { amount: 750 } });
    expect(await balanceOf(account)).toBe(750);
    expect(cardEvents().map((e) => e.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED']);
  });

  it('a financial authorization (an ATM withdrawal) pulls and settles at once', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await simulate(card.id, 'financial_authorization', { amount: 6_000, currency: USD, merchant: merchant('ATM MAIN ST') });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', direction: 'DEBIT', settledAmount: { amount: 6_000 }, pullSummary: { count: 1, totalAmount: 6_000 } });
    expect(await balanceOf(account)).toBe(4_000);
  });

  it('a credit advice is recorded even on a frozen card (the network already approved it)', async () => {
    const { card } = await cardWith(0);
    await call('PATCH', `/cards/${card.id}`, { state: 'FROZEN' });
    const advised = await simulate(card.id, 'credit_authorization_advice', { amount: 300, currency: USD, merchant: merchant('REFUND DESK') });
    expect(await transaction(advised.cardTransactionId)).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT', authorizedAmount: { amount: 300 } });
  });

  it('an authorization advice sets the new total: more is pulled, or the difference goes back', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 2_000);
    await simulate(card.id, 'authorization_advice', { cardTransactionId, amount: 2_600 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 2_600 }, pullSummary: { count: 2, totalAmount: 2_600 } });
    expect(await balanceOf(account)).toBe(7_400);
    await simulate(card.id, 'authorization_advice', { cardTransactionId, amount: 1_000 });
    expect(await balanceOf(account)).toBe(9_000);
    expect((await call('POST', `/sandbox/cards/${card.id}/simulate/authorization_advice`, { cardTransactionId, amount: 0 })).status).toBe(400);
  });
});

describe('funding pulls that wait or fail (merchant suffixes 005, 006)', () => {
  it('005: the pull is PENDING for about 30 s, then confirmed', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 1_000, 'SLOW BANK 005');
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 0, pendingCount: 1 } });
    expect(await balanceOf(account)).toBe(10_000);
    engine.sandbox().advance(30_000);
    expect(await transaction(cardTransactionId)).toMatchObject({ pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });
    expect(await balanceOf(account)).toBe(9_000);
  });

  it('005: money spent meanwhile makes the delayed pull fail, and the settled purchase is EXCEPTION (the program fronted it)', async () => {
    const { card, account } = await cardWith(1_000);
    const { cardTransactionId } = await simulate(card.id, 'financial_authorization', { amount: 1_000, currency: USD, merchant: merchant('SLOW BANK 005') });
    expect((await transaction(cardTransactionId)).status).toBe('SETTLED');
    await authorize(card.id, 1_000);
    engine.sandbox().advance(30_000);
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'EXCEPTION', pullSummary: { pendingCount: 0, totalAmount: 0 } });
    expect(await balanceOf(account)).toBe(0);
    expect(ledgerBalance('card-network:USD')).toBe(0); // 1,000 held for the second purchase, 1,000 fronted for the first
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });

  it('005 with an advice lowering the authorization and a clearing before the pull confirms: it pulls only what was settled', async () => {
    // Found by the money property test under stress: the pull still waiting used to take its first amount, leaving
    // money held for a settled purchase for ever.
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 2_000, 'SLOW BANK 005');
    await simulate(card.id, 'authorization_advice', { cardTransactionId, amount: 1_500 });
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_200 });
    expect((await transaction(cardTransactionId)).status).toBe('PARTIALLY_SETTLED');
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 0 });
    engine.sandbox().advance(30_000);
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_200 }, pullSummary: { pendingCount: 0, totalAmount: 1_200 } });
    expect(await balanceOf(account)).toBe(8_800);
    expect(ledgerBalance('card-network:USD')).toBe(0);
    expect((engine.sandbox().snapshot().collections.cardActivity as Json[])[0]).toMatchObject({ held: 0, fronted: 0 });
  });

  it('006: the pull reports FAILED; the authorization stands, and its clearing is EXCEPTION, never rolled back', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 2_000, 'FLAKY 006');
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'AUTHORIZED', pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 2_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 2_000 } });
    expect(await balanceOf(account)).toBe(10_000);
    expect(ledgerBalance('card-network:USD')).toBe(-2_000);
    engine.sandbox().advance(30 * 24 * 3_600_000);
    expect((await transaction(cardTransactionId)).status).toBe('EXCEPTION');
    expect(cardEvents().map((e) => e.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.EXCEPTION']);
    // A merchant return of it pays back what the program fronted first; the transaction stays EXCEPTION.
    await simulate(card.id, 'return', { cardTransactionId, amount: 100 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'EXCEPTION', refundedAmount: { amount: 100 } });
    expect(ledgerBalance('card-network:USD')).toBe(-1_900);
    expect(await balanceOf(account)).toBe(10_000);
  });
});

describe('lists and errors', () => {
  it('card transactions are in GET /transactions (type CARD) and by id; the type filter takes INCOMING or OUTGOING only', async () => {
    const { card } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 100);
    const all = (await call('GET', '/transactions')).body;
    expect(all.data.map((t: Json) => t.type)).toEqual(['CARD', 'INCOMING']);
    expect((await call('GET', '/transactions?type=INCOMING')).body.data.map((t: Json) => t.type)).toEqual(['INCOMING']);
    expect((await call('GET', '/transactions?type=CARD')).status).toBe(400);
    expect((await transaction(cardTransactionId)).id).toBe(cardTransactionId);
  });

  it('404 for an unknown card, and for a card transaction of another card; 400 listing every invalid field', async () => {
    const { card } = await cardWith(10_000);
    const other = await cardWith(10_000);
    const { cardTransactionId } = await authorize(other.card.id, 100);
    expect((await call('POST', '/sandbox/cards/Card:00000000-0000-4000-8000-0000000000ff/simulate/authorization', { amount: 1, currency: USD, merchant: merchant() })).status).toBe(404);
    expect((await call('POST', `/sandbox/cards/${card.id}/simulate/clearing`, { cardTransactionId, amount: 1 })).status).toBe(404);
    const bad = await call('POST', `/sandbox/cards/${card.id}/simulate/authorization`, { amount: 0, currency: {}, merchant: {} });
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['amount', 'currency.code', 'merchant.descriptor']);
    expect((await call('GET', '/_sandbox/cards/simulations/nope')).status).toBe(404);
  });
});

describe('money in corner cases (found by review; each a regression test)', () => {
  /** What the program's account holds for one card transaction: pulled and not settled or released, less what it fronted. */
  const programHolds = (cardTransactionId: string) => {
    let sum = 0;
    for (const entry of (engine.sandbox().snapshot().collections.ledger ?? []) as Json[]) {
      if (entry.reference === cardTransactionId) for (const p of entry.postings) if (p.account === 'card-network:USD') sum += p.amount;
    }
    return sum;
  };
  const EIGHT_DAYS = 8 * 24 * 3_600_000;

  it('a return reversal the account cannot cover uses the hold of the rest of the authorization; the clearing of that rest then fronts it: EXCEPTION, nothing stranded', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 10_000);
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 4_000 });
    await simulate(card.id, 'return', { cardTransactionId: id, amount: 4_000 });
    await authorize(card.id, 4_000, 'DRAIN'); // the account is empty again
    await simulate(card.id, 'return_reversal', { cardTransactionId: id });
    expect(await transaction(id)).toMatchObject({ status: 'PARTIALLY_SETTLED', refundedAmount: { amount: 0 } });
    expect(programHolds(id)).toBe(2_000);
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 6_000 });
    expect(await transaction(id)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 10_000 } });
    expect(programHolds(id)).toBe(-4_000);
    engine.sandbox().advance(EIGHT_DAYS);
    expect(programHolds(id)).toBe(-4_000);
    // The drain's authorization expired and went back: the cardholder paid the 6,000 of the purchase still settled.
    expect(await balanceOf(account)).toBe(4_000);
  });

  it('a return reversal on an open authorization whose hold is gone goes EXCEPTION and leaves nothing held', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 4_000);
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 4_000 });
    await simulate(card.id, 'return', { cardTransactionId: id, amount: 4_000 });
    await authorize(card.id, 10_000, 'DRAIN');
    await simulate(card.id, 'return_reversal', { cardTransactionId: id });
    expect((await transaction(id)).status).toBe('EXCEPTION');
    expect(programHolds(id)).toBe(-4_000);
    expect(await balanceOf(account)).toBe(0);
  });

  it('a delayed pull that fails after an advice pulled more: what was pulled first pays back what was fronted, nothing is stranded', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 5_000, 'SLOW 005');
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 1_000 });
    await simulate(card.id, 'authorization_advice', { cardTransactionId: id, amount: 8_000 });
    expect(programHolds(id)).toBe(2_000); // 3,000 pulled at once, 1,000 of it paid back what the clearing fronted
    await authorize(card.id, 7_000, 'DRAIN');
    engine.sandbox().advance(30_000);
    const after = await transaction(id);
    expect(after).toMatchObject({ status: 'PARTIALLY_SETTLED', pullSummary: { pendingCount: 0 } });
    engine.sandbox().advance(EIGHT_DAYS);
    expect((await transaction(id)).status).toBe('SETTLED');
    expect(programHolds(id)).toBe(0);
    // The 1,000 settled is all the cardholder paid (the drain's authorization expired too).
    expect(await balanceOf(account)).toBe(9_000);
  });

  it('an advice down to what is settled, with a pull still waiting, keeps the pull for what was fronted: SETTLED, the program whole', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 1_000, 'SLOW 005');
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 300 });
    await simulate(card.id, 'authorization_advice', { cardTransactionId: id, amount: 1_300 });
    await simulate(card.id, 'authorization_advice', { cardTransactionId: id, amount: 300 });
    expect((await transaction(id)).status).toBe('SETTLED');
    expect(programHolds(id)).toBe(0);
    engine.sandbox().advance(EIGHT_DAYS);
    expect(programHolds(id)).toBe(0);
    expect(await balanceOf(account)).toBe(9_700);
  });

  it('a sequence of clearings and advices on a delayed pull ends SETTLED with the cardholder paying exactly what settled', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 2_000, 'SLOW 005');
    for (const [kind, amount] of [['clearing', 100], ['authorization_advice', 5_000], ['authorization_advice', 3_000], ['clearing', 100], ['clearing', 100]] as const) {
      await simulate(card.id, kind, { cardTransactionId: id, amount });
    }
    engine.sandbox().advance(EIGHT_DAYS);
    expect(await transaction(id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 300 } });
    expect(programHolds(id)).toBe(0);
    expect(await balanceOf(account)).toBe(9_700);
  });

  it('a clearing while a delayed pull still waits is not EXCEPTION: the pull confirms and the authorization can still clear', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 10_000, 'SLOW 005');
    await simulate(card.id, 'authorization_advice', { cardTransactionId: id, amount: 25_000 }); // the 15,000 more cannot be pulled
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 5_000 });
    expect((await transaction(id)).status).toBe('PARTIALLY_SETTLED');
    engine.sandbox().advance(30_000);
    expect(programHolds(id)).toBe(5_000);
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 5_000 });
    expect(await transaction(id)).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: { amount: 10_000 } });
    expect(programHolds(id)).toBe(0);
    expect(await balanceOf(account)).toBe(0);
  });

  it('concurrent events on one transaction: the second return, clearing or reversal is DECLINED STATE_CHANGED and moves nothing', async () => {
    const { card, account } = await cardWith(20_000);
    const { cardTransactionId: id } = await authorize(card.id, 5_000);
    const twice = async (kind: string, body: Json) => {
      const answers = await Promise.all([0, 1].map(() => call('POST', `/sandbox/cards/${card.id}/simulate/${kind}`, body)));
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      return Promise.all(answers.map(async (a) => (await call('GET', `/_sandbox/cards/simulations/${a.body.issuerTransactionToken}`)).body));
    };
    const clearings = await twice('clearing', { cardTransactionId: id, amount: 5_000 });
    expect(clearings.map((r) => r.outcome).sort()).toEqual(['APPROVED', 'DECLINED']);
    expect(clearings.find((r) => r.outcome === 'DECLINED')).toMatchObject({ declineReason: 'STATE_CHANGED' });
    const returns = await twice('return', { cardTransactionId: id, amount: 5_000 });
    expect(returns.map((r) => r.outcome).sort()).toEqual(['APPROVED', 'DECLINED']);
    expect(await transaction(id)).toMatchObject({ settledAmount: { amount: 5_000 }, refundedAmount: { amount: 5_000 } });
    expect(await balanceOf(account)).toBe(20_000);
    const reversals = await twice('return_reversal', { cardTransactionId: id });
    expect(reversals.map((r) => r.outcome).sort()).toEqual(['APPROVED', 'DECLINED']);
    expect(await balanceOf(account)).toBe(15_000);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });

  it('bounds amounts: a foreign amount that converts to nothing or beyond what the funding counts is 400; credits stop at the largest balance', async () => {
    const { card } = await cardWith(0);
    const credit = (amount: number, code = 'USD') => call('POST', `/sandbox/cards/${card.id}/simulate/financial_credit_authorization`, { amount, currency: { code }, merchant: merchant('REFUND') });
    expect((await credit(1, 'IDR')).body).toMatchObject({ status: 400, details: { errors: [{ field: 'amount' }] } });
    expect((await credit(9_000_000_000_000_000, 'GBP')).status).toBe(400);
    expect((await credit(9_000_000_000_000_000)).status).toBe(202);
    const over = await credit(1);
    expect(over.body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
  });

  it('relaxed as the reference: an advice below what is settled ends the authorization; credits can be returned and the return reversed', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId: id } = await authorize(card.id, 5_000);
    await simulate(card.id, 'clearing', { cardTransactionId: id, amount: 2_000 });
    await simulate(card.id, 'authorization_advice', { cardTransactionId: id, amount: 1_000 });
    expect(await transaction(id)).toMatchObject({ status: 'SETTLED', authorizedAmount: { amount: 1_000 }, settledAmount: { amount: 2_000 } });
    expect(await balanceOf(account)).toBe(8_000);
    const { cardTransactionId: refund } = (await simulate(card.id, 'financial_credit_authorization', { amount: 700, currency: USD, merchant: merchant('REFUND') }));
    expect(await balanceOf(account)).toBe(8_700);
    await simulate(card.id, 'return', { cardTransactionId: refund, amount: 700 });
    expect(await balanceOf(account)).toBe(8_000);
    await simulate(card.id, 'return_reversal', { cardTransactionId: refund });
    expect(await balanceOf(account)).toBe(8_700);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });
});

describe('closing the card (REFERENCE §15.3)', () => {
  const close = async (cardId: string) => expect((await call('PATCH', `/cards/${cardId}`, { state: 'CLOSED' })).status).toBe(200);
  const activityOf = (id: string) => ((engine.sandbox().snapshot().collections.cardActivity ?? []) as Json[]).find((a) => a.id === id)!;

  it('ends every open authorization of the card, and only of that card: SETTLED, the hold released (CARD_RELEASE), announced', async () => {
    const { card, account } = await cardWith(10_000);
    const other = await cardWith(10_000);
    const open = (await authorize(card.id, 1_250)).cardTransactionId;
    const settledBefore = (await authorize(card.id, 500)).cardTransactionId;
    await simulate(card.id, 'clearing', { cardTransactionId: settledBefore, amount: 500 });
    const elsewhere = (await authorize(other.card.id, 700)).cardTransactionId;
    const events = cardEvents().length;

    await close(card.id);
    expect(await transaction(open)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 }, pullSummary: { count: 1, totalAmount: 1_250 } });
    expect(activityOf(open)).toMatchObject({ held: 0, fronted: 0, endedByClose: true });
    expect(activityOf(settledBefore).endedByClose).toBeUndefined();
    expect(await transaction(elsewhere)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await balanceOf(account)).toBe(9_500);
    expect(ledgerBalance('card-network:USD')).toBe(700);
    const releases = ((engine.sandbox().snapshot().collections.ledger ?? []) as Json[]).filter((e) => e.kind === 'CARD_RELEASE');
    expect(releases.map((e) => [e.reference, e.postings])).toEqual([[open, [{ account: 'card-network:USD', amount: -1_250 }, { account, amount: 1_250 }]]]);
    expect(cardEvents().slice(events).map((e) => [e.type, (e.data as Json).id])).toEqual([['CARD_TRANSACTION.SETTLED', open]]);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });

  it('a delayed pull still waiting is dropped with the authorization; a later clearing pulls at once', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 1_000, 'SLOW BANK 005');
    await close(card.id);
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', pullSummary: { count: 0, totalAmount: 0, pendingCount: 0 } });
    engine.sandbox().advance(60_000);
    expect(await balanceOf(account)).toBe(10_000);

    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_000 }, pullSummary: { count: 1, totalAmount: 1_000, pendingCount: 0 } });
    expect(await balanceOf(account)).toBe(9_000);
    expect(ledgerBalance('card-network:USD')).toBe(0);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });

  it('a late clearing after a failed pull (006) is EXCEPTION, as it would have been before the close: the program fronts it', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 2_000, 'FLAKY 006');
    await close(card.id);
    expect((await transaction(cardTransactionId)).status).toBe('SETTLED');
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 2_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 2_000 } });
    expect(await balanceOf(account)).toBe(10_000);
    expect(ledgerBalance('card-network:USD')).toBe(-2_000);
    expect(ledgerTotals()).toEqual({ USD: 0 });
  });

  it('a late clearing may come more than once; each is posted and the transaction stays SETTLED', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 3_000);
    await close(card.id);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_000 });
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 500 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_500 }, settlementSummary: { count: 2, totalAmount: 1_500 } });
    expect(await balanceOf(account)).toBe(8_500);
    expect(ledgerBalance('card-network:USD')).toBe(0);
  });

  it('still refused, changing nothing: a clearing of 0 or an advice for an ended authorization, a clearing of one settled before the close', async () => {
    const { card, account } = await cardWith(10_000);
    const open = (await authorize(card.id, 1_000)).cardTransactionId;
    const done = (await authorize(card.id, 500)).cardTransactionId;
    await simulate(card.id, 'clearing', { cardTransactionId: done, amount: 500 });
    await close(card.id);
    const before = engine.sandbox().snapshot().collections;
    for (const [kind, body] of [
      ['clearing', { cardTransactionId: open, amount: 0 }],
      ['authorization_advice', { cardTransactionId: open, amount: 2_000 }],
      ['clearing', { cardTransactionId: done, amount: 100 }],
    ] as const) {
      const answer = await call('POST', `/sandbox/cards/${card.id}/simulate/${kind}`, body);
      expect(answer.status, kind).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'cardTransactionId' })] } });
    }
    expect(engine.sandbox().snapshot().collections).toEqual(before);
    expect(await balanceOf(account)).toBe(9_500);
  });

  it('a snapshot keeps the mark: restored, a late clearing is still force-posted', async () => {
    const { card, account } = await cardWith(10_000);
    const { cardTransactionId } = await authorize(card.id, 1_000);
    await close(card.id);
    const snapshot = JSON.parse(JSON.stringify(engine.sandbox().snapshot()));
    engine.sandbox().reset();
    engine.sandbox().restore(snapshot);
    await simulate(card.id, 'clearing', { cardTransactionId, amount: 1_000 });
    expect(await transaction(cardTransactionId)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1_000 } });
    expect(await balanceOf(account)).toBe(9_000);
  });
});
