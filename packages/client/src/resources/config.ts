import type { PlatformConfig, PlatformConfigUpdateRequest } from '@railyard/contract/routes';
import { configEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** The platform's configuration. */
export type { PlatformConfig };
/**
 * Body of {@link Config.update}: `feeConfigs`, `supportedCurrencies` (amount terms per currency), `umaDomain`,
 * `webhookEndpoint`, `embeddedWalletConfig`, `cardTokenization2faConfig`; every field optional.
 */
export type PlatformConfigUpdateParams = PlatformConfigUpdateRequest;

/** Platform configuration: supported currencies and what their providers require of customers, fees, branding. */
export class Config extends APIResource {
  /**
   * The configuration, e.g. to learn which customer fields a currency requires before creating customers:
   *
   * ```ts
   * const { supportedCurrencies } = await client.config.retrieve();
   * ```
   */
  retrieve(options?: RequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(configEndpoints.getConfig, {}, options);
  }

  /**
   * Changes the configuration and returns the one now in force. `feeConfigs` merge by (feeType, sourceCurrency) and a
   * fee whose two parts are zero is removed; only USD sources are implemented (others reject with an
   * {@link InternalServerError} of status 501). `supportedCurrencies` items replace the terms of their currency; the
   * nested configs are partial updates.
   *
   * ```ts
   * await client.config.update({
   *   feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }],
   * });
   * ```
   */
  update(body: PlatformConfigUpdateParams, options?: RequestOptions): APIPromise<PlatformConfig> {
    return this._client.call(configEndpoints.updateConfig, { body }, options);
  }
}
