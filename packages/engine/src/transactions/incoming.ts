/**
 * Incoming payments (REFERENCE §4.3, §13): money that arrives for a customer or the platform (sandbox funding, an UMA
 * payment, a payment from another account of the platform) is recorded as an INCOMING transaction, credited through
 * the ledger, and announced with INCOMING_PAYMENT.COMPLETED.
 */
import type { Currency, IncomingTransaction, InternalAccount, TransactionSource } from '@railyard/contract';
import { assertCreditable, findInternalAccount, postToAccounts } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { findCustomer } from '../customers/customers.js';
import { outsideWorld } from '../ledger/ledger.js';
import { conflict } from '../core/errors.js';
import { findTransaction, insertTransaction, moveTransaction, patchTransaction, refundTransaction } from './transactions.js';
import { refundFailsTo } from '../sandbox/magic-values.js';

/**
 * `customerId` and `platformCustomerId` of a transaction: the customer's, or the platform's own id for the platform's
 * accounts (REFERENCE §1: filtering by the platform id selects platform-own rows).
 */
export function partiesOf(tenant: TenantContext, customerId: string | undefined): { customerId: string; platformCustomerId: string } {
  if (customerId === undefined) return { customerId: tenant.platform.id, platformCustomerId: tenant.platform.id };
  return { customerId, platformCustomerId: findCustomer(tenant, customerId).platformCustomerId };
}

export interface IncomingPayment {
  /** The internal account credited, or the external account the money is forwarded to (a default UMA deposit account). */
  readonly accountId: string;
  readonly customerId: string | undefined;
  readonly amount: number;
  readonly currency: Currency;
  readonly source: TransactionSource;
  readonly description?: string;
  readonly quoteId?: string;
  /**
   * The platform decides (UMA rails, REFERENCE §8): the payment is PENDING, announced with INCOMING_PAYMENT.PENDING,
   * until approved or rejected, and fails with PAYMENT_APPROVAL_TIMED_OUT after {@link APPROVAL_WINDOW_MS}.
   */
  readonly awaitApproval?: boolean;
}

/** How long the platform has to approve or reject an incoming payment that waits for it (REFERENCE §8). */
export const APPROVAL_WINDOW_MS = 5_000;
/** Clock-job kind that times an unanswered approval out. */
export const APPROVAL_TIMEOUT_JOB = 'payments.approvalTimeout';

const credit = (tenant: TenantContext, transaction: IncomingTransaction): void => {
  const { destination, receivedAmount } = transaction;
  if (destination.destinationType !== 'ACCOUNT' || !destination.accountId.startsWith('InternalAccount:')) return;
  const code = receivedAmount.currency.code;
  postToAccounts(tenant, 'INCOMING_PAYMENT', code, [
    { account: outsideWorld(code), amount: -receivedAmount.amount },
    { account: destination.accountId, amount: receivedAmount.amount },
  ], transaction.id);
};

/** Records a completed incoming payment; an internal account is credited from the outside world in the same step. */
export function receivePayment(tenant: TenantContext, payment: IncomingPayment): IncomingTransaction {
  // The largest balance the service holds applies to every credit (a refusal here moves nothing).
  if (payment.accountId.startsWith('InternalAccount:')) assertCreditable(tenant, payment.accountId, payment.amount);
  const id = tenant.ids('Transaction');
  const code = payment.currency.code;
  const now = tenant.nowIso();
  const transaction: IncomingTransaction = {
    id,
    type: 'INCOMING',
    direction: 'CREDIT',
    status: payment.awaitApproval ? 'PENDING' : 'COMPLETED',
    ...partiesOf(tenant, payment.customerId),
    source: payment.source,
    destination: { destinationType: 'ACCOUNT', accountId: payment.accountId, currency: code },
    receivedAmount: { amount: payment.amount, currency: payment.currency },
    reconciliationInstructions: { reference: ['RY-IN', id.slice(-12)].join('-') },
    ...(payment.description === undefined ? {} : { description: payment.description }),
    ...(payment.quoteId === undefined ? {} : { quoteId: payment.quoteId }),
    ...(payment.awaitApproval ? {} : { settledAt: now }),
    createdAt: now,
    updatedAt: now,
  };
  if (payment.awaitApproval) {
    tenant.schedule(APPROVAL_WINDOW_MS, APPROVAL_TIMEOUT_JOB, { transactionId: id });
    return insertTransaction(tenant, transaction, true);
  }
  credit(tenant, transaction);
  return insertTransaction(tenant, transaction, true);
}

