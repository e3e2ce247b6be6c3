import { paymentEndpoints } from '@railyard/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import { requireIdempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/**
 * Body of {@link Quotes.create}: `source` (an account, or `REALTIME_FUNDING`), `destination` (an account or an UMA
 * address with the `lookupId` of {@link Receivers.lookupUma}), `lockedCurrencySide`, `lockedCurrencyAmount` (minor
 * units) and the optional fields of REFERENCE §4.1.
 */
export type QuoteCreateParams = BodyParams<typeof paymentEndpoints.createQuote>;
/** Optional body of {@link Quotes.execute}: `{ scaFactor }` for customers in an SCA region. */
export type QuoteExecuteParams = BodyParams<typeof paymentEndpoints.executeQuote>;
/** A priced payment (SPEC §2.8): amounts, fees and rate fixed until `expiresAt`; `transactionId` exists from creation. */
export type Quote = ResultOf<typeof paymentEndpoints.getQuote>;

/**
 * Quotes (SPEC §3.5, §4.5): price a payment, then send it.
 *
 * ```ts
 * const quote = await client.quotes.create({
 *   source: { sourceType: 'ACCOUNT', accountId: internalAccount.id },
 *   destination: { destinationType: 'ACCOUNT', accountId: bankAccount.id },
 *   lockedCurrencySide: 'SENDING',
 *   lockedCurrencyAmount: 10_000, // $100.00
 * });
 * await client.quotes.execute(quote.id);
 * const settled = await client.transactions.waitFor(quote.transactionId);
 * ```
 */
export class Quotes extends APIResource {
  /**
   * Prices a payment and creates its PENDING transaction (`transactionId`). With `immediatelyExecute: true` the payment
   * is sent in the same request. A real-time funding quote carries `paymentInstructions`: it is paid by sending the
   * money there (in the sandbox, {@link Sandbox.send}), never by {@link Quotes.execute}.
   */
  create(body: QuoteCreateParams, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(paymentEndpoints.createQuote, { body }, options);
  }

  /** Retrieves a quote; its `status` follows its transaction's. An unknown id rejects with a {@link NotFoundError}. */
  retrieve(quoteId: string, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(paymentEndpoints.getQuote, { params: { quoteId } }, options);
  }

  /**
   * Sends the payment of an account-funded quote: the source is debited and the quote moves to PROCESSING (or further),
   * or to PENDING_AUTHORIZATION in an SCA region. An executed or expired quote rejects with a {@link ConflictError}.
   *
   * Always sent with an `Idempotency-Key`: the one in `options.idempotencyKey` (or an `Idempotency-Key` header), else a
   * generated one, even when `idempotencyKey: null` asks for none. Every retry of the call repeats that key, so a
   * retry after a lost response gets the first response replayed and the money moves once. Pass your own stable key
   * (for example `execute-${quote.id}`) to make the call safe to repeat across processes.
   */
  execute(quoteId: string, body?: QuoteExecuteParams, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(paymentEndpoints.executeQuote, { params: { quoteId }, body }, requireIdempotencyKey(options));
  }
}

