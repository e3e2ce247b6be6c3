import type { ApiToken, ApiTokenWithSecret, ListTokensQuery, TokenCreateRequest } from '@railyard/contract/routes';
import { tokenEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** An API token: `permissions` from VIEW, TRANSACT, MANAGE; its `clientId` is the Basic-auth user. */
export type { ApiToken };
/** {@link Tokens.create}'s answer: the token with its `clientSecret`, shown this once. */
export type { ApiTokenWithSecret };
/** Body of {@link Tokens.create}: `name`, `permissions`. */
export type TokenCreateParams = TokenCreateRequest;
/** Query of {@link Tokens.list}: `name`, `createdAfter`/`Before`, `updatedAfter`/`Before`, `limit`, `cursor`. */
export type TokenListParams = ListTokensQuery;

/**
 * API tokens: extra credentials for the platform, each limited to its permissions (an operation it lacks the
 * permission for rejects with a 403 `FORBIDDEN` naming it). Use one with `createClient({ clientId, clientSecret })`.
 *
 * ```ts
 * const token = await client.tokens.create({ name: 'reporting', permissions: ['VIEW'] });
 * const reporting = client.withOptions({ clientId: token.clientId, clientSecret: token.clientSecret });
 * ```
 */
export class Tokens extends APIResource {
  /** Creates a token; keep its `clientSecret` now, it is never shown again. */
  create(body: TokenCreateParams, options?: RequestOptions): APIPromise<ApiTokenWithSecret> {
    return this._client.call(tokenEndpoints.createToken, { body }, options);
  }

  /** Lists tokens, newest first; iterate with `for await` for every one across pages. */
  list(query: TokenListParams = {}, options?: RequestOptions): PagePromise<ApiToken> {
    return this._client.callPage(tokenEndpoints.listTokens, { query }, options);
  }

  /** A token by id; a {@link NotFoundError} `TOKEN_NOT_FOUND` for an unknown one. */
  retrieve(tokenId: string, options?: RequestOptions): APIPromise<ApiToken> {
    return this._client.call(tokenEndpoints.getTokenById, { params: { tokenId } }, options);
  }

  /** Deletes a token: requests with it fail at once (401). */
  delete(tokenId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(tokenEndpoints.deleteTokenById, { params: { tokenId } }, options) as APIPromise<void>;
  }
}
