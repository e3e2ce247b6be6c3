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
 * - an embedded wallet funds nothing, and no pull is taken from it, unless an ACTIVE delegated key approves it for the
 *   card (when only such a wallet would have covered a purchase, it is declined NO_ACTIVE_DELEGATED_KEY);
 * - a clearing settles from there to the merchant (the outside world); above what was authorized, the difference is
 *   pulled first; a clearing of 0, or an authorization left 7 days, expires it and the rest held goes back;
 * - returns and credits pay the outside world's money into the funding source; a return reversal takes it back;
 * - where the network settles money the program could not pull (a pull that failed or was never confirmed), the
 *   program fronts it: its account goes below zero and the card transaction is EXCEPTION, never rolled back;
 * - closing the card (REFERENCE §15.3) ends its open authorizations as an expiry does (SETTLED, the rest held goes
 *   back); a clearing that arrives for one of them later is force-posted: the whole amount is pulled from its funding
 *   source again, or fronted by the program when that fails (EXCEPTION). Returns and their reversals go on as before.
 */
import type { Card, CardMerchant, CardSimulationKind, CardSimulationResult, CardTransaction, CardUpdateRequest, CurrencyAmount } from '@railyard/contract';
import { CardAuthorizationSimulation, CardSimulationResult as CardSimulationResultSchema, MAX_AMOUNT } from '@railyard/contract';
import { z } from 'zod';
import { findInternalAccount, postToAccounts } from '../accounts/internal-accounts.js';
import { currencyOf } from '../config/currencies.js';
import { convertMinorUnits, MARKET } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { onField } from '../core/store.js';
import { findCustomer } from '../customers/customers.js';
import { ledgerAccount, outsideWorld } from '../ledger/ledger.js';
import { CARD_AUTHORIZATION_TTL_MS, CARD_MERCHANT_TRIGGERS, lookupSuffix } from '../sandbox/magic-values.js';
import { findTransaction, saveCardTransaction } from '../transactions/transactions.js';
import { walletMayFund } from '../delegated-keys/delegated-keys.js';
import { findCard, fundingUnitsPerCardUnit, updateCard } from './cards.js';

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
  /** The authorization was still open when its card was closed, which ended it: a later clearing is force-posted. */
  endedByClose: z.boolean().optional(),
});
export type CardActivityRecord = z.infer<typeof CardActivityRecord>;

const activities = (tenant: TenantContext) => tenant.store.collection<CardActivityRecord>(CARD_ACTIVITY, { indexes: { cardId: onField('cardId') } });
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
  // A card transaction without the program's record of it (a hand-edited snapshot) is as unknown as a missing one.
  if (transaction.type !== 'CARD' || transaction.cardId !== card.id || !activities(tenant).has(id)) throw notFound('Card transaction', id);
  return transaction;
}

const activityOf = (tenant: TenantContext, id: string): CardActivityRecord => activities(tenant).get(id)!;

/**
 * Saves the program's side of a card transaction, first paying back what it fronted from what it holds (the program's
 * ledger account holds `held − fronted` for the transaction either way): so money is held only while nothing is
 * fronted, and a release can never give back money the program is owed.
 */
function saveActivity(tenant: TenantContext, activity: CardActivityRecord): CardActivityRecord {
  const repaid = Math.min(activity.held, activity.fronted);
  const netted = repaid > 0 ? { ...activity, held: activity.held - repaid, fronted: activity.fronted - repaid } : activity;
  activities(tenant).replace(netted);
  return netted;
}

/** Money the network settled that the program fronted and no pull is left to recover: the transaction is EXCEPTION. */
const isLost = (activity: CardActivityRecord): boolean => activity.fronted > 0 && activity.pendingPull === undefined;

/** What the program has, or will have when its waiting pull confirms, for the rest of the authorization (funding units). */
const earmarked = (activity: CardActivityRecord): number => activity.held + (activity.pendingPull?.amount ?? 0) - activity.fronted;

/**
 * An amount in a simulated currency, in the card currency's minor units: at the sandbox mid rate when they differ
 * (rounded half up), as an issuer converts a foreign purchase. 400 INVALID_CURRENCY for a currency it has no rate for.
 */
