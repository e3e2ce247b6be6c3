import { externalAccountEndpoints } from '@railyard/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { ExternalAccountOwnership } from './ownership.js';

/** Body of {@link ExternalAccounts.create}: `accountInfo` is a discriminated union on `accountType` (REFERENCE §3). */
export type ExternalAccountCreateParams = BodyParams<typeof externalAccountEndpoints.createExternalAccount>;
/** Body of {@link PlatformExternalAccounts.create}. */
export type PlatformExternalAccountCreateParams = BodyParams<typeof externalAccountEndpoints.createPlatformExternalAccount>;
/** Query of {@link ExternalAccounts.list}: `customerId`, `currency`, `limit`, `cursor`. */
export type ExternalAccountListParams = QueryParams<typeof externalAccountEndpoints.listExternalAccounts>;
/** Query of {@link PlatformExternalAccounts.list}: `currency`, `limit`, `cursor`. */
export type PlatformExternalAccountListParams = QueryParams<typeof externalAccountEndpoints.listPlatformExternalAccounts>;
/** A bank account or wallet outside the service (SPEC §2.1). */
export type ExternalAccount = ResultOf<typeof externalAccountEndpoints.getExternalAccount>;

/** Customers' external accounts (SPEC §4.4): where payouts go; also `challenge`, `verify` and `proveOwnership` (SPEC §4.1). */
export class ExternalAccounts extends ExternalAccountOwnership {
  /** Adds an account; 400 lists every invalid field (checksums included), 409 for a duplicate. */
  create(body: ExternalAccountCreateParams, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(externalAccountEndpoints.createExternalAccount, { body }, options);
  }

  list(query: ExternalAccountListParams = {}, options?: RequestOptions): PagePromise<ExternalAccount> {
    return this._client.callPage(externalAccountEndpoints.listExternalAccounts, { query }, options);
  }

  retrieve(externalAccountId: string, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(externalAccountEndpoints.getExternalAccount, { params: { externalAccountId } }, options);
  }

  delete(externalAccountId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(externalAccountEndpoints.deleteExternalAccount, { params: { externalAccountId } }, options) as APIPromise<void>;
  }
}

/** The platform's own external accounts; also `challenge`, `verify` and `proveOwnership` over the `/platform/...` paths. */
export class PlatformExternalAccounts extends ExternalAccountOwnership {
  protected override readonly defaultScope = 'platform';

  create(body: PlatformExternalAccountCreateParams, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(externalAccountEndpoints.createPlatformExternalAccount, { body }, options);
  }

  list(query: PlatformExternalAccountListParams = {}, options?: RequestOptions): PagePromise<ExternalAccount> {
    return this._client.callPage(externalAccountEndpoints.listPlatformExternalAccounts, { query }, options);
  }

  retrieve(externalAccountId: string, options?: RequestOptions): APIPromise<ExternalAccount> {
    return this._client.call(externalAccountEndpoints.getPlatformExternalAccount, { params: { externalAccountId } }, options);
  }

  delete(externalAccountId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(externalAccountEndpoints.deletePlatformExternalAccount, { params: { externalAccountId } }, options) as APIPromise<void>;
  }
}
