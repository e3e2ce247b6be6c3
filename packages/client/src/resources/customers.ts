import { customerEndpoints } from '@railyard/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';


/** Body of {@link Customers.create}: an individual or a business customer (`z.input` of the contract schema). */
export type CustomerCreateParams = BodyParams<typeof customerEndpoints.createCustomer>;
/** Body of {@link Customers.update}: a partial update that always carries `customerType`. */
export type CustomerUpdateParams = BodyParams<typeof customerEndpoints.updateCustomer>;
/** Query of {@link Customers.list}: filters plus `limit` (1 to 100, default 20) and `cursor`. */
export type CustomerListParams = QueryParams<typeof customerEndpoints.listCustomers>;
/** A customer as the API returns it (individual or business, discriminated by `customerType`). */
export type Customer = ResultOf<typeof customerEndpoints.getCustomer>;
/** The current end-user terms: `{ version, url }`. */
export type EndUserTerms = ResultOf<typeof customerEndpoints.getEndUserTerms>;

/** Customers (SPEC §4.3): the people and businesses your platform onboards. */
export class Customers extends APIResource {
  /**
   * Creates an individual (KYC) or business (KYB) customer. Sent with an `Idempotency-Key` (generated unless
   * given), so it is retried safely. A duplicate `platformCustomerId` rejects with a {@link ConflictError}.
   */
  create(body: CustomerCreateParams, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(customerEndpoints.createCustomer, { body }, options);
  }

  /** Retrieves a customer by id. An unknown id rejects with a {@link NotFoundError}. */
  retrieve(customerId: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(customerEndpoints.getCustomer, { params: { customerId } }, options);
  }

  /** Updates a customer: only the given fields change; `customerType` must match the customer's. */
  update(customerId: string, body: CustomerUpdateParams, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(customerEndpoints.updateCustomer, { params: { customerId }, body }, options);
  }

  /**
   * Lists customers, newest first. `await` it for the first page, or iterate every customer across pages:
   *
   * ```ts
   * for await (const customer of client.customers.list({ customerType: 'BUSINESS' })) console.log(customer.id);
   * ```
   */
  list(query: CustomerListParams = {}, options?: RequestOptions): PagePromise<PageItemOf<typeof customerEndpoints.listCustomers>> {
    return this._client.callPage(customerEndpoints.listCustomers, { query }, options);
  }

  /** Deletes a customer and returns it with `isDeleted: true`. A second delete rejects with a {@link GoneError}. */
  delete(customerId: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(customerEndpoints.deleteCustomer, { params: { customerId } }, options);
  }

  /** The current end-user terms URL and version, to record a customer's consent against. */
  endUserTerms(options?: RequestOptions): APIPromise<EndUserTerms> {
    return this._client.call(customerEndpoints.getEndUserTerms, {}, options);
  }
}