function inCardUnits(amount: number, currency: string, card: Card): number {
  if (currency === card.currency) return amount;
  if (!MARKET[currency]) throw new ApiError(400, 'INVALID_CURRENCY', `The sandbox card network has no rate for ${currency}`, { errors: [{ field: 'currency.code', message: `${currency} is not a currency the sandbox network converts` }] });
  return convertMinorUnits(amount, currency, card.currency);
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
      checkPrecondition(tenant, kind, cardTransactionOf(tenant, card, cardTransactionId), amount);
      return () => {
        const current = findTransaction(tenant, cardTransactionId) as CardTransaction;
        // Checked again: another event on the transaction may have run between the call and now.
        if (!holds(() => checkPrecondition(tenant, kind, current, amount))) return { outcome: 'DECLINED', declineReason: 'STATE_CHANGED' };
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
      checkAuthorizationAmount(tenant, kind, card, amount);
      return (token) => {
        if (!holds(() => checkAuthorizationAmount(tenant, kind, findCard(tenant, card.id), amount))) return { outcome: 'DECLINED', declineReason: 'STATE_CHANGED' };
        return authorize(tenant, kind, findCard(tenant, card.id), simulation.merchant, amount, token);
      };
    }
  }
}

/** Whether `check` passes (it throws when it does not). */
function holds(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** Whether `amount` (funding units) more fits in the account: the balance stays within the largest amount the service holds. */
function creditable(tenant: TenantContext, accountId: string, amount: number): boolean {
  const account = findInternalAccountOrUndefined(tenant, accountId);
  return account === undefined || account.balance.amount + amount <= MAX_AMOUNT;
}

/** 400 AMOUNT_OUT_OF_RANGE where an amount in card units, paid into the account in funding units, would pass what the service holds. */
function checkCreditable(tenant: TenantContext, accountId: string, amount: number): void {
  if (!creditable(tenant, accountId, amount)) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `Paying ${amount} into ${accountId} would take its balance above ${MAX_AMOUNT}`, {
      errors: [{ field: 'amount', message: 'would take the funding source above the largest balance the service holds' }],
    });
  }
}

/** 400 for an authorization-family amount the card cannot take: nothing once converted, or more than its funding sources can count. */
function checkAuthorizationAmount(tenant: TenantContext, kind: CardSimulationKind, card: Card, amount: number): void {
  if (kind === 'balance_inquiry') return;
  if (amount < 1) throw invalidField('amount', `converts to less than one minor unit of ${card.currency}`);
  const mostUnits = Math.max(...card.fundingSources.map((id) => fundingUnitsPerCardUnit(card, findInternalAccount(tenant, id).balance.currency.code)));
  if (amount * mostUnits > MAX_AMOUNT) throw invalidField('amount', `is more than the ${Math.floor(MAX_AMOUNT / mostUnits)} ${card.currency} minor units the card's funding can count`);
  if (CREDITS.has(kind)) {
    const first = card.fundingSources[0]!;
    checkCreditable(tenant, first, amount * fundingUnitsPerCardUnit(card, findInternalAccount(tenant, first).balance.currency.code));
  }
}

