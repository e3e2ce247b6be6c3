import {
  ITIN_PATTERN, SSN_PATTERN, type BeneficialOwner, type BeneficialOwnerCreateRequest, type BeneficialOwnerListQuery,
  type BeneficialOwnerUpdateRequest, type Page, type VerificationState,
} from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { findCustomer, statusOf } from '../customers/customers.js';

// Beneficial owners (SPEC §2.7, REFERENCE §5): the people who own or control a business customer.

type CreateInput = z.output<typeof BeneficialOwnerCreateRequest>;
type UpdateInput = z.output<typeof BeneficialOwnerUpdateRequest>;

/** Collection name of beneficial owners (other areas read owners through the functions below). */
export const BENEFICIAL_OWNERS = 'beneficialOwners';

const owners = (tenant: TenantContext) => tenant.store.collection<BeneficialOwner>(BENEFICIAL_OWNERS);

/** An owner as the API returns it: `personalInfo.identifier` is write-only, like a customer's. */
export function ownerView(owner: BeneficialOwner): BeneficialOwner {
  if (owner.personalInfo.identifier === undefined) return owner;
  const { identifier: _writeOnly, ...personalInfo } = owner.personalInfo;
  return { ...owner, personalInfo };
}

/** An owner by id, or 404. */
export function findOwner(tenant: TenantContext, ownerId: string): BeneficialOwner {
  const owner = owners(tenant).get(ownerId);
  if (!owner) throw notFound('Beneficial owner', ownerId);
  return owner;
}

/** The owners of a business customer, oldest first (stored records, identifier included). */
export const ownersOf = (tenant: TenantContext, customerId: string): BeneficialOwner[] => owners(tenant).findBy('customerId', customerId);

/** `POST /beneficial-owners`: only for an existing, not deleted business customer. Owners start UNVERIFIED. */
export function createOwner(tenant: TenantContext, input: CreateInput): BeneficialOwner {
  const customer = findCustomer(tenant, input.customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customer.id} was deleted`);
  if (customer.customerType !== 'BUSINESS') throw invalidField('customerId', 'must be a BUSINESS customer: only businesses have beneficial owners');
  assertOwnersOpen(customer.id, statusOf(customer));
  const now = tenant.nowIso();
  const owner: BeneficialOwner = {
    id: tenant.ids('BeneficialOwner'),
    customerId: input.customerId,
    roles: input.roles,
    ownershipPercentage: input.ownershipPercentage,
    personalInfo: { ...input.personalInfo, countryOfIssuance: input.personalInfo.countryOfIssuance ?? 'US' },
    kycStatus: 'UNVERIFIED',
    createdAt: now,
    updatedAt: now,
  };
  owners(tenant).insert(owner);
  return ownerView(owner);
}

/** `PATCH /beneficial-owners/{id}`: any subset; `personalInfo` is merged field by field. */
export function updateOwner(tenant: TenantContext, ownerId: string, input: UpdateInput): BeneficialOwner {
  const existing = findOwner(tenant, ownerId);
  assertOwnersOpen(existing.customerId, statusOf(findCustomer(tenant, existing.customerId)));
  const personalInfo = { ...existing.personalInfo, ...input.personalInfo };
  const identifierProblem = identifierError(personalInfo);
  if (identifierProblem) throw invalidField('personalInfo.identifier', identifierProblem, { pattern: identifierPatternOf(personalInfo.idType)!.source });
  const updated: BeneficialOwner = {
    ...existing,
    ...(input.roles === undefined ? {} : { roles: input.roles }),
    ...(input.ownershipPercentage === undefined ? {} : { ownershipPercentage: input.ownershipPercentage }),
    personalInfo,
    updatedAt: tenant.nowIso(),
  };
  owners(tenant).replace(updated);
  return ownerView(updated);
}

/** `GET /beneficial-owners?customerId=`. */
export function listOwners(tenant: TenantContext, query: z.output<typeof BeneficialOwnerListQuery>): Page<BeneficialOwner> {
  findCustomer(tenant, query.customerId);
  const entries = owners(tenant).newestFirst().filter(({ value }) => value.customerId === query.customerId);
  return paginate(entries, query, ownerView);
}

/** Owners are evidence of a business's verification: fixed while it is reviewed and once it is decided. */
function assertOwnersOpen(customerId: string, status: VerificationState) {
  if (status === 'PENDING' || status === 'APPROVED' || status === 'REJECTED') {
    throw new ApiError(409, 'INVALID_STATE_TRANSITION', `Customer ${customerId} is ${status}; its beneficial owners can no longer change`);
  }
}

const identifierPatternOf = (idType: string | undefined) => (idType === 'SSN' ? SSN_PATTERN : idType === 'ITIN' ? ITIN_PATTERN : undefined);

/** An SSN or ITIN must keep its format after a PATCH changes either the type or the number. */
function identifierError(info: { idType?: string; identifier?: string }): string | undefined {
  const pattern = identifierPatternOf(info.idType);
  return pattern && info.identifier !== undefined && !pattern.test(info.identifier) ? `is not a valid ${info.idType}` : undefined;
}

/** Sets an owner's KYC status (when its business resolves). */
export function setOwnerStatus(tenant: TenantContext, ownerId: string, kycStatus: VerificationState): void {
  const owner = findOwner(tenant, ownerId);
  owners(tenant).replace({ ...owner, kycStatus, updatedAt: tenant.nowIso() });
}
