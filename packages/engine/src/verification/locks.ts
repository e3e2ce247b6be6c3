import type { TenantContext } from '../core/context.js';
import { conflict } from '../core/errors.js';
import { findCustomer, statusOf } from '../customers/customers.js';
import { BENEFICIAL_OWNERS } from '../beneficial-owners/owners.js';

// Evidence under review or behind a decision stays as it was: SPEC §3.2 makes APPROVED and REJECTED final, and a
// reviewer looks at what was submitted. HOLD (more information may be requested) and UNVERIFIED leave it open.

const LOCKED = new Set(['PENDING', 'APPROVED', 'REJECTED']);

/** The customer a document holder belongs to: itself, or the business of a beneficial owner. */
function customerIdOfHolder(tenant: TenantContext, holderId: string): string | undefined {
  if (holderId.startsWith('Customer:')) return holderId;
  return tenant.store.collection<{ id: string; customerId: string }>(BENEFICIAL_OWNERS).get(holderId)?.customerId;
}

/** Refuses (409) to change a holder's evidence while its customer is under review or decided. */
export function assertEvidenceOpen(tenant: TenantContext, holderId: string, action: string): void {
  const customerId = customerIdOfHolder(tenant, holderId);
  if (customerId === undefined) return;
  const status = statusOf(findCustomer(tenant, customerId));
  if (LOCKED.has(status)) {
    throw conflict(`Cannot ${action}: customer ${customerId} is ${status}, and its verification evidence can no longer change`, 'INVALID_STATE_TRANSITION');
  }
}
