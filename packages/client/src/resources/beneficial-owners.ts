import type { BeneficialOwner, BeneficialOwnerCreateRequest, BeneficialOwnerUpdateRequest, ListBeneficialOwnersQuery } from '@railyard/contract/routes';
import { beneficialOwnerEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** A person who owns or controls a business customer. */
export type { BeneficialOwner };
export type BeneficialOwnerCreateParams = BeneficialOwnerCreateRequest;
export type BeneficialOwnerUpdateParams = BeneficialOwnerUpdateRequest;
export type BeneficialOwnerListParams = ListBeneficialOwnersQuery;

/** Beneficial owners of business customers: every owner at 25% or more, plus one control person. */
export class BeneficialOwners extends APIResource {
  /** Registers an owner or control person. */
  create(body: BeneficialOwnerCreateParams, options?: RequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(beneficialOwnerEndpoints.createBeneficialOwner, { body }, options);
  }

  /** Retrieves an owner. */
  retrieve(beneficialOwnerId: string, options?: RequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(beneficialOwnerEndpoints.getBeneficialOwner, { params: { beneficialOwnerId } }, options);
  }

  /** Updates an owner; `personalInfo` is merged. */
  update(beneficialOwnerId: string, body: BeneficialOwnerUpdateParams, options?: RequestOptions): APIPromise<BeneficialOwner> {
    return this._client.call(beneficialOwnerEndpoints.updateBeneficialOwner, { params: { beneficialOwnerId }, body }, options);
  }

  /** Lists a business customer's owners. */
  list(query: BeneficialOwnerListParams, options?: RequestOptions): PagePromise<PageItemOf<typeof beneficialOwnerEndpoints.listBeneficialOwners>> {
    return this._client.callPage(beneficialOwnerEndpoints.listBeneficialOwners, { query }, options);
  }
}
