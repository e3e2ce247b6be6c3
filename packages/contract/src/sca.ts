import { z } from 'zod';
import { PasskeyAssertion } from './auth.js';
import { IdParam, MAX_LENGTH, Timestamp, cappedString, onEveryObject } from './common.js';
import { defineEndpoint } from './endpoint.js';

// Strong customer authentication (SPEC §5 item 7; REFERENCE §9): challenges, the answers to them, and the trusted-beneficiary
// operations that need them. Quotes use the same challenge (quotes.ts).

/** SCA factors. A quote may ask for SMS_OTP (default) or PASSKEY; TOTP exists only as an enrolled login factor. */
export const ScaFactor = z.enum(['SMS_OTP', 'PASSKEY', 'TOTP']).meta({ id: 'ScaFactor' });
export type ScaFactor = z.infer<typeof ScaFactor>;

/** A strong-customer-authentication step; several may come in sequence. */
export const ScaChallenge = z
  .object({
    id: z.string(),
    expiresAt: Timestamp,
    factor: ScaFactor,
    availableFactors: z.array(ScaFactor),
    /** Open set: CURRENCY_CONVERSION, PAYOUT, TRANSFER, TRUST_BENEFICIARY, UNTRUST_BENEFICIARY. */
    purpose: z.string().nullable().optional(),
    passkeyAssertionOptions: z.record(z.string(), z.unknown()).nullable().optional(),
    passkeyAllowedOrigins: z.array(z.string()).nullable().optional(),
  })
  .meta({ id: 'ScaChallenge' });
export type ScaChallenge = z.infer<typeof ScaChallenge>;

/** The answer to an SCA challenge: an SMS `code`, or a `passkeyAssertion` with its `origin` (exactly one). */
export const ScaResponse = z.object({
  code: cappedString(MAX_LENGTH.id).min(1).optional(),
  passkeyAssertion: PasskeyAssertion.optional(),
  origin: cappedString(MAX_LENGTH.url).min(1).optional(),
});

/** Refinement of every SCA answer: exactly one of `code` or `passkeyAssertion`, and `origin` with a passkey. */
export function requireOneScaAnswer(value: { code?: unknown; passkeyAssertion?: unknown; origin?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof value !== 'object' || value === null) return;
  const hasCode = value.code !== undefined;
  const hasPasskey = value.passkeyAssertion !== undefined;
  if (hasCode === hasPasskey) {
    ctx.addIssue({ code: 'custom', path: hasCode ? ['passkeyAssertion'] : ['code'], message: 'exactly one of code or passkeyAssertion is required' });
  } else if (hasPasskey && value.origin === undefined) {
    ctx.addIssue({ code: 'custom', path: ['origin'], message: 'origin is required with passkeyAssertion', params: { constraint: { required: true } } });
  }
}

/** `POST .../trust/confirm` and `.../untrust/confirm`: the answer, optionally naming the challenge it answers. */
export const BeneficiaryTrustConfirmRequest = ScaResponse.extend({ challengeId: cappedString(MAX_LENGTH.id).min(1).optional() })
  // `when`: also report a missing answer alongside other invalid fields, so every invalid field is listed at once.
  .superRefine(requireOneScaAnswer, onEveryObject)
  .meta({ id: 'BeneficiaryTrustConfirmRequest' });
export type BeneficiaryTrustConfirmRequest = z.input<typeof BeneficiaryTrustConfirmRequest>;

/** `POST .../trust` and `.../untrust`: the challenge the customer must answer before the change applies. */
export const BeneficiaryTrustChallenge = z.object({ scaChallenge: ScaChallenge.optional() }).meta({ id: 'BeneficiaryTrustChallenge' });
export type BeneficiaryTrustChallenge = z.infer<typeof BeneficiaryTrustChallenge>;

