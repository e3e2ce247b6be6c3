import type { InternalAccountUpdateRequest, ListCustomerInternalAccountsQuery, WalletExport, WalletExportRequest } from '@railyard/contract/routes';
import { authEndpoints, internalAccountEndpoints } from '@railyard/contract/routes';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { SignedRequestOptions, SignedResult, StampedRequestOptions, UnstampedRequestOptions } from '../core/signed-retry.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';


/** Query of {@link InternalAccounts.list}: `customerId`, `currency`, `type`, `limit`, `cursor`. */
export type InternalAccountListParams = ListCustomerInternalAccountsQuery;
/** An account held at the service: balances and how to fund it. */
export type InternalAccount = PageItemOf<typeof internalAccountEndpoints.listCustomerInternalAccounts>;
/** Body of {@link InternalAccounts.update}: `{ privateEnabled }`, the embedded wallet's privacy. */
export type InternalAccountUpdateParams = InternalAccountUpdateRequest;
/** Body of {@link InternalAccounts.export}: `{ clientPublicKey }`, a fresh uncompressed P-256 key (`04…`, 130 hex). */
export type WalletExportParams = WalletExportRequest;
/** An exported wallet: `{ id, encryptedWalletCredentials }`, the mnemonic sealed to the export key (never stored by the service). */
export type { WalletExport };

/**
 * Customers' internal accounts, created automatically per configured currency with each customer. A USDB
 * account is an `EMBEDDED_WALLET`, with credentials and sessions ({@link Auth}) and the signed operations
 * {@link InternalAccounts.export} and {@link InternalAccounts.update}.
 */
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

  /**
   * Exports an embedded wallet's credentials (`POST /internal-accounts/{id}/export`): a signed operation, stamped by an
   * active session of the account. The answer seals the wallet's mnemonic to `clientPublicKey`, a fresh uncompressed
   * key per export (a `@railyard/wallet` `DecryptionKey`); open it with `decryptExportBundle` and the pinned enclave
   * key. The service never stores it: the signed retry is the only way to receive it, and a lapsed challenge means a
   * fresh export. A 200 `PROCESSING` is re-sent until the credentials come.
   *
   * ```ts
   * const exportKey = await DecryptionKey.generate();
   * const { encryptedWalletCredentials } = await client.internalAccounts.export(walletId,
   *   { clientPublicKey: exportKey.publicKeyUncompressedHex }, { stamper: session });
   * const mnemonic = await decryptExportBundle(encryptedWalletCredentials, exportKey, enclaveKey);
   * ```
   */
  export(accountId: string, body: WalletExportParams, options: StampedRequestOptions): Promise<WalletExport>;
  export(accountId: string, body: WalletExportParams, options?: UnstampedRequestOptions): Promise<SignedResult<'exportWallet'>>;
  export(accountId: string, body: WalletExportParams, options?: SignedRequestOptions): Promise<WalletExport | SignedResult<'exportWallet'>> {
    return this._client.signedRetry.signed('exportWallet', { params: { accountId }, body }, options);
  }

  /**
   * Changes an embedded wallet's privacy (`PATCH /internal-accounts/{id}`, `{ privateEnabled }`): a signed operation,
   * stamped by an active session of the account. Other account types reject with a {@link BadRequestError}.
   */
  update(accountId: string, body: InternalAccountUpdateParams, options: StampedRequestOptions): Promise<InternalAccount>;
  update(accountId: string, body: InternalAccountUpdateParams, options?: UnstampedRequestOptions): Promise<SignedResult<'updateInternalAccount'>>;
  update(
    accountId: string, body: InternalAccountUpdateParams, options?: SignedRequestOptions,
  ): Promise<InternalAccount | SignedResult<'updateInternalAccount'>> {
    return this._client.signedRetry.signed('updateInternalAccount', { params: { accountId }, body }, options);
  }
}
