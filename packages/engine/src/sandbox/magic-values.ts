/**
 * The sandbox's magic values (SPEC §4.6), as data: each table is keyed by the last three characters of a value.
 * Later areas add their tables here, so every magic value lives in this one module.
 */
import { OutgoingFailureReason, PendingReason, Refund, type CustomerInfoFieldName, type ErrorCodeFor, type ResourceType } from '@railyard/contract';
import { z } from 'zod';

/** The last three characters of a value: the key of every table below. */
export const suffixOf = (value: string | undefined): string => (value ?? '').slice(-3);

/** Looks a suffix up in a table with an `other` row. */
export const lookupSuffix = <T>(table: { readonly [suffix: string]: T; readonly other: T }, value: string | undefined): T =>
  table[suffixOf(value)] ?? table.other;

/**
 * Individual KYC (SPEC §4.6), by the last three characters of `fullName`.
 * - `resolvesTo`: the customer's status when it resolves: at creation on regulated or paperwork-skipping platforms.
 * - `onCompletePacket`: what a submission of a complete packet does on an unregulated platform (and, for the customers
 *   that can still be submitted there, on the others): go to manual review, decide after a short review, or report a
 *   poor-quality identity document (cleared by uploading a replacement).
 */
export const INDIVIDUAL_KYC = {
  '001': { resolvesTo: 'PENDING', onCompletePacket: 'MANUAL_REVIEW' },
  '002': { resolvesTo: 'REJECTED', onCompletePacket: 'REJECTED' },
  '003': { resolvesTo: 'UNVERIFIED', onCompletePacket: 'POOR_QUALITY_DOCUMENT' },
  other: { resolvesTo: 'APPROVED', onCompletePacket: 'APPROVED' },
} as const;

/**
 * Business KYB (SPEC §4.6), by the last three characters of `businessInfo.registrationNumber`. Businesses always start
 * UNVERIFIED. `decision`: what a complete packet leads to (001 and 003: no automatic decision, a reviewer decides).
 * `skipsPacketWhenRegulated`: on regulated or paperwork-skipping platforms the first submission resolves at once,
 * without packet validation (and the hosted flow asks for no documents).
 */
export const BUSINESS_KYB = {
  '001': { decision: 'MANUAL_REVIEW', skipsPacketWhenRegulated: false },
  '002': { decision: 'REJECTED', skipsPacketWhenRegulated: true },
  '003': { decision: 'MANUAL_REVIEW', skipsPacketWhenRegulated: false },
  other: { decision: 'APPROVED', skipsPacketWhenRegulated: true },
} as const;

/** Beneficial owners (SPEC §4.6), by the last three characters of `personalInfo.lastName`, applied when the business resolves. */
export const BENEFICIAL_OWNER_KYC = {
  '001': 'PENDING',
  '002': 'REJECTED',
  other: 'APPROVED',
} as const;

/**
 * Applicant screening (Railyard's triggers; SPEC §2.7 names the outcomes, not what causes them), by the WHOLE identifier
 * of an individual or owner (`identifier`) or of a business (`businessInfo.taxId`), compared by its digits only: so
 * `000-00-0901`, `00-0000901` and `000000901` are one trigger. Area and group `000` are never issued, so random valid
 * data does not produce these. They are terminal compliance outcomes: the verification is REJECTED and resubmitting
 * cannot clear them.
 */
export const APPLICANT_SCREENING: Readonly<Record<string, 'APPLICANT_SANCTIONED' | 'APPLICANT_FRAUD' | 'APPLICANT_CRIMINAL_RECORD' | 'APPLICANT_REJECTED'>> = {
  '000000901': 'APPLICANT_SANCTIONED',
  '000000902': 'APPLICANT_FRAUD',
  '000000903': 'APPLICANT_CRIMINAL_RECORD',
  '000000904': 'APPLICANT_REJECTED',
};

/** The screening outcome an identifier triggers, if any (see {@link APPLICANT_SCREENING}). */
export const screeningOutcomeOf = (identifier: string | undefined) =>
  identifier === undefined ? undefined : APPLICANT_SCREENING[identifier.replace(/\D/g, '')];

