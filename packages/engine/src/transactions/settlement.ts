/**
 * Settlement of outgoing payments (SPEC §3.5, §4.6): where the money sits at each step, as ledger postings.
 *
 * - Funding: the source pays into the sandbox's `in-flight:<CCY>` account (an internal account is debited; a pull from
 *   an external account or a real-time payment arrives from the outside world). What was taken is kept per
 *   transaction, so a refund returns exactly that. A pull that fails at the source collects nothing.
 * - Completion: in-flight money leaves for the outside world minus fees (service fees to `fees:<CCY>`, platform fees to
 *   the platform's internal account of that currency); then the payment is delivered: an internal account or a customer
 *   paid by UMA receives an incoming payment in the receiving currency, so each currency's entries balance on their own.
 * - Failure: FAILED with a `failureReason`, then a refund of what is held back to the source (REFUND_PENDING, then
 *   REFUND_COMPLETED), or, when the sandbox outcome says the refund fails, to `suspense:<CCY>` (REFUND_FAILED).
 *
 * Sandbox outcomes ({@link SettlementOutcome}) run at once or as clock jobs, so a virtual clock resolves them.
 */
import { OnChainNetwork, type OutgoingTransaction } from '@railyard/contract';
import { z } from 'zod';
import { assertCreditable, platformInternalAccount, postToAccounts } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { conflict, invalidField } from '../core/errors.js';
import { ledgerAccount, outsideWorld } from '../ledger/ledger.js';
import { SettlementOutcome } from '../sandbox/magic-values.js';
import { umaDepositAccount } from '../uma/uma.js';
import { receivePayment } from './incoming.js';
import { sandboxTransactionHash } from './on-chain.js';
import { findTransaction, moveTransaction, refundTransaction } from './transactions.js';

/** Where a completed payment lands inside the service, if anywhere. */
export const Delivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('INTERNAL_ACCOUNT'), accountId: z.string(), customerId: z.string().optional() }),
  z.object({ kind: z.literal('UMA_CUSTOMER'), customerId: z.string(), senderUmaAddress: z.string() }),
  z.object({ kind: z.literal('OUTSIDE') }),
]);
export type Delivery = z.infer<typeof Delivery>;

/** What a payment holds in flight, where a refund goes, and how the sandbox settles it (snapshot-safe); id is the transaction id. */
export const SettlementRecord = z.object({
  id: z.string(),
  /** The sending currency. */
  currency: z.string(),
  /** Minor units taken from the source and not yet paid out or refunded. */
  held: z.number().int().min(0),
  /** Ledger account a refund returns to: the internal account, or the outside world. */
  refundTo: z.string(),
  delivery: Delivery,
  outcome: SettlementOutcome,
  /** The chain the payout settles on (a wallet destination): completion reports its `onChainTransaction`. */
  onChainNetwork: OnChainNetwork.optional(),
});
export type SettlementRecord = z.infer<typeof SettlementRecord>;

export const SETTLEMENTS = 'settlements';
const settlements = (tenant: TenantContext) => tenant.store.collection<SettlementRecord>(SETTLEMENTS);

export const inFlight = (currency: string) => ledgerAccount('in-flight', currency);
export const serviceFees = (currency: string) => ledgerAccount('fees', currency);
export const suspense = (currency: string) => ledgerAccount('suspense', currency);

/** Clock-job kind of a delayed sandbox outcome step. */
export const SETTLEMENT_JOB = 'payments.settle';
interface SettlementJob { transactionId: string; step: 'SETTLE' | 'RETURN' }

/** Ledger account a payment's source pays from: the internal account, else the outside world. */
export const sourceLedgerAccount = (accountId: string | undefined, currency: string): string =>
  accountId !== undefined && accountId.startsWith('InternalAccount:') ? accountId : outsideWorld(currency);