/** 400 for a card transaction in no state to take the event (REFERENCE §16 preconditions), or an amount it cannot count. */
function checkPrecondition(tenant: TenantContext, kind: CardSimulationKind, transaction: CardTransaction, amount: number | undefined): void {
  const settled = transaction.settledAmount?.amount ?? 0;
  const refunded = transaction.refundedAmount?.amount ?? 0;
  const units = activityOf(tenant, transaction.id).unitsPerCardUnit;
  const refuse = (message: string, field = 'cardTransactionId') => {
    throw invalidField(field, message);
  };
  if (amount !== undefined && amount * units > MAX_AMOUNT) refuse(`is more than the ${Math.floor(MAX_AMOUNT / units)} minor units the funding source can count`, 'amount');
  if (kind === 'clearing' && isLateClearing(tenant, transaction, amount!)) {
    if (transaction.direction === 'CREDIT') checkCreditable(tenant, transaction.accountId, amount! * units);
    return;
  }
  if (kind === 'clearing' || kind === 'authorization_advice') {
    if (!OPEN.has(transaction.status)) refuse(`${transaction.id} is ${transaction.status}; it must be AUTHORIZED or PARTIALLY_SETTLED`);
    if (kind === 'authorization_advice' && amount! < 1) refuse('must be greater than 0: the new total authorized', 'amount');
    if (kind === 'clearing' && transaction.direction === 'CREDIT') checkCreditable(tenant, transaction.accountId, amount! * units);
    return;
  }
  if (kind === 'return') {
    if (settled === 0) refuse(`${transaction.id} has no settled clearing to return`);
    if (amount! < 1) refuse('must be greater than 0', 'amount');
    if (amount! > settled - refunded) refuse(`must be at most ${settled - refunded}, what is settled and not returned yet`, 'amount');
    if (transaction.direction === 'DEBIT') checkCreditable(tenant, transaction.accountId, amount! * units);
    return;
  }
  const returns = activityOf(tenant, transaction.id).returns;
  if (refunded === 0 || returns.length === 0) refuse(`${transaction.id} has no return to reverse`);
  if (transaction.direction === 'CREDIT') checkCreditable(tenant, transaction.accountId, returns[returns.length - 1]! * units);
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
 * The first funding source, in priority order, that is open, may be pulled from ({@link walletMayFund}) and holds
 * `amount` card units in its own currency, with that currency and its units per card unit; when none does, the decline:
 * NO_ACTIVE_DELEGATED_KEY when only wallets without an ACTIVE delegated key hold enough, else INSUFFICIENT_FUNDS.
 */
function coveringSource(tenant: TenantContext, card: Card, amount: number): { accountId: string; currency: string; units: number } | { declined: Declined } {
  let declined: Declined = 'INSUFFICIENT_FUNDS';
  for (const accountId of card.fundingSources) {
    const account = findInternalAccountOrUndefined(tenant, accountId);
    if (account === undefined || account.status !== 'ACTIVE') continue;
    const currency = account.balance.currency.code;
    const units = fundingUnitsPerCardUnit(card, currency);
    if (account.balance.amount < amount * units) continue;
    if (walletMayFund(tenant, card.id, account)) return { accountId, currency, units };
    declined = 'NO_ACTIVE_DELEGATED_KEY';
  }
  return { declined };
}

/** Whether the transaction's own funding source may be pulled from and holds `amount` funding units: where its later pulls come from. */
function ownSourceCovers(tenant: TenantContext, transaction: CardTransaction, amount: number): boolean {
  const account = findInternalAccountOrUndefined(tenant, transaction.accountId);
  return account !== undefined && account.status === 'ACTIVE' && walletMayFund(tenant, activityOf(tenant, transaction.id).cardId, account) && account.balance.amount >= amount;
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
  if ('declined' in funding) return { outcome: 'DECLINED', declineReason: funding.declined };
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
    saveActivity(tenant, { ...activity, pendingPull: { amount, accountId, fails: how.pullFails === true } });
    update(tenant, transaction, { pullSummary: { ...summary, count: summary.count + 1, pendingCount: (summary.pendingCount ?? 0) + 1 } });
    if (how.pullFails) confirmPull(tenant, cardTransactionId);
    else tenant.schedule(how.pullAfterMs!, CARD_PULL_JOB, { cardTransactionId });
    return;
  }
  postToAccounts(tenant, 'CARD_PULL', activity.fundingCurrency, [{ account: accountId, amount: -amount }, { account: cardNetworkAccount(activity.fundingCurrency), amount }], cardTransactionId);
  saveActivity(tenant, { ...activity, held: activity.held + amount });
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
  const succeeds = !pending.fails && account !== undefined && account.status === 'ACTIVE' && walletMayFund(tenant, activity.cardId, account) && account.balance.amount >= pending.amount;
  const { pendingPull: _done, ...rest } = activity;
  const summary = transaction.pullSummary!;
  const after = { ...summary, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) };
  if (succeeds) {
    postToAccounts(tenant, 'CARD_PULL', activity.fundingCurrency, [{ account: pending.accountId, amount: -pending.amount }, { account: cardNetworkAccount(activity.fundingCurrency), amount: pending.amount }], cardTransactionId);
    const now = saveActivity(tenant, { ...rest, held: rest.held + pending.amount });
    update(tenant, transaction, { pullSummary: { ...after, totalAmount: after.totalAmount + pending.amount } });
    // A transaction that will settle no more keeps nothing beyond what it fronted.
    if (!OPEN.has(transaction.status) && now.held > 0) releaseRest(tenant, cardTransactionId);
    return;
  }
  const now = saveActivity(tenant, { ...rest, pullFailed: true });
  update(tenant, transaction, { pullSummary: after, ...(isLost(now) ? { status: 'EXCEPTION' as const } : {}) });
  if (isLost(now)) releaseRest(tenant, cardTransactionId);
}

/** The delayed-pull job: confirms the pull and announces the transaction. */
export const pullJob = (tenant: TenantContext, payload: unknown): void => {
  const { cardTransactionId } = payload as { cardTransactionId: string };
  if (!activities(tenant).get(cardTransactionId)?.pendingPull) return;
  confirmPull(tenant, cardTransactionId);
  announce(tenant, cardTransactionId);
};

