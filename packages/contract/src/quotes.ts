import { z } from 'zod';
import { Currency, CurrencyCode, MAX_LENGTH, MinorUnits, Timestamp, cappedString, onEveryObject, resourceId } from './common.js';
import { PaymentInstructions, anyResourceId } from './accounts.js';
import { ScaChallenge, ScaResponse, requireOneScaAnswer } from './sca.js';
import { CustomerId } from './customers.js';
import { PaymentRail } from './external-accounts.js';

// Quotes (SPEC §2.8, §3.5, §4.5; REFERENCE §4.1, §4.2). Schemas only.

/** Networks a real-time crypto funding source can use; required for stablecoins. */
export const CryptoNetwork = z
  .enum(['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK', 'LIGHTNING', 'BITCOIN'])
  .meta({ id: 'CryptoNetwork' });
export type CryptoNetwork = z.infer<typeof CryptoNetwork>;

/** Which side of a quote is fixed. */
export const LockedCurrencySide = z.enum(['SENDING', 'RECEIVING']).meta({ id: 'LockedCurrencySide' });
export type LockedCurrencySide = z.infer<typeof LockedCurrencySide>;

export const PurposeOfPayment = z
  .enum([
    'GIFT', 'SELF', 'GOODS_OR_SERVICES', 'EDUCATION', 'HEALTH_OR_MEDICAL', 'REAL_ESTATE_PURCHASE', 'TAX_PAYMENT', 'LOAN_PAYMENT',
    'UTILITY_BILL', 'DONATION', 'TRAVEL', 'FAMILY_SUPPORT', 'SALARY_PAYMENT', 'OTHER',
  ])
  .meta({ id: 'PurposeOfPayment' });
export type PurposeOfPayment = z.infer<typeof PurposeOfPayment>;

const QuoteScaFactor = z.enum(['SMS_OTP', 'PASSKEY'], { message: 'scaFactor must be SMS_OTP or PASSKEY' });

/** Quote states. */
export const QuoteStatus = z
  .enum(['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'])
  .meta({ id: 'QuoteStatus' });
export type QuoteStatus = z.infer<typeof QuoteStatus>;

export const QuoteId = resourceId('Quote').meta({ id: 'QuoteId' });
export const TransactionId = resourceId('Transaction').meta({ id: 'TransactionId' });
export const LookupId = resourceId('Lookup').meta({ id: 'LookupId' });
/**
 * A `lookupId` as a quote request carries it: the id a receiver lookup returned. The reference's own examples also
 * write it `LookupRequest:<uuid>`; that form names the same lookup.
 */
export const LookupIdReference = cappedString(MAX_LENGTH.id)
  .min(1)
  .transform((id) => (id.startsWith('LookupRequest:') ? `Lookup:${id.slice('LookupRequest:'.length)}` : id));

/** Upper bound of `remittanceInformation`. */
export const REMITTANCE_INFORMATION_MAX = 80;

// ---------------------------------------------------------------------------------------------------------------------
// Source and destination

const AccountRef = anyResourceId('InternalAccount', 'ExternalAccount');

const sourceVariants = {
  account: { sourceType: z.literal('ACCOUNT'), accountId: AccountRef, /** FBO funding. */ customerId: CustomerId.optional() },
  realtime: {
    sourceType: z.literal('REALTIME_FUNDING'),
    currency: CurrencyCode,
    /** Without it the platform funds the quote. */
    customerId: CustomerId.optional(),
    cryptoNetwork: CryptoNetwork.optional(),
  },
};
const destinationVariants = {
  account: { destinationType: z.literal('ACCOUNT'), accountId: AccountRef, paymentRail: PaymentRail.optional() },
  uma: { destinationType: z.literal('UMA_ADDRESS'), umaAddress: cappedString(MAX_LENGTH.handle).min(1), currency: CurrencyCode.optional() },
};

/** Where the money of a quote comes from. */
export const QuoteSource = z
  .discriminatedUnion('sourceType', [z.object(sourceVariants.account), z.object(sourceVariants.realtime)])
  .meta({ id: 'QuoteSourceRequest' });
/** Where the money of a quote goes: an account (optionally on a given rail) or an UMA address. */
export const QuoteDestination = z
  .discriminatedUnion('destinationType', [z.object(destinationVariants.account), z.object(destinationVariants.uma)])
  .meta({ id: 'QuoteDestinationRequest' });

// ---------------------------------------------------------------------------------------------------------------------
// Request

