import { configEndpoints } from '@railyard/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** The platform's configuration (REFERENCE §10). */
export type PlatformConfig = ResultOf<typeof configEndpoints.getConfig>;

/** Platform configuration: supported currencies and what their providers require of customers. */
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
}
