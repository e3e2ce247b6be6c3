import type { DelegatedKey, DelegatedKeyCreateRequest, ListDelegatedKeysQuery, ListDelegatedKeysResult } from '@railyard/contract/routes';
import { delegatedKeyEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { SignedRequestOptions, SignedResult, StampedRequestOptions, UnstampedRequestOptions } from '../core/signed-retry.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/**
 * A delegated key: a key the service holds for one embedded wallet funding one card (`fundingSourceId`, the card ×
 * wallet binding). `status`: `PENDING` (creation left after its second leg), `ACTIVE` (card pulls from the wallet
 * are approved with it), `REVOKED`.
 */
export type { DelegatedKey };
/** Body of {@link DelegatedKeys.create}: `cardId`, `internalAccountId` (the wallet, one of the card's funding sources), `nickname` (1–256). */
export type DelegatedKeyCreateParams = DelegatedKeyCreateRequest;
/** Query of {@link DelegatedKeys.list}: `accountId` and/or `fundingSourceId` (at least one). */
export type DelegatedKeyListParams = ListDelegatedKeysQuery;
/** The keys of a wallet or funding source: `{ data }`, not paginated, every status. */
export type DelegatedKeyList = ListDelegatedKeysResult;

/**
 * Delegated keys: until one is ACTIVE for a card's embedded-wallet funding source, card purchases cannot be funded
 * from that wallet. Creating one is a signed operation of two stamped legs, both stamped by an active session of the
 * wallet: with a `stamper` it is one call.
 *
 * ```ts
 * const key = await client.auth.delegatedKeys.create({ cardId, internalAccountId: walletId, nickname: 'Coffee card' }, { stamper: session });
 * await client.auth.delegatedKeys.revoke(key.id);
 * ```
 */
export class DelegatedKeys extends APIResource {
  /**
   * Creates a delegated key: three requests with the same body (the service makes the key pair; the stamped signer
   * leg leaves it PENDING; the stamped policy leg makes it ACTIVE). With a `stamper` (an active session of the wallet,
   * e.g. a `@railyard/wallet` `SessionKey`) it resolves with the ACTIVE key. Without one it resolves with
   * `SIGNATURE_REQUIRED`: stamp `challenge.payloadToSign` elsewhere and call `client.signedRetry.complete`, which
   * resolves with the next `SIGNATURE_REQUIRED`, and then, completed the same way, with the key.
   *
   * Rejects with a {@link NotFoundError} for an unknown card, an account that is no embedded wallet or does not fund
   * the card; a {@link ConflictError} while the funding source has an ACTIVE key; an {@link AuthenticationError} for a
   * refused stamp.
   */
  create(body: DelegatedKeyCreateParams, options: StampedRequestOptions): Promise<DelegatedKey>;
  create(body: DelegatedKeyCreateParams, options?: UnstampedRequestOptions): Promise<SignedResult<'createDelegatedKey'>>;
  create(body: DelegatedKeyCreateParams, options?: SignedRequestOptions): Promise<DelegatedKey | SignedResult<'createDelegatedKey'>> {
    return this._client.signedRetry.signed('createDelegatedKey', { body }, options);
  }

  /** The keys of a wallet (`accountId`) and/or of a funding source (`fundingSourceId`), every status, not paginated. */
  list(query: DelegatedKeyListParams, options?: RequestOptions): APIPromise<DelegatedKeyList> {
    return this._client.call(delegatedKeyEndpoints.listDelegatedKeys, { query }, options);
  }

  /** A key by id; a {@link NotFoundError} for an unknown one. */
  retrieve(delegatedKeyId: string, options?: RequestOptions): APIPromise<DelegatedKey> {
    return this._client.call(delegatedKeyEndpoints.getDelegatedKeyById, { params: { delegatedKeyId } }, options);
  }

  /** Revokes an ACTIVE key (no signature): it approves nothing from now on. A key that is not ACTIVE: 400. */
  revoke(delegatedKeyId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(delegatedKeyEndpoints.revokeDelegatedKey, { params: { delegatedKeyId } }, options) as APIPromise<void>;
  }
}