export interface PaymentStart {
  /** Ledger account the money comes from; undefined when the source fails before anything is collected. */
  readonly from: string | undefined;
  readonly amount: number;
  readonly delivery: Delivery;
  readonly outcome: SettlementOutcome;
  /** See {@link SettlementRecord}. */
  readonly onChainNetwork?: OnChainNetwork | undefined;
}

/**
 * PENDING (or PENDING_AUTHORIZATION) → PROCESSING: takes the money into flight and runs the sandbox outcome: an
 * immediate one right after the current request has answered (so execute answers PROCESSING, SPEC §4.5, and the next
 * read shows the outcome, no clock advance needed), a delayed one on the clock. The caller has checked the balance.
 */
export function startPayment(tenant: TenantContext, transactionId: string, start: PaymentStart): OutgoingTransaction {
  const transaction = findTransaction(tenant, transactionId) as OutgoingTransaction;
  const currency = transaction.sentAmount.currency.code;
  if (start.from !== undefined) {
    postToAccounts(tenant, 'PAYMENT_FUNDING', currency, [{ account: start.from, amount: -start.amount }, { account: inFlight(currency), amount: start.amount }], transactionId);
  }
  settlements(tenant).insert({
    id: transactionId, currency, held: start.from === undefined ? 0 : start.amount, refundTo: start.from ?? outsideWorld(currency),
    delivery: start.delivery, outcome: start.outcome,
    ...(start.onChainNetwork === undefined ? {} : { onChainNetwork: start.onChainNetwork }),
  });
  moveTransaction(tenant, transactionId, 'PROCESSING', start.outcome.pendingReason === undefined ? {} : { pendingReason: start.outcome.pendingReason });
  if (start.outcome.afterMs === 0) tenant.afterResponse(() => runStep(tenant, { transactionId, step: 'SETTLE' }));
  else tenant.schedule(start.outcome.afterMs, SETTLEMENT_JOB, { transactionId, step: 'SETTLE' } satisfies SettlementJob);
  return findTransaction(tenant, transactionId) as OutgoingTransaction;
}

/** The clock job of a delayed step; a transaction that moved on meanwhile is left alone. */
export function settlementJob(tenant: TenantContext, payload: unknown): void {
  runStep(tenant, payload as SettlementJob);
}

function runStep(tenant: TenantContext, job: SettlementJob): void {
  const transaction = findTransaction(tenant, job.transactionId);
  const record = settlements(tenant).get(job.transactionId);
  if (transaction.type !== 'OUTGOING' || !record) return;
  const { outcome } = record;
  if (job.step === 'RETURN') {
    if (transaction.status === 'COMPLETED') returnPayment(tenant, transaction, record);
    return;
  }
  if (transaction.status !== 'PROCESSING') return;
  if (outcome.settle === 'FAIL') {
    failPayment(tenant, transaction.id, outcome.failureReason ?? 'QUOTE_EXECUTION_FAILED', outcome);
    return;
  }
  completePayment(tenant, transaction, record);
  if (outcome.settle === 'COMPLETE_THEN_RETURN') {
    tenant.schedule(outcome.returnAfterMs ?? 0, SETTLEMENT_JOB, { transactionId: transaction.id, step: 'RETURN' } satisfies SettlementJob);
  }
}

/**
 * The account an internal delivery credits; null when the money leaves the service; undefined when the receiver can no
 * longer take it (the account is gone, not ACTIVE, or would pass the largest balance), checked before money moves.
 */
function deliveryAccount(tenant: TenantContext, delivery: Delivery, received: { amount: number; currency: { code: string } }): string | null | undefined {
  if (delivery.kind === 'OUTSIDE') return null;
  const accountId = delivery.kind === 'INTERNAL_ACCOUNT' ? delivery.accountId : umaDepositAccount(tenant, delivery.customerId, received.currency.code);
  if (accountId === undefined || !accountId.startsWith('InternalAccount:')) return accountId;
  try {
    assertCreditable(tenant, accountId, received.amount);
    return accountId;
  } catch {
    return undefined;
  }
}