/** How long an IN_PROGRESS verification takes to be decided, in engine time. */
export const VERIFICATION_REVIEW_MS = 2_000;

// ---------------------------------------------------------------------------------------------------------------------
// Documents

/**
 * Document triggers are keyed on the uploaded file's name: the stem (the name before its last `.extension`), lower-cased,
 * must END with the marker, e.g. `passport_blurry.jpg` or `Utility_Bill_verify_unreadable.PDF`. No marker of either
 * table is a suffix of another, so a name matches at most one.
 */
export const fileStemOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return (dot > 0 ? fileName.slice(0, dot) : fileName).toLowerCase();
};

/** The marker of `table` that the stem of `fileName` ends with, if any. */
export const lookupFileMarker = <T>(table: { readonly [marker: string]: T }, fileName: string): { marker: string; value: T } | undefined => {
  const stem = fileStemOf(fileName);
  const marker = Object.keys(table).find((m) => stem.endsWith(m));
  return marker === undefined ? undefined : { marker, value: table[marker]! };
};

/**
 * Uploads the sandbox REFUSES (nothing is stored): the photo check of SPEC §4.3 (422 DOCUMENT_REJECTED: all four corners,
 * in focus, in color) and one marker per document-rejection reason of SPEC §7 (400 with that code).
 */
export const DOCUMENT_REJECTION_TRIGGERS = {
  _cropped: { status: 422, code: 'DOCUMENT_REJECTED', reason: 'the photo does not show all four corners of the document' },
  _blurry: { status: 422, code: 'DOCUMENT_REJECTED', reason: 'the photo is not in focus' },
  _grayscale: { status: 422, code: 'DOCUMENT_REJECTED', reason: 'the photo is not in color' },
  _reject_low_quality: { status: 400, code: 'LOW_QUALITY', reason: 'the document quality is too low' },
  _reject_mismatch: { status: 400, code: 'DATA_MISMATCH', reason: 'the document details differ from the information provided' },
  _reject_expired: { status: 400, code: 'EXPIRED', reason: 'the document has expired' },
  _reject_fraud: { status: 400, code: 'SUSPECTED_FRAUD', reason: 'the document appears forged or edited' },
  _reject_unsuitable: { status: 400, code: 'UNSUITABLE_DOCUMENT', reason: 'this type of document is not accepted' },
  _reject_incomplete: { status: 400, code: 'INCOMPLETE', reason: 'pages or sides of the document are missing' },
} as const;

/**
 * Uploads the sandbox ACCEPTS (201) but a later verification reports as a document error of that type (SPEC §2.7), until
 * the document is replaced. Stored on the document as `sandboxOutcome`.
 */
