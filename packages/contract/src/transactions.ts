import { z } from 'zod';
import { CountryCode, CurrencyAmount, CurrencyCode, IdParam, MAX_LENGTH, MinorUnits, Timestamp, cappedString, resourceId } from './common.js';
import { InternalAccountId, PaymentInstructions, anyResourceId } from './accounts.js';
import { CustomerId, CustomerInfoFieldName } from './customers.js';
import { PaymentRail } from './external-accounts.js';
import { PageQuery, SortOrder, TimeBound } from './pagination.js';
import { QuoteId, RateDetails, TransactionId } from './quotes.js';

// Transactions (SPEC §2.9, §3.5; REFERENCE §4.3, §10 CardTransaction). Schemas only.

// ---------------------------------------------------------------------------------------------------------------------
// Enumerations (REFERENCE §4.3)

export const TransactionType = z.enum(['INCOMING', 'OUTGOING', 'CARD']).meta({ id: 'TransactionType' });
export type TransactionType = z.infer<typeof TransactionType>;

/** CREDIT or DEBIT, independent of the type. */
export const TransactionDirection = z.enum(['CREDIT', 'DEBIT']).meta({ id: 'TransactionDirection' });
export type TransactionDirection = z.infer<typeof TransactionDirection>;

/** Status of incoming transactions and of list filters. */
export const TransactionStatus = z
  .enum(['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'])
  .meta({ id: 'TransactionStatus' });
export type TransactionStatus = z.infer<typeof TransactionStatus>;

export const OutgoingTransactionStatus = z
  .enum(['PENDING', 'PENDING_AUTHORIZATION', 'EXPIRED', 'PROCESSING', 'COMPLETED', 'FAILED'])
  .meta({ id: 'OutgoingTransactionStatus' });
export type OutgoingTransactionStatus = z.infer<typeof OutgoingTransactionStatus>;

/**
 * Why an outgoing payment failed. QUOTE_EXECUTION_FAILED covers the whole path to settlement (a debited amount is
 * refunded automatically). LIGHTNING_PAYMENT_FAILED and COUNTERPARTY_POST_TX_FAILED are deprecated.
 */
export const OutgoingFailureReason = z
  .enum([
    'QUOTE_EXPIRED', 'QUOTE_RATE_UNAVAILABLE', 'QUOTE_EXECUTION_FAILED', 'FUNDING_AMOUNT_MISMATCH', 'SCA_NOT_COMPLETED', 'PAYOUT_RETURNED',
    'LIMIT_EXCEEDED', 'ACCOUNT_CANNOT_RECEIVE', 'ACCOUNT_INVALID', 'COMPLIANCE_REJECTED', 'LIGHTNING_PAYMENT_FAILED',
    'COUNTERPARTY_POST_TX_FAILED',
  ])
  .meta({ id: 'OutgoingFailureReason' });
export type OutgoingFailureReason = z.infer<typeof OutgoingFailureReason>;

/** Why an incoming payment failed. */
export const IncomingFailureReason = z
  .enum([
    'LNURLP_FAILED', 'PAY_REQUEST_FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR', 'PAYMENT_APPROVAL_TIMED_OUT', 'OFFRAMP_FAILED',
    'MISSING_MANDATORY_PAYEE_DATA', 'QUOTE_EXPIRED', 'QUOTE_EXECUTION_FAILED', 'COMPLIANCE_REJECTED', 'COLLECTION_FAILED',
  ])
  .meta({ id: 'IncomingFailureReason' });
export type IncomingFailureReason = z.infer<typeof IncomingFailureReason>;

/** Every failure reason of either direction. */
export const FailureReason = z
  .enum([...new Set([...OutgoingFailureReason.options, ...IncomingFailureReason.options])] as [
    OutgoingFailureReason | IncomingFailureReason, ...(OutgoingFailureReason | IncomingFailureReason)[],
  ])
  .meta({ id: 'FailureReason' });
export type FailureReason = z.infer<typeof FailureReason>;

export const PendingReason = z
  .enum(['COUNTERPARTY_DECLARATION_REQUIRED', 'WALLET_VERIFICATION_REQUIRED', 'COUNTERPARTY_INFORMATION_REQUIRED', 'COMPLIANCE_REVIEW'])
  .meta({ id: 'PendingReason' });
export type PendingReason = z.infer<typeof PendingReason>;

export const RailSelectionMode = z.enum(['AUTO', 'MANUAL']).meta({ id: 'RailSelectionMode' });

