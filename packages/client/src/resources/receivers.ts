import type { ExternalAccountReceiverLookup, LookupExternalAccountQuery, LookupUmaReceiverQuery, UmaReceiverLookup } from '@railyard/contract/routes';
import { lookupEndpoints, umaEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { QueryParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** Query of {@link Receivers.lookupUma}: the paying `customerId`, the `senderUmaAddress` it pays from, or both (one is required). */
export type UmaLookupParams = LookupUmaReceiverQuery;
/** Who receives at an UMA address: the `lookupId` to quote with, the currencies it takes and the payer data it asks for. */
export type { UmaReceiverLookup };
/** Query of {@link Receivers.lookupExternalAccount}: the same as the UMA lookup's. */
export type ExternalAccountLookupParams = LookupExternalAccountQuery;
/** What an external account receives: the `lookupId` to quote with and its currency with the amounts it takes. */
export type { ExternalAccountReceiverLookup };

/** Receivers of payments: look one up before quoting a payment to it. */
export class Receivers extends APIResource {
  /**
   * Looks up the receiver at an UMA address (`$<username>@<domain>`; the address is URL-encoded into the path). Quote the
   * payment with the returned `lookupId`, for the same paying customer:
   *
   * ```ts
   * const receiver = await client.receivers.lookupUma('$success.usd@uma.sandbox.railyard.dev', { customerId });
   * await client.quotes.create({
   *   source: { sourceType: 'ACCOUNT', accountId },
   *   destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver.receiverUmaAddress, currency: 'USD' },
   *   lookupId: receiver.lookupId,
   *   lockedCurrencySide: 'SENDING',
   *   lockedCurrencyAmount: 2_500,
   * });
   * ```
   *
   * Without `customerId` or `senderUmaAddress` it rejects with a {@link BadRequestError} (`INVALID_INPUT`, naming both).
   * A malformed address rejects with a {@link BadRequestError} (`INVALID_UMA_ADDRESS`), an address nobody receives at
   * with a {@link NotFoundError} (`UMA_NOT_FOUND`). A counterparty that fails rejects with a
   * {@link PreconditionFailedError} (`UNSUPPORTED_UMA_VERSION`), a {@link FailedDependencyError} (`LNURLP_REQUEST_FAILED`,
   * `COUNTERPARTY_PUBKEY_FETCH_ERROR`, `NO_COMPATIBLE_UMA_VERSION`) or a {@link BadRequestError} (its answer, keys,
   * certificates or signature do not check out). `requiredPayerDataFields` lists the payer data the receiver asks for:
   * give the mandatory ones in the quote's `senderCustomerInfo` unless the paying customer has them.
   */
  lookupUma(address: string, query: UmaLookupParams = {}, options?: RequestOptions): APIPromise<UmaReceiverLookup> {
    return this._client.call(umaEndpoints.lookupUmaReceiver, { params: { receiverUmaAddress: address }, query }, options);
  }

  /**
   * Looks up the receiver behind an external account. Quote a payment to the account with the returned `lookupId`
   * (optional for accounts, but when given it must be this account's):
   *
   * ```ts
   * const receiver = await client.receivers.lookupExternalAccount(externalAccountId, { customerId });
   * await client.quotes.create({
   *   source: { sourceType: 'ACCOUNT', accountId },
   *   destination: { destinationType: 'ACCOUNT', accountId: receiver.accountId },
   *   lookupId: receiver.lookupId,
   *   lockedCurrencySide: 'SENDING',
   *   lockedCurrencyAmount: 2_500,
   * });
   * ```
   *
   * An unknown account rejects with a {@link NotFoundError} (`REFERENCE_NOT_FOUND`); a query without `customerId` or
   * `senderUmaAddress` with a {@link BadRequestError} (`INVALID_INPUT`).
   */
  lookupExternalAccount(accountId: string, query: ExternalAccountLookupParams = {}, options?: RequestOptions): APIPromise<ExternalAccountReceiverLookup> {
    return this._client.call(lookupEndpoints.lookupExternalAccount, { params: { accountId }, query }, options);
  }
}
