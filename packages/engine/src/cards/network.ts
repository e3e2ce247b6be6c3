/**
 * The sandbox card network (REFERENCE §10, §13, §15.5, §16; SPEC §3.6): what the ten `POST /sandbox/cards/{id}/simulate/*`
 * calls set in motion. A call is checked and answered 202 with the issuer's token; the network event then runs right
 * after the response (the reference reports results only by webhook). Its outcome is kept for
 * `GET /_sandbox/cards/simulations/{token}`.
 *
 * Money (every move a ledger entry, so nothing appears or vanishes; amounts in the funding currency's minor units):
 * - a purchase's authorization pulls the amount from the first funding source that covers it, in priority order,
 *   into the card program's account `card-network:<currency>` (none covers it: declined INSUFFICIENT_FUNDS); that
 *   source is the transaction's `accountId`, and its later pulls come from it too;
 * - a clearing settles from there to the merchant (the outside world); above what was authorized, the difference is
 *   pulled first; a clearing of 0, or an authorization left 7 days, expires it and the rest held goes back;
 * - returns and credits pay the outside world's money into the funding source; a return reversal takes it back;
 * - where the network settles money the program could not pull (a pull that failed or was never confirmed), the
 *   program fronts it: its account goes below zero and the card transaction is EXCEPTION, never rolled back.
 */
import type { Card, CardMerchant, CardSimulationKind, CardSimulationResult, CardTransaction, CurrencyAmount } from '@railyard/contract';
import { CardAuthorizationSimulation, CardSimulationResult as CardSimulationResultSchema } from '@railyard/contract';
import { z } from 'zod';
import { findInternalAccount, postToAccounts } from '../accounts/internal-accounts.js';
import { currencyOf, CURRENCIES } from '../config/currencies.js';
import { MARKET, midRate } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { findCustomer } from '../customers/customers.js';
import { ledgerAccount, outsideWorld } from '../ledger/ledger.js';
import { CARD_AUTHORIZATION_TTL_MS, CARD_MERCHANT_TRIGGERS, lookupSuffix } from '../sandbox/magic-values.js';
import { findTransaction, saveCardTransaction } from '../transactions/transactions.js';
import { findCard, fundingUnitsPerCardUnit } from './cards.js';

export const CARD_ACTIVITY = 'cardActivity';
export const CARD_SIMULATIONS = 'cardSimulations';
/** Clock-job kind: a delayed pull confirms (or fails). */
export const CARD_PULL_JOB = 'cards.pull';
/** Clock-job kind: an authorization not settled in full expires. */
export const CARD_EXPIRY_JOB = 'cards.expire';

/**
 * The card program's side of a card transaction, beside the record the API shows: the funding currency, what is held
 * for it, a pull waiting for confirmation, whether a pull failed, and the returns not reversed (the latest last).
 */
export const CardActivityRecord = z.object({
  id: z.string(),
  cardId: z.string(),
  fundingCurrency: z.string(),
  /** Funding minor units per card minor unit (10,000 for a USDB-funded USD card). */
  unitsPerCardUnit: z.number().int().min(1),
  /** Pulled from funding sources and not settled or released yet, in funding units. */
  held: z.number().int(),
  pendingPull: z.object({ amount: z.number().int().min(1), accountId: z.string(), fails: z.boolean() }).optional(),
  /** A pull failed (its confirmation, or no source could cover it): money the network settles is then fronted. */
  pullFailed: z.boolean(),
  /** What the program fronted, in funding units: settled without having been pulled. */
  fronted: z.number().int().min(0),
  returns: z.array(z.number().int().min(1)),
});
export type CardActivityRecord = z.infer<typeof CardActivityRecord>;

const activities = (tenant: TenantContext) => tenant.store.collection<CardActivityRecord>(CARD_ACTIVITY);
/** A simulation's result as kept: its token is its id. */
export const CardSimulationRecord = CardSimulationResultSchema.extend({ id: z.string() });
type CardSimulationRecord = z.infer<typeof CardSimulationRecord>;
const simulations = (tenant: TenantContext) => tenant.store.collection<CardSimulationRecord>(CARD_SIMULATIONS);

/** The card program's ledger account in a funding currency. */
export const cardNetworkAccount = (currency: string): string => ledgerAccount('card-network', currency);