export const DOCUMENT_VERIFICATION_TRIGGERS = {
  _verify_invalid: 'INVALID_DOCUMENT',
  _verify_expired: 'EXPIRED_DOCUMENT',
  _verify_poor_quality: 'POOR_QUALITY_DOCUMENT',
  _verify_unreadable: 'UNREADABLE_DOCUMENT',
  _verify_incomplete: 'INCOMPLETE_DOCUMENT',
  _verify_wrong_type: 'WRONG_DOCUMENT_TYPE',
  _verify_fail: 'DOCUMENT_VERIFICATION_FAILED',
  _verify_fraud: 'SUSPECTED_FRAUD_DOCUMENT',
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Contact verification (REFERENCE §13)

/**
 * The one-time code of every contact-verification send (`POST /customers/{id}/verify-email`, `/verify-phone`): always
 * `123456` in the sandbox. Only the code most recently sent to the customer's current contact counts, for 10 minutes.
 */
export { SANDBOX_CONTACT_VERIFICATION_CODE as CONTACT_VERIFICATION_CODE } from '@railyard/contract';

// ---------------------------------------------------------------------------------------------------------------------
// Strong customer authentication (REFERENCE §13)

/** The SMS code of every SCA challenge in the sandbox (trusting a beneficiary, authorizing a payment). */
export const SCA_CODE = '123456';

/** How long a submitted liveness check of an SCA factor reset is in review (PENDING_REVIEW), in engine time. */
export const LIVENESS_REVIEW_MS = 2_000;

// ---------------------------------------------------------------------------------------------------------------------
// Beneficiary name verification (SPEC §2.2, §4.6)

/**
 * The outcome of matching an external account's beneficiary name, by the last three characters of the account's
 * primary identifier ({@link PRIMARY_IDENTIFIER_FIELDS}). `reject` refuses the create with 400 INVALID_BANK_ACCOUNT and
 * stores nothing. `fullName` of `beneficiaryVerifiedData` is the submitted name except on NOT_MATCHED (the bank's
 * holder name differs) and PARTIAL_MATCH (a close variant).
 */
export const BENEFICIARY_VERIFICATION_TRIGGERS = {
  '102': { status: 'NOT_MATCHED' },
  '103': { status: 'PARTIAL_MATCH' },
  '104': { status: 'PENDING' },
  '105': { reject: true },
  '106': { status: 'UNSUPPORTED' },
  '107': { status: 'CHECKED_BY_RECEIVING_FI' },
  other: { status: 'MATCHED' },
} as const;

/**
 * The primary identifier of each accountType, in order of preference (the first present field counts): the field
 * whose suffix drives {@link BENEFICIARY_VERIFICATION_TRIGGERS}. For an identifier with a domain part (an EMAIL pix key,
 * a lightning address, a UPI vpa) only the part before '@' counts. Wallets and Lightning are not name-checked: they
 * carry no bank holder name, so their beneficiaryVerificationStatus is UNSUPPORTED whatever the address.
 */
export const PRIMARY_IDENTIFIER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  AED_ACCOUNT: ['iban'], DKK_ACCOUNT: ['iban'], EUR_ACCOUNT: ['iban'], ILS_ACCOUNT: ['iban', 'accountNumber'],
  EGP_ACCOUNT: ['iban', 'accountNumber', 'phoneNumber'], PKR_ACCOUNT: ['iban', 'accountNumber', 'phoneNumber'],
  BDT_ACCOUNT: ['accountNumber', 'phoneNumber'], CNY_ACCOUNT: ['accountNumber', 'phoneNumber'], GHS_ACCOUNT: ['accountNumber', 'phoneNumber'],
  COP_ACCOUNT: ['accountNumber', 'phoneNumber'], SLV_ACCOUNT: ['accountNumber', 'phoneNumber'],
  BRL_ACCOUNT: ['pixKey'],
  MXN_ACCOUNT: ['clabeNumber'],
  INR_ACCOUNT: ['accountNumber', 'vpa'],
  SWIFT_ACCOUNT: ['iban', 'accountNumber'],
  BWP_ACCOUNT: ['phoneNumber'], HTG_ACCOUNT: ['phoneNumber'], KES_ACCOUNT: ['phoneNumber'], MWK_ACCOUNT: ['phoneNumber'],
  RWF_ACCOUNT: ['phoneNumber'], TZS_ACCOUNT: ['phoneNumber'], UGX_ACCOUNT: ['phoneNumber'], XAF_ACCOUNT: ['phoneNumber'],
  XOF_ACCOUNT: ['phoneNumber'], ZMW_ACCOUNT: ['phoneNumber'],
  // Every other fiat type (USD, GBP, CAD, NGN, …): accountNumber.
};

/** The accountTypes that are never name-checked (always UNSUPPORTED): wallets and Lightning. */
export const UNCHECKED_BENEFICIARY_TYPES = [
  'BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET', 'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET', 'LIGHTNING', 'LIGHTNING_ACCOUNT',
] as const;

// ---------------------------------------------------------------------------------------------------------------------
// Transfers (SPEC §4.6)

/**
 * How the sandbox settles a payment once it is PROCESSING. `afterMs` is on the engine clock (0: right after the
 * request that started it). `COMPLETE_THEN_RETURN` completes at `afterMs`, then the receiving bank returns the money
 * `returnAfterMs` later (FAILED with PAYOUT_RETURNED). A failure refunds the source, unless `refund` is FAILED (the
 * money is parked in the sandbox's suspense account). `pendingReason` says why the payment waits while PROCESSING
 * (SPEC §2.9), cleared when it settles. A schema, since payments keep their outcome in snapshots.
 */
