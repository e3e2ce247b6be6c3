/**
 * Strong customer authentication (SPEC §5 item 7, §7; REFERENCE §9): who must authenticate, with which factors, the
 * challenges they answer, and the lockout after repeated failures. Areas that need SCA (trusted beneficiaries here,
 * quotes later) issue a challenge for a `subject` they name, and call {@link answerScaChallenge} with the answer; the
 * challenge records what it authorizes, so an answer can never be replayed against another action.
 */
import type { ScaChallenge, ScaFactor } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField } from '../core/errors.js';
import { findCustomer, type CustomerRecord } from '../customers/customers.js';
import { SCA_CODE } from '../sandbox/magic-values.js';
import { regionPolicyOf } from '../config/regions.js';


/** A challenge can be answered for 5 minutes. */
export const SCA_CHALLENGE_TTL_MS = 5 * 60 * 1000;

const MINUTE = 60 * 1000;
/**
 * Lockout after consecutive failed answers (REFERENCE §9): the 5th failure locks for 15 minutes, the 6th for 30, the
 * 7th for an hour, the 8th for a day; from the 9th the customer is suspended until the platform resets the factors.
 */
export const LOCKOUT_LADDER: readonly { failures: number; lockMs: number | 'SUSPENDED' }[] = [
  { failures: 5, lockMs: 15 * MINUTE },
  { failures: 6, lockMs: 30 * MINUTE },
  { failures: 7, lockMs: 60 * MINUTE },
  { failures: 8, lockMs: 24 * 60 * MINUTE },
  { failures: 9, lockMs: 'SUSPENDED' },
];

/** Stored challenge (snapshot-safe). */
export const ScaChallengeRecord = z.object({
  id: z.string(),
  customerId: z.string(),
  /** What the answer authorizes, e.g. `trust:ExternalAccount:<uuid>`; only that action may consume it. */
  subject: z.string(),
  purpose: z.string(),
  factor: z.enum(['SMS_OTP', 'PASSKEY', 'TOTP']),
  availableFactors: z.array(z.enum(['SMS_OTP', 'PASSKEY', 'TOTP'])),
  createdAt: z.string(),
  expiresAt: z.string(),
  state: z.enum(['OUTSTANDING', 'COMPLETED', 'SUPERSEDED']),
});
export type ScaChallengeRecord = z.infer<typeof ScaChallengeRecord>;

/** A customer's failed-answer streak and lock (snapshot-safe); id is the customer id. */
export const ScaLockRecord = z.object({
  id: z.string(),
  failedAttempts: z.number().int().min(0),
  lockedUntil: z.string().optional(),
  suspended: z.boolean(),
});
export type ScaLockRecord = z.infer<typeof ScaLockRecord>;

export const SCA_CHALLENGES = 'scaChallenges';
export const SCA_LOCKS = 'scaLocks';
const challenges = (tenant: TenantContext) => tenant.store.collection<ScaChallengeRecord>(SCA_CHALLENGES);
const locks = (tenant: TenantContext) => tenant.store.collection<ScaLockRecord>(SCA_LOCKS);

/**
 * Whether a customer must pass SCA for payments and beneficiary changes (SPEC §5 item 7): one whose region's policy
 * says so (the EU/EEA member states, and `EU`; see REGION_POLICIES).
 */
export const isScaCustomer = (customer: Pick<CustomerRecord, 'region'>): boolean => regionPolicyOf(customer.region).sca;

/** The customer, or 409 when SCA does not apply to them (REFERENCE §9: every SCA endpoint, for non-SCA customers). */
export function requireScaCustomer(tenant: TenantContext, customerId: string): CustomerRecord {
  const customer = findCustomer(tenant, customerId);
  if (!isScaCustomer(customer)) {
    throw conflict(`Strong customer authentication does not apply to customer ${customerId}: only customers of an EU/EEA region use it`);
  }
  return customer;
}

/** Factors the customer can answer with: an SMS code to the phone on file (enrolled factors join with SCA enrolment). */
function availableFactors(customer: CustomerRecord): ScaFactor[] {
  return customer.phoneNumber === undefined ? [] : ['SMS_OTP'];
}