/**
 * Whether a clearing of `amount` is a late one: for an authorization that its card's close ended (REFERENCE §15.3:
 * late clearings are force-posted). A clearing of 0 is an expiry, not a clearing, and that authorization has ended.
 */
function isLateClearing(tenant: TenantContext, transaction: CardTransaction, amount: number): boolean {
  return amount > 0 && activityOf(tenant, transaction.id).endedByClose === true && !OPEN.has(transaction.status);
}

/**
 * A clearing of `amount` (card units): 0 expires the authorization; otherwise the network settles it. Beyond what is
 * still authorized, the difference is pulled first, from the funding sources in priority order. A late clearing (see
 * {@link isLateClearing}) finds nothing held any more (the close gave it back), so the whole amount is pulled (after
 * a failed pull, as before, only what it adds beyond the authorization), and the transaction stays final: SETTLED,
 * or EXCEPTION when the program had to front it.
 */
function clear(tenant: TenantContext, transaction: CardTransaction, amount: number): void {
  const late = isLateClearing(tenant, transaction, amount);
  if (amount === 0) {
    expire(tenant, transaction.id);
    return;
  }
  const { fundingCurrency, unitsPerCardUnit: units } = activityOf(tenant, transaction.id);
  if (transaction.direction === 'CREDIT') {
    postToAccounts(tenant, 'CARD_CREDIT', fundingCurrency, [{ account: outsideWorld(fundingCurrency), amount: -amount * units }, { account: transaction.accountId, amount: amount * units }], transaction.id);
    settle(tenant, transaction.id, amount, late);
    return;
  }
  // What the program has (or will have) for this transaction does not cover the clearing (it is above the
  // authorization, or a return reversal used the hold): the difference is pulled now. Once a pull of the transaction
  // failed, only what the clearing adds beyond the authorization is asked for; the rest is fronted (EXCEPTION).
  const paying = amount * units;
  const activityBefore = activityOf(tenant, transaction.id);
  const beyond = Math.max(0, amount - Math.max(0, transaction.authorizedAmount.amount - transaction.settledAmount!.amount)) * units;
  const shortfall = activityBefore.pullFailed ? beyond : paying - earmarked(activityBefore);
  if (shortfall > 0) {
    if (ownSourceCovers(tenant, transaction, shortfall)) pull(tenant, transaction.id, transaction.accountId, shortfall, {});
    else failPull(tenant, transaction.id);
  }
  // The network is paid from what the program holds; what it does not hold, it fronts (paid back as pulls arrive).
  const activity = activityOf(tenant, transaction.id);
  postToAccounts(tenant, 'CARD_SETTLEMENT', fundingCurrency, [{ account: cardNetworkAccount(fundingCurrency), amount: -paying }, { account: outsideWorld(fundingCurrency), amount: paying }], transaction.id);
  saveActivity(tenant, { ...activity, fronted: activity.fronted + paying });
  settle(tenant, transaction.id, amount, late);
}

/** A pull no funding source could cover. */
function failPull(tenant: TenantContext, cardTransactionId: string): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  saveActivity(tenant, { ...activityOf(tenant, cardTransactionId), pullFailed: true });
  update(tenant, transaction, { pullSummary: { ...transaction.pullSummary!, count: transaction.pullSummary!.count + 1 } });
}

/**
 * Records `amount` (card units) more settled, and the status that leads to. A late clearing leaves the transaction
 * final: EXCEPTION when more is fronted than a pull still waiting can recover (that pull was kept for older fronted
 * money only), else SETTLED.
 */
function settle(tenant: TenantContext, cardTransactionId: string, amount: number, late = false): void {
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  const activity = activityOf(tenant, cardTransactionId);
  const settled = transaction.settledAmount!.amount + amount;
  const summary = transaction.settlementSummary!;
  const status = late
    ? (activity.fronted > (activity.pendingPull?.amount ?? 0) ? 'EXCEPTION' : 'SETTLED')
    : isLost(activity) ? 'EXCEPTION' : settled >= transaction.authorizedAmount.amount ? 'SETTLED' : 'PARTIALLY_SETTLED';
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
  saveActivity(tenant, { ...rest, ...kept, held: 0 });
  if (pendingPull && !keepsPull) {
    const summary = transaction.pullSummary!;
    update(tenant, transaction, { pullSummary: { ...summary, count: summary.count - 1, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) } });
  }
  tenant.cancelJob(expiryJobName(cardTransactionId));
}