/** Networks of on-chain settlement. */
export const OnChainNetwork = z
  .enum(['BITCOIN', 'ETHEREUM', 'SOLANA', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK'])
  .meta({ id: 'OnChainNetwork' });
export type OnChainNetwork = z.infer<typeof OnChainNetwork>;

/** On-chain settlement of the source or destination leg. */
export const OnChainTransaction = z
  .object({ transactionHash: z.string(), network: OnChainNetwork })
  .meta({ id: 'OnChainTransaction' });
export type OnChainTransaction = z.infer<typeof OnChainTransaction>;

// ---------------------------------------------------------------------------------------------------------------------
// Refund, sources and destinations

/** A refund after a failed payment. */
export const Refund = z
  .object({
    reference: z.string(),
    initiatedAt: Timestamp,
    status: z.enum(['PENDING', 'COMPLETED', 'FAILED']),
    settledAt: Timestamp.optional(),
    reason: z.enum(['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT']).optional(),
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof Refund>;

const AccountRef = anyResourceId('InternalAccount', 'ExternalAccount');
const accountEnd = <D extends string, T extends string>(discriminator: D, type: T) =>
  z.object({
    [discriminator]: z.literal(type),
    accountId: AccountRef,
    currency: CurrencyCode.optional(),
    onChainTransaction: OnChainTransaction.optional(),
  } as { [K in D]: z.ZodLiteral<T> } & {
    accountId: typeof AccountRef; currency: z.ZodOptional<typeof CurrencyCode>; onChainTransaction: z.ZodOptional<typeof OnChainTransaction>;
  });
const umaEnd = <D extends string>(discriminator: D) =>
  z.object({ [discriminator]: z.literal('UMA_ADDRESS'), umaAddress: z.string(), currency: CurrencyCode.optional() } as {
    [K in D]: z.ZodLiteral<'UMA_ADDRESS'>;
  } & { umaAddress: z.ZodString; currency: z.ZodOptional<typeof CurrencyCode> });

/** Where a transaction's money came from. */
export const TransactionSource = z
  .discriminatedUnion('sourceType', [
    accountEnd('sourceType', 'ACCOUNT'),
    umaEnd('sourceType'),
    z.object({
      sourceType: z.literal('REALTIME_FUNDING'),
      currency: CurrencyCode,
      customerId: z.string().optional(),
      accountHolderName: z.string().optional(),
      /** May be masked. */
      accountIdentifier: z.string().optional(),
      bankName: z.string().optional(),
      bankIdentifier: z.string().optional(),
      paymentRail: PaymentRail.optional(),
      remittanceInformation: z.string().optional(),
      endToEndId: z.string().optional(),
      traceNumber: z.string().optional(),
      onChainTransaction: OnChainTransaction.optional(),
    }),
  ])
  .meta({ id: 'TransactionSource' });
export type TransactionSource = z.infer<typeof TransactionSource>;

/** Where a transaction's money goes. */
export const TransactionDestination = z
  .discriminatedUnion('destinationType', [accountEnd('destinationType', 'ACCOUNT'), umaEnd('destinationType')])
  .meta({ id: 'TransactionDestination' });
export type TransactionDestination = z.infer<typeof TransactionDestination>;

/** `reference` to quote on a bank transfer; `transactionHash` is deprecated for wallet transfers (use onChainTransaction). */
export const ReconciliationInstructions = z
  .object({ reference: z.string().optional(), transactionHash: z.string().optional() })
  .meta({ id: 'ReconciliationInstructions' });

// ---------------------------------------------------------------------------------------------------------------------
// Transaction (oneOf on type)

const common = {
  id: TransactionId,
  direction: TransactionDirection,
  customerId: z.string(),
  platformCustomerId: z.string(),
  pendingReason: PendingReason.optional(),
  settledAt: Timestamp.optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
  receiptDeliveryConfirmedAt: Timestamp.optional(),
  agentId: z.string().optional(),
  description: z.string().optional(),
  sentAmount: CurrencyAmount.optional(),
  exchangeRate: z.number().optional(),
  quoteId: QuoteId.optional(),
  refund: Refund.optional(),
  counterpartyInformation: z.record(z.string(), z.unknown()).optional(),
};

/** A payment sent from an internal account or real-time funding source. `fees` and `platformFees` are sending minor units. */
export const OutgoingTransaction = z
  .object({
    ...common,
    type: z.literal('OUTGOING'),
    status: OutgoingTransactionStatus,
    source: TransactionSource,
    destination: TransactionDestination,
    sentAmount: CurrencyAmount,
    receivedAmount: CurrencyAmount.optional(),
    fees: MinorUnits.optional(),
    platformFees: MinorUnits.optional(),
    reconciliationInstructions: ReconciliationInstructions.optional(),
    paymentInstructions: z.array(PaymentInstructions).optional(),
    rateDetails: RateDetails.optional(),
    failureReason: OutgoingFailureReason.optional(),
    paymentRail: PaymentRail.nullable().optional(),
    railSelectionMode: RailSelectionMode.optional(),
    expectedSettlementAt: Timestamp.optional(),
    settlementTimelineSeconds: z.number().int().min(0).optional(),
  })
  .meta({ id: 'OutgoingTransaction' });
export type OutgoingTransaction = z.infer<typeof OutgoingTransaction>;

/** A payment received into an internal account (UMA, bank rails, crypto). */
export const IncomingTransaction = z
  .object({
    ...common,
    type: z.literal('INCOMING'),
    status: TransactionStatus,
    source: TransactionSource.optional(),
    destination: TransactionDestination,
    receivedAmount: CurrencyAmount,
    fees: MinorUnits.optional(),
    /** Absent while CREATED. */
    reconciliationInstructions: ReconciliationInstructions.optional(),
    failureReason: IncomingFailureReason.optional(),
  })
  .meta({ id: 'IncomingTransaction' });
export type IncomingTransaction = z.infer<typeof IncomingTransaction>;

/** Card-transaction states; EXCEPTION: the network settled but the funding pull failed. */
export const CardTransactionStatus = z
  .enum(['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'EXCEPTION'])
  .meta({ id: 'CardTransactionStatus' });
export type CardTransactionStatus = z.infer<typeof CardTransactionStatus>;

const summary = { count: z.number().int().min(0), totalAmount: MinorUnits };

/** A card purchase, refund or return, reported by settlement. */
export const CardTransaction = z
  .object({
    type: z.literal('CARD'),
    id: resourceId('CardTransaction'),
    status: CardTransactionStatus,
    direction: TransactionDirection,
    merchant: z.object({ descriptor: z.string(), mcc: z.string().optional(), country: CountryCode.optional() }),
    authorizedAmount: CurrencyAmount,
    accountId: InternalAccountId,
    customerId: CustomerId,
    platformCustomerId: z.string(),
    cardId: z.string().optional(),
    issuerTransactionToken: z.string().optional(),
    settledAmount: CurrencyAmount.optional(),
    refundedAmount: CurrencyAmount.optional(),
    pullSummary: z.object({ ...summary, pendingCount: z.number().int().min(0).optional() }).optional(),
    refundSummary: z.object(summary).optional(),
    settlementSummary: z.object(summary).optional(),
    authorizedAt: Timestamp,
    lastEventAt: Timestamp.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'CardTransaction' });
export type CardTransaction = z.infer<typeof CardTransaction>;

/** Any transaction, by `type`. */
export const Transaction = z
  .discriminatedUnion('type', [OutgoingTransaction, IncomingTransaction, CardTransaction])
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof Transaction>;

/** `data` of INCOMING_PAYMENT webhooks: the transaction plus the receiver fields the sender asks for. */
export const IncomingPaymentWebhookData = IncomingTransaction.extend({
  requestedReceiverCustomerInfoFields: z.array(z.object({ name: CustomerInfoFieldName, mandatory: z.boolean() })).optional(),
}).meta({ id: 'IncomingPaymentWebhookData' });

// ---------------------------------------------------------------------------------------------------------------------
// Requests

/** `GET /transactions` query; `type` filters only INCOMING or OUTGOING. */
export const TransactionListQuery = PageQuery.extend({
  customerId: IdParam.optional(),
  platformCustomerId: IdParam.optional(),
  accountIdentifier: cappedString(MAX_LENGTH.id).optional(),
  senderAccountIdentifier: cappedString(MAX_LENGTH.id).optional(),
  receiverAccountIdentifier: cappedString(MAX_LENGTH.id).optional(),
  status: TransactionStatus.optional(),
  type: z.enum(['INCOMING', 'OUTGOING']).optional(),
  reference: cappedString(MAX_LENGTH.id).optional(),
  startDate: TimeBound.optional(),
  endDate: TimeBound.optional(),
  sortOrder: SortOrder.default('desc'),
});
export type TransactionListQuery = z.input<typeof TransactionListQuery>;

/** `POST /transactions/{id}/approve`. */
export const TransactionApproveRequest = z
  .object({ receiverCustomerInfo: z.partialRecord(CustomerInfoFieldName, z.unknown()).optional() })
  .meta({ id: 'TransactionApproveRequest' });
/** `POST /transactions/{id}/reject` and `/cancel`. */
export const TransactionReasonRequest = z.object({ reason: cappedString(MAX_LENGTH.description).min(1).optional() }).meta({ id: 'TransactionReasonRequest' });
/** `POST /transactions/{id}/confirm`: defaults to now; a repeat overwrites. */
export const TransactionConfirmRequest = z
  .object({ receiptDeliveryConfirmedAt: Timestamp.optional() })
  .meta({ id: 'TransactionConfirmRequest' });
