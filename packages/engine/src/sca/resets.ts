/**
 * SCA factor reset (REFERENCE §22): a customer who lost a factor starts a reset, passes a liveness check, then
 * completes it, which clears the lost factor (for SMS_OTP: puts the new mobile number on file). Driven by polling:
 * INITIATED → PENDING_REVIEW (liveness submitted) → LIVENESS_PASSED → COMPLETED, or REJECTED (liveness failed), or
 * EXPIRED (the window closed). In the sandbox the liveness check is a control move (`POST /sandbox/sca/factors/reset/
 * {resetId}/liveness` with PASSED or FAILED); its review and the expiry run on the engine clock.
 */
import type { ScaFactor, TwoFactorResetStart, TwoFactorResetStatus, TwoFactorResetStatusValue } from '@railyard/contract';
import { bytesToHex, PhoneNumber, ResetMobileFormat, TwoFactorResetCompleteRequest } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { conflict, invalidField, invalidInput, notFound, rateLimited } from '../core/errors.js';
import { toFieldErrors } from '../core/field-errors.js';
import { hashLegacyToken, tokenHash } from '../core/secrets.js';
import { onField } from '../core/store.js';
import { findCustomer, updateCustomer } from '../customers/customers.js';
import { LIVENESS_REVIEW_MS } from '../sandbox/magic-values.js';
import { enrolledFactor, removeEnrolledFactor } from './factors.js';
import { requireScaCustomer } from './sca.js';

/** A reset must pass liveness and be completed within an hour of its start. */
export const FACTOR_RESET_TTL_MS = 60 * 60_000;
/** At most this many reset starts per customer in any {@link FACTOR_RESET_WINDOW_MS}. */
export const FACTOR_RESET_LIMIT = 5;
export const FACTOR_RESET_WINDOW_MS = 24 * 60 * 60_000;

const STATUSES = ['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED'] as const;
const TERMINAL: ReadonlySet<TwoFactorResetStatusValue> = new Set(['COMPLETED', 'REJECTED', 'EXPIRED']);

/**
 * A factor reset (snapshot-safe). Its liveness access token is a bearer token, handed to the customer's liveness flow
 * in the start's answer only: the record keeps its SHA-256 (hex). An older snapshot's `livenessAccessToken` is restored
 * as its hash.
 */
export const FactorResetRecord = z.preprocess((input) => hashLegacyToken(input, 'livenessAccessToken', 'livenessAccessTokenHash'), z.object({
  id: z.string(),
  customerId: z.string(),
  factor: z.enum(['SMS_OTP', 'PASSKEY', 'TOTP']),
  status: z.enum(STATUSES),
  livenessAccessTokenHash: z.string(),
  /** The outcome the submitted liveness check will have once reviewed. */
  livenessResult: z.enum(['PASSED', 'FAILED']).optional(),
  createdAt: z.string(),
  expiresAt: z.string(),
  completedAt: z.string().optional(),
}));
export type FactorResetRecord = z.infer<typeof FactorResetRecord>;

export const FACTOR_RESETS = 'scaFactorResets';
const resets = (tenant: TenantContext) => tenant.store.collection<FactorResetRecord>(FACTOR_RESETS, { indexes: { customerId: onField('customerId') } });

export const FACTOR_RESET_REVIEW_JOB = 'sca.factorReset.review';
export const FACTOR_RESET_EXPIRY_JOB = 'sca.factorReset.expire';

/** The record with its expiry applied: a reset still open at `expiresAt` is EXPIRED (the job may not have run yet). */
function current(tenant: TenantContext, record: FactorResetRecord): FactorResetRecord {
  if (TERMINAL.has(record.status) || Date.parse(record.expiresAt) > tenant.clock.now()) return record;
  const { livenessResult: _undecided, ...open } = record;
  return resets(tenant).replace({ ...open, status: 'EXPIRED' });
}

/** The customer's reset, or 404 (also for another customer's reset). */
function findReset(tenant: TenantContext, customerId: string, resetId: string): FactorResetRecord {
  requireScaCustomer(tenant, customerId);
  const record = resets(tenant).get(resetId);
  if (!record || record.customerId !== customerId) throw notFound('Factor reset', resetId);
  return current(tenant, record);
}

/**
 * PENDING until the replacement is enrolled after the reset completed, then COMPLETED; null for SMS_OTP, whose
 * replacement (the new mobile) complete itself puts on file.
 */
function enrollmentStatusOf(tenant: TenantContext, record: FactorResetRecord): TwoFactorResetStatus['enrollmentStatus'] {
  if (record.factor === 'SMS_OTP') return null;
  if (record.completedAt === undefined) return 'PENDING';
  const replacement = enrolledFactor(tenant, record.customerId, record.factor);
  return replacement && replacement.createdAt >= record.completedAt ? 'COMPLETED' : 'PENDING';
}

const statusView = (tenant: TenantContext, record: FactorResetRecord): TwoFactorResetStatus => ({
  status: record.status, factor: record.factor, enrollmentStatus: enrollmentStatusOf(tenant, record), expiresAt: record.expiresAt, completedAt: record.completedAt ?? null,
});