/**
 * PROCESSING → COMPLETED: pays out the held money, fees included, and delivers an internal payment. A receiver that can
 * no longer take the payment fails it (ACCOUNT_CANNOT_RECEIVE) and the source is refunded: a settlement step never
 * throws with money half moved.
 */
function completePayment(tenant: TenantContext, transaction: OutgoingTransaction, record: SettlementRecord): void {
  const received = transaction.receivedAmount!;
  const target = deliveryAccount(tenant, record.delivery, received);
  if (target === undefined) {
    failPayment(tenant, transaction.id, 'ACCOUNT_CANNOT_RECEIVE', record.outcome);
    return;
  }
  const sending = record.currency;
  const platformFees = transaction.platformFees ?? 0;
  const service = (transaction.fees ?? 0) - platformFees;
  const postings = [
    { account: inFlight(sending), amount: -record.held },
    { account: outsideWorld(sending), amount: record.held - service - platformFees },
  ];
  if (service > 0) postings.push({ account: serviceFees(sending), amount: service });
  if (platformFees > 0) postings.push({ account: platformInternalAccount(tenant, sending).id, amount: platformFees });
  if (record.held > 0) postToAccounts(tenant, 'PAYMENT_SETTLEMENT', sending, postings, transaction.id);
  // A payment the receiving bank will send back keeps its record for the return; any other is done with it.
  if (record.outcome.settle === 'COMPLETE_THEN_RETURN') settlements(tenant).replace({ ...record, held: 0 });
  else settlements(tenant).delete(record.id);

  const { delivery } = record;
  if (target !== null && delivery.kind !== 'OUTSIDE') {
    const uma = delivery.kind === 'UMA_CUSTOMER';
    receivePayment(tenant, {
      accountId: target, customerId: uma ? delivery.customerId : delivery.customerId, amount: received.amount, currency: received.currency, quoteId: transaction.quoteId!,
      source: uma ? { sourceType: 'UMA_ADDRESS', umaAddress: delivery.senderUmaAddress, currency: sending } : transaction.source,
      ...(uma ? { description: `UMA payment from ${delivery.senderUmaAddress}` } : transaction.description === undefined ? {} : { description: transaction.description }),
    });
  }
  moveTransaction(tenant, transaction.id, 'COMPLETED', settledLegs(transaction, record));
}

/** What a completed payment reports of how it settled: the on-chain transaction of a wallet payout, the UMA leg's hash. */
function settledLegs(transaction: OutgoingTransaction, record: SettlementRecord): Partial<OutgoingTransaction> {
  const patch: Partial<OutgoingTransaction> = {};
  if (record.onChainNetwork !== undefined && transaction.destination.destinationType === 'ACCOUNT') {
    const onChainTransaction = { transactionHash: sandboxTransactionHash(record.onChainNetwork, transaction.id), network: record.onChainNetwork };
    patch.destination = { ...transaction.destination, onChainTransaction };
  }
  if (transaction.destination.destinationType === 'UMA_ADDRESS') {
    // The deprecated field still reports the inter-VASP settlement leg of an UMA payment (SPEC §2.9), a Lightning payment.
    patch.reconciliationInstructions = { ...transaction.reconciliationInstructions, transactionHash: sandboxTransactionHash('LIGHTNING', transaction.id, 'uma') };
  }
  return patch;
}

/**
 * COMPLETED → FAILED (PAYOUT_RETURNED): the receiving bank sends back what it got, the service gives back its own fee,
 * and the source is refunded both. The platform's fee stays with the platform (its revenue; it refunds its customer as
 * it sees fit).
 */
