import { z } from 'zod';
import { IdParam } from './common.js';
import { defineEndpoint } from './endpoint.js';
import {
  BeneficialOwner, BeneficialOwnerCreateRequest, BeneficialOwnerListQuery, BeneficialOwnerUpdateRequest, Verification,
  VerificationCreateRequest, VerificationListQuery,
} from './onboarding.js';
import { pageOf } from './pagination.js';

// Verifications and beneficial owners (SPEC §4.3, REFERENCE §5, §12).

const VerificationPath = z.object({ verificationId: IdParam });
const BeneficialOwnerPath = z.object({ beneficialOwnerId: IdParam });

/** A reviewer's decision on a verification in manual review (Railyard control plane). */
export const VerificationDecisionRequest = z
  .object({ decision: z.enum(['APPROVED', 'REJECTED', 'HOLD']) })
  .meta({ id: 'VerificationDecisionRequest' });
export type VerificationDecisionRequest = z.input<typeof VerificationDecisionRequest>;

export const verificationEndpoints = {
  createVerification: defineEndpoint({
    operationId: 'createVerification', method: 'POST', path: '/verifications', tag: 'Verifications',
    summary: "Submit a customer's verification packet",
    description:
      'Returns RESOLVE_ERRORS with one error per problem, or IN_PROGRESS / PENDING_MANUAL_REVIEW / a decision. While a ' +
      'verification is under review, submitting again returns it unchanged.',
    body: VerificationCreateRequest,
    response: { status: 200, description: 'The verification', schema: Verification },
    errors: [409],
  }),
  listVerifications: defineEndpoint({
    operationId: 'listVerifications', method: 'GET', path: '/verifications', tag: 'Verifications',
    summary: 'List verifications, newest first', query: VerificationListQuery,
    response: { status: 200, description: 'A page of verifications', schema: pageOf(Verification) },
  }),
  getVerification: defineEndpoint({
    operationId: 'getVerification', method: 'GET', path: '/verifications/{verificationId}', tag: 'Verifications',
    summary: 'Retrieve a verification', params: VerificationPath,
    response: { status: 200, description: 'The verification', schema: Verification },
  }),
  decideSandboxVerification: defineEndpoint({
    operationId: 'decideSandboxVerification', method: 'POST', path: '/_sandbox/verifications/{verificationId}/decide',
    tag: 'Sandbox control plane', controlPlane: true, params: VerificationPath,
    summary: 'Decide a verification in manual review, as the service operator would',
    body: VerificationDecisionRequest,
    response: { status: 200, description: 'The decided verification', schema: Verification },
    errors: [409],
  }),
} as const;

export const beneficialOwnerEndpoints = {
  createBeneficialOwner: defineEndpoint({
    operationId: 'createBeneficialOwner', method: 'POST', path: '/beneficial-owners', tag: 'Beneficial owners',
    summary: 'Register an owner or control person of a business customer', body: BeneficialOwnerCreateRequest,
    response: { status: 201, description: 'The beneficial owner', schema: BeneficialOwner },
  }),
  listBeneficialOwners: defineEndpoint({
    operationId: 'listBeneficialOwners', method: 'GET', path: '/beneficial-owners', tag: 'Beneficial owners',
    summary: "List a business customer's beneficial owners", query: BeneficialOwnerListQuery,
    response: { status: 200, description: 'A page of beneficial owners', schema: pageOf(BeneficialOwner) },
  }),
  getBeneficialOwner: defineEndpoint({
    operationId: 'getBeneficialOwner', method: 'GET', path: '/beneficial-owners/{beneficialOwnerId}', tag: 'Beneficial owners',
    summary: 'Retrieve a beneficial owner', params: BeneficialOwnerPath,
    response: { status: 200, description: 'The beneficial owner', schema: BeneficialOwner },
  }),
  updateBeneficialOwner: defineEndpoint({
    operationId: 'updateBeneficialOwner', method: 'PATCH', path: '/beneficial-owners/{beneficialOwnerId}', tag: 'Beneficial owners',
    summary: 'Update a beneficial owner (partial; personalInfo is merged)', params: BeneficialOwnerPath,
    body: BeneficialOwnerUpdateRequest,
    response: { status: 200, description: 'The updated beneficial owner', schema: BeneficialOwner },
  }),
} as const;