/** The account's trust after a confirmed change. */
export const BeneficiaryTrust = z.object({ trusted: z.boolean() }).meta({ id: 'BeneficiaryTrust' });
export type BeneficiaryTrust = z.infer<typeof BeneficiaryTrust>;

const tag = 'External accounts';
const params = z.object({ externalAccountId: IdParam });
type TrustChange = 'trust' | 'untrust';

const start = (change: TrustChange) =>
  defineEndpoint({
    operationId: `${change}ExternalAccount` as const, method: 'POST', path: `/customers/external-accounts/{externalAccountId}/${change}` as const, tag, params,
    summary: change === 'trust' ? 'Start trusting a beneficiary (needs strong customer authentication)' : 'Start removing a trusted beneficiary',
    description:
      'Only for customers in an SCA region (409 otherwise). Returns the SCA challenge to answer at ' +
      `\`.../${change}/confirm\`; nothing changes until then. A locked customer gets 423 ACCOUNT_LOCKED.`,
    response: { status: 200, description: 'The challenge to answer', schema: BeneficiaryTrustChallenge },
    errors: [409, 423],
  });

const confirm = (change: TrustChange) =>
  defineEndpoint({
    operationId: `confirm${change === 'trust' ? 'Trust' : 'Untrust'}ExternalAccount` as const, method: 'POST',
    path: `/customers/external-accounts/{externalAccountId}/${change}/confirm` as const, tag, params, body: BeneficiaryTrustConfirmRequest,
    summary: change === 'trust' ? 'Answer the trust challenge' : 'Answer the untrust challenge',
    description:
      (change === 'trust'
        ? 'Once trusted, payments from the customer to this account need no per-payment SCA challenge. '
        : 'Once untrusted, payments to this account are challenged again. ') +
      'A wrong code is 400 and counts towards the lockout (5 failures lock for 15 minutes, then longer; 9 suspend). ' +
      'No outstanding challenge, or an expired one: 409.',
    response: { status: 200, description: 'The trust now in force', schema: BeneficiaryTrust },
    errors: [409, 423],
  });

/**
 * Trusted-beneficiary operations. A trusted account cannot be deleted (409 BENEFICIARY_TRUSTED), and the customer's
 * payments to it are sent without the per-payment SCA challenge until it is untrusted.
 */