type Declined = NonNullable<CardSimulationResult['declineReason']>;
const CREDITS: ReadonlySet<CardSimulationKind> = new Set(['credit_authorization', 'financial_credit_authorization', 'credit_authorization_advice']);
/** The statuses a clearing, an advice or the expiry may move on from. */
const OPEN: ReadonlySet<CardTransaction['status']> = new Set(['AUTHORIZED', 'PARTIALLY_SETTLED']);

/** `GET /_sandbox/cards/simulations/{token}`. */
export function findSimulation(tenant: TenantContext, token: string): CardSimulationResult {
  const found = simulations(tenant).get(token);
  if (!found) throw notFound('Card simulation', token);
  const { id: _token, ...result } = found;
  return result;
}

/** A card transaction of `card`, or 404 (one of another card is as unknown as one that does not exist). */
function cardTransactionOf(tenant: TenantContext, card: Card, id: string): CardTransaction {
  let transaction;
  try {
    transaction = findTransaction(tenant, id);
  } catch {
    throw notFound('Card transaction', id);
  }
  if (transaction.type !== 'CARD' || transaction.cardId !== card.id) throw notFound('Card transaction', id);
  return transaction;
}

const activityOf = (tenant: TenantContext, id: string): CardActivityRecord => activities(tenant).get(id)!;

/**
 * An amount in a simulated currency, in the card currency's minor units: at the sandbox mid rate when they differ
 * (rounded half up), as an issuer converts a foreign purchase. 400 INVALID_CURRENCY for a currency it has no rate for.
 */
function inCardUnits(amount: number, currency: string, card: Card): number {
  if (currency === card.currency) return amount;
  if (!MARKET[currency]) throw new ApiError(400, 'INVALID_CURRENCY', `The sandbox card network has no rate for ${currency}`, { errors: [{ field: 'currency.code', message: `${currency} is not a currency the sandbox network converts` }] });
  const rate = midRate(currency, card.currency);
  const scale = 10n ** BigInt(CURRENCIES[card.currency]!.decimals) * rate.numerator;
  const divisor = 10n ** BigInt(MARKET[currency]!.decimals) * rate.denominator;
  const scaled = BigInt(amount) * scale;
  return Number((scaled * 2n + divisor) / (2n * divisor));
}

/** The issuer's token of a network event. */
const newToken = (tenant: TenantContext): string => `sandbox_itx_${tenant.ids('Request').slice(-24).replace(/-/g, '')}`;

/**
 * Checks a simulation (404 for an unknown card or card transaction, 400 for one in no state to take it) and answers
 * its token; the event runs right after the response.
 */
export function simulate(tenant: TenantContext, cardId: string, kind: CardSimulationKind, body: unknown): { issuerTransactionToken: string } {
  const card = findCard(tenant, cardId);
  const run = plan(tenant, card, kind, body as Record<string, unknown>);
  const token = newToken(tenant);
  tenant.afterResponse(() => {
    const outcome = run(token);
    simulations(tenant).insert({ id: token, issuerTransactionToken: token, cardId, kind, at: tenant.nowIso(), ...outcome });
  });
  return { issuerTransactionToken: token };
}

type Outcome = { outcome: 'APPROVED'; cardTransactionId?: string } | { outcome: 'DECLINED'; declineReason: Declined };

/** What a simulation will do, checked now; the returned function does it and announces the result. */
function plan(tenant: TenantContext, card: Card, kind: CardSimulationKind, body: Record<string, unknown>): (token: string) => Outcome {
  switch (kind) {
    case 'balance_inquiry': {
      const merchant = body.merchant as CardMerchant;
      return () => {
        const declined = declineOf(findCard(tenant, card.id), merchant, 0, 'DEBIT');
        return declined ? { outcome: 'DECLINED', declineReason: declined } : { outcome: 'APPROVED' };
      };
    }
    case 'authorization_advice':
    case 'clearing':
    case 'return':
    case 'return_reversal': {
      const { cardTransactionId, amount } = body as { cardTransactionId: string; amount?: number };
      checkPrecondition(kind, cardTransactionOf(tenant, card, cardTransactionId), amount);
      return () => {
        const current = findTransaction(tenant, cardTransactionId) as CardTransaction;
        if (kind === 'clearing') clear(tenant, current, amount!);
        else if (kind === 'authorization_advice') advise(tenant, current, amount!);
        else if (kind === 'return') returnMoney(tenant, current, amount!);
        else reverseReturn(tenant, current);
        announce(tenant, cardTransactionId);
        return { outcome: 'APPROVED', cardTransactionId };
      };
    }
    default: {
      const simulation = body as z.output<typeof CardAuthorizationSimulation>;
      const amount = inCardUnits(simulation.amount, simulation.currency.code, card);
      return (token) => authorize(tenant, kind, findCard(tenant, card.id), simulation.merchant, amount, token);
    }
  }
}

