import { z } from 'zod';

/**
 * Every error code, grouped by the HTTP status that carries it: exactly the codes of the API (and
 * `FUNDING_SOURCE_INELIGIBLE`, which its cards name), nothing of our own, so a client switching on the
 * documented set knows every code it can get. Where the spec names a situation without a code, the engine answers
 * with the listed code that fits (see docs/errors.md): an unknown route or a resource without a not-found code of its
 * own is 404 `REFERENCE_NOT_FOUND`; a body over the size limit is HTTP's 413 with `INVALID_INPUT`. The standalone server's
 * answers to requests that are not valid HTTP, or not in time, carry HTTP's statuses (408, 417, 431) with listed codes too.
 */
export const ERROR_CODES = {
  400: [
    'INVALID_INPUT', 'END_USER_TERMS_VERSION_NOT_FOUND', 'MISSING_MANDATORY_USER_INFO', 'INVITATION_ALREADY_CLAIMED',
    'INVITATIONS_NOT_CONFIGURED', 'INVALID_UMA_ADDRESS', 'INVITATION_CANCELLED', 'QUOTE_REQUEST_FAILED', 'INVALID_PAYREQ_RESPONSE',
    'INVALID_RECEIVER', 'PARSE_PAYREQ_RESPONSE_ERROR', 'CERT_CHAIN_INVALID', 'CERT_CHAIN_EXPIRED', 'INVALID_PUBKEY_FORMAT',
    'MISSING_REQUIRED_UMA_PARAMETERS', 'SENDER_NOT_ACCEPTED', 'AMOUNT_OUT_OF_RANGE', 'INVALID_CURRENCY', 'INVALID_TIMESTAMP',
    'INVALID_NONCE', 'INVALID_REQUEST_FORMAT', 'INVALID_BANK_ACCOUNT', 'SELF_PAYMENT', 'LOOKUP_REQUEST_FAILED',
    'PARSE_LNURLP_RESPONSE_ERROR', 'INVALID_AMOUNT', 'WEBHOOK_ENDPOINT_NOT_SET', 'WEBHOOK_DELIVERY_ERROR',
    'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
    'STABLECOIN_PROVIDER_ACCOUNT_INVALID', 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED', 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
    'CARDHOLDER_KYC_NOT_APPROVED', 'TRANSACTION_SIZE_LIMIT_EXCEEDED', 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    // Document-rejection reasons (SPEC §7).
    'LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE',
    // REFERENCE §10, §15.
    'FUNDING_SOURCE_INELIGIBLE',
  ],
  401: [
    'UNAUTHORIZED', 'INVALID_SIGNATURE', 'WALLET_SIGNATURE_MISSING', 'WALLET_SIGNATURE_MALFORMED', 'WALLET_SIGNATURE_BODY_MISMATCH',
    'WALLET_SIGNATURE_INVALID', 'REQUEST_ID_MISSING',
  ],
  403: ['FORBIDDEN', 'USER_NOT_READY', 'COUNTERPARTY_NOT_ALLOWED', 'VELOCITY_LIMIT_EXCEEDED', 'END_USER_TERMS_NOT_ACCEPTED'],
  404: [
    'TRANSACTION_NOT_FOUND', 'INVITATION_NOT_FOUND', 'USER_NOT_FOUND', 'QUOTE_NOT_FOUND', 'LOOKUP_REQUEST_NOT_FOUND', 'TOKEN_NOT_FOUND',
    'BULK_UPLOAD_JOB_NOT_FOUND', 'REFERENCE_NOT_FOUND', 'UMA_NOT_FOUND', 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  ],
  405: ['METHOD_NOT_ALLOWED'],
  // HTTP's status for a request that did not arrive in time (headers or body); the spec names no code for it.
  408: ['INVALID_REQUEST_FORMAT'],
  409: [
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'TRANSACTION_NOT_CANCELLABLE', 'UMA_ADDRESS_EXISTS', 'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
    'EMAIL_OTP_CREDENTIAL_SET_CHANGED', 'PASSKEY_ALREADY_ENROLLED', 'SCA_SESSION_REQUIRED', 'BENEFICIARY_TRUSTED',
    'INVALID_STATE_TRANSITION', 'CARD_ALREADY_CLOSED', 'CARD_NOT_MUTABLE', 'CARD_LIMIT_REACHED',
    'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE', 'CONFLICT',
  ],
  410: ['CUSTOMER_DELETED'],
  412: ['UNSUPPORTED_UMA_VERSION'],
  // HTTP's status for a body over the size limit; the spec names no code for it, so it carries the listed INVALID_INPUT.
  413: ['INVALID_INPUT'],
  // HTTP's status for an `Expect` header other than 100-continue; the spec names no code for it.
  417: ['INVALID_REQUEST_FORMAT'],
  422: ['DOCUMENT_REJECTED'],
  423: ['ACCOUNT_LOCKED'],
  424: [
    'PAYREQ_REQUEST_FAILED', 'COUNTERPARTY_PUBKEY_FETCH_ERROR', 'NO_COMPATIBLE_UMA_VERSION', 'LNURLP_REQUEST_FAILED',
    'EMAIL_OTP_CREDENTIAL_SYNC_FAILED',
  ],
  429: ['RATE_LIMITED', 'DAILY_VOLUME_LIMIT_EXCEEDED'],
  // HTTP's status for request headers over the server's size limit, with INVALID_INPUT as a 413 has.
  431: ['INVALID_INPUT'],
  500: ['SERVICE_SWITCH_ERROR', 'INTERNAL_ERROR'],
  501: ['NOT_IMPLEMENTED', 'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY'],
  503: ['SERVICE_UNAVAILABLE'],
} as const;

