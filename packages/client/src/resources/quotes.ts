import type { ListQuotesQuery, Quote, QuoteAuthorizeRequest, QuoteExecuteRequest, QuoteRequest } from '@railyard/contract/routes';
import { paymentEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import { requireIdempotencyKey } from '../core/idempotency.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/**
 * Body of {@link Quotes.create}: `source` (an account, or `REALTIME_FUNDING`), `destination` (an account or an UMA
 * address with the `lookupId` of {@link Receivers.lookupUma}), `lockedCurrencySide`, `lockedCurrencyAmount` (minor
 * units) and the optional fields of a quote request.
 */
export type QuoteCreateParams = QuoteRequest;
/** Optional body of {@link Quotes.execute}: `{ scaFactor }` for customers in an SCA region. */
export type QuoteExecuteParams = QuoteExecuteRequest;
/** Query of {@link Quotes.list}: `limit` (1–100, default 20) and `cursor`. */
export type QuoteListParams = ListQuotesQuery;
/** A priced payment: amounts, fees and rate fixed until `expiresAt`; `transactionId` exists from creation. */
export type { Quote };
/**
 * Body of {@link Quotes.authorize}: the answer to the quote's `scaChallenge`, either the SMS `code` or a
 * `passkeyAssertion` with its `origin` (exactly one), and optionally the customer's `endUserIpAddress`.
 */
export type QuoteAuthorizeParams = QuoteAuthorizeRequest;

/**
 * Quotes: price a payment, then send it.
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
   * money there (in the sandbox, {@link Sandbox.send}), never by {@link Quotes.execute}. To an UMA address the
   * counterparty is asked for an invoice; its failures reject with a {@link BadRequestError} (`QUOTE_REQUEST_FAILED`
   * may succeed when retried; `MISSING_MANDATORY_USER_INFO` lists the payer fields to give in `senderCustomerInfo`), a
   * {@link PermissionDeniedError} (`COUNTERPARTY_NOT_ALLOWED`, `VELOCITY_LIMIT_EXCEEDED`), a
   * {@link PreconditionFailedError}, a {@link FailedDependencyError} or a {@link NotImplementedError}.
   */
  create(body: QuoteCreateParams, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(paymentEndpoints.createQuote, { body }, options);
  }

  /**
   * Lists the platform's quotes, newest first, each as {@link Quotes.retrieve} shows it (`GET /quotes`, a path the
   * API keeps for older SDKs and marks deprecated: to follow one payment, read its transaction). `await` it for the
   * first page, or iterate every quote across pages:
   *
   * ```ts
   * for await (const quote of client.quotes.list()) console.log(quote.id, quote.status);
   * ```
   */
  list(query: QuoteListParams = {}, options?: RequestOptions): PagePromise<Quote> {
    return this._client.callPage(paymentEndpoints.listQuotes, { query }, options);
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

  /**
   * Answers the strong-customer-authentication challenge of a quote. Customers in an SCA
   * region (an EU/EEA member state) get a quote in `PENDING_AUTHORIZATION` with a `scaChallenge` from {@link Quotes.execute} (or, for
   * real-time funding, from {@link Quotes.create}); nothing moves until it is answered here. The customer needs a live
   * SCA login session first ({@link ScaLogin.start} and {@link ScaLogin.complete}).
   *
   * ```ts
   * const executed = await client.quotes.execute(quote.id); // PENDING_AUTHORIZATION, scaChallenge.factor 'SMS_OTP'
   * const sent = await client.quotes.authorize(quote.id, { code: '123456', endUserIpAddress: '203.0.113.7' });
   * ```
   *
   * Resolves with the quote: the payment is sent (a real-time funding quote gets its `paymentInstructions`), or a next
   * `scaChallenge` when challenges come in sequence. Rejects with a {@link ConflictError} without a login session
   * (`SCA_SESSION_REQUIRED`) or when no challenge is outstanding, a {@link BadRequestError} for a wrong code (it counts
   * towards the lockout), and a {@link LockedError} (`ACCOUNT_LOCKED`, with `details.lockedUntil`) once locked.
   */
  authorize(quoteId: string, body: QuoteAuthorizeParams, options?: RequestOptions): APIPromise<Quote> {
    return this._client.call(paymentEndpoints.authorizeQuote, { params: { quoteId }, body }, options);
  }

  /**
   * Sends the SMS code of a quote's outstanding challenge again (`POST /quotes/{id}/authorize/resend`); the challenge's
   * `expiresAt` is not extended. At most once every 30 seconds: sooner rejects with a {@link RateLimitError} whose
   * `Retry-After` header says when (the client waits and retries it when `maxRetries` allows, like any 429). A PASSKEY
   * challenge, or no challenge outstanding, rejects with a {@link ConflictError}.
   */
  resendAuthorization(quoteId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(paymentEndpoints.resendQuoteAuthorization, { params: { quoteId } }, options);
  }
}