/** 400 for a card transaction in no state to take the event (REFERENCE §16 preconditions). */
function checkPrecondition(kind: CardSimulationKind, transaction: CardTransaction, amount: number | undefined): void {
  const settled = transaction.settledAmount?.amount ?? 0;
  const refunded = transaction.refundedAmount?.amount ?? 0;
  const refuse = (message: string, field = 'cardTransactionId') => {
    throw invalidField(field, message);
  };
  if (kind === 'clearing' || kind === 'authorization_advice') {
    if (!OPEN.has(transaction.status)) refuse(`${transaction.id} is ${transaction.status}; it must be AUTHORIZED or PARTIALLY_SETTLED`);
    if (kind === 'authorization_advice' && amount! < 1) refuse('must be greater than 0: the new total authorized', 'amount');
    if (kind === 'authorization_advice' && amount! < settled) refuse(`must be at least ${settled}, what is already settled`, 'amount');
    return;
  }
  if (transaction.direction !== 'DEBIT') refuse(`${transaction.id} is a credit; only purchases are returned`);
  if (kind === 'return') {
    if (transaction.status === 'EXCEPTION') refuse(`${transaction.id} is EXCEPTION: its funding failed, so a return is not credited`);
    if (settled === 0) refuse(`${transaction.id} has no settled clearing to return`);
    if (amount! < 1) refuse('must be greater than 0', 'amount');
    if (amount! > settled - refunded) refuse(`must be at most ${settled - refunded}, what is settled and not returned yet`, 'amount');
    return;
  }
  if (refunded === 0) refuse(`${transaction.id} has no return to reverse`);
}

/** Why the network declines an authorization, or undefined when it approves it (as far as the card and merchant go). */
function declineOf(card: Card, merchant: CardMerchant, amount: number, direction: 'DEBIT' | 'CREDIT'): Declined | undefined {
  if (card.state === 'FROZEN') return 'CARD_PAUSED';
  if (card.state === 'CLOSED') return 'CARD_CLOSED';
  if (card.state !== 'ACTIVE') return 'CARD_NOT_ACTIVE';
  const decline = merchantTrigger(merchant).decline;
  if (decline) return decline;
  if (direction === 'DEBIT' && card.maxSpendPerTransaction !== null && amount > card.maxSpendPerTransaction) return 'SPEND_LIMIT_EXCEEDED';
  return undefined;
}

const merchantTrigger = (merchant: CardMerchant): { decline?: Declined; pullAfterMs?: number; pullFails?: boolean } =>
  lookupSuffix(CARD_MERCHANT_TRIGGERS, merchant.descriptor);

/**
 * The first funding source, in priority order, that is open and holds `amount` card units in its own currency, with
 * that currency and its units per card unit; undefined when none does.
 */
function coveringSource(tenant: TenantContext, card: Card, amount: number): { accountId: string; currency: string; units: number } | undefined {
  for (const accountId of card.fundingSources) {
    const account = findInternalAccountOrUndefined(tenant, accountId);
    if (account === undefined || account.status !== 'ACTIVE') continue;
    const currency = account.balance.currency.code;
    const units = fundingUnitsPerCardUnit(card, currency);
    if (account.balance.amount >= amount * units) return { accountId, currency, units };
  }
  return undefined;
}

/** Whether the transaction's own funding source holds `amount` funding units: where its later pulls come from. */
function ownSourceCovers(tenant: TenantContext, transaction: CardTransaction, amount: number): boolean {
  const account = findInternalAccountOrUndefined(tenant, transaction.accountId);
  return account !== undefined && account.status === 'ACTIVE' && account.balance.amount >= amount;
}