/** `POST /sca/factors/reset`: 429 RATE_LIMITED (with Retry-After) after 5 starts in the customer's last 24 hours. */
export function startTwoFactorReset(tenant: TenantContext, customerId: string, factor: ScaFactor): TwoFactorResetStart {
  requireScaCustomer(tenant, customerId);
  const now = tenant.clock.now();
  const recent = resets(tenant).findBy('customerId', customerId).filter((reset) => Date.parse(reset.createdAt) > now - FACTOR_RESET_WINDOW_MS);
  if (recent.length >= FACTOR_RESET_LIMIT) {
    const oldest = Math.min(...recent.map((reset) => Date.parse(reset.createdAt)));
    throw rateLimited(`Customer ${customerId} started ${recent.length} factor resets in the last 24 hours, the most allowed`, oldest + FACTOR_RESET_WINDOW_MS - now);
  }
  const livenessAccessToken = bytesToHex(crypto.getRandomValues(new Uint8Array(24)));
  const record = resets(tenant).insert({
    id: tenant.ids('TwoFactorReset'), customerId, factor, status: 'INITIATED', livenessAccessTokenHash: tokenHash(livenessAccessToken),
    createdAt: new Date(now).toISOString(), expiresAt: new Date(now + FACTOR_RESET_TTL_MS).toISOString(),
  });
  tenant.schedule(FACTOR_RESET_TTL_MS, FACTOR_RESET_EXPIRY_JOB, { resetId: record.id }, `factor-reset-expiry/${record.id}`);
  return { resetId: record.id, livenessAccessToken, expiresAt: record.expiresAt };
}

/** `GET /sca/factors/reset/{resetId}`. */
export const getTwoFactorResetStatus = (tenant: TenantContext, customerId: string, resetId: string): TwoFactorResetStatus =>
  statusView(tenant, findReset(tenant, customerId, resetId));

/**
 * `POST /sca/factors/reset/{resetId}/complete`: only from LIVENESS_PASSED (400 otherwise). Clears the lost factor; for
 * SMS_OTP the `mobile` is required and becomes the customer's phone number. The body is optional (REFERENCE §22): an
 * omitted one is no `mobile`, which completes a TOTP or PASSKEY reset and is 400 on `mobile` for SMS_OTP.
 */
export function completeTwoFactorReset(
  tenant: TenantContext, customerId: string, resetId: string, request: z.output<typeof TwoFactorResetCompleteRequest> | undefined,
): undefined {
  const record = findReset(tenant, customerId, resetId);
  if (record.status !== 'LIVENESS_PASSED') {
    throw invalidField('resetId', `is ${record.status}: a reset completes only once its liveness check passed (LIVENESS_PASSED)`);
  }
  if (record.factor === 'SMS_OTP') {
    if (request?.mobile === undefined) throw invalidField('mobile', 'is required to complete an SMS_OTP reset: the new number', { required: true });
    const format = ResetMobileFormat.safeParse(request.mobile);
    if (!format.success) throw invalidInput(toFieldErrors(format.error.issues, 'mobile'));
    const phoneNumber = `${request.mobile.countryCode}${request.mobile.number}`;
    if (!PhoneNumber.safeParse(phoneNumber).success) throw invalidField('mobile.number', `gives ${phoneNumber}, which is not an E.164 phone number`);
    updateCustomer(tenant, customerId, { customerType: findCustomer(tenant, customerId).customerType, phoneNumber } as Parameters<typeof updateCustomer>[2]);
  } else {
    removeEnrolledFactor(tenant, customerId, record.factor);
  }
  resets(tenant).replace({ ...record, status: 'COMPLETED', completedAt: tenant.nowIso() });
  tenant.cancelJob(`factor-reset-expiry/${record.id}`);
  return undefined;
}

/**
 * Sandbox move: the customer submits the liveness check of an INITIATED reset (409 otherwise). It is PENDING_REVIEW
 * for {@link LIVENESS_REVIEW_MS}, then LIVENESS_PASSED or REJECTED as `result` says.
 */
export function submitSandboxLiveness(tenant: TenantContext, customerId: string, resetId: string, result: 'PASSED' | 'FAILED'): TwoFactorResetStatus {
  const record = findReset(tenant, customerId, resetId);
  if (record.status !== 'INITIATED') {
    throw conflict(`Factor reset ${resetId} is ${record.status}: liveness can be submitted only while it is INITIATED`, 'INVALID_STATE_TRANSITION');
  }
  const submitted = resets(tenant).replace({ ...record, status: 'PENDING_REVIEW', livenessResult: result });
  tenant.schedule(LIVENESS_REVIEW_MS, FACTOR_RESET_REVIEW_JOB, { resetId });
  return statusView(tenant, submitted);
}

const JobPayload = z.object({ resetId: z.string() });

function reviewJob(tenant: TenantContext, payload: unknown): void {
  const parsed = JobPayload.safeParse(payload);
  const record = parsed.success ? resets(tenant).get(parsed.data.resetId) : undefined;
  if (!record) return;
  const now = current(tenant, record);
  if (now.status !== 'PENDING_REVIEW') return;
  resets(tenant).replace({ ...now, status: now.livenessResult === 'PASSED' ? 'LIVENESS_PASSED' : 'REJECTED' });
}

function expiryJob(tenant: TenantContext, payload: unknown): void {
  const parsed = JobPayload.safeParse(payload);
  const record = parsed.success ? resets(tenant).get(parsed.data.resetId) : undefined;
  if (record) current(tenant, record);
}

/** Timed jobs of factor resets, by kind. */
export const factorResetJobs = { [FACTOR_RESET_REVIEW_JOB]: reviewJob, [FACTOR_RESET_EXPIRY_JOB]: expiryJob };
