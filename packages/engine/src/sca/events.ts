/**
 * Security events the platform reports (REFERENCE §22): a failed login of the customer at the platform counts in the
 * same lockout streak as wrong SCA answers (sca.ts); a completed password reset ends every SCA login session, the
 * streak, the lock and any suspension (the only way out of a suspension).
 */
import type { SecurityEventResult } from '@railyard/contract';
import { SecurityEventType } from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { revokeScaSessions } from './login.js';
import { assertNotLocked, clearScaFailures, recordScaFailure, requireScaCustomer, scaLockOf, type ScaLockRecord } from './sca.js';

/** The event's answer: `lockedUntil` is null when unlocked, and also while suspended. */
function resultOf(tenant: TenantContext, eventType: z.infer<typeof SecurityEventType>, lock: ScaLockRecord): SecurityEventResult {
  const locked = !lock.suspended && lock.lockedUntil !== undefined && Date.parse(lock.lockedUntil) > tenant.clock.now();
  return { eventType, suspended: lock.suspended, lockedUntil: locked ? lock.lockedUntil! : null, failedAttempts: lock.failedAttempts };
}

/**
 * `POST /sca/record-event`. FAILED_LOGIN_ATTEMPT: one more failure on the ladder (5 lock for 15 minutes … 9 suspend);
 * while already locked or suspended it is 423 ACCOUNT_LOCKED and counts nothing. RESET_PASSWORD_COMPLETED: clears all.
 */
export function recordSecurityEvent(tenant: TenantContext, customerId: string, eventType: z.infer<typeof SecurityEventType>): SecurityEventResult {
  requireScaCustomer(tenant, customerId);
  if (eventType === 'RESET_PASSWORD_COMPLETED') {
    revokeScaSessions(tenant, customerId);
    clearScaFailures(tenant, customerId);
    return resultOf(tenant, eventType, scaLockOf(tenant, customerId));
  }
  assertNotLocked(tenant, customerId);
  return resultOf(tenant, eventType, recordScaFailure(tenant, customerId));
}