function findInternalAccountOrUndefined(tenant: TenantContext, accountId: string) {
  try {
    return findInternalAccount(tenant, accountId);
  } catch {
    return undefined;
  }
}

/**
 * The authorization family: decide, then record the card transaction and move the money its kind moves. A
 * single-message kind (financial) settles at once; the others wait for a clearing, or expire.
 */
function authorize(tenant: TenantContext, kind: CardSimulationKind, card: Card, merchant: CardMerchant, amount: number, token: string): Outcome {
  const direction = CREDITS.has(kind) ? 'CREDIT' : 'DEBIT';
  // An advice reports what the network already approved: the card's state cannot decline it; its merchant still can.
  const declined = kind === 'credit_authorization_advice' ? merchantTrigger(merchant).decline : declineOf(card, merchant, amount, direction);
  if (declined) return { outcome: 'DECLINED', declineReason: declined };
  // A purchase is funded by the first source that covers it; a credit goes to the first source.
  const firstCurrency = findInternalAccount(tenant, card.fundingSources[0]!).balance.currency.code;
  const funding = direction === 'DEBIT'
    ? coveringSource(tenant, card, amount)
    : { accountId: card.fundingSources[0]!, currency: firstCurrency, units: fundingUnitsPerCardUnit(card, firstCurrency) };
  if (funding === undefined) return { outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' };
  const { accountId: source, currency: fundingCurrency, units } = funding;

  const now = tenant.nowIso();
  const money = (value: number): CurrencyAmount => ({ amount: value, currency: currencyOf(card.currency) });
  const id = tenant.ids('CardTransaction');
  activities(tenant).insert({ id, cardId: card.id, fundingCurrency, unitsPerCardUnit: units, held: 0, pullFailed: false, fronted: 0, returns: [] });
  saveCardTransaction(tenant, {
    type: 'CARD', id, status: 'AUTHORIZED', direction, merchant: { ...merchant }, authorizedAmount: money(amount), accountId: source,
    customerId: card.cardholderId, platformCustomerId: findCustomer(tenant, card.cardholderId).platformCustomerId, cardId: card.id,
    issuerTransactionToken: token, settledAmount: money(0), refundedAmount: money(0),
    pullSummary: { count: 0, totalAmount: 0, pendingCount: 0 }, refundSummary: { count: 0, totalAmount: 0 }, settlementSummary: { count: 0, totalAmount: 0 },
    authorizedAt: now, lastEventAt: now, createdAt: now, updatedAt: now,
  }, false);
  if (direction === 'DEBIT') pull(tenant, id, source, amount * units, merchantTrigger(merchant));
  announce(tenant, id);
  if (kind === 'financial_authorization' || kind === 'financial_credit_authorization') {
    clear(tenant, findTransaction(tenant, id) as CardTransaction, amount);
    announce(tenant, id);
  } else tenant.schedule(CARD_AUTHORIZATION_TTL_MS, CARD_EXPIRY_JOB, { cardTransactionId: id }, expiryJobName(id));
  return { outcome: 'APPROVED', cardTransactionId: id };
}

const expiryJobName = (cardTransactionId: string) => `card-expiry/${cardTransactionId}`;

/**
 * Pulls `amount` (funding units) from `accountId` into the card program: now; later (a delayed pull, PENDING
 * meanwhile); or not at all (a pull whose confirmation fails, confirmed as failed at once).
 */
function pull(tenant: TenantContext, cardTransactionId: string, accountId: string, amount: number, how: { pullAfterMs?: number; pullFails?: boolean }): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  const activity = activityOf(tenant, cardTransactionId);
  const summary = transaction.pullSummary!;
  if (how.pullAfterMs !== undefined || how.pullFails) {
    activities(tenant).replace({ ...activity, pendingPull: { amount, accountId, fails: how.pullFails === true } });
    update(tenant, transaction, { pullSummary: { ...summary, count: summary.count + 1, pendingCount: (summary.pendingCount ?? 0) + 1 } });
    if (how.pullFails) confirmPull(tenant, cardTransactionId);
    else tenant.schedule(how.pullAfterMs!, CARD_PULL_JOB, { cardTransactionId });
    return;
  }
  postToAccounts(tenant, 'CARD_PULL', activity.fundingCurrency, [{ account: accountId, amount: -amount }, { account: cardNetworkAccount(activity.fundingCurrency), amount }], cardTransactionId);
  activities(tenant).replace({ ...activity, held: activity.held + amount });
  update(tenant, transaction, { pullSummary: { ...summary, count: summary.count + 1, totalAmount: summary.totalAmount + amount } });
}