/**
 * `PATCH /cards/{cardId}`: the change to the card (cards.ts), then, when it closes the card, what that does to the
 * card's open authorizations ({@link endOpenAuthorizations}). Kept here so the card's module needs none of the network.
 */
export function updateCardOnNetwork(tenant: TenantContext, cardId: string, request: z.output<typeof CardUpdateRequest>): Card {
  const card = updateCard(tenant, cardId, request);
  if (request.state === 'CLOSED') endOpenAuthorizations(tenant, card.id);
  return card;
}

/**
 * A closed card's open authorizations reach a terminal state (REFERENCE §15.3; it names none: an ended authorization
 * is SETTLED here, as an expiry is), oldest first: what they hold goes back to the funding source, a pull still waiting
 * is dropped (unless it is to recover fronted money), the 7-day expiry is cancelled, and each is announced
 * (CARD_TRANSACTION.SETTLED). They are marked, so a clearing that arrives for one later is force-posted.
 */
function endOpenAuthorizations(tenant: TenantContext, cardId: string): void {
  for (const activity of activities(tenant).findBy('cardId', cardId)) {
    const transaction = findTransaction(tenant, activity.id) as CardTransaction;
    if (!OPEN.has(transaction.status)) continue;
    activities(tenant).replace({ ...activity, endedByClose: true });
    expire(tenant, activity.id);
    announce(tenant, activity.id);
  }
}

/** The expiry job: an authorization not settled in full 7 days after its approval. */
export const expiryJob = (tenant: TenantContext, payload: unknown): void => {
  const { cardTransactionId } = payload as { cardTransactionId: string };
  const transaction = findTransaction(tenant, cardTransactionId) as CardTransaction;
  if (!OPEN.has(transaction.status)) return;
  expire(tenant, cardTransactionId);
  announce(tenant, cardTransactionId);
};

/**
 * An authorization advice: the new total authorized. What the program has for the rest of the authorization is made to
 * match it: more is pulled, or the excess goes back (from a pull still waiting first, never below what it must recover,
 * then from what is held). A total at or below what is settled ends the authorization.
 */
function advise(tenant: TenantContext, transaction: CardTransaction, total: number): void {
  update(tenant, transaction, { authorizedAmount: { ...transaction.authorizedAmount, amount: total } });
  if (transaction.direction === 'DEBIT') {
    const activity = activityOf(tenant, transaction.id);
    const needed = Math.max(0, total - transaction.settledAmount!.amount) * activity.unitsPerCardUnit;
    const difference = needed - earmarked(activity);
    if (difference > 0) {
      if (ownSourceCovers(tenant, transaction, difference)) pull(tenant, transaction.id, transaction.accountId, difference, {});
      else failPull(tenant, transaction.id);
    } else if (difference < 0) giveBack(tenant, transaction.id, -difference);
  }
  const current = findTransaction(tenant, transaction.id) as CardTransaction;
  if (current.settledAmount!.amount >= total) {
    update(tenant, current, { status: isLost(activityOf(tenant, transaction.id)) ? 'EXCEPTION' : 'SETTLED' });
    releaseRest(tenant, transaction.id);
  }
}

/** Gives `excess` (funding units) of what the program has for a transaction back: a waiting pull asks for less first. */
function giveBack(tenant: TenantContext, cardTransactionId: string, excess: number): void {
  const activity = activityOf(tenant, cardTransactionId);
  const pending = activity.pendingPull;
  const fromPending = pending === undefined ? 0 : Math.min(excess, Math.max(0, pending.amount - activity.fronted));
  const back = Math.min(activity.held, excess - fromPending);
  if (back > 0) {
    const { accountId } = findTransaction(tenant, cardTransactionId) as CardTransaction;
    postToAccounts(tenant, 'CARD_RELEASE', activity.fundingCurrency, [{ account: cardNetworkAccount(activity.fundingCurrency), amount: -back }, { account: accountId, amount: back }], cardTransactionId);
  }
  const { pendingPull: _old, ...rest } = activity;
  const smaller = pending !== undefined && pending.amount > fromPending ? { pendingPull: { ...pending, amount: pending.amount - fromPending } } : {};
  saveActivity(tenant, { ...rest, ...smaller, held: activity.held - back });
  if (pending !== undefined && pending.amount === fromPending) {
    const current = findTransaction(tenant, cardTransactionId) as CardTransaction;
    const summary = current.pullSummary!;
    update(tenant, current, { pullSummary: { ...summary, count: summary.count - 1, pendingCount: Math.max(0, (summary.pendingCount ?? 0) - 1) } });
  }
}

