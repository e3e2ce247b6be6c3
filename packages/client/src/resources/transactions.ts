import type { ListTransactionsQuery, Transaction, TransactionApproveRequest, TransactionConfirmRequest, TransactionReasonRequest } from '@railyard/contract/routes';
import { paymentEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import { waitForTransaction, type WaitForOptions } from './wait-for-transaction.js';

/** A transaction: `OUTGOING`, `INCOMING` or `CARD`, discriminated by `type`. */
export type { Transaction };
/** A payment sent: from an internal account, a pulled external account or real-time funding. */
export type OutgoingTransaction = Extract<Transaction, { type: 'OUTGOING' }>;
/** A payment received into an internal account (sandbox funding, UMA, another account of the platform). */
export type IncomingTransaction = Extract<Transaction, { type: 'INCOMING' }>;
/**
 * Query of {@link Transactions.list}: `customerId`, `platformCustomerId`, account identifiers, `status`, `type`
 * (INCOMING or OUTGOING), `reference`, `startDate`, `endDate`, `sortOrder` (`desc` by default), `limit`, `cursor`.
 */
export type TransactionListParams = ListTransactionsQuery;
/** Optional body of {@link Transactions.approve}: `receiverCustomerInfo` the sender asked for. */
export type TransactionApproveParams = TransactionApproveRequest;
/** Optional body of {@link Transactions.reject}: `{ reason }`. */
export type TransactionRejectParams = TransactionReasonRequest;
/** Optional body of {@link Transactions.cancel}: `{ reason }`. */
export type TransactionCancelParams = TransactionReasonRequest;
/** Optional body of {@link Transactions.confirm}: `{ receiptDeliveryConfirmedAt }` (defaults to now). */
export type TransactionConfirmParams = TransactionConfirmRequest;

/**
 * Transactions: the payments of quotes, incoming payments, and what the platform decides about them.
 *
 * ```ts
 * const settled = await client.transactions.waitFor(quote.transactionId);
 * if (settled.status === 'FAILED') console.log(settled.type === 'OUTGOING' && settled.failureReason, settled.refund?.status);
 * ```
 */
export class Transactions extends APIResource {
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;

  /**
   * @param sleep - How {@link Transactions.waitFor} sleeps between reads; the client passes its own (`sleep` option).
   */
  constructor(client: RailyardClient, sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>) {
    super(client);
    this.#sleep = sleep;
  }

  /**
   * Lists transactions, newest first unless `sortOrder: 'asc'`. `await` it for the first page, or iterate every
   * transaction across pages:
   *
   * ```ts
   * for await (const t of client.transactions.list({ customerId, type: 'OUTGOING', status: 'FAILED' })) console.log(t.id);
   * ```
   */
  list(query: TransactionListParams = {}, options?: RequestOptions): PagePromise<Transaction> {
    return this._client.callPage(paymentEndpoints.listTransactions, { query }, options);
  }

  /** Retrieves a transaction. An unknown id rejects with a {@link NotFoundError} (`TRANSACTION_NOT_FOUND`). */
  retrieve(transactionId: string, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.getTransaction, { params: { transactionId } }, options);
  }

  /**
   * Approves a payment waiting for the platform. An incoming UMA payment stays PENDING when the platform has a webhook
   * endpoint and answered its `INCOMING_PAYMENT.PENDING` with neither 200 (approve) nor 403 (reject), e.g. with 202;
   * an agent's quote execution that needs approval is approved by its quote's `transactionId` (it runs now, as
   * `client.agents.approveAction` runs it). One no longer pending, already decided or timed out (after 5 s) rejects
   * with a {@link ConflictError}.
   */
  approve(transactionId: string, body?: TransactionApproveParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.approveTransaction, { params: { transactionId }, body }, options);
  }

  /**
   * Rejects a payment waiting for the platform: an incoming one (the sender is refunded), or an agent's quote execution
   * (its action is REJECTED with the `reason`). Conflicts as {@link Transactions.approve}.
   */
  reject(transactionId: string, body?: TransactionRejectParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.rejectTransaction, { params: { transactionId }, body }, options);
  }

  /**
   * Recalls an ACH or wire payout that is still PROCESSING: it becomes FAILED and the source is refunded (reason
   * USER_CANCELLATION). Another rail rejects with a {@link BadRequestError}; a payout already settled or failed with a
   * {@link ConflictError} (`TRANSACTION_NOT_CANCELLABLE`).
   */
  cancel(transactionId: string, body?: TransactionCancelParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.cancelTransaction, { params: { transactionId }, body }, options);
  }

  /** Records when the receipt reached the customer (`receiptDeliveryConfirmedAt`, now by default; a repeat overwrites). */
  confirm(transactionId: string, body?: TransactionConfirmParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.confirmTransaction, { params: { transactionId }, body }, options);
  }

  /**
   * Resolves with the transaction once it has settled: COMPLETED, FAILED, EXPIRED, REJECTED or REFUNDED, with any
   * refund of a failed payout no longer PENDING (see {@link isTransactionSettled}), or once `options.until` holds.
   * Between reads it sleeps `interval` ms (default 1 s), or, with `advanceClock`, moves a sandbox's virtual clock
   * forward instead, so a payout that takes "about 6 minutes" settles in milliseconds in a test. Rejects with a
   * {@link TransactionWaitTimeoutError} after `timeout` (default 10 minutes) and with an {@link APIUserAbortError}
   * when `signal` aborts.
   *
   * ```ts
   * const quote = await client.quotes.execute(quoteId);
   * const settled = await client.transactions.waitFor(quote.transactionId, { advanceClock: true });
   * ```
   */
  waitFor(transactionId: string, options: WaitForOptions = {}): Promise<Transaction> {
    return waitForTransaction(this._client, transactionId, options, this.#sleep);
  }
}