/**
 * Confirms the pull waiting on a card transaction: the money moves if the account still holds it, first paying back
 * what the program fronted meanwhile. Otherwise (or when the confirmation is made to fail) the pull failed: money the
 * network settled without it is lost to the program, and the transaction is EXCEPTION.
 */
function confirmPull(tenant: TenantContext, cardTransactionId: string): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  const activity = activityOf(tenant, cardTransactionId);
  const pending = activity.pendingPull;
  if (!pending) return;
  const account = findInternalAccountOrUndefined(tenant, pending.accountId);
  const succeeds = !pending.fails && account !== undefined && account.status === 'ACTIVE' && account.balance.amount >= pending.amount;
  const { pendingPull: _done, ...rest } = activity;
  const summary = transaction.pullSummary!;
  const after = { ...summary, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) };
  if (succeeds) {
    postToAccounts(tenant, 'CARD_PULL', activity.fundingCurrency, [{ account: pending.accountId, amount: -pending.amount }, { account: cardNetworkAccount(activity.fundingCurrency), amount: pending.amount }], cardTransactionId);
    const repaid = Math.min(rest.fronted, pending.amount);
    activities(tenant).replace({ ...rest, held: rest.held + pending.amount - repaid, fronted: rest.fronted - repaid });
    update(tenant, transaction, { pullSummary: { ...after, totalAmount: after.totalAmount + pending.amount } });
    return;
  }
  activities(tenant).replace({ ...rest, pullFailed: true });
  update(tenant, transaction, { pullSummary: after, status: rest.fronted > 0 ? 'EXCEPTION' : transaction.status });
}

/** The delayed-pull job: confirms the pull and announces the transaction. */
export const pullJob = (tenant: TenantContext, payload: unknown): void => {
  const { cardTransactionId } = payload as { cardTransactionId: string };
  if (!activities(tenant).get(cardTransactionId)?.pendingPull) return;
  confirmPull(tenant, cardTransactionId);
  announce(tenant, cardTransactionId);
};

/**
 * A clearing of `amount` (card units): 0 expires the authorization; otherwise the network settles it. Beyond what is
 * still authorized, the difference is pulled first, from the funding sources in priority order.
 */
function clear(tenant: TenantContext, transaction: CardTransaction, amount: number): void {
  if (amount === 0) {
    expire(tenant, transaction.id);
    return;
  }
  const { fundingCurrency, unitsPerCardUnit: units } = activityOf(tenant, transaction.id);
  if (transaction.direction === 'CREDIT') {
    postToAccounts(tenant, 'CARD_CREDIT', fundingCurrency, [{ account: outsideWorld(fundingCurrency), amount: -amount * units }, { account: transaction.accountId, amount: amount * units }], transaction.id);
    settle(tenant, transaction.id, amount);
    return;
  }
  const remaining = Math.max(0, transaction.authorizedAmount.amount - transaction.settledAmount!.amount);
  const beyond = amount - remaining;
  if (beyond > 0) {
    if (ownSourceCovers(tenant, transaction, beyond * units)) pull(tenant, transaction.id, transaction.accountId, beyond * units, {});
    else failPull(tenant, transaction.id);
  }
  // The network is paid from what the program holds for this transaction; what it does not hold, it fronts.
  const paying = amount * units;
  const activity = activityOf(tenant, transaction.id);
  const fromHeld = Math.min(activity.held, paying);
  postToAccounts(tenant, 'CARD_SETTLEMENT', fundingCurrency, [{ account: cardNetworkAccount(fundingCurrency), amount: -paying }, { account: outsideWorld(fundingCurrency), amount: paying }], transaction.id);
  activities(tenant).replace({ ...activity, held: activity.held - fromHeld, fronted: activity.fronted + paying - fromHeld });
  settle(tenant, transaction.id, amount);
}