export const beneficiaryTrustEndpoints = {
  trustExternalAccount: start('trust'),
  confirmTrustExternalAccount: confirm('trust'),
  untrustExternalAccount: start('untrust'),
  confirmUntrustExternalAccount: confirm('untrust'),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// SCA login (REFERENCE §9): a session of 180 days that quote authorization needs.

/** How long an SCA login session lasts. */
export const SCA_SESSION_DAYS = 180;

/** Query of the SCA login calls: the customer logging in. */
export const ScaCustomerQuery = z.object({ customerId: IdParam });

/** `POST /sca/login/start`: which factor to log in with: SMS_OTP, or an enrolled TOTP or PASSKEY. */
export const ScaLoginStartRequest = z.object({ factor: ScaFactor }).meta({ id: 'ScaLoginStartRequest' });
export const ScaLoginStart = z
  .object({
    factor: ScaFactor,
    challengeId: z.string().optional(),
    expiresAt: Timestamp.optional(),
    /** PASSKEY: WebAuthn request options to pass to the device, the origins it may answer from, and the RP ID. */
    passkeyOptions: z.record(z.string(), z.unknown()).optional(),
    allowedOrigins: z.array(z.string()).optional(),
    relyingPartyId: z.string().optional(),
  })
  .meta({ id: 'ScaLoginStart' });
export type ScaLoginStart = z.infer<typeof ScaLoginStart>;

/** `POST /sca/login/complete`: the answer to the login challenge. */
export const ScaLoginCompleteRequest = ScaResponse.extend({
  factor: ScaFactor,
  endUserIpAddress: cappedString(MAX_LENGTH.ipAddress).min(1),
  challengeId: cappedString(MAX_LENGTH.id).min(1).optional(),
})
  .superRefine(requireOneScaAnswer, onEveryObject)
  .meta({ id: 'ScaLoginCompleteRequest' });
export type ScaLoginCompleteRequest = z.input<typeof ScaLoginCompleteRequest>;
export const ScaLoginComplete = z
  .object({ status: z.enum(['SUCCESS']), sessionExpiresAt: Timestamp.optional() })
  .meta({ id: 'ScaLoginComplete' });
export type ScaLoginComplete = z.infer<typeof ScaLoginComplete>;

const scaTag = 'Strong customer authentication';
export const scaLoginEndpoints = {
  startScaLogin: defineEndpoint({
    operationId: 'startScaLogin', method: 'POST', path: '/sca/login/start', tag: scaTag, query: ScaCustomerQuery, body: ScaLoginStartRequest,
    summary: 'Start an SCA login: SMS_OTP sends a code (sandbox code 123456); TOTP needs nothing; PASSKEY answers WebAuthn request options',
    description: 'Only for customers in an SCA region (409 otherwise, and for a TOTP or PASSKEY not enrolled); 423 ACCOUNT_LOCKED while locked.',
    response: { status: 200, description: 'The login challenge', schema: ScaLoginStart },
    errors: [409, 423],
  }),
  completeScaLogin: defineEndpoint({
    operationId: 'completeScaLogin', method: 'POST', path: '/sca/login/complete', tag: scaTag, query: ScaCustomerQuery, body: ScaLoginCompleteRequest,
    summary: 'Answer the SCA login challenge: opens a login session of 180 days',
    description: 'A wrong code is 400 and counts towards the lockout (423 with lockedUntil, failedAttempts, suspended).',
    response: { status: 200, description: 'The session', schema: ScaLoginComplete },
    errors: [409, 423],
  }),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// SCA factors, security events and factor reset (REFERENCE §22). Every operation takes the `customerId` query.

/** The factors a customer can enrol: SMS_OTP is never enrolled (it uses the verified phone). */
export const ScaEnrollableFactor = z.enum(['TOTP', 'PASSKEY']).meta({ id: 'ScaEnrollableFactor' });
export type ScaEnrollableFactor = z.infer<typeof ScaEnrollableFactor>;

/** One factor the customer can authenticate with; only passkeys carry a `credentialId` (and only they can be deleted). */
export const ScaFactorEntry = z
  .object({ factor: ScaFactor, credentialId: z.string().optional(), name: z.string().optional() })
  .meta({ id: 'ScaFactorEntry' });
export type ScaFactorEntry = z.infer<typeof ScaFactorEntry>;
export const ScaFactorList = z.object({ factors: z.array(ScaFactorEntry) }).meta({ id: 'ScaFactorList' });
export type ScaFactorList = z.infer<typeof ScaFactorList>;

/** `POST /sca/factors`: the factor to enrol. */
export const ScaFactorEnrollmentRequest = z.object({ type: ScaEnrollableFactor }).meta({ id: 'ScaFactorEnrollmentRequest' });
export type ScaFactorEnrollmentRequest = z.input<typeof ScaFactorEnrollmentRequest>;

/** A TOTP enrolment: the shared secret as issued, base32-encoded, and as an `otpauth://totp/` URI for authenticator apps. */
export const TotpEnrollment = z
  .object({ type: z.literal('TOTP'), secret: z.string(), secretBase32Encoded: z.string(), totpUri: z.string() })
  .meta({ id: 'TotpEnrollment' });
/** A passkey enrolment: WebAuthn creation options to pass to the device unmodified, and where it may be created. */
export const PasskeyEnrollment = z
  .object({
    type: z.literal('PASSKEY'),
    options: z.record(z.string(), z.unknown()),
    allowedOrigins: z.array(z.string()),
    relyingPartyId: z.string(),
  })
  .meta({ id: 'PasskeyEnrollment' });
export const ScaFactorEnrollment = z.discriminatedUnion('type', [TotpEnrollment, PasskeyEnrollment]).meta({ id: 'ScaFactorEnrollment' });
export type ScaFactorEnrollment = z.infer<typeof ScaFactorEnrollment>;

/** What `navigator.credentials.create` returns, as JSON (`PublicKeyCredential.toJSON()`): binary fields base64url. */
export const WebAuthnRegistrationResponse = z
  .object({
    id: cappedString(MAX_LENGTH.encoded).min(1),
    rawId: cappedString(MAX_LENGTH.encoded).min(1),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: cappedString(MAX_LENGTH.encoded).min(1),
      attestationObject: cappedString(MAX_LENGTH.encoded).min(1),
      transports: z.array(cappedString(MAX_LENGTH.id)).optional(),
    }),
    /** Not read: the sandbox asks for no extensions. */
    clientExtensionResults: z.unknown().optional(),
    authenticatorAttachment: cappedString(MAX_LENGTH.id).optional(),
  })
  .meta({ id: 'WebAuthnRegistrationResponse' });

