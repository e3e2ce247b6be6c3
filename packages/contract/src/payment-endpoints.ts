import { z } from 'zod';
import { Currency, CurrencyCode, IdParam, MAX_AMOUNT, MinorUnits, Timestamp, cappedString } from './common.js';
import { anyResourceId } from './accounts.js';
import { defineEndpoint } from './endpoint.js';
import { PaymentRail } from './external-accounts.js';
import { PageQuery, pageOf, queryList } from './pagination.js';
import {
  PurposeOfPayment, Quote, QuoteAuthorizeRequest, QuoteExecuteRequest, QuoteId, QuoteRequest, REMITTANCE_INFORMATION_MAX,
} from './quotes.js';
import {
  IncomingTransaction, Transaction, TransactionApproveRequest, TransactionConfirmRequest, TransactionListQuery, TransactionReasonRequest,
} from './transactions.js';

// Quotes, execution and transactions (SPEC §3.5, §4.5, §4.6; REFERENCE §4, §9, §13): the operations.

/** `POST /sandbox/send`: pays a real-time-funding quote as if the payer had sent the money. */
export const SandboxSendRequest = z
  .object({
    quoteId: QuoteId,
    /** Must be the quote's sending (funding) currency. */
    currencyCode: CurrencyCode,
    /** Defaults to the quote's `totalSendingAmount`; any other amount fails the payment with FUNDING_AMOUNT_MISMATCH. */
    currencyAmount: MinorUnits.min(1).optional(),
  })
  .meta({ id: 'SandboxSendRequest' });
export type SandboxSendRequest = z.input<typeof SandboxSendRequest>;

/** `POST /transfer-in` (deprecated): pull from a pullable external account into an internal account. */
export const TransferInRequest = z
  .object({
    source: z.object({ accountId: anyResourceId('ExternalAccount') }),
    destination: z.object({ accountId: anyResourceId('InternalAccount') }),
    /**
     * Minor units to pull. Omitted: as much as one pull may carry, the platform's single-transaction maximum for the
     * source's currency (`maxAmount` of its `supportedCurrencies` entry; the sandbox's banks keep no balance for an
     * external account). An agent's policy weighs that amount.
     */
    amount: MinorUnits.min(1).optional(),
  })
  .meta({ id: 'TransferInRequest' });
export type TransferInRequest = z.input<typeof TransferInRequest>;

/** `POST /transfer-out` (deprecated): pay from an internal account to an external account. */
export const TransferOutRequest = z
  .object({
    source: z.object({ accountId: anyResourceId('InternalAccount') }),
    destination: z.object({ accountId: anyResourceId('ExternalAccount'), paymentRail: PaymentRail.optional() }),
    /**
     * Minor units to send. Omitted: the source's whole available `balance` at the time of the request (an agent's
     * policy weighs that amount); an empty source is `409 CONFLICT` with `details.reason` `INSUFFICIENT_BALANCE`.
     */
    amount: MinorUnits.min(1).optional(),
    remittanceInformation: cappedString(REMITTANCE_INFORMATION_MAX).optional(),
    purposeOfPayment: PurposeOfPayment.optional(),
  })
  .meta({ id: 'TransferOutRequest' });
export type TransferOutRequest = z.input<typeof TransferOutRequest>;

/**
 * `GET /exchange-rates` query: `destinationCurrency` may repeat or be comma-joined; none means every currency the
 * sandbox quotes. Without `sourceCurrency`, the rates from every currency the platform supports.
 */
export const ExchangeRateQuery = z.object({
  sourceCurrency: CurrencyCode.optional(),
  destinationCurrency: queryList(CurrencyCode).optional(),
  /** Sending minor units the estimate is for (default 10000). */
  sendingAmount: z.coerce.number().int().min(0).max(MAX_AMOUNT).default(10_000),
});
export type ExchangeRateQuery = z.input<typeof ExchangeRateQuery>;

/** An indicative rate for a corridor, fees included (platform fees too); quotes fix the real amounts. */
export const ExchangeRate = z
  .object({
    sourceCurrency: Currency,
    destinationCurrency: Currency,
    /** The rail a payout in this currency takes by default; null for crypto. */
    destinationPaymentRail: PaymentRail.nullable(),
    sendingAmount: MinorUnits,
    minSendingAmount: MinorUnits,
    maxSendingAmount: MinorUnits,
    receivingAmount: MinorUnits,
    /** Sending units per receiving unit, as on quotes. */
    exchangeRate: z.number().positive(),
    fees: z.object({ fixed: MinorUnits, total: MinorUnits }),
    /** Rates are cached for about 5 minutes; this is when the cached rate was made. */
    updatedAt: Timestamp,
  })
  .meta({ id: 'ExchangeRate' });