function returnPayment(tenant: TenantContext, transaction: OutgoingTransaction, record: SettlementRecord): void {
  const platformFees = transaction.platformFees ?? 0;
  const service = (transaction.fees ?? 0) - platformFees;
  const returned = transaction.sentAmount.amount - service - platformFees;
  const postings = [{ account: outsideWorld(record.currency), amount: -returned }, { account: inFlight(record.currency), amount: returned + service }];
  if (service > 0) postings.push({ account: serviceFees(record.currency), amount: -service });
  postToAccounts(tenant, 'PAYMENT_RETURN', record.currency, postings, transaction.id);
  settlements(tenant).replace({ ...record, held: returned + service });
  failPayment(tenant, transaction.id, 'PAYOUT_RETURNED', record.outcome);
}

/**
 * Fails a payment and refunds what it holds: FAILED with `failureReason`, then REFUND_PENDING and REFUND_COMPLETED (or
 * REFUND_FAILED, the money parked in suspense). Nothing held (never funded): FAILED only.
 */
export function failPayment(
  tenant: TenantContext,
  transactionId: string,
  failureReason: NonNullable<OutgoingTransaction['failureReason']>,
  options: Pick<SettlementOutcome, 'refund' | 'refundReason'> = {},
): void {
  moveTransaction(tenant, transactionId, 'FAILED', { failureReason });
  refundHeld(tenant, transactionId, options);
  // A failed payment is final: nothing is held any more, so its settlement record goes.
  settlements(tenant).delete(transactionId);
}

/** Refunds what a failed payment holds (REFUND_PENDING, then REFUND_COMPLETED or REFUND_FAILED); nothing held: no refund. */
function refundHeld(tenant: TenantContext, transactionId: string, options: Pick<SettlementOutcome, 'refund' | 'refundReason'>): void {
  const record = settlements(tenant).get(transactionId);
  if (!record || record.held === 0) return;
  refundTransaction(tenant, transactionId, options.refundReason ?? 'TRANSACTION_FAILED', () => {
    const refunded = options.refund !== 'FAILED';
    postToAccounts(tenant, refunded ? 'PAYMENT_REFUND' : 'PAYMENT_REFUND_FAILED', record.currency, [
      { account: inFlight(record.currency), amount: -record.held },
      { account: refunded ? record.refundTo : suspense(record.currency), amount: record.held },
    ], transactionId);
    return refunded;
  });
}

/** Rails whose payouts can still be recalled before they settle (REFERENCE §9). */
export const CANCELLABLE_RAILS: ReadonlySet<string> = new Set(['ACH', 'WIRE']);

/**
 * `POST /transactions/{id}/cancel`: recalls an ACH or wire payout that has not settled. Other payments: 400; settled,
 * failed or not yet sent: 409 TRANSACTION_NOT_CANCELLABLE. The source is refunded (reason USER_CANCELLATION).
 */
export function cancelPayment(tenant: TenantContext, transactionId: string): OutgoingTransaction {
  const transaction = findTransaction(tenant, transactionId);
  if (transaction.type !== 'OUTGOING' || !CANCELLABLE_RAILS.has(transaction.paymentRail ?? '')) {
    throw invalidField('transactionId', `Only outgoing ${[...CANCELLABLE_RAILS].join(' and ')} payouts can be cancelled; this is ${transaction.type === 'OUTGOING' ? `a ${transaction.paymentRail ?? 'rail-less'} payment` : `an ${transaction.type} transaction`}`);
  }
  if (transaction.status !== 'PROCESSING') {
    throw conflict(`Transaction ${transactionId} is ${transaction.status}; only a payout still PROCESSING can be cancelled`, 'TRANSACTION_NOT_CANCELLABLE');
  }
  // No failure reason names a recall; QUOTE_EXECUTION_FAILED covers the whole path to settlement (SPEC §2.9).
  failPayment(tenant, transactionId, 'QUOTE_EXECUTION_FAILED', { refundReason: 'USER_CANCELLATION' });
  return findTransaction(tenant, transactionId) as OutgoingTransaction;
}

/** What a transaction holds in flight now (0 once settled or refunded). */
export const heldBy = (tenant: TenantContext, transactionId: string): number => settlements(tenant).get(transactionId)?.held ?? 0;