/** An HTTP status that the API answers with an error body. */
export type ErrorStatus = keyof typeof ERROR_CODES;
/** The error codes a given status can carry, e.g. `ErrorCodeFor<409>`. */
export type ErrorCodeFor<S extends ErrorStatus> = (typeof ERROR_CODES)[S][number];
/** Every error code of the API. */
export type ErrorCode = { [S in ErrorStatus]: ErrorCodeFor<S> }[ErrorStatus];

export const ERROR_STATUSES = Object.keys(ERROR_CODES).map(Number) as ErrorStatus[];
export const ALL_ERROR_CODES = [...new Set(Object.values(ERROR_CODES).flat())] as ErrorCode[];

/** True when `code` is one the spec lists for `status`. */
export const isErrorCodeFor = <S extends ErrorStatus>(status: S, code: string): code is ErrorCodeFor<S> =>
  (ERROR_CODES[status] as readonly string[]).includes(code);

/**
 * What a field failed: optional and additive. `required` and `type` are Railyard's additions
 * for a missing field and a value of the wrong JSON type; `minimum`/`maximum` for numbers.
 */
export const FieldConstraint = z
  .object({
    format: z.string().optional(),
    pattern: z.string().optional(),
    enum: z.array(z.string()).optional(),
    minLength: z.number().int().optional(),
    maxLength: z.number().int().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    required: z.boolean().optional(),
    type: z.string().optional(),
  })
  .meta({ id: 'FieldConstraint' });
export type FieldConstraint = z.infer<typeof FieldConstraint>;

/** One invalid field of a 400 INVALID_INPUT. `field` is a dot path such as `address.country`. */
export const FieldError = z
  .object({ field: z.string(), constraint: FieldConstraint.optional(), message: z.string().optional() })
  .meta({ id: 'FieldError' });
export type FieldError = z.infer<typeof FieldError>;

/** The error object every non-2xx response carries. */
export const ApiErrorBody = z
  .object({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    details: z
      .object({ errors: z.array(FieldError).optional() })
      .catchall(z.unknown())
      .optional(),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
