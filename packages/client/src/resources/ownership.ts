import type { ExternalAccount, OwnershipChallenge, OwnershipVerifyRequest } from '@railyard/contract/routes';
import { ownershipEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** Request options without this resource's own `scope` and `signatureScheme` keys. */
const requestOptions = (options?: RequestOptions & { scope?: unknown; signatureScheme?: unknown }): RequestOptions | undefined => {
  if (!options) return undefined;
  const { scope: _scope, signatureScheme: _scheme, ...rest } = options;
  return rest;
};

/** A started ownership challenge: a message to sign (WALLET_SIGNATURE) or a hosted liveness link (LIVENESS). */
export type { OwnershipChallenge };
/** Body of a verify call: the signature and, for Bitcoin, `signatureScheme` (`bip137` default, or `electrum`). */
export type OwnershipVerifyParams = OwnershipVerifyRequest;
/** The external account a successful verify returns (ACTIVE). */
export type VerifiedExternalAccount = ExternalAccount;

/** Whose account: a customer's (`/customers/external-accounts/...`) or the platform's own (`/platform/...`). */
export interface OwnershipScope {
  /** Defaults to the resource's own: `customer` on `client.externalAccounts`, `platform` on `client.platformExternalAccounts`. */
  scope?: 'customer' | 'platform';
}

/**
 * Wallet ownership proofs: start a challenge, submit the signature over the exact `messageToSign`.
 *
 * ```ts
 * const account = await ownership.proveOwnership(wallet.id, (message) => viemAccount.signMessage({ message }));
 * account.status; // 'ACTIVE'
 * ```
 */
export class ExternalAccountOwnership extends APIResource {
  /** The paths used when a call names no `scope`. */
  protected readonly defaultScope: 'customer' | 'platform' = 'customer';

  /** Starts a WALLET_SIGNATURE or LIVENESS challenge (409 unless a FIRST_PARTY self-custody wallet awaiting verification). */
  challenge(
    externalAccountId: string,
    body: BodyParams<typeof ownershipEndpoints.createCustomerExternalAccountChallenge>,
    options?: RequestOptions & OwnershipScope,
  ): APIPromise<OwnershipChallenge> {
    const endpoint = (options?.scope ?? this.defaultScope) === 'platform'
      ? ownershipEndpoints.createPlatformExternalAccountChallenge
      : ownershipEndpoints.createCustomerExternalAccountChallenge;
    return this._client.call(endpoint, { params: { externalAccountId }, body }, requestOptions(options));
  }

  /** Submits a signature for the outstanding WALLET_SIGNATURE challenge; 400 (account UNVERIFIED) if invalid or expired. */
  verify(externalAccountId: string, body: OwnershipVerifyParams, options?: RequestOptions & OwnershipScope): APIPromise<VerifiedExternalAccount> {
    const endpoint = (options?.scope ?? this.defaultScope) === 'platform'
      ? ownershipEndpoints.verifyPlatformExternalAccountOwnership
      : ownershipEndpoints.verifyCustomerExternalAccountOwnership;
    return this._client.call(endpoint, { params: { externalAccountId }, body }, requestOptions(options));
  }

  /**
   * Starts a WALLET_SIGNATURE challenge, has `sign` sign the exact message, and submits the signature.
   * `sign` returns the wallet's encoding: EIP-191 hex (EVM), base58 Ed25519 (Solana) or base64 BIP-137/Electrum (Bitcoin).
   */
  async proveOwnership(
    externalAccountId: string,
    sign: (message: string) => Promise<string>,
    options?: RequestOptions & OwnershipScope & { signatureScheme?: OwnershipVerifyParams['signatureScheme'] },
  ): Promise<VerifiedExternalAccount> {
    const challenge = await this.challenge(externalAccountId, { method: 'WALLET_SIGNATURE' }, options);
    if (challenge.method !== 'WALLET_SIGNATURE') throw new Error('expected a WALLET_SIGNATURE challenge');
    const signature = await sign(challenge.messageToSign);
    const body: OwnershipVerifyParams = options?.signatureScheme ? { signature, signatureScheme: options.signatureScheme } : { signature };
    return this.verify(externalAccountId, body, options);
  }
}
