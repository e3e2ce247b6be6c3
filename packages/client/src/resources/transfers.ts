import type { TransferInRequest, TransferOutRequest } from '@railyard/contract/routes';
import { paymentEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams } from '../core/endpoint.js';
import { requireIdempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import type { Transaction } from './transactions.js';

/** Body of {@link Transfers.in}: `source.accountId` (a pullable external account), `destination.accountId` (internal), `amount`. */
export type TransferInParams = TransferInRequest;
/**
 * Body of {@link Transfers.out}: `source.accountId` (internal), `destination.accountId` (external) with an optional
 * `paymentRail`, `amount`, and optionally `remittanceInformation` and `purposeOfPayment`.
 */
export type TransferOutParams = TransferOutRequest;

/**
 * The deprecated transfer calls (`POST /transfer-in`, `POST /transfer-out`). They still work,
 * each as an immediately executed quote answering with its transaction. New code uses {@link Quotes.create} with
 * `immediatelyExecute: true` (`amount` becomes `lockedCurrencyAmount` with `lockedCurrencySide: 'SENDING'`, the
 * accounts `sourceType`/`destinationType` `ACCOUNT`), which returns the quote with its fees and `transactionId`.
 */
export class Transfers extends APIResource {
  /**
   * Pulls money from a pullable external account (an ACH debit of a `USD_ACCOUNT`) into an internal account. Without
   * `amount` it pulls the platform's single-transaction maximum for the currency (the most one pull may carry).
   *
   * Always sent with an `Idempotency-Key`, like {@link Quotes.execute}: the caller's, else a generated one repeated on
   * every retry, so a retry after a lost response never pulls twice.
   *
   * @deprecated Use `client.quotes.create({ source: { sourceType: 'ACCOUNT', accountId: externalAccountId },
   * destination: { destinationType: 'ACCOUNT', accountId: internalAccountId }, lockedCurrencySide: 'SENDING',
   * lockedCurrencyAmount: amount, immediatelyExecute: true })`.
   */
  in(body: TransferInParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.transferIn, { body }, requireIdempotencyKey(options));
  }

  /**
   * Pays from an internal account to an external account (its default rail unless `destination.paymentRail` is given).
   * Without `amount` it sends the source's whole available balance (an empty source rejects with a 409).
   * A payment that would pass the daily volume limit rejects with a {@link RateLimitError}
   * (`DAILY_VOLUME_LIMIT_EXCEEDED`).
   *
   * Always sent with an `Idempotency-Key`, like {@link Quotes.execute}: the caller's (`options.idempotencyKey` or an
   * `Idempotency-Key` header), else a generated one, even with `idempotencyKey: null`. Every retry repeats it, so a
   * retry after a lost response replays the first answer and the money moves once.
   *
   * @deprecated Use `client.quotes.create({ source: { sourceType: 'ACCOUNT', accountId: internalAccountId },
   * destination: { destinationType: 'ACCOUNT', accountId: externalAccountId }, lockedCurrencySide: 'SENDING',
   * lockedCurrencyAmount: amount, immediatelyExecute: true })`.
   */
  out(body: TransferOutParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.transferOut, { body }, requireIdempotencyKey(options));
  }
}