/** An incoming payment that waits for the platform, or 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL. */
function awaitingApproval(tenant: TenantContext, transactionId: string): IncomingTransaction {
  const transaction = findTransaction(tenant, transactionId);
  if (transaction.type !== 'INCOMING' || transaction.status !== 'PENDING') {
    throw conflict(
      `Transaction ${transactionId} is not waiting for the platform's approval (it is ${transaction.type === 'CARD' ? 'a card transaction' : `${transaction.type} and ${transaction.status}`})`,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    );
  }
  return transaction;
}

/**
 * `POST /transactions/{id}/approve`: the platform accepts an incoming payment; it completes and is credited. The
 * receiver's details it gives (`receiverCustomerInfo`) are kept as the payment's `counterpartyInformation`.
 */
export function approveIncoming(tenant: TenantContext, transactionId: string, receiverCustomerInfo?: Record<string, unknown>): IncomingTransaction {
  const transaction = awaitingApproval(tenant, transactionId);
  credit(tenant, transaction);
  return moveTransaction(tenant, transactionId, 'COMPLETED', receiverCustomerInfo ? { counterpartyInformation: receiverCustomerInfo } : {}) as IncomingTransaction;
}

/**
 * `POST /transactions/{id}/reject` (and a 403 answer to INCOMING_PAYMENT.PENDING): the platform refuses an incoming
 * payment; it is not credited, and the money goes back to the sender (INCOMING_PAYMENT.REFUND_PENDING, then
 * REFUND_COMPLETED, or REFUND_FAILED for a sender that takes no refund).
 */
export function rejectIncoming(tenant: TenantContext, transactionId: string): IncomingTransaction {
  awaitingApproval(tenant, transactionId);
  moveTransaction(tenant, transactionId, 'REJECTED');
  return refundSender(tenant, transactionId, 'TRANSACTION_FAILED');
}

/**
 * A 422 answer to INCOMING_PAYMENT.PENDING: the platform needs more about the sender before it decides (REFERENCE §8).
 * The payment keeps waiting, with pendingReason COUNTERPARTY_INFORMATION_REQUIRED, until approved, rejected or timed out.
 */
export function requestCounterpartyInformation(tenant: TenantContext, transactionId: string): void {
  awaitingApproval(tenant, transactionId);
  patchTransaction<IncomingTransaction>(tenant, transactionId, { pendingReason: 'COUNTERPARTY_INFORMATION_REQUIRED' });
}

/** The clock job of {@link APPROVAL_TIMEOUT_JOB}: still unanswered, the payment fails and goes back to the sender. */
export function approvalTimeoutJob(tenant: TenantContext, payload: unknown): void {
  const transaction = findTransaction(tenant, (payload as { transactionId: string }).transactionId);
  if (transaction.type === 'INCOMING' && transaction.status === 'PENDING') {
    moveTransaction(tenant, transaction.id, 'FAILED', { failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    refundSender(tenant, transaction.id, 'TIMEOUT');
  }
}

/**
 * Sends an incoming payment that was never credited back to its sender: nothing moves in the platform's ledger (the
 * money never reached an account of it), but the refund is tracked and announced as SPEC §6 says.
 */
function refundSender(tenant: TenantContext, transactionId: string, reason: 'TRANSACTION_FAILED' | 'TIMEOUT'): IncomingTransaction {
  const transaction = findTransaction(tenant, transactionId) as IncomingTransaction;
  const sender = transaction.source?.sourceType === 'UMA_ADDRESS' ? transaction.source.umaAddress : undefined;
  return refundTransaction(tenant, transactionId, reason, () => !refundFailsTo(sender)) as IncomingTransaction;
}

/**
 * `POST /sandbox/internal-accounts/{id}/fund`: money arrives from outside at once (REFERENCE §13) as a completed
 * incoming payment. Returns the account with its new balance.
 */
export function fundInternalAccount(tenant: TenantContext, accountId: string, amount: number): InternalAccount {
  const account = assertCreditable(tenant, accountId, amount);
  const currency = account.balance.currency;
  receivePayment(tenant, {
    accountId, customerId: account.customerId, amount, currency, description: 'Sandbox funding',
    source: { sourceType: 'REALTIME_FUNDING', currency: currency.code, accountHolderName: 'Railyard sandbox', paymentRail: 'BANK_TRANSFER' },
  });
  return findInternalAccount(tenant, accountId);
}
