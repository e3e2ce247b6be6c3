import type { ListExchangeRatesQuery, ListExchangeRatesResult } from '@railyard/contract/routes';
import { paymentEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { QueryParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/**
 * Query of {@link ExchangeRates.list}: optionally `sourceCurrency` (else every currency the platform supports), one `destinationCurrency` or several (an array is
 * sent as a repeated query key), and `sendingAmount` in sending minor units (default 10000).
 */
export type ExchangeRateListParams = ListExchangeRatesQuery;
/** The rates of {@link ExchangeRates.list}: `{ data }`, one entry per destination currency. */
export type ExchangeRateList = ListExchangeRatesResult;
/**
 * An indicative rate for a corridor: `receivingAmount` for `sendingAmount`, `exchangeRate` (sending units
 * per receiving unit), `fees` (platform fees included), the default `destinationPaymentRail`, the sending amount range
 * and `updatedAt`.
 */
export type ExchangeRate = ExchangeRateList['data'][number];

/** Indicative exchange rates, fees included. Quotes fix the real amounts; these only estimate them. */
export class ExchangeRates extends APIResource {
  /**
   * Rates from a source currency (`GET /exchange-rates`), or without `sourceCurrency` from every currency the platform
   * supports, to the given destination currencies or, without `destinationCurrency`, to every currency the service
   * quotes (same-currency pairs left out). Rates are cached for about five minutes (`updatedAt`).
   *
   * ```ts
   * const { data } = await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'GBP'], sendingAmount: 10_000 });
   * for (const rate of data) console.log(rate.destinationCurrency.code, rate.receivingAmount, rate.fees.total);
   * ```
   *
   * An unknown currency rejects with a {@link BadRequestError} (`INVALID_CURRENCY`).
   */
  list(query: ExchangeRateListParams = {}, options?: RequestOptions): APIPromise<ExchangeRateList> {
    return this._client.call(paymentEndpoints.listExchangeRates, { query }, options);
  }
}