/** `POST /sca/factors/confirm`: the proof, tied to its start by the echoed `secret` (TOTP) or the signed challenge (PASSKEY). */
export const ScaFactorConfirmRequest = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TOTP'), secret: cappedString(MAX_LENGTH.id).min(1), code: cappedString(MAX_LENGTH.id).min(1) }),
    z.object({ type: z.literal('PASSKEY'), origin: cappedString(MAX_LENGTH.url).min(1), credential: WebAuthnRegistrationResponse }),
  ])
  .meta({ id: 'ScaFactorConfirmRequest' });
export type ScaFactorConfirmRequest = z.input<typeof ScaFactorConfirmRequest>;
export const ScaFactorConfirmation = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TOTP'), recoveryCodes: z.array(z.string()) }),
    z.object({ type: z.literal('PASSKEY'), factor: ScaFactorEntry }),
  ])
  .meta({ id: 'ScaFactorConfirmation' });
export type ScaFactorConfirmation = z.infer<typeof ScaFactorConfirmation>;

/** Security events the platform reports for a customer. */
export const SecurityEventType = z.enum(['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT']).meta({ id: 'SecurityEventType' });
export const SecurityEventRequest = z.object({ eventType: SecurityEventType }).meta({ id: 'SecurityEventRequest' });
export type SecurityEventRequest = z.input<typeof SecurityEventRequest>;
/** The customer's lockout after the event: `lockedUntil` is null when unlocked, and also while suspended. */
export const SecurityEventResult = z
  .object({ eventType: SecurityEventType, suspended: z.boolean(), lockedUntil: Timestamp.nullable(), failedAttempts: z.number().int() })
  .meta({ id: 'SecurityEventResult' });
export type SecurityEventResult = z.infer<typeof SecurityEventResult>;

/** `POST /sca/factors/reset`: the factor the customer lost. */
export const TwoFactorResetRequest = z.object({ factor: ScaFactor }).meta({ id: 'TwoFactorResetRequest' });
export type TwoFactorResetRequest = z.input<typeof TwoFactorResetRequest>;
export const TwoFactorResetStart = z
  .object({ resetId: z.string(), livenessAccessToken: z.string().optional(), verificationLink: z.string().optional(), expiresAt: Timestamp.optional() })
  .meta({ id: 'TwoFactorResetStart' });
export type TwoFactorResetStart = z.infer<typeof TwoFactorResetStart>;
/** Where a reset stands: INITIATED, PENDING_REVIEW, LIVENESS_PASSED, then COMPLETED; or REJECTED, or EXPIRED. */
export const TwoFactorResetStatusValue = z
  .enum(['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED'])
  .meta({ id: 'TwoFactorResetStatusValue' });