export const SettlementOutcome = z.object({
  settle: z.enum(['COMPLETE', 'FAIL', 'COMPLETE_THEN_RETURN']),
  afterMs: z.number().int().min(0),
  failureReason: OutgoingFailureReason.optional(),
  pendingReason: PendingReason.optional(),
  refund: z.enum(['COMPLETED', 'FAILED']).optional(),
  refundReason: Refund.shape.reason,
  returnAfterMs: z.number().int().min(0).optional(),
});
export type SettlementOutcome = Readonly<z.infer<typeof SettlementOutcome>>;

const SETTLES_AT_ONCE: SettlementOutcome = { settle: 'COMPLETE', afterMs: 0 };

/**
 * External accounts as source or destination, by the last three characters of the primary identifier (the first §4.6
 * table). Applies to pulls from external accounts and to same-currency payouts.
 */
export const TRANSFER_OUTCOMES = {
  '002': { settle: 'FAIL', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED' }, // insufficient funds
  '003': { settle: 'FAIL', afterMs: 0, failureReason: 'ACCOUNT_INVALID' }, // account closed or invalid
  '004': { settle: 'FAIL', afterMs: 0, failureReason: 'ACCOUNT_CANNOT_RECEIVE' }, // rejected by the bank
  '005': { settle: 'FAIL', afterMs: 30_000, failureReason: 'QUOTE_EXECUTION_FAILED' }, // pending about 30 s, then fails
  other: SETTLES_AT_ONCE,
} as const satisfies Record<string, SettlementOutcome>;

/** Cross-currency quotes to an external account, by the destination's primary identifier (the second §4.6 table). */
export const CROSS_CURRENCY_DESTINATION_OUTCOMES = {
  '002': { settle: 'FAIL', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED' },
  '003': { settle: 'COMPLETE', afterMs: 6 * 60_000 }, // completes after about 6 minutes
  '004': { settle: 'FAIL', afterMs: 0, failureReason: 'ACCOUNT_CANNOT_RECEIVE' }, // counterparty delivery failed
  '005': { settle: 'COMPLETE_THEN_RETURN', afterMs: 0, returnAfterMs: 60_000, failureReason: 'PAYOUT_RETURNED' },
  '006': { settle: 'FAIL', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED', refundReason: 'USER_CANCELLATION' },
  '007': { settle: 'FAIL', afterMs: 0, failureReason: 'QUOTE_EXECUTION_FAILED', refund: 'FAILED' }, // payout and refund failed
  other: SETTLES_AT_ONCE,
} as const satisfies Record<string, SettlementOutcome>;

/** Payments between the service's own accounts settle at once. */
export const INTERNAL_TRANSFER_OUTCOME: SettlementOutcome = SETTLES_AT_ONCE;

// ---------------------------------------------------------------------------------------------------------------------
// UMA receivers (SPEC §4.6; REFERENCE §13)

/** The sandbox's own UMA domain: its receivers live here. */
export const SANDBOX_UMA_DOMAIN = 'uma.sandbox.railyard.dev';

/**
 * The domains the sandbox receivers answer on: ours, and the reference's documented sandbox domain, so code and tests
 * copied from the reference's sandbox guide (`$success.usd@sandbox.uma.money`) run unchanged.
 */
export const SANDBOX_UMA_DOMAINS = [SANDBOX_UMA_DOMAIN, 'sandbox.uma.money'] as const;

/**
 * Sandbox UMA receivers at each of {@link SANDBOX_UMA_DOMAINS}, by the handle before `.<currency>`: `$success.usd` succeeds,
 * `$pending.long.eur` stays PROCESSING (pendingReason COMPLIANCE_REVIEW) for a day of engine time, `$fail.compliance.mxn`
 * fails a compliance check (and the sender is refunded). The currency part names the one currency the receiver accepts.
 * As senders of an incoming payment (`POST /sandbox/uma/receive`), a `$fail.compliance.*` address also cannot take
 * a refund back: an incoming payment from it that the platform rejects ends INCOMING_PAYMENT.REFUND_FAILED.
 */
export const UMA_RECEIVERS: Readonly<Record<string, SettlementOutcome>> = {
  success: SETTLES_AT_ONCE,
  'pending.long': { settle: 'COMPLETE', afterMs: 24 * 60 * 60_000, pendingReason: 'COMPLIANCE_REVIEW' },
  'fail.compliance': { settle: 'FAIL', afterMs: 0, failureReason: 'COMPLIANCE_REJECTED' },
};

/** The statuses a counterparty failure can answer with. */
type CounterpartyFailureStatus = 400 | 403 | 412 | 424 | 501;

/**
 * How a sandbox counterparty refuses: at which step of the UMA exchange (`lookup`: the receiver lookup, where the
 * counterparty's LNURLP answer, keys, certificates and protocol version are fetched and checked; `quote`: the payment
 * request of `POST /quotes`), with which status and code, and what the counterparty did (for the error message).
 * `failsOnce`: only the first quote of each lookup fails; a retry with the same lookup succeeds.
 */
export type CounterpartyFailure = {
  [S in CounterpartyFailureStatus]: { step: 'lookup' | 'quote'; status: S; code: ErrorCodeFor<S>; behaviour: string; failsOnce?: boolean };
}[CounterpartyFailureStatus];

/**
 * Sandbox UMA receivers that fail (Railyard's triggers: the reference names the codes, not what causes them), at each
 * of {@link SANDBOX_UMA_DOMAINS}, by the handle before `.<currency>`: `$fail.lnurlp.usd@uma.sandbox.railyard.dev`.
 * A `lookup` failure answers the receiver lookup, and a quote naming the address (whatever its `lookupId`) too, since a
 * quote contacts the counterparty again; a `quote` failure looks up fine and refuses the quote. Nothing is created
 * and no money moves, except that a `failsOnce` receiver remembers, on its lookup, that the first quote failed.
 */
export const UMA_COUNTERPARTY_FAILURES = {
  'fail.lnurlp': { step: 'lookup', status: 424, code: 'LNURLP_REQUEST_FAILED', behaviour: 'does not answer the LNURLP request' },
  'fail.lnurlp.parse': { step: 'lookup', status: 400, code: 'PARSE_LNURLP_RESPONSE_ERROR', behaviour: 'answers the LNURLP request with a body that cannot be parsed' },
  'fail.lookup': { step: 'lookup', status: 400, code: 'LOOKUP_REQUEST_FAILED', behaviour: 'refuses the lookup request' },
  'fail.uma.params': { step: 'lookup', status: 400, code: 'MISSING_REQUIRED_UMA_PARAMETERS', behaviour: 'answers the LNURLP request without the UMA parameters' },
  'fail.version.unsupported': { step: 'lookup', status: 412, code: 'UNSUPPORTED_UMA_VERSION', behaviour: 'speaks an UMA protocol version this service does not support' },
  'fail.version.none': { step: 'lookup', status: 424, code: 'NO_COMPATIBLE_UMA_VERSION', behaviour: 'shares no UMA protocol major version with this service' },
  'fail.pubkey.fetch': { step: 'lookup', status: 424, code: 'COUNTERPARTY_PUBKEY_FETCH_ERROR', behaviour: 'does not serve its public keys' },
  'fail.pubkey.format': { step: 'lookup', status: 400, code: 'INVALID_PUBKEY_FORMAT', behaviour: 'serves public keys that cannot be parsed' },
  'fail.cert.invalid': { step: 'lookup', status: 400, code: 'CERT_CHAIN_INVALID', behaviour: 'serves a certificate chain that does not verify' },
  'fail.cert.expired': { step: 'lookup', status: 400, code: 'CERT_CHAIN_EXPIRED', behaviour: 'serves an expired certificate chain' },
  'fail.timestamp': { step: 'lookup', status: 400, code: 'INVALID_TIMESTAMP', behaviour: 'signs its answer with a timestamp outside the accepted window' },
  'fail.nonce': { step: 'lookup', status: 400, code: 'INVALID_NONCE', behaviour: 'signs its answer with a nonce it already used' },
  'fail.payreq': { step: 'quote', status: 424, code: 'PAYREQ_REQUEST_FAILED', behaviour: 'does not answer the payment request' },
  'fail.payreq.parse': { step: 'quote', status: 400, code: 'PARSE_PAYREQ_RESPONSE_ERROR', behaviour: 'answers the payment request with a body that cannot be parsed' },
  'fail.payreq.invalid': { step: 'quote', status: 400, code: 'INVALID_PAYREQ_RESPONSE', behaviour: 'answers the payment request with an invalid invoice' },
  'fail.receiver': { step: 'quote', status: 400, code: 'INVALID_RECEIVER', behaviour: 'reports that the receiver cannot take payments' },
  'fail.sender': { step: 'quote', status: 400, code: 'SENDER_NOT_ACCEPTED', behaviour: 'does not accept payments from this sender' },
  'fail.not.allowed': { step: 'quote', status: 403, code: 'COUNTERPARTY_NOT_ALLOWED', behaviour: 'is not enabled as a counterparty of this platform' },
  'fail.velocity': { step: 'quote', status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', behaviour: 'has reached its velocity limit with this platform' },
  'fail.payee.data': { step: 'quote', status: 501, code: 'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY', behaviour: 'asks for a mandatory payee data key this service does not know' },
  'fail.quote.once': { step: 'quote', status: 400, code: 'QUOTE_REQUEST_FAILED', behaviour: 'fails the first quote of each lookup (retry it)', failsOnce: true },
} as const satisfies Record<string, CounterpartyFailure>;

/**
 * Sandbox UMA receivers that ask for payer data, by handle: the lookup lists these `requiredPayerDataFields`, and a
 * quote whose payer lacks a mandatory one (neither in the quote's `senderCustomerInfo` nor on the paying customer)
 * fails with 400 MISSING_MANDATORY_USER_INFO. Paid, they settle at once.
 */
export const UMA_PAYER_DATA_RECEIVERS: Readonly<Record<string, readonly { name: CustomerInfoFieldName; mandatory: boolean }[]>> = {
  'payer.data': [{ name: 'BIRTH_DATE', mandatory: true }, { name: 'NATIONALITY', mandatory: false }],
};

/** A sandbox receiver: its handle, the one currency it accepts, how a payment to it settles, and how it fails or what it asks for. */
export interface SandboxReceiver {
  readonly handle: string;
  readonly currency: string;
  readonly outcome: SettlementOutcome;
  readonly failure?: CounterpartyFailure;
  readonly requiredPayerDataFields?: readonly { name: CustomerInfoFieldName; mandatory: boolean }[];
}

/** Every sandbox receiver handle (each table's keys), for documentation checks. */
export const SANDBOX_RECEIVER_HANDLES = [...Object.keys(UMA_RECEIVERS), ...Object.keys(UMA_COUNTERPARTY_FAILURES), ...Object.keys(UMA_PAYER_DATA_RECEIVERS)];

/** The receiver a handle names in one of the tables above, if any. */
function receiverOfHandle(handle: string): Omit<SandboxReceiver, 'handle' | 'currency'> | undefined {
  if (Object.hasOwn(UMA_RECEIVERS, handle)) return { outcome: UMA_RECEIVERS[handle]! };
  if (Object.hasOwn(UMA_COUNTERPARTY_FAILURES, handle)) {
    return { outcome: SETTLES_AT_ONCE, failure: UMA_COUNTERPARTY_FAILURES[handle as keyof typeof UMA_COUNTERPARTY_FAILURES] };
  }
  if (Object.hasOwn(UMA_PAYER_DATA_RECEIVERS, handle)) return { outcome: SETTLES_AT_ONCE, requiredPayerDataFields: UMA_PAYER_DATA_RECEIVERS[handle]! };
  return undefined;
}

/**
 * The sandbox receiver an UMA address names (`$<handle>.<currency>@<sandbox domain>`), if it is one: its handle in
 * {@link UMA_RECEIVERS}, {@link UMA_COUNTERPARTY_FAILURES} or {@link UMA_PAYER_DATA_RECEIVERS}, and the currency part
 * (upper case). Lower-case canonical addresses only.
 */
export function sandboxReceiverOf(address: string): SandboxReceiver | undefined {
  const [user = '', domain = ''] = address.slice(1).split('@');
  if (!address.startsWith('$') || !(SANDBOX_UMA_DOMAINS as readonly string[]).includes(domain)) return undefined;
  const dot = user.lastIndexOf('.');
  const handle = user.slice(0, dot);
  const receiver = dot > 0 ? receiverOfHandle(handle) : undefined;
  return receiver && { handle, currency: user.slice(dot + 1).toUpperCase(), ...receiver };
}

/** Whether money sent back to `address` fails: a `$fail.compliance.*` sandbox counterparty takes no refund. */
export const refundFailsTo = (address: string | undefined): boolean =>
  address !== undefined && sandboxReceiverOf(address.toLowerCase())?.handle === 'fail.compliance';

// ---------------------------------------------------------------------------------------------------------------------
// Embedded-wallet authentication (SPEC §4.6; REFERENCE §13)

/** The one-time code every wallet OTP challenge sends (still HPKE-encrypted by the client). */
export const WALLET_OTP_CODE = '000000';

/** Legacy literals (REFERENCE §13): the first two are still accepted, the third no longer. */
export const LEGACY_WALLET_SIGNATURE = 'sandbox-valid-signature';
export const LEGACY_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';
export const LEGACY_OIDC_TOKEN = 'sandbox-valid-oidc-token';

// ---------------------------------------------------------------------------------------------------------------------
// Cards (REFERENCE §13, §16)

/**
 * Card issuance, by the last three characters of `platformCardId` (of `cardholderId` when none is given). The card is
 * PROCESSING when created; then the issuer provisions it (`ACTIVE`, `afterMs` later on the engine clock; 0: right after
 * the create), rejects it (`REJECTED`: CLOSED with stateReason ISSUER_REJECTED), or never answers (`PENDING`). The
 * card's `last4` is `0` and the three characters (a non-digit character counts as its character code modulo 10).
 */
export const CARD_ISSUANCE = {
  '001': { outcome: 'PENDING', afterMs: 0 },
  '002': { outcome: 'REJECTED', afterMs: 0 },
  '005': { outcome: 'ACTIVE', afterMs: 30_000 },
  other: { outcome: 'ACTIVE', afterMs: 0 },
} as const satisfies Record<string, { outcome: 'ACTIVE' | 'REJECTED' | 'PENDING'; afterMs: number }>;

/** Funding sources the sandbox issuer refuses (400 FUNDING_SOURCE_INELIGIBLE), by the last three characters of the account id. */
export const FUNDING_SOURCE_TRIGGERS: Readonly<Record<string, string>> = {
  '002': 'the balance check of the funding source failed',
  '003': 'the funding source is closed',
};

/**
 * What the card network does with an authorization-family simulation, by the last three characters of
 * `merchant.descriptor`: decline (`INSUFFICIENT_FUNDS`, `CARD_PAUSED`), pull the funds `pullAfterMs` later (the pull
 * is PENDING meanwhile), or pull and then have the pull's confirmation fail (`pullFails`: the transaction is EXCEPTION).
 * Declines apply to every body-A simulation; pulls exist for purchases only (credits pull nothing).
 */
export const CARD_MERCHANT_TRIGGERS = {
  '002': { decline: 'INSUFFICIENT_FUNDS' },
  '003': { decline: 'CARD_PAUSED' },
  '005': { pullAfterMs: 30_000 },
  '006': { pullFails: true },
  other: {},
} as const satisfies Record<string, { decline?: 'INSUFFICIENT_FUNDS' | 'CARD_PAUSED'; pullAfterMs?: number; pullFails?: boolean }>;

// ---------------------------------------------------------------------------------------------------------------------
// Stablecoins (Railyard's triggers: the reference names the outcomes, not what causes them)

/**
 * Linking a provider account, by the last three characters of `apiClientId`: the provider refuses the credentials
 * (400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, nothing stored), or they reach several provider accounts, so
 * `providerAccountId` must name one (400 INVALID_INPUT when it does not).
 */
export const STABLECOIN_LINK_TRIGGERS = {
  '002': 'CREDENTIALS_REFUSED',
  '003': 'SEVERAL_ACCOUNTS',
} as const;

/**
 * A registered stablecoin's review and provisioning, by the last three characters of `providerTokenIdentifier`: it is
 * REJECTED at review, or FAILED at provisioning; any other is PROVISIONED. Review takes {@link STABLECOIN_REVIEW_MS}
 * of engine time, provisioning {@link STABLECOIN_PROVISIONING_MS}.
 */
export const STABLECOIN_ISSUANCE = {
  '002': 'REJECTED',
  '003': 'FAILED',
  other: 'PROVISIONED',
} as const;
export const STABLECOIN_REVIEW_MS = 60_000;
export const STABLECOIN_PROVISIONING_MS = 5 * 60_000;

/**
 * How long each step of a mint or burn takes on the engine clock: the provider's own step (PENDING_PROVIDER to
 * PROCESSING), a bank debit by rail (ACH, same-day ACH), a redemption payout by rail, and the deadline for external
 * funding (a wire, or tokens sent to the deposit address), after which the operation is EXPIRED.
 */
export const STABLECOIN_TIMINGS = {
  providerMs: 30_000,
  mintingMs: 30_000,
  debitMs: { ACH_DEBIT: 24 * 3_600_000, SAME_DAY_ACH_DEBIT: 3_600_000 },
  payoutMs: { WIRE: 3_600_000, ACH_CREDIT: 24 * 3_600_000, SAME_DAY_ACH_CREDIT: 3_600_000, RTP_CREDIT: 30_000 },
  fundingWindowMs: 24 * 3_600_000,
} as const;

/**
 * Endings the engine's own id generators never give an id of these types: the ones the tables above read from a
 * generated id (a card's cardholder, a funding account). A trigger is then always deliberate (a `platformCardId`, an
 * account restored from an edited snapshot, an injected id generator), never a random id's bad luck.
 */
export const RESERVED_ID_ENDINGS: Readonly<Partial<Record<ResourceType, ReadonlySet<string>>>> = {
  Customer: new Set(Object.keys(CARD_ISSUANCE).filter((suffix) => suffix !== 'other')),
  InternalAccount: new Set(Object.keys(FUNDING_SOURCE_TRIGGERS)),
};

/** An authorization not settled in full this long after it was approved expires: what is still held goes back. */
export const CARD_AUTHORIZATION_TTL_MS = 7 * 24 * 3_600_000;

// ---------------------------------------------------------------------------------------------------------------------
// Failures of the service's own dependencies (Railyard's triggers: the reference names these errors, not their causes)

/**
 * A new customer email whose local part (before '@') ends with this marker, e.g. `ada+otp_sync_fail@example.com`: the
 * signed change reaches the wallet provider, which cannot move the tied EMAIL_OTP credentials to it, so the customer
 * PATCH is refused with 424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED and the email stays as it was.
 */
export const OTP_SYNC_FAILURE_MARKER = '+otp_sync_fail';

/** Whether `email`'s local part ends with {@link OTP_SYNC_FAILURE_MARKER}. */
export const failsOtpSync = (email: string): boolean => email.slice(0, email.lastIndexOf('@')).toLowerCase().endsWith(OTP_SYNC_FAILURE_MARKER);

/**
 * Deliberate server errors, by the WHOLE `description` of a quote request that would otherwise be created: the payment
 * switch fails (500 SERVICE_SWITCH_ERROR), or the service fails inside (500 INTERNAL_ERROR). Nothing is stored. They
 * exist so an integration can rehearse its handling of a 500; no other request of the sandbox answers one on purpose.
 */
export const SERVER_ERROR_TRIGGERS = {
  'sandbox:switch-error': 'SERVICE_SWITCH_ERROR',
  'sandbox:internal-error': 'INTERNAL_ERROR',
} as const;
