/**
 * SCA login (REFERENCE §9; SPEC §5 item 7, §8): a customer in an SCA region answers a challenge and gets a login session
 * of 180 days. Payments need one: authorizing a quote without it is 409 SCA_SESSION_REQUIRED.
 */
import type { ScaLoginComplete, ScaLoginCompleteRequest, ScaLoginStart, ScaLoginStartRequest } from '@railyard/contract';
import { SCA_SESSION_DAYS } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { conflict } from '../core/errors.js';
import { answerScaChallenge, issueScaChallenge, requireScaCustomer } from './sca.js';

/** A customer's SCA login session (snapshot-safe); id is the customer id. */
export const ScaSessionRecord = z.object({ id: z.string(), startedAt: z.string(), expiresAt: z.string() });
export type ScaSessionRecord = z.infer<typeof ScaSessionRecord>;

export const SCA_SESSIONS = 'scaSessions';
const sessions = (tenant: TenantContext) => tenant.store.collection<ScaSessionRecord>(SCA_SESSIONS);

export const SCA_SESSION_MS = SCA_SESSION_DAYS * 24 * 60 * 60_000;
const subjectOf = (customerId: string) => `login:${customerId}`;

/** `POST /sca/login/start`: an SMS challenge (the only factor the sandbox enrols). */
export function startScaLogin(tenant: TenantContext, customerId: string, request: z.output<typeof ScaLoginStartRequest>): ScaLoginStart {
  requireScaCustomer(tenant, customerId);
  if (request.factor !== 'SMS_OTP') throw conflict(`Customer ${customerId} has no enrolled ${request.factor} factor: log in with SMS_OTP`);
  const challenge = issueScaChallenge(tenant, customerId, subjectOf(customerId), 'LOGIN');
  return { factor: challenge.factor, challengeId: challenge.id, expiresAt: challenge.expiresAt };
}

/** `POST /sca/login/complete`: opens (or renews) the session once the challenge is answered. */
export function completeScaLogin(tenant: TenantContext, customerId: string, request: z.output<typeof ScaLoginCompleteRequest>): ScaLoginComplete {
  answerScaChallenge(tenant, customerId, subjectOf(customerId), request);
  const now = tenant.clock.now();
  const session: ScaSessionRecord = { id: customerId, startedAt: new Date(now).toISOString(), expiresAt: new Date(now + SCA_SESSION_MS).toISOString() };
  if (sessions(tenant).has(customerId)) sessions(tenant).replace(session);
  else sessions(tenant).insert(session);
  return { status: 'SUCCESS', sessionExpiresAt: session.expiresAt };
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