export type TwoFactorResetStatusValue = z.infer<typeof TwoFactorResetStatusValue>;
export const TwoFactorResetStatus = z
  .object({
    status: TwoFactorResetStatusValue,
    factor: ScaFactor,
    /** PENDING until the replacement factor is enrolled; null for SMS_OTP (complete enrols the new number). */
    enrollmentStatus: z.enum(['PENDING', 'COMPLETED']).nullable(),
    expiresAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'TwoFactorResetStatus' });
export type TwoFactorResetStatus = z.infer<typeof TwoFactorResetStatus>;
/**
 * The format of the new `mobile` an SMS_OTP reset completes with. Checked only for SMS_OTP resets (the engine applies
 * it): the other factors ignore `mobile`, so a malformed one does not fail them.
 */
export const ResetMobileFormat = z.object({
  countryCode: cappedString(MAX_LENGTH.id).regex(/^\+[0-9]{1,4}$/, { message: 'must be a calling code with its +, e.g. +33' }),
  number: cappedString(MAX_LENGTH.id).regex(/^[0-9]{4,14}$/, { message: 'must be the national number, digits only' }),
});
/**
 * `POST /sca/factors/reset/{resetId}/complete`, an optional body: for SMS_OTP the new `mobile` (required there, ignored
 * for the other factors, which may send no body at all).
 */
export const TwoFactorResetCompleteRequest = z
  .object({
    mobile: z.object({
      countryCode: cappedString(MAX_LENGTH.id).describe('The calling code with its +, e.g. +33 (checked for SMS_OTP resets only)'),
      number: cappedString(MAX_LENGTH.id).describe('The national number, digits only (checked for SMS_OTP resets only)'),
    }).optional(),
  })
  .meta({ id: 'TwoFactorResetCompleteRequest' });
export type TwoFactorResetCompleteRequest = z.input<typeof TwoFactorResetCompleteRequest>;

const credentialParams = z.object({ credentialId: IdParam });
const resetParams = z.object({ resetId: IdParam });

