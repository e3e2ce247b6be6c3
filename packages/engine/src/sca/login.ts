/**
 * SCA login (REFERENCE §9; SPEC §5 item 7, §8): a customer in an SCA region answers a challenge and gets a login session
 * of 180 days. Payments need one: authorizing a quote without it is 409 SCA_SESSION_REQUIRED. The customer logs in
 * with an SMS code, or with a factor they enrolled (factors.ts): a TOTP code, or a passkey assertion.
 */
import type { ScaLoginComplete, ScaLoginCompleteRequest, ScaLoginStart, ScaLoginStartRequest } from '@railyard/contract';
import { base64UrlEncode, SCA_SESSION_DAYS, utf8Encode } from '@railyard/contract';
import { z } from 'zod';
import { verifyPasskeyAssertion } from '../auth/passkey-verify.js';
import type { TenantContext } from '../core/context.js';
import { conflict, invalidField } from '../core/errors.js';
import { acceptsTotpCode, enrolledFactor, recordPasskeyUse, SCA_PASSKEY_ALLOWED_ORIGINS, SCA_PASSKEY_RELYING_PARTY_ID, type ScaFactorRecord } from './factors.js';
import {
  answerScaChallenge, assertNotLocked, clearScaFailures, completeScaChallenge, issueChallengeRecord, issueScaChallenge, outstandingScaChallenge, refuseScaAnswer, requireScaCustomer,
} from './sca.js';

/** A customer's SCA login session (snapshot-safe); id is the customer id. */
export const ScaSessionRecord = z.object({ id: z.string(), startedAt: z.string(), expiresAt: z.string() });
export type ScaSessionRecord = z.infer<typeof ScaSessionRecord>;
export const SCA_SESSIONS = 'scaSessions';
const sessions = (tenant: TenantContext) => tenant.store.collection<ScaSessionRecord>(SCA_SESSIONS);

export const SCA_SESSION_MS = SCA_SESSION_DAYS * 24 * 60 * 60_000;

const subjectOf = (customerId: string) => `login:${customerId}`;

/** The customer's enrolled TOTP or passkey, or 409 when they have not enrolled it. */
function enrolled(tenant: TenantContext, customerId: string, factor: 'TOTP' | 'PASSKEY'): ScaFactorRecord {
  const record = enrolledFactor(tenant, customerId, factor);
  if (!record) throw conflict(`Customer ${customerId} has no enrolled ${factor} factor: enrol it (POST /sca/factors) or log in with SMS_OTP`);
  return record;
}

/** The WebAuthn challenge of a passkey login: the challenge id's UTF-8 bytes, base64url. */
const webauthnChallengeOf = (challengeId: string) => base64UrlEncode(utf8Encode(challengeId));

/**
 * `POST /sca/login/start`. SMS_OTP: sends the code (the challenge to answer). TOTP: nothing to send, the app shows the
 * code. PASSKEY: WebAuthn request options for the enrolled passkey.
 */
export function startScaLogin(tenant: TenantContext, customerId: string, request: z.output<typeof ScaLoginStartRequest>): ScaLoginStart {
  requireScaCustomer(tenant, customerId);
  if (request.factor === 'SMS_OTP') {
    const challenge = issueScaChallenge(tenant, customerId, subjectOf(customerId), 'LOGIN');
    return { factor: challenge.factor, challengeId: challenge.id, expiresAt: challenge.expiresAt };
  }
  const factor = enrolled(tenant, customerId, request.factor);
  assertNotLocked(tenant, customerId);
  if (request.factor === 'TOTP') return { factor: 'TOTP' };
  const challenge = issueChallengeRecord(tenant, customerId, subjectOf(customerId), 'LOGIN', ['PASSKEY']);
  return {
    factor: 'PASSKEY', challengeId: challenge.id, expiresAt: challenge.expiresAt,
    passkeyOptions: {
      challenge: webauthnChallengeOf(challenge.id), rpId: factor.passkey!.rpId, allowCredentials: [{ id: factor.id, type: 'public-key' }],
      userVerification: 'preferred', timeout: Date.parse(challenge.expiresAt) - tenant.clock.now(),
    },
    allowedOrigins: [...SCA_PASSKEY_ALLOWED_ORIGINS],
    relyingPartyId: SCA_PASSKEY_RELYING_PARTY_ID,
  };
}