/** A per-quote platform fee replacing the standing `feeConfigs` (USD sending currency only). */
export const PlatformFeeOverride = z
  .object({
    platformFixedFee: z.object({ amount: MinorUnits, currency: CurrencyCode }),
    platformVariableFeeBps: z.number().int().min(0).max(10_000),
  })
  .meta({ id: 'PlatformFeeOverride' });

/** `POST /quotes` body. */
export const QuoteRequest = z
  .object({
    source: QuoteSource,
    destination: QuoteDestination,
    lockedCurrencySide: LockedCurrencySide,
    lockedCurrencyAmount: MinorUnits,
    /** Required for UMA destinations: the id returned by the receiver lookup. */
    lookupId: LookupIdReference.optional(),
    immediatelyExecute: z.boolean().default(false),
    description: cappedString(MAX_LENGTH.description).optional(),
    remittanceInformation: cappedString(REMITTANCE_INFORMATION_MAX).optional(),
    purposeOfPayment: PurposeOfPayment.optional(),
    scaFactor: QuoteScaFactor.optional(),
    /** Must cover the lookup's `requiredPayerDataFields`. */
    senderCustomerInfo: z.record(z.string(), z.unknown()).optional(),
    platformFeeOverride: PlatformFeeOverride.optional(),
  })
  .superRefine((value, ctx) => {
    const destination = value.destination as { destinationType?: unknown } | undefined;
    if (destination?.destinationType === 'UMA_ADDRESS' && value.lookupId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['lookupId'], message: 'lookupId is required for UMA destinations', params: { constraint: { required: true } } });
    }
  }, onEveryObject)
  .meta({ id: 'QuoteRequest' });
export type QuoteRequest = z.input<typeof QuoteRequest>;

/** `POST /quotes/{quoteId}/execute` optional body. */
export const QuoteExecuteRequest = z.object({ scaFactor: QuoteScaFactor.optional() }).meta({ id: 'QuoteExecuteRequest' });
export type QuoteExecuteRequest = z.input<typeof QuoteExecuteRequest>;

/** `POST /quotes/{quoteId}/authorize`: an SMS `code`, or a `passkeyAssertion` with its `origin`. */
export const QuoteAuthorizeRequest = ScaResponse.extend({ endUserIpAddress: cappedString(MAX_LENGTH.ipAddress).min(1).optional() })
  .superRefine(requireOneScaAnswer, onEveryObject)
  .meta({ id: 'QuoteAuthorizeRequest' });
export type QuoteAuthorizeRequest = z.input<typeof QuoteAuthorizeRequest>;

// ---------------------------------------------------------------------------------------------------------------------
// Response

/** How the quote was priced: fixed fees off the sending amount first, then the variable rates (docs/payments.md). */
export const RateDetails = z
  .object({
    counterpartyMultiplier: z.number(),
    /** Receiving minor units. */
    counterpartyFixedFee: MinorUnits,
    serviceApiMultiplier: z.number(),
    /** Sending minor units. */
    serviceApiFixedFee: MinorUnits,
    /** A fraction, e.g. 0.001. */
    serviceApiVariableFeeRate: z.number().min(0),
    serviceApiVariableFeeAmount: MinorUnits,
  })
  .meta({ id: 'RateDetails' });
export type RateDetails = z.infer<typeof RateDetails>;

/** A priced payment; `transactionId` exists from creation. */
export const Quote = z
  .object({
    id: QuoteId,
    status: QuoteStatus,
    createdAt: Timestamp,
    expiresAt: Timestamp,
    source: z.discriminatedUnion('sourceType', [z.object(sourceVariants.account), z.object(sourceVariants.realtime)]),
    destination: z.discriminatedUnion('destinationType', [z.object(destinationVariants.account), z.object(destinationVariants.uma)]),
    sendingCurrency: Currency,
    receivingCurrency: Currency,
    totalSendingAmount: MinorUnits,
    totalReceivingAmount: MinorUnits,
    /** Sending units per receiving unit; 1 for same-currency quotes. */
    exchangeRate: z.number().positive(),
    /** Sending minor units, including `platformFeesIncluded`. */
    feesIncluded: MinorUnits,
    platformFeesIncluded: MinorUnits.optional(),
    transactionId: TransactionId,
    description: z.string().optional(),
    /** Absent while PENDING_AUTHORIZATION. */
    paymentInstructions: z.array(PaymentInstructions).optional(),
    counterpartyInformation: z.record(z.string(), z.unknown()).optional(),
    rateDetails: RateDetails.optional(),
    scaChallenge: ScaChallenge.optional(),
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof Quote>;
