/**
 * Trusted beneficiaries (REFERENCE §2.3, §9): a customer in an SCA region marks one of their external accounts as
 * trusted, and removes the mark, each confirmed by an SCA challenge. A trusted account cannot be deleted (409
 * BENEFICIARY_TRUSTED) until it is untrusted. The mark lives in `trustedBeneficiaries`, keyed by the account id.
 * The routes look the account up and pass it in, so external accounts can ask {@link isTrustedBeneficiary} without a cycle.
 */
import type { BeneficiaryTrust, BeneficiaryTrustChallenge, ExternalAccount } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { conflict, notFound } from '../core/errors.js';
import { answerScaChallenge, issueScaChallenge, type ScaAnswer } from './sca.js';

/** Stored trust mark (snapshot-safe); id is the external account id. */
export const TrustedBeneficiaryRecord = z.object({ id: z.string(), customerId: z.string(), trustedAt: z.string() });
export type TrustedBeneficiaryRecord = z.infer<typeof TrustedBeneficiaryRecord>;

export const TRUSTED_BENEFICIARIES = 'trustedBeneficiaries';
const trusted = (tenant: TenantContext) => tenant.store.collection<TrustedBeneficiaryRecord>(TRUSTED_BENEFICIARIES);

/** Whether the account is a trusted beneficiary (external-account deletion asks). */
export const isTrustedBeneficiary = (tenant: TenantContext, externalAccountId: string): boolean => trusted(tenant).get(externalAccountId) !== undefined;

/**
 * Whether a payment by `customerId` to `destinationAccountId` is exempt from the per-payment SCA challenge: the account
 * is a beneficiary this customer trusts. Trust exists for this: the customer authenticated once, when trusting the
 * account, so payments to it skip the ceremony until it is untrusted (PSD2 RTS art. 13, the trusted-beneficiaries
 * exemption). Asked when the payment is sent, so a quote made while trusted is challenged if executed after untrust.
 */
export function paysTrustedBeneficiary(tenant: TenantContext, customerId: string, destinationAccountId: string | undefined): boolean {
  if (destinationAccountId === undefined) return false;
  return trusted(tenant).get(destinationAccountId)?.customerId === customerId;
}

type Change = 'trust' | 'untrust';
const PURPOSE: Record<Change, string> = { trust: 'TRUST_BENEFICIARY', untrust: 'UNTRUST_BENEFICIARY' };
const subjectOf = (change: Change, accountId: string) => `${change}:${accountId}`;

/** Only customers' accounts can be trusted; a platform account is not found under `/customers/external-accounts`. */
function customerAccount(account: ExternalAccount): ExternalAccount & { customerId: string } {
  if (account.customerId == null) throw notFound('External account', account.id);
  return account as ExternalAccount & { customerId: string };
}

function assertChangeApplies(tenant: TenantContext, change: Change, accountId: string): void {
  const isTrusted = isTrustedBeneficiary(tenant, accountId);
  if (change === 'trust' && isTrusted) throw conflict(`External account ${accountId} is already a trusted beneficiary`, 'INVALID_STATE_TRANSITION');
  if (change === 'untrust' && !isTrusted) throw conflict(`External account ${accountId} is not a trusted beneficiary`, 'INVALID_STATE_TRANSITION');
}

/** `POST .../{id}/trust` and `.../untrust`: the SCA challenge that confirms the change. */
export function startTrustChange(tenant: TenantContext, change: Change, externalAccount: ExternalAccount): BeneficiaryTrustChallenge {
  const account = customerAccount(externalAccount);
  assertChangeApplies(tenant, change, account.id);
  return { scaChallenge: issueScaChallenge(tenant, account.customerId, subjectOf(change, account.id), PURPOSE[change]) };
}

/** `POST .../{id}/trust/confirm` and `.../untrust/confirm`: applies the change once the challenge is answered. */
export function confirmTrustChange(tenant: TenantContext, change: Change, externalAccount: ExternalAccount, answer: ScaAnswer): BeneficiaryTrust {
  const account = customerAccount(externalAccount);
  assertChangeApplies(tenant, change, account.id);
  answerScaChallenge(tenant, account.customerId, subjectOf(change, account.id), answer);
  if (change === 'trust') trusted(tenant).insert({ id: account.id, customerId: account.customerId, trustedAt: tenant.nowIso() });
  else trusted(tenant).delete(account.id);
  return { trusted: change === 'trust' };
}