/** 423 ACCOUNT_LOCKED while the customer is locked or suspended. */
export function assertNotLocked(tenant: TenantContext, customerId: string): void {
  const lock = locks(tenant).get(customerId);
  if (!lock) return;
  const lockedNow = lock.suspended || (lock.lockedUntil !== undefined && Date.parse(lock.lockedUntil) > tenant.clock.now());
  if (!lockedNow) return;
  throw new ApiError(
    423, 'ACCOUNT_LOCKED',
    lock.suspended ? `Customer ${customerId} is suspended after ${lock.failedAttempts} failed authentications` : `Customer ${customerId} is locked until ${lock.lockedUntil}`,
    { ...(lock.lockedUntil === undefined ? {} : { lockedUntil: lock.lockedUntil }), failedAttempts: lock.failedAttempts, suspended: lock.suspended },
  );
}

/** The customer's failed-authentication streak and lock (a fresh one when they never failed). */
export const scaLockOf = (tenant: TenantContext, customerId: string): ScaLockRecord =>
  locks(tenant).get(customerId) ?? { id: customerId, failedAttempts: 0, suspended: false };

/**
 * Records one failed authentication and applies the ladder: a wrong SCA answer, a wrong TOTP at login, or a failed
 * login the platform reports (`POST /sca/record-event`) all count in this one streak.
 */
export function recordScaFailure(tenant: TenantContext, customerId: string): ScaLockRecord {
  const previous = scaLockOf(tenant, customerId);
  const failedAttempts = previous.failedAttempts + 1;
  const step = [...LOCKOUT_LADDER].reverse().find((rung) => failedAttempts >= rung.failures);
  const next: ScaLockRecord = {
    id: customerId,
    failedAttempts,
    suspended: step?.lockMs === 'SUSPENDED',
    ...(step && step.lockMs !== 'SUSPENDED' ? { lockedUntil: new Date(tenant.clock.now() + step.lockMs).toISOString() } : {}),
  };
  if (locks(tenant).get(customerId)) locks(tenant).replace(next);
  else locks(tenant).insert(next);
  return next;
}

/** Ends the streak, the lock and any suspension (a successful answer; a completed password reset). */
export const clearScaFailures = (tenant: TenantContext, customerId: string): void => {
  if (locks(tenant).get(customerId)) locks(tenant).delete(customerId);
};

/** The public view of a stored challenge. */
export const scaChallengeView = (record: ScaChallengeRecord): ScaChallenge => ({
  id: record.id, expiresAt: record.expiresAt, factor: record.factor, availableFactors: record.availableFactors, purpose: record.purpose,
  passkeyAssertionOptions: null, passkeyAllowedOrigins: null,
});

/**
 * Issues a challenge for `subject`, superseding any outstanding one for the same subject. 409 when the customer is not
 * an SCA customer or has no factor to answer with; 423 while locked.
 */
export function issueScaChallenge(tenant: TenantContext, customerId: string, subject: string, purpose: string): ScaChallenge {
  return scaChallengeView(issueChallengeRecord(tenant, customerId, subject, purpose, assertScaChallengeIssuable(tenant, customerId)));
}

/**
 * Issues a challenge answered with `factors[0]` (the caller has checked the customer may use it), superseding any
 * outstanding one for the same subject.
 */
export function issueChallengeRecord(tenant: TenantContext, customerId: string, subject: string, purpose: string, factors: ScaFactor[]): ScaChallengeRecord {
  for (const old of challenges(tenant).findBy('subject', subject)) {
    if (old.state === 'OUTSTANDING') challenges(tenant).replace({ ...old, state: 'SUPERSEDED' });
  }
  const now = tenant.clock.now();
  const record: ScaChallengeRecord = {
    id: tenant.ids('ScaChallenge'), customerId, subject, purpose, factor: factors[0]!, availableFactors: factors,
    createdAt: new Date(now).toISOString(), expiresAt: new Date(now + SCA_CHALLENGE_TTL_MS).toISOString(), state: 'OUTSTANDING',
  };
  challenges(tenant).insert(record);
  return record;
}

