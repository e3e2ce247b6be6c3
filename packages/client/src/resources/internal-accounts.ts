import { internalAccountEndpoints } from '@railyard/contract';
import type { PageItemOf, QueryParams } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';


/** Query of {@link InternalAccounts.list}: `customerId`, `currency`, `type`, `limit`, `cursor`. */
export type InternalAccountListParams = QueryParams<typeof internalAccountEndpoints.listCustomerInternalAccounts>;
/** An account held at the service (REFERENCE §2.2): balances and how to fund it. */
export type InternalAccount = PageItemOf<typeof internalAccountEndpoints.listCustomerInternalAccounts>;

/** Customers' internal accounts (SPEC §4.4), created automatically per configured currency with each customer. */
export class InternalAccounts extends APIResource {
  /**
   * Lists customers' internal accounts, typically of one customer:
   *
   * ```ts
   * const page = await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
   * ```
   */
  list(query: InternalAccountListParams = {}, options?: RequestOptions): PagePromise<InternalAccount> {
    return this._client.callPage(internalAccountEndpoints.listCustomerInternalAccounts, { query }, options);
  }
}