/**
 * `POST /sca/login/complete`: opens (or renews) the session once the factor is proven. A wrong code or assertion is
 * 400 and counts towards the lockout.
 */
export async function completeScaLogin(tenant: TenantContext, customerId: string, request: z.output<typeof ScaLoginCompleteRequest>): Promise<ScaLoginComplete> {
  if (request.factor === 'SMS_OTP') answerScaChallenge(tenant, customerId, subjectOf(customerId), request);
  else if (request.factor === 'TOTP') proveTotp(tenant, customerId, request.code);
  else await provePasskey(tenant, customerId, request);
  const now = tenant.clock.now();
  const session: ScaSessionRecord = { id: customerId, startedAt: new Date(now).toISOString(), expiresAt: new Date(now + SCA_SESSION_MS).toISOString() };
  if (sessions(tenant).has(customerId)) sessions(tenant).replace(session);
  else sessions(tenant).insert(session);
  return { status: 'SUCCESS', sessionExpiresAt: session.expiresAt };
}

function proveTotp(tenant: TenantContext, customerId: string, code: string | undefined): void {
  requireScaCustomer(tenant, customerId);
  const factor = enrolled(tenant, customerId, 'TOTP');
  assertNotLocked(tenant, customerId);
  if (code === undefined) throw invalidField('code', 'is required with the TOTP factor: the code the authenticator app shows');
  if (!acceptsTotpCode(tenant, factor, code)) {
    refuseScaAnswer(tenant, customerId, 'code', "is not the authenticator app's current code (or was used already), nor an unused recovery code");
  }
  clearScaFailures(tenant, customerId);
}

async function provePasskey(tenant: TenantContext, customerId: string, request: z.output<typeof ScaLoginCompleteRequest>): Promise<void> {
  requireScaCustomer(tenant, customerId);
  const factor = enrolled(tenant, customerId, 'PASSKEY');
  const challenge = outstandingScaChallenge(tenant, customerId, subjectOf(customerId), request.challengeId);
  const assertion = request.passkeyAssertion;
  if (challenge.factor !== 'PASSKEY' || assertion === undefined) {
    throw invalidField('passkeyAssertion', 'is required with the PASSKEY factor: start the login with factor PASSKEY and answer its passkeyOptions');
  }
  if (request.origin === undefined || !SCA_PASSKEY_ALLOWED_ORIGINS.includes(request.origin)) {
    throw invalidField('origin', `must be one of the allowed origins: ${SCA_PASSKEY_ALLOWED_ORIGINS.join(', ')}`, { enum: [...SCA_PASSKEY_ALLOWED_ORIGINS] });
  }
  if (assertion.credentialId !== factor.id) refuseScaAnswer(tenant, customerId, 'passkeyAssertion.credentialId', "is not the customer's enrolled passkey");
  let counter: number;
  try {
    counter = await verifyPasskeyAssertion(
      assertion, { credentialId: factor.id, publicKey: factor.passkey!.publicKey, counter: factor.passkey!.counter },
      { challenge: webauthnChallengeOf(challenge.id), origin: request.origin, rpId: factor.passkey!.rpId },
    );
  } catch (error) {
    refuseScaAnswer(tenant, customerId, 'passkeyAssertion', `does not verify: ${(error as Error).message}`);
  }
  completeScaChallenge(tenant, customerId, challenge);
  recordPasskeyUse(tenant, factor, counter);
}

/** Ends the customer's SCA login session, if any (a completed password reset). */
export function revokeScaSessions(tenant: TenantContext, customerId: string): void {
  if (sessions(tenant).has(customerId)) sessions(tenant).delete(customerId);
}

/** 409 SCA_SESSION_REQUIRED unless the customer has a login session that has not expired. */
export function assertScaSession(tenant: TenantContext, customerId: string): void {
  const session = sessions(tenant).get(customerId);
  if (session && Date.parse(session.expiresAt) > tenant.clock.now()) return;
  throw conflict(
    session ? `The SCA login session of ${customerId} expired at ${session.expiresAt}: log in again (POST /sca/login/start, then /complete) and retry`
      : `Customer ${customerId} has no SCA login session: log in (POST /sca/login/start, then /complete) and retry`,
    'SCA_SESSION_REQUIRED',
  );
}