/** A pull no funding source could cover. */
function failPull(tenant: TenantContext, cardTransactionId: string): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  activities(tenant).replace({ ...activityOf(tenant, cardTransactionId), pullFailed: true });
  update(tenant, transaction, { pullSummary: { ...transaction.pullSummary!, count: transaction.pullSummary!.count + 1 } });
}

/** Records `amount` (card units) more settled, and the status that leads to. */
function settle(tenant: TenantContext, cardTransactionId: string, amount: number): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  const activity = activityOf(tenant, cardTransactionId);
  const settled = transaction.settledAmount!.amount + amount;
  const summary = transaction.settlementSummary!;
  const lost = activity.fronted > 0 && activity.pullFailed;
  const status = lost ? 'EXCEPTION' : settled >= transaction.authorizedAmount.amount ? 'SETTLED' : 'PARTIALLY_SETTLED';
  update(tenant, transaction, {
    status, settledAmount: { ...transaction.settledAmount!, amount: settled },
    settlementSummary: { count: summary.count + 1, totalAmount: summary.totalAmount + amount * activity.unitsPerCardUnit },
  });
  if (status !== 'PARTIALLY_SETTLED') releaseRest(tenant, cardTransactionId);
}

/** The end of an authorization without a (further) clearing: it is final, and what is still held goes back. */
function expire(tenant: TenantContext, cardTransactionId: string): void {
  update(tenant, findTransaction(tenant, cardTransactionId) as CardTransaction, { status: 'SETTLED' });
  releaseRest(tenant, cardTransactionId);
}

/**
 * Gives back what is still held for a transaction that will settle no more, and drops a pull still waiting unless it
 * is to pay back what the program fronted.
 */
function releaseRest(tenant: TenantContext, cardTransactionId: string): void {
  const activity = activityOf(tenant, cardTransactionId);
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  if (activity.held > 0) {
    postToAccounts(tenant, 'CARD_RELEASE', activity.fundingCurrency, [{ account: cardNetworkAccount(activity.fundingCurrency), amount: -activity.held }, { account: transaction.accountId, amount: activity.held }], cardTransactionId);
  }
  // A pull still waiting is kept only to pay back what the program fronted, and for no more than that.
  const keepsPull = activity.pendingPull !== undefined && activity.fronted > 0;
  const { pendingPull, ...rest } = activity;
  const kept = keepsPull ? { pendingPull: { ...pendingPull!, amount: Math.min(pendingPull!.amount, activity.fronted) } } : {};
  activities(tenant).replace({ ...rest, ...kept, held: 0 });
  if (pendingPull && !keepsPull) {
    const summary = transaction.pullSummary!;
    update(tenant, transaction, { pullSummary: { ...summary, count: summary.count - 1, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) } });
  }
  tenant.cancelJob(expiryJobName(cardTransactionId));
}

/** The expiry job: an authorization not settled in full 7 days after its approval. */
export const expiryJob = (tenant: TenantContext, payload: unknown): void => {
  const { cardTransactionId } = payload as { cardTransactionId: string };
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  if (!OPEN.has(transaction.status)) return;
  expire(tenant, cardTransactionId);
  announce(tenant, cardTransactionId);
};