/**
 * Money from the outside world to the cardholder's funding source (a return of a purchase, the reversal of a credit's
 * return): what the program fronted for the transaction is paid back first.
 */
function payCardholder(tenant: TenantContext, transaction: CardTransaction, activity: CardActivityRecord, paid: number, kind: string): CardActivityRecord {
  const repaid = Math.min(activity.fronted, paid);
  const postings = [{ account: outsideWorld(activity.fundingCurrency), amount: -paid }];
  if (repaid > 0) postings.push({ account: cardNetworkAccount(activity.fundingCurrency), amount: repaid });
  if (paid > repaid) postings.push({ account: transaction.accountId, amount: paid - repaid });
  postToAccounts(tenant, kind, activity.fundingCurrency, postings, transaction.id);
  return { ...activity, fronted: activity.fronted - repaid };
}

/**
 * Money from the cardholder's funding source to the outside world (the reversal of a purchase's return, a return of a
 * credit): what the account no longer holds, the program fronts.
 */
function chargeCardholder(tenant: TenantContext, transaction: CardTransaction, activity: CardActivityRecord, paid: number, kind: string): CardActivityRecord {
  const account = findInternalAccountOrUndefined(tenant, transaction.accountId);
  const fromAccount = account?.status === 'ACTIVE' && walletMayFund(tenant, activity.cardId, account) ? Math.min(account.balance.amount, paid) : 0;
  const fronted = paid - fromAccount;
  const postings = [{ account: outsideWorld(activity.fundingCurrency), amount: paid }];
  if (fromAccount > 0) postings.push({ account: transaction.accountId, amount: -fromAccount });
  if (fronted > 0) postings.push({ account: cardNetworkAccount(activity.fundingCurrency), amount: -fronted });
  postToAccounts(tenant, kind, activity.fundingCurrency, postings, transaction.id);
  return { ...activity, fronted: activity.fronted + fronted, pullFailed: activity.pullFailed || fronted > 0 };
}

/** A merchant return of settled money: a purchase's goes back to the funding source, a credit's is taken back from it. */
function returnMoney(tenant: TenantContext, transaction: CardTransaction, amount: number): void {
  const activity = activityOf(tenant, transaction.id);
  const paid = amount * activity.unitsPerCardUnit;
  const moved = transaction.direction === 'DEBIT'
    ? payCardholder(tenant, transaction, activity, paid, 'CARD_RETURN')
    : chargeCardholder(tenant, transaction, activity, paid, 'CARD_RETURN');
  const now = saveActivity(tenant, { ...moved, returns: [...activity.returns, amount] });
  const summary = transaction.refundSummary!;
  update(tenant, transaction, {
    ...(isLost(now) ? { status: 'EXCEPTION' as const } : {}),
    refundedAmount: { ...transaction.refundedAmount!, amount: transaction.refundedAmount!.amount + amount },
    refundSummary: { count: summary.count + 1, totalAmount: summary.totalAmount + paid },
  });
  if (isLost(now)) releaseRest(tenant, transaction.id);
}

/** Undoes the latest return: the money moves back the other way (fronted by the program where the account lacks it). */
function reverseReturn(tenant: TenantContext, transaction: CardTransaction): void {
  const activity = activityOf(tenant, transaction.id);
  const amount = activity.returns[activity.returns.length - 1];
  if (amount === undefined) return;
  const paid = amount * activity.unitsPerCardUnit;
  const moved = transaction.direction === 'DEBIT'
    ? chargeCardholder(tenant, transaction, activity, paid, 'CARD_RETURN_REVERSAL')
    : payCardholder(tenant, transaction, activity, paid, 'CARD_RETURN_REVERSAL');
  const now = saveActivity(tenant, { ...moved, returns: activity.returns.slice(0, -1) });
  const summary = transaction.refundSummary!;
  update(tenant, transaction, {
    ...(isLost(now) ? { status: 'EXCEPTION' as const } : {}),
    refundedAmount: { ...transaction.refundedAmount!, amount: transaction.refundedAmount!.amount - amount },
    refundSummary: { count: summary.count - 1, totalAmount: summary.totalAmount - paid },
  });
  if (isLost(now)) releaseRest(tenant, transaction.id);
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
