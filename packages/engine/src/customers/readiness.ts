import type { Verification, VerificationState } from '@railyard/contract';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import type { CustomerRecord } from './customers.js';

/** A verification under review, as the way out names it. */
type Review = Pick<Verification, 'id' | 'verificationStatus'>;

// Why a customer's money may not move yet, and how the sandbox gets it there (issue 33). Clients written for an older
// sandbox expect individuals approved at creation; on an unregulated platform (SPEC §4.6) they start UNVERIFIED, so
// the 403 names the way out instead of only the rule.

/** Where the docs explain how customers get approved in the sandbox (docs/onboarding.md). */
export const APPROVAL_DOCS_URL = 'https://github.com/railyard-dev/railyard/blob/main/docs/onboarding.md#approving-customers-in-the-sandbox';

/**
 * 403 USER_NOT_READY for a customer that is not approved: the rule, what to do about it in the sandbox for its status
 * and platform (and `review`, its verification under review: `reviewUnderWay`), and `details` with the customer, its status and
 * {@link APPROVAL_DOCS_URL} (`details.docs`).
 */
export function userNotReady(
  tenant: TenantContext, customer: CustomerRecord, status: Exclude<VerificationState, 'APPROVED'>, review: Review | undefined,
): ApiError<403> {
  const individual = customer.customerType === 'INDIVIDUAL';
  const rule = `Customer ${customer.id} is ${status}: money moves only for ${individual ? 'KYC' : 'KYB'}-approved customers`;
  return new ApiError(403, 'USER_NOT_READY', `${rule}. ${wayOut(tenant, individual, status, review)} (see ${APPROVAL_DOCS_URL})`, {
    customerId: customer.id, status, docs: APPROVAL_DOCS_URL,
  });
}

function wayOut(tenant: TenantContext, individual: boolean, status: Exclude<VerificationState, 'APPROVED'>, review: Review | undefined): string {
  if (status === 'REJECTED') return 'REJECTED is final: onboard another customer';
  if (status === 'PENDING' || status === 'HOLD') {
    // Only a short review ends on the clock; a manual one (a 001 name or registration number, a HOLD) waits for a decision.
    if (review?.verificationStatus === 'IN_PROGRESS') {
      return `Its verification ${review.id} is decided after 2 s of engine time (POST /_sandbox/clock/advance), or at once with POST /_sandbox/verifications/${review.id}/decide`;
    }
    if (review !== undefined) return `Its verification ${review.id} is in manual review until the operator decides it: POST /_sandbox/verifications/${review.id}/decide`;
    return 'It is in manual review since its creation: submit a complete packet with POST /verifications, then decide that verification with POST /_sandbox/verifications/{verificationId}/decide';
  }
  // Already on such a platform the alternative would not help: an individual still UNVERIFIED there has a name ending
  // 003, whose packet is first asked for a better identity document.
  if (tenant.platform.regulated || tenant.platform.skipPaperwork) {
    return individual
      ? 'In the sandbox, submit a complete packet with POST /verifications; a name ending 003 is first asked for a better identity document, and the next submission is approved'
      : 'In the sandbox, submit with POST /verifications: most businesses are approved at the first submission, without a packet';
  }
  const submit = `In the sandbox, submit a complete packet with POST /verifications (approved after 2 s of engine time for most ${individual ? 'names' : 'registration numbers'})`;
  const platform = 'use a platform created with regulated: true or skipPaperwork: true (POST /_sandbox/platforms, or railyard serve --regulated / --skip-paperwork)';
  return individual
    ? `${submit}, or ${platform}, where individuals are approved at creation`
    : `${submit}, or ${platform}, where the first POST /verifications approves most businesses without a packet`;
}