/** An authorization advice: the new total authorized. More is pulled, or what is no longer authorized goes back. */
function advise(tenant: TenantContext, transaction: CardTransaction, total: number): void {
  const activity = activityOf(tenant, transaction.id);
  const units = activity.unitsPerCardUnit;
  const change = total - transaction.authorizedAmount.amount;
  update(tenant, transaction, { authorizedAmount: { ...transaction.authorizedAmount, amount: total } });
  if (transaction.direction === 'DEBIT' && change > 0) {
    if (ownSourceCovers(tenant, transaction, change * units)) pull(tenant, transaction.id, transaction.accountId, change * units, {});
    else failPull(tenant, transaction.id);
  } else if (transaction.direction === 'DEBIT' && change < 0) {
    // Less authorized: a pull still waiting asks for less first; what remains goes back from what is held.
    const pending = activity.pendingPull;
    const fromPending = pending === undefined ? 0 : Math.min(pending.amount, -change * units);
    const back = Math.min(activity.held, -change * units - fromPending);
    if (back > 0) {
      postToAccounts(tenant, 'CARD_RELEASE', activity.fundingCurrency, [{ account: cardNetworkAccount(activity.fundingCurrency), amount: -back }, { account: transaction.accountId, amount: back }], transaction.id);
    }
    const { pendingPull: _old, ...rest } = activity;
    const smaller = pending !== undefined && pending.amount > fromPending ? { pendingPull: { ...pending, amount: pending.amount - fromPending } } : {};
    activities(tenant).replace({ ...rest, ...smaller, held: activity.held - back });
    if (pending !== undefined && pending.amount === fromPending) {
      const current = findTransaction(tenant, transaction.id) as CardTransaction;
      const summary = current.pullSummary!;
      update(tenant, current, { pullSummary: { ...summary, count: summary.count - 1, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) } });
    }
  }
  const current = findTransaction(tenant, transaction.id) as CardTransaction;
  if (current.settledAmount!.amount >= total) {
    update(tenant, current, { status: 'SETTLED' });
    releaseRest(tenant, transaction.id);
  }
}

/** A merchant return: settled money back to the funding source; the purchase keeps its status (SPEC §3.6). */
function returnMoney(tenant: TenantContext, transaction: CardTransaction, amount: number): void {
  const activity = activityOf(tenant, transaction.id);
  const paid = amount * activity.unitsPerCardUnit;
  postToAccounts(tenant, 'CARD_RETURN', activity.fundingCurrency, [{ account: outsideWorld(activity.fundingCurrency), amount: -paid }, { account: transaction.accountId, amount: paid }], transaction.id);
  activities(tenant).replace({ ...activity, returns: [...activity.returns, amount] });
  const summary = transaction.refundSummary!;
  update(tenant, transaction, {
    refundedAmount: { ...transaction.refundedAmount!, amount: transaction.refundedAmount!.amount + amount },
    refundSummary: { count: summary.count + 1, totalAmount: summary.totalAmount + paid },
  });
}

/** Undoes the latest return: the money goes back to the merchant, fronted by the program where the account no longer holds it. */
function reverseReturn(tenant: TenantContext, transaction: CardTransaction): void {
  const activity = activityOf(tenant, transaction.id);
  const amount = activity.returns[activity.returns.length - 1]!;
  const paid = amount * activity.unitsPerCardUnit;
  const account = findInternalAccountOrUndefined(tenant, transaction.accountId);
  const fromAccount = account?.status === 'ACTIVE' ? Math.min(account.balance.amount, paid) : 0;
  const fronted = paid - fromAccount;
  const postings = [{ account: outsideWorld(activity.fundingCurrency), amount: paid }];
  if (fromAccount > 0) postings.push({ account: transaction.accountId, amount: -fromAccount });
  if (fronted > 0) postings.push({ account: cardNetworkAccount(activity.fundingCurrency), amount: -fronted });
  postToAccounts(tenant, 'CARD_RETURN_REVERSAL', activity.fundingCurrency, postings, transaction.id);
  activities(tenant).replace({ ...activity, returns: activity.returns.slice(0, -1), fronted: activity.fronted + fronted, pullFailed: activity.pullFailed || fronted > 0 });
  const summary = transaction.refundSummary!;
  update(tenant, transaction, {
    status: fronted > 0 ? 'EXCEPTION' : transaction.status,
    refundedAmount: { ...transaction.refundedAmount!, amount: transaction.refundedAmount!.amount - amount },
    refundSummary: { count: summary.count - 1, totalAmount: summary.totalAmount - paid },
  });
}

/** Stores a step of a network event (announced once the event is done, by {@link announce}). */
function update(tenant: TenantContext, transaction: CardTransaction, changes: Partial<CardTransaction>): CardTransaction {
  const now = tenant.nowIso();
  return saveCardTransaction(tenant, { ...transaction, ...changes, lastEventAt: now, updatedAt: now }, false);
}

/** Announces a card transaction as it now is: CARD_TRANSACTION.<status>. */
function announce(tenant: TenantContext, cardTransactionId: string): void {
  saveCardTransaction(tenant, findTransaction(tenant, cardTransactionId) as CardTransaction);
}
