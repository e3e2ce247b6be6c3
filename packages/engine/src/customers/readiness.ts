import type { VerificationState } from '@railyard/contract';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import type { CustomerRecord } from './customers.js';

// Why a customer's money may not move yet, and how the sandbox gets it there (issue 33). Clients written for an older
// sandbox expect individuals approved at creation; on an unregulated platform (SPEC §4.6) they start UNVERIFIED, so
// the 403 names the way out instead of only the rule.

/** Where the docs explain how customers get approved in the sandbox (docs/onboarding.md). */
export const APPROVAL_DOCS_URL = 'https://github.com/railyard-dev/railyard/blob/main/docs/onboarding.md#approving-customers-in-the-sandbox';

/**
 * 403 USER_NOT_READY for a customer that is not approved: the rule, what to do about it in the sandbox for its status
 * and platform, and `details` with the customer, its status and {@link APPROVAL_DOCS_URL} (`details.docs`).
 */
export function userNotReady(tenant: TenantContext, customer: CustomerRecord, status: Exclude<VerificationState, 'APPROVED'>): ApiError<403> {
  const individual = customer.customerType === 'INDIVIDUAL';
  const rule = `Customer ${customer.id} is ${status}: money moves only for ${individual ? 'KYC' : 'KYB'}-approved customers`;
  return new ApiError(403, 'USER_NOT_READY', `${rule}. ${wayOut(tenant, individual, status)} (see ${APPROVAL_DOCS_URL})`, {
    customerId: customer.id, status, docs: APPROVAL_DOCS_URL,
  });
}

function wayOut(tenant: TenantContext, individual: boolean, status: Exclude<VerificationState, 'APPROVED'>): string {
  if (status === 'REJECTED') return 'REJECTED is final: onboard another customer';
  if (status === 'PENDING' || status === 'HOLD') {
    return 'Its verification is under review: in the sandbox it ends after 2 s of engine time (POST /_sandbox/clock/advance), ' +
      'or when decided with POST /_sandbox/verifications/{verificationId}/decide';
  }
  const submit = `In the sandbox, submit a complete packet with POST /verifications (approved after 2 s of engine time for most ${individual ? 'names' : 'registration numbers'})`;
  // Already on such a platform the alternative would not help: an individual still UNVERIFIED there has a name ending 003.
  if (tenant.platform.regulated || tenant.platform.skipPaperwork) return submit;
  const platform = 'use a platform created with regulated: true or skipPaperwork: true (POST /_sandbox/platforms, or railyard serve --regulated / --skip-paperwork)';
  return individual
    ? `${submit}, or ${platform}, where individuals are approved at creation`
    : `${submit}, or ${platform}, where the first POST /verifications approves most businesses without a packet`;
}
