import { z } from 'zod';
import { PasskeyAssertion } from './auth.js';
import { Timestamp, onEveryObject } from './common.js';
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
  code: z.string().min(1).optional(),
  passkeyAssertion: PasskeyAssertion.optional(),
  origin: z.string().min(1).optional(),
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
export const BeneficiaryTrustConfirmRequest = ScaResponse.extend({ challengeId: z.string().min(1).optional() })
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
const params = z.object({ externalAccountId: z.string() });
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
      'A wrong code is 400 and counts towards the lockout (5 failures lock for 15 minutes, then longer; 9 suspend). ' +
      'No outstanding challenge, or an expired one: 409.',
    response: { status: 200, description: 'The trust now in force', schema: BeneficiaryTrust },
    errors: [409, 423],
  });

/** Trusted-beneficiary operations (REFERENCE §9). A trusted account cannot be deleted (409 BENEFICIARY_TRUSTED). */
export const beneficiaryTrustEndpoints = {
  trustExternalAccount: start('trust'),
  confirmTrustExternalAccount: confirm('trust'),
  untrustExternalAccount: start('untrust'),
  confirmUntrustExternalAccount: confirm('untrust'),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// SCA login (REFERENCE §9): a session of 180 days that quote authorization needs.

/** How long an SCA login session lasts (SPEC §8). */
export const SCA_SESSION_DAYS = 180;

/** Query of the SCA login calls: the customer logging in. */
export const ScaCustomerQuery = z.object({ customerId: z.string().regex(/^Customer:/, { message: 'must be a Customer id' }) });

/** `POST /sca/login/start`: which factor to log in with (SMS_OTP in the sandbox). */
export const ScaLoginStartRequest = z.object({ factor: ScaFactor }).meta({ id: 'ScaLoginStartRequest' });
export const ScaLoginStart = z
  .object({ factor: ScaFactor, challengeId: z.string().optional(), expiresAt: Timestamp.optional() })
  .meta({ id: 'ScaLoginStart' });
export type ScaLoginStart = z.infer<typeof ScaLoginStart>;

/** `POST /sca/login/complete`: the answer to the login challenge. */
export const ScaLoginCompleteRequest = ScaResponse.extend({
  factor: ScaFactor,
  endUserIpAddress: z.string().min(1),
  challengeId: z.string().min(1).optional(),
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
    summary: 'Start an SCA login: sends an SMS code to the customer (sandbox code 123456)',
    description: 'Only for customers in an SCA region (409 otherwise); 423 ACCOUNT_LOCKED while locked.',
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
