import type { Customer, CustomerCreateRequest, CustomerUpdateRequest, EndUserTerms, KycLink, KycLinkCreateRequest, ListCustomersQuery, SignedRetryChallenge } from '@railyard/contract/routes';
import { contactVerificationEndpoints, customerEndpoints, kycLinkEndpoints } from '@railyard/contract/routes';
import { buildPath } from '../core/endpoint.js';
import { SignatureRequiredError } from '../core/errors.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import type { StampedRequestOptions } from '../core/signed-retry.js';
import { APIResource } from './resource.js';
import { CustomerBulkImports } from './bulk-imports.js';
import type { RailyardClient } from '../client.js';


/** Body of {@link Customers.create}: an individual or a business customer (fields with defaults optional). */
export type CustomerCreateParams = CustomerCreateRequest;
/** Body of {@link Customers.update}: a partial update that always carries `customerType`. */
export type CustomerUpdateParams = CustomerUpdateRequest;
/** Query of {@link Customers.list}: filters plus `limit` (1 to 100, default 20) and `cursor`. */
export type CustomerListParams = ListCustomersQuery;
/** A customer as the API returns it (individual or business, discriminated by `customerType`). */
export type { Customer };
/** The current end-user terms: `{ version, url }`. */
export type { EndUserTerms };
/** Body of {@link Customers.createKycLink}: an optional `{ redirectUri }` (https, or http for a local-development host); without one the hosted flow ends on its own page. */
export type KycLinkCreateParams = KycLinkCreateRequest;
/** A hosted verification link: `{ kycUrl, expiresAt, provider, token }`. */
export type { KycLink };

/** Customers: the people and businesses your platform onboards. */
export class Customers extends APIResource {
  /** Bulk import: upload a CSV of customers and follow the job that creates them. */
  readonly bulk: CustomerBulkImports;

  /** @param sleep - How `bulk.waitFor` sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>) {
    super(client);
    this.bulk = new CustomerBulkImports(client, sleep);
  }

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

  /**
   * Updates a customer (partial; `customerType` is required). Changing an email that EMAIL_OTP credentials of the
   * customer's embedded wallet are tied to is a signed action of the wallet: pass `updateSigned` a `stamper` (a session
   * key of the wallet, e.g. `@railyard/wallet`'s SessionKey) and the 202 → stamp → retry runs for you.
   */
  update(customerId: string, body: CustomerUpdateParams, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(customerEndpoints.updateCustomer, { params: { customerId }, body }, options)._thenUnwrap((data, raw) => {
      // 202: the change needs the wallet's signature; say so instead of handing the challenge back as a Customer.
      if (raw.response.status !== 202) return data;
      throw new SignatureRequiredError({
        status: 'SIGNATURE_REQUIRED', challenge: data as unknown as SignedRetryChallenge,
        request: { operationId: 'updateCustomer', method: 'PATCH', path: buildPath(customerEndpoints.updateCustomer.path, { customerId }), body },
      });
    });
  }

  /** {@link Customers.update} as a signed action, for an email tied to wallet credentials: stamped by `options.stamper`. */
  updateSigned(customerId: string, body: CustomerUpdateParams, options: StampedRequestOptions): Promise<Customer> {
    return this._client.signedRetry.signed('updateCustomer', { params: { customerId }, body }, options) as Promise<Customer>;
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

  // Contact verification and the hosted verification link (SPEC §3.4, §4.3).

  /**
   * Sends a one-time code to the customer's email (each call replaces the previous code; codes last 10 minutes; the
   * sandbox code is always `123456`). A channel the region does not require, or one already VERIFIED, rejects with a
   * {@link ConflictError}.
   */
  verifyEmail(customerId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(contactVerificationEndpoints.sendEmailVerificationCode, { params: { customerId } }, options);
  }

  /** Confirms the email with the code sent to it; a wrong, expired or unsent code rejects with a {@link BadRequestError} on `code`. */
  confirmEmail(customerId: string, code: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(contactVerificationEndpoints.confirmEmailVerification, { params: { customerId }, body: { code } }, options);
  }

  /** Sends a one-time code to the customer's phone number (see {@link Customers.verifyEmail}). */
  verifyPhone(customerId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(contactVerificationEndpoints.sendPhoneVerificationCode, { params: { customerId } }, options);
  }

  /** Confirms the phone number with the code sent to it (see {@link Customers.confirmEmail}). */
  confirmPhone(customerId: string, code: string, options?: RequestOptions): APIPromise<Customer> {
    return this._client.call(contactVerificationEndpoints.confirmPhoneVerification, { params: { customerId }, body: { code } }, options);
  }

  /**
   * Creates a single-use hosted verification link (KYC or KYB), valid for 30 minutes. Each call is a fresh link, sent
   * with an `Idempotency-Key` (generated unless given) so a retry returns the same one. Rejects with a
   * {@link ConflictError} while a contact channel is not VERIFIED. The customer's return to `redirectUri` means only
   * that the flow finished: the decision arrives by webhook or on the customer. Without `redirectUri` the flow ends on
   * a page of its own.
   */
  createKycLink(customerId: string, body: KycLinkCreateParams = {}, options?: RequestOptions): APIPromise<KycLink> {
    return this._client.call(kycLinkEndpoints.createKycLink, { params: { customerId }, body }, options);
  }
}
