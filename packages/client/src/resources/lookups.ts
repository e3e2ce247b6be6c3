import type { CryptoWithdrawalFeeEstimate, CryptoWithdrawalFeeRequest, GetAvailableUmaProvidersQuery, GetDiscoveriesQuery, ListVaspsQuery } from '@railyard/contract/routes';
import { lookupEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** A bank of the directory: its `bankName` goes into an external account's `accountInfo.bankName`. */
export type Discovery = NonNullable<ResultOf<typeof lookupEndpoints.getDiscoveries>['data']>[number];
/** Query of {@link Discoveries.list}: `country` (ISO 3166-1 alpha-2) and/or `currency`. */
export type DiscoveryListParams = GetDiscoveriesQuery;
/** A VASP: its `vaspName` is what a custodial wallet account names. */
export type Vasp = ResultOf<typeof lookupEndpoints.listVasps>['data'][number];
/** Query of {@link Vasps.list}: `limit`, `cursor`. */
export type VaspListParams = ListVaspsQuery;
/** An UMA provider: name, domain, regions and currencies it serves, LEI, allow-list status. */
export type UmaProvider = ResultOf<typeof lookupEndpoints.getAvailableUmaProviders>['data'][number];
/** Query of {@link UmaProviders.list}: `countryCode`, `currencyCode`, `hasBlockedProviders`, `sortOrder`, `limit`, `cursor`. */
export type UmaProviderListParams = GetAvailableUmaProvidersQuery;
/** Body of {@link Crypto.estimateWithdrawalFee}: all five fields are required. */
export type CryptoWithdrawalFeeParams = CryptoWithdrawalFeeRequest;
/** The fees of a withdrawal: `networkFee` in `networkFeeAsset` units; the rest in the withdrawal currency. */
export type { CryptoWithdrawalFeeEstimate };

/** The bank directory: banks to name in external accounts. */
export class Discoveries extends APIResource {
  /**
   * The banks of a country and/or currency (every bank without either); not paged.
   *
   * ```ts
   * const [bank] = await client.discoveries.list({ country: 'MX', currency: 'MXN' });
   * // accountInfo: { accountType: 'MXN_ACCOUNT', bankName: bank.bankName, ... }
   * ```
   */
  async list(query: DiscoveryListParams = {}, options?: RequestOptions): Promise<Discovery[]> {
    return (await this._client.call(lookupEndpoints.getDiscoveries, { query }, options)).data ?? [];
  }
}

/** The VASPs a custodial wallet account can name as `vaspName`. */
export class Vasps extends APIResource {
  /** A page of VASPs (its `totalCount` is absent: the service does not count them); `for await` walks every page. */
  list(query: VaspListParams = {}, options?: RequestOptions): PagePromise<Vasp> {
    return this._client.callPage(lookupEndpoints.listVasps, { query }, options);
  }
}

/** The UMA providers whose users a platform can pay. */
export class UmaProviders extends APIResource {
  /** A page of providers, the latest to join first; blocked ones too unless `hasBlockedProviders: 'false'`. */
  list(query: UmaProviderListParams = {}, options?: RequestOptions): PagePromise<UmaProvider> {
    return this._client.callPage(lookupEndpoints.getAvailableUmaProviders, { query }, options);
  }
}

/** Crypto withdrawals from internal accounts. */
export class Crypto extends APIResource {
  /**
   * What a withdrawal to an on-chain address costs, and what arrives: the fees come out of `amount`. A network the
   * service does not withdraw on, a currency that network does not carry or an address not of that network rejects
   * with a {@link BadRequestError} `INVALID_INPUT`; an amount the fees would swallow with `AMOUNT_OUT_OF_RANGE`.
   */
  estimateWithdrawalFee(body: CryptoWithdrawalFeeParams, options?: RequestOptions): APIPromise<CryptoWithdrawalFeeEstimate> {
    return this._client.call(lookupEndpoints.estimateCryptoWithdrawalFee, { body }, options);
  }
}
