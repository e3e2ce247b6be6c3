import {
  ITIN_PATTERN, SSN_PATTERN, type BeneficialOwner, type BeneficialOwnerCreateRequest, type BeneficialOwnerListQuery,
  type BeneficialOwnerUpdateRequest, type Page, type VerificationState,
} from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { listPage } from '../core/pagination.js';
import { findCustomer } from '../customers/customers.js';

// Beneficial owners (SPEC §2.7, REFERENCE §5): the people who own or control a business customer.

type CreateInput = z.output<typeof BeneficialOwnerCreateRequest>;
type UpdateInput = z.output<typeof BeneficialOwnerUpdateRequest>;

/** Collection name of beneficial owners (other areas read owners through the functions below). */
export const BENEFICIAL_OWNERS = 'beneficialOwners';

const owners = (tenant: TenantContext) => tenant.store.collection<BeneficialOwner>(BENEFICIAL_OWNERS);

/**
 * An owner by id, or 404. Owners are returned as stored, `personalInfo.identifier` included (REFERENCE §5 lists it among
 * the required response fields; only an individual customer's own `identifier` is write-only).
 */
export function findOwner(tenant: TenantContext, ownerId: string): BeneficialOwner {
  const owner = owners(tenant).get(ownerId);
  if (!owner) throw notFound('Beneficial owner', ownerId);
  return owner;
}

/** The owners of a business customer, oldest first (stored records, identifier included). */
export const ownersOf = (tenant: TenantContext, customerId: string): BeneficialOwner[] => owners(tenant).findBy('customerId', customerId);

/**
 * `POST /beneficial-owners`: only for an existing, not deleted business customer, whatever its status (REFERENCE §5).
 * Owners start UNVERIFIED. An SSN or ITIN is issued by the US, so its countryOfIssuance defaults to US.
 */
export function createOwner(tenant: TenantContext, input: CreateInput): BeneficialOwner {
  const customer = findCustomer(tenant, input.customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customer.id} was deleted`);
  if (customer.customerType !== 'BUSINESS') throw invalidField('customerId', 'must be a BUSINESS customer: only businesses have beneficial owners');
  const now = tenant.nowIso();
  const { idType, countryOfIssuance } = input.personalInfo;
  const usIssued = idType === 'SSN' || idType === 'ITIN';
  const owner: BeneficialOwner = {
    id: tenant.ids('BeneficialOwner'),
    customerId: input.customerId,
    roles: input.roles,
    ownershipPercentage: input.ownershipPercentage,
    personalInfo: { ...input.personalInfo, ...(countryOfIssuance === undefined && usIssued ? { countryOfIssuance: 'US' } : {}) },
    kycStatus: 'UNVERIFIED',
    createdAt: now,
    updatedAt: now,
  };
  owners(tenant).insert(owner);
  return owner;
}

/** `PATCH /beneficial-owners/{id}`: any subset, at any status of the business; `personalInfo` is merged field by field. */
export function updateOwner(tenant: TenantContext, ownerId: string, input: UpdateInput): BeneficialOwner {
  const existing = findOwner(tenant, ownerId);
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
  return updated;
}

/** `GET /beneficial-owners?customerId=`. */
export function listOwners(tenant: TenantContext, query: z.output<typeof BeneficialOwnerListQuery>): Page<BeneficialOwner> {
  findCustomer(tenant, query.customerId);
  return listPage(owners(tenant), query, { where: { customerId: query.customerId } });
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