/**
 * Throws what {@link issueScaChallenge} would throw for this customer (409 outside an SCA region or without a factor,
 * 423 while locked), so a caller can check before it stores anything. Returns the customer's factors.
 */
export function assertScaChallengeIssuable(tenant: TenantContext, customerId: string): ScaFactor[] {
  const customer = requireScaCustomer(tenant, customerId);
  assertNotLocked(tenant, customerId);
  const factors = availableFactors(customer);
  if (factors.length === 0) {
    throw conflict(`Customer ${customerId} has no SCA factor: add a phoneNumber to receive SMS codes`);
  }
  return factors;
}

/** An answer as the API receives it. */
export interface ScaAnswer {
  challengeId?: string | undefined;
  code?: string | undefined;
  passkeyAssertion?: unknown;
  origin?: string | undefined;
}

/**
 * The outstanding challenge for `subject`: 409 when there is none (never issued, already used, superseded, expired, or
 * `challengeId` names another); 423 while locked.
 */
export function outstandingScaChallenge(tenant: TenantContext, customerId: string, subject: string, challengeId: string | undefined): ScaChallengeRecord {
  requireScaCustomer(tenant, customerId);
  assertNotLocked(tenant, customerId);
  const now = tenant.clock.now();
  const outstanding = challenges(tenant).findBy('subject', subject).find((c) => c.state === 'OUTSTANDING' && Date.parse(c.expiresAt) > now);
  if (!outstanding || (challengeId !== undefined && challengeId !== outstanding.id)) {
    throw conflict('No outstanding SCA challenge for this action (it was never started, already answered, replaced or expired): start it again');
  }
  return outstanding;
}

/** A wrong answer: counts towards the lockout, then 423 if it locked the customer, else 400 on `field`. */
export function refuseScaAnswer(tenant: TenantContext, customerId: string, field: string, message: string): never {
  const lock = recordScaFailure(tenant, customerId);
  if (lock.suspended || lock.lockedUntil !== undefined) assertNotLocked(tenant, customerId);
  throw invalidField(field, message);
}

/** A right answer: ends the failure streak and uses the challenge up (409 if a concurrent answer used it first). */
export function completeScaChallenge(tenant: TenantContext, customerId: string, challenge: ScaChallengeRecord): void {
  const latest = challenges(tenant).get(challenge.id);
  if (latest?.state !== 'OUTSTANDING') throw conflict('This SCA challenge was answered or replaced meanwhile: start it again');
  clearScaFailures(tenant, customerId);
  challenges(tenant).replace({ ...latest, state: 'COMPLETED' });
}

/**
 * Checks `answer` against the outstanding challenge for `subject` and completes it. 409 when none is outstanding (never
 * issued, already used, superseded, expired, or `challengeId` names another); 423 while locked; 400 for a wrong code,
 * which counts towards the lockout.
 */
export function answerScaChallenge(tenant: TenantContext, customerId: string, subject: string, answer: ScaAnswer): void {
  const outstanding = outstandingScaChallenge(tenant, customerId, subject, answer.challengeId);
  // The answer must be of the challenge's factor, both ways: a code never completes a PASSKEY challenge. A mismatch is
  // the caller's mistake, not a wrong answer: 400 naming the field, with nothing changed (no failure counted).
  if (outstanding.factor === 'PASSKEY') {
    throw invalidField('code', 'This challenge expects a passkey assertion (factor PASSKEY, passkeyAssertion and origin), not a code');
  }
  if (answer.passkeyAssertion !== undefined) {
    throw invalidField('passkeyAssertion', `This challenge expects the ${outstanding.factor} code, not a passkey assertion`);
  }
  if (answer.code !== SCA_CODE) refuseScaAnswer(tenant, customerId, 'code', 'The code is not the one sent for this challenge');
  completeScaChallenge(tenant, customerId, outstanding);
}