/** SCA factor enrolment, security events and the liveness-gated factor reset. */
export const scaFactorEndpoints = {
  listScaFactors: defineEndpoint({
    operationId: 'listScaFactors', method: 'GET', path: '/sca/factors', tag: scaTag, query: ScaCustomerQuery,
    summary: "List the customer's SCA factors: SMS_OTP (always), TOTP and the passkey once enrolled",
    response: { status: 200, description: 'The factors', schema: ScaFactorList },
    errors: [404, 409],
  }),
  startScaFactorEnrollment: defineEndpoint({
    operationId: 'startScaFactorEnrollment', method: 'POST', path: '/sca/factors', tag: scaTag, query: ScaCustomerQuery, body: ScaFactorEnrollmentRequest,
    summary: 'Start enrolling a TOTP app or a passkey',
    description: 'TOTP: the secret to load into the app. PASSKEY: creation options for the device; one passkey per customer (409 PASSKEY_ALREADY_ENROLLED).',
    response: { status: 200, description: 'What the device needs', schema: ScaFactorEnrollment },
    errors: [404, 409], secrets: { response: ['secret', 'secretBase32Encoded', 'totpUri'] },
  }),
  confirmScaFactorEnrollment: defineEndpoint({
    operationId: 'confirmScaFactorEnrollment', method: 'POST', path: '/sca/factors/confirm', tag: scaTag, query: ScaCustomerQuery, body: ScaFactorConfirmRequest,
    summary: 'Confirm an enrolment: a current TOTP code with the echoed secret, or the passkey registration',
    description: 'A wrong proof is 400. TOTP recovery codes are shown once.',
    response: { status: 200, description: 'The enrolled factor', schema: ScaFactorConfirmation },
    errors: [404, 409], secrets: { once: ['recoveryCodes'] },
  }),
  deleteScaFactor: defineEndpoint({
    operationId: 'deleteScaFactor', method: 'DELETE', path: '/sca/factors/{credentialId}', tag: scaTag, params: credentialParams, query: ScaCustomerQuery,
    summary: "Delete the customer's passkey (only passkeys have a credentialId)",
    response: { status: 204, description: 'Deleted' },
    errors: [404, 409],
  }),
  recordSecurityEvent: defineEndpoint({
    operationId: 'recordSecurityEvent', method: 'POST', path: '/sca/record-event', tag: scaTag, query: ScaCustomerQuery, body: SecurityEventRequest,
    summary: 'Report a security event: a failed login attempt (counts towards the lockout) or a completed password reset (clears it)',
    description: 'A failed attempt while locked or suspended is 423 ACCOUNT_LOCKED.',
    response: { status: 200, description: "The customer's lockout now", schema: SecurityEventResult },
    errors: [404, 409, 423],
  }),
  startTwoFactorReset: defineEndpoint({
    operationId: 'startTwoFactorReset', method: 'POST', path: '/sca/factors/reset', tag: scaTag, query: ScaCustomerQuery, body: TwoFactorResetRequest,
    summary: 'Start resetting a lost factor: the customer then passes a liveness check',
    description: 'At most 5 starts per customer in any 24 hours (429 RATE_LIMITED with Retry-After).',
    response: { status: 201, description: 'The reset', schema: TwoFactorResetStart },
    errors: [404, 409, 429], secrets: { response: ['livenessAccessToken', 'verificationLink'] },
  }),
  getTwoFactorResetStatus: defineEndpoint({
    operationId: 'getTwoFactorResetStatus', method: 'GET', path: '/sca/factors/reset/{resetId}', tag: scaTag, params: resetParams, query: ScaCustomerQuery,
    summary: 'Poll a factor reset',
    response: { status: 200, description: 'Where the reset stands', schema: TwoFactorResetStatus },
    errors: [404, 409],
  }),
  completeTwoFactorReset: defineEndpoint({
    operationId: 'completeTwoFactorReset', method: 'POST', path: '/sca/factors/reset/{resetId}/complete', tag: scaTag, params: resetParams, query: ScaCustomerQuery,
    // The body is optional as the reference marks it: only an SMS_OTP reset has something to send (its new mobile).
    body: TwoFactorResetCompleteRequest, bodyOptional: true,
    summary: 'Complete a reset once liveness passed: clears the lost factor (SMS_OTP: enrols the new mobile)',
    description:
      'Only from LIVENESS_PASSED (400 otherwise). The body may be omitted: a TOTP or PASSKEY reset needs none, while an ' +
      'SMS_OTP reset needs `mobile`, the new number (400 on `mobile` without it).',
    response: { status: 204, description: 'Completed' },
    errors: [404, 409],
  }),
} as const;

/** The outcome of a sandbox liveness check. */
export const LivenessOutcome = z.enum(['PASSED', 'FAILED']).meta({ id: 'LivenessOutcome' });
export const SandboxLivenessRequest = z.object({ result: LivenessOutcome }).meta({ id: 'SandboxLivenessRequest' });
export type SandboxLivenessRequest = z.input<typeof SandboxLivenessRequest>;

/** Sandbox move: the customer submits the reset's liveness check, which then passes or fails after review. */
export const scaSandboxEndpoints = {
  submitSandboxLiveness: defineEndpoint({
    operationId: 'submitSandboxLiveness', method: 'POST', path: '/sandbox/sca/factors/reset/{resetId}/liveness', tag: 'Sandbox', params: resetParams,
    query: ScaCustomerQuery, body: SandboxLivenessRequest,
    summary: 'Submit the liveness check of a factor reset (sandbox): PENDING_REVIEW, then LIVENESS_PASSED or REJECTED after review',
    description: 'Only from INITIATED (409 otherwise).',
    response: { status: 200, description: 'The reset, now in review', schema: TwoFactorResetStatus },
    errors: [404, 409],
  }),
} as const;
