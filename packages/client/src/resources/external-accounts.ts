import type { BeneficiaryTrust, BeneficiaryTrustChallenge, BeneficiaryTrustConfirmRequest, ExternalAccount, ExternalAccountCreateRequest, ListExternalAccountsQuery, ListPlatformExternalAccountsQuery, PlatformExternalAccountCreateRequest } from '@railyard/contract/routes';
import { beneficiaryTrustEndpoints, externalAccountEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { ExternalAccountOwnership } from './ownership.js';

/** Body of {@link ExternalAccounts.create}: `accountInfo` is a discriminated union on `accountType`. */
export type ExternalAccountCreateParams = ExternalAccountCreateRequest;
/** Body of {@link PlatformExternalAccounts.create}. */
export type PlatformExternalAccountCreateParams = PlatformExternalAccountCreateRequest;
/** Query of {@link ExternalAccounts.list}: `customerId`, `currency`, `limit`, `cursor`. */
export type ExternalAccountListParams = ListExternalAccountsQuery;
/** Query of {@link PlatformExternalAccounts.list}: `currency`, `limit`, `cursor`. */
export type PlatformExternalAccountListParams = ListPlatformExternalAccountsQuery;
/** A bank account or wallet outside the service. */
export type { ExternalAccount };
/** The answer to a trust or untrust challenge: the SMS `code` (or a passkey assertion), optionally naming the challenge. */
export type BeneficiaryTrustConfirmParams = BeneficiaryTrustConfirmRequest;
/** What `trust` / `untrust` return: the SCA challenge to answer. */
export type { BeneficiaryTrustChallenge };
/** The trust in force after a confirmed change. */
export type { BeneficiaryTrust };

/** Customers' external accounts: where payouts go; also `challenge`, `verify` and `proveOwnership`. */
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

  /** Deletes the account; 409 BENEFICIARY_TRUSTED while it is a trusted beneficiary (untrust it first). */
  delete(externalAccountId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(externalAccountEndpoints.deleteExternalAccount, { params: { externalAccountId } }, options) as APIPromise<void>;
  }

  /**
   * Starts trusting the account as a beneficiary (customers in SCA regions only; 409 otherwise). Nothing changes until
   * the returned `scaChallenge` is answered with {@link confirmTrust}.
   */
  trust(externalAccountId: string, options?: RequestOptions): APIPromise<BeneficiaryTrustChallenge> {
    return this._client.call(beneficiaryTrustEndpoints.trustExternalAccount, { params: { externalAccountId } }, options);
  }

  /** Answers the trust challenge (sandbox SMS code `123456`); a wrong code is 400 and counts towards the SCA lockout. */
  confirmTrust(externalAccountId: string, body: BeneficiaryTrustConfirmParams, options?: RequestOptions): APIPromise<BeneficiaryTrust> {
    return this._client.call(beneficiaryTrustEndpoints.confirmTrustExternalAccount, { params: { externalAccountId }, body }, options);
  }

  /** Starts removing the trust; answer the challenge with {@link confirmUntrust}. */
  untrust(externalAccountId: string, options?: RequestOptions): APIPromise<BeneficiaryTrustChallenge> {
    return this._client.call(beneficiaryTrustEndpoints.untrustExternalAccount, { params: { externalAccountId } }, options);
  }

  /** Answers the untrust challenge; afterwards the account can be deleted. */
  confirmUntrust(externalAccountId: string, body: BeneficiaryTrustConfirmParams, options?: RequestOptions): APIPromise<BeneficiaryTrust> {
    return this._client.call(beneficiaryTrustEndpoints.confirmUntrustExternalAccount, { params: { externalAccountId }, body }, options);
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