export type ExchangeRate = z.infer<typeof ExchangeRate>;

const quotesTag = 'Quotes';
const transactionsTag = 'Transactions';
const quoteParams = z.object({ quoteId: IdParam });
const transactionParams = z.object({ transactionId: IdParam });

export const paymentEndpoints = {
  createQuote: defineEndpoint({
    operationId: 'createQuote', method: 'POST', path: '/quotes', tag: quotesTag, body: QuoteRequest,
    summary: 'Price a payment (and, with immediatelyExecute, send it)',
    description:
      'The quote fixes the amounts, fees and rate until `expiresAt`; its transaction exists at once (`transactionId`). ' +
      'Real-time funding quotes carry `paymentInstructions` and are paid by sending the money (in the sandbox, ' +
      '`POST /sandbox/send`). 202 for an SCA customer with real-time funding: PENDING_AUTHORIZATION with a `scaChallenge`. ' +
      'To an UMA address, the counterparty is contacted: its failures answer 400, 403 (COUNTERPARTY_NOT_ALLOWED, ' +
      'VELOCITY_LIMIT_EXCEEDED), 412 (UNSUPPORTED_UMA_VERSION), 424 (PAYREQ_REQUEST_FAILED and the lookup failures) or 501 ' +
      '(UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY); a mandatory payer field the sender lacks is 400 MISSING_MANDATORY_USER_INFO.',
    response: { status: 201, description: 'The quote', schema: Quote },
    alsoResponds: [{ status: 202, description: 'Real-time funding in an SCA region: PENDING_AUTHORIZATION with a scaChallenge', schema: Quote }],
    errors: [403, 404, 409, 410, 412, 424, 429, 501],
  }),
  // The path the latest published reference SDK still calls: served so that SDK works unchanged (issue 33).
  listQuotes: defineEndpoint({
    operationId: 'listQuotes', method: 'GET', path: '/quotes', tag: quotesTag, query: PageQuery, deprecated: true,
    summary: "Deprecated: list the platform's quotes, newest first (read each with GET /quotes/{quoteId}, or its transaction)",
    description: 'Every quote of the platform, as GET /quotes/{quoteId} shows it; paged with `limit` and `cursor`.',
    response: { status: 200, description: 'A page of quotes', schema: pageOf(Quote) },
  }),
  getQuote: defineEndpoint({
    operationId: 'getQuote', method: 'GET', path: '/quotes/{quoteId}', tag: quotesTag, params: quoteParams,
    summary: 'Retrieve a quote', response: { status: 200, description: 'The quote', schema: Quote }, errors: [404],
  }),
  executeQuote: defineEndpoint({
    operationId: 'executeQuote', method: 'POST', path: '/quotes/{quoteId}/execute', tag: quotesTag, params: quoteParams,
    body: QuoteExecuteRequest, bodyOptional: true,
    summary: 'Send the payment of a quote from an internal or pullable external account',
    description:
      'Debits the source and moves the quote to PROCESSING (the sandbox then settles it), or to PENDING_AUTHORIZATION with a ' +
      '`scaChallenge` for customers in an SCA region. Executed or expired quotes: 409. Real-time funding quotes are never ' +
      'executed by call. Send an `Idempotency-Key`.',
    response: { status: 200, description: 'The quote, now PROCESSING or further', schema: Quote },
    errors: [403, 409, 429],
  }),
  authorizeQuote: defineEndpoint({
    operationId: 'authorizeQuote', method: 'POST', path: '/quotes/{quoteId}/authorize', tag: quotesTag, params: quoteParams,
    body: QuoteAuthorizeRequest,
    summary: 'Answer the SCA challenge of a quote',
    description:
      'Needs an SCA login session (409 SCA_SESSION_REQUIRED otherwise). A wrong code is 400 and counts towards the lockout (423). ' +
      'An account-funded payment is then sent; a real-time funding quote gets its paymentInstructions. No challenge outstanding: 409. ' +
      'At most 10 answers per quote within a minute (429 RATE_LIMITED with Retry-After).',
    response: { status: 200, description: 'The quote, authorized', schema: Quote },
    errors: [409, 423, 429],
  }),
  resendQuoteAuthorization: defineEndpoint({
    operationId: 'resendQuoteAuthorization', method: 'POST', path: '/quotes/{quoteId}/authorize/resend', tag: quotesTag, params: quoteParams,
    summary: 'Send the SMS code of a quote authorization again',
    description: 'SMS challenges only (a PASSKEY challenge: 409). `expiresAt` is not extended. At most one resend every 30 seconds (429 RATE_LIMITED with Retry-After).',
    response: { status: 204, description: 'Sent' },
    errors: [409, 429],
  }),
  listTransactions: defineEndpoint({
    operationId: 'listTransactions', method: 'GET', path: '/transactions', tag: transactionsTag, query: TransactionListQuery,
    summary: 'List transactions, newest first by default',
    response: { status: 200, description: 'A page of transactions', schema: pageOf(Transaction) },
  }),
  getTransaction: defineEndpoint({
    operationId: 'getTransaction', method: 'GET', path: '/transactions/{transactionId}', tag: transactionsTag, params: transactionParams,
    summary: 'Retrieve a transaction', response: { status: 200, description: 'The transaction', schema: Transaction }, errors: [404],
  }),
  approveTransaction: defineEndpoint({
    operationId: 'approveTransaction', method: 'POST', path: '/transactions/{transactionId}/approve', tag: transactionsTag,
    params: transactionParams, body: TransactionApproveRequest, bodyOptional: true,
    summary: 'Approve an incoming payment, or an agent-initiated payment, that waits for the platform',
    response: { status: 200, description: 'The transaction', schema: Transaction },
    errors: [409],
  }),
  rejectTransaction: defineEndpoint({
    operationId: 'rejectTransaction', method: 'POST', path: '/transactions/{transactionId}/reject', tag: transactionsTag,
    params: transactionParams, body: TransactionReasonRequest, bodyOptional: true,
    summary: 'Reject an incoming payment, or an agent-initiated payment, that waits for the platform',
    response: { status: 200, description: 'The transaction', schema: Transaction },
    errors: [409],
  }),
  cancelTransaction: defineEndpoint({
    operationId: 'cancelTransaction', method: 'POST', path: '/transactions/{transactionId}/cancel', tag: transactionsTag,
    params: transactionParams, body: TransactionReasonRequest, bodyOptional: true,
    summary: 'Cancel an ACH or wire payout that has not settled yet',
    description: 'Other rails: 400. Settled, failed or otherwise past the cutoff: 409 TRANSACTION_NOT_CANCELLABLE. The source is refunded.',
    response: { status: 200, description: 'The transaction', schema: Transaction },
    errors: [409],
  }),
  confirmTransaction: defineEndpoint({
    operationId: 'confirmTransaction', method: 'POST', path: '/transactions/{transactionId}/confirm', tag: transactionsTag,
    params: transactionParams, body: TransactionConfirmRequest, bodyOptional: true,
    summary: 'Record that the receipt reached the customer (defaults to now; a repeat overwrites)',
    response: { status: 200, description: 'The transaction', schema: Transaction },
  }),
  listExchangeRates: defineEndpoint({
    operationId: 'listExchangeRates', method: 'GET', path: '/exchange-rates', tag: quotesTag, query: ExchangeRateQuery,
    summary: 'Indicative rates from a source currency, fees included, cached for about 5 minutes',
    description: 'Without `sourceCurrency`, the rates from every currency the platform supports. Unknown currencies: 400 INVALID_CURRENCY. Not paged.',
    response: { status: 200, description: 'Rates per destination currency', schema: z.object({ data: z.array(ExchangeRate) }) },
  }),
  sandboxSend: defineEndpoint({
    operationId: 'sandboxSend', method: 'POST', path: '/sandbox/send', tag: 'Sandbox', body: SandboxSendRequest,
    summary: 'Pay a real-time-funding quote, as the payer would (sandbox)',
    response: { status: 200, description: 'The transaction', schema: Transaction },
    errors: [404, 409],
  }),
  transferIn: defineEndpoint({
    operationId: 'transferIn', method: 'POST', path: '/transfer-in', tag: transactionsTag, body: TransferInRequest, deprecated: true,
    summary: 'Deprecated: pull from an external account (use POST /quotes with immediatelyExecute)',
    response: { status: 201, description: 'The transaction', schema: Transaction },
    errors: [403, 404, 409],
  }),
  transferOut: defineEndpoint({
    operationId: 'transferOut', method: 'POST', path: '/transfer-out', tag: transactionsTag, body: TransferOutRequest, deprecated: true,
    summary: 'Deprecated: pay out to an external account (use POST /quotes with immediatelyExecute)',
    response: { status: 201, description: 'The transaction', schema: Transaction },
    errors: [403, 404, 409, 429],
  }),
} as const;
