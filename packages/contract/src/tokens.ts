import { z } from 'zod';
import { IdParam, MAX_LENGTH, Timestamp, cappedString, resourceId } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, TimeRangeQuery, pageOf } from './pagination.js';

// API tokens (REFERENCE §19): extra credentials of a platform, each with a set of permissions, authenticating with
// Basic auth like the platform's own. Which permissions each operation needs is the ACCESS table (access.ts).

export const TokenId = resourceId('Token').meta({ id: 'TokenId' });

/** `VIEW` reads all data; `TRANSACT` moves money; `MANAGE` changes configuration, tokens, customers and accounts. */
export const ApiTokenPermission = z.enum(['VIEW', 'TRANSACT', 'MANAGE']).meta({ id: 'ApiTokenPermission' });
export type ApiTokenPermission = z.infer<typeof ApiTokenPermission>;

/** An API token as every endpoint returns it; its secret only on create. */
export const ApiToken = z
  .object({
    id: TokenId,
    name: z.string(),
    permissions: z.array(ApiTokenPermission),
    /** The Basic-auth username of the token. */
    clientId: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiToken>;

/** `POST /tokens`' answer: the token with its `clientSecret`, shown this once and never stored. */
export const ApiTokenWithSecret = ApiToken.extend({ clientSecret: z.string() }).meta({ id: 'ApiTokenWithSecret' });
export type ApiTokenWithSecret = z.infer<typeof ApiTokenWithSecret>;

export const TokenCreateRequest = z
  .object({
    name: cappedString(MAX_LENGTH.name).trim().min(1),
    permissions: z.array(ApiTokenPermission).min(1, { message: 'must name at least one permission' }),
  })
  .meta({ id: 'TokenCreateRequest' });
export type TokenCreateRequest = z.input<typeof TokenCreateRequest>;

/** `GET /tokens`: by name, and created and updated ranges (inclusive). */
export const TokenListQuery = PageQuery.extend({ name: cappedString(MAX_LENGTH.name).optional(), ...TimeRangeQuery });
export type TokenListQuery = z.input<typeof TokenListQuery>;

const tag = 'API tokens';
const tokenParams = z.object({ tokenId: IdParam });

export const tokenEndpoints = {
  createToken: defineEndpoint({
    operationId: 'createToken', method: 'POST', path: '/tokens', tag, body: TokenCreateRequest,
    summary: 'Create an API token; its clientSecret is in this answer only',
    response: { status: 201, description: 'The token, with its secret', schema: ApiTokenWithSecret },
    secrets: { once: ['clientSecret'] },
  }),
  listTokens: defineEndpoint({
    operationId: 'listTokens', method: 'GET', path: '/tokens', tag, query: TokenListQuery, summary: 'List API tokens, newest first',
    response: { status: 200, description: 'A page of tokens', schema: pageOf(ApiToken) },
  }),
  getTokenById: defineEndpoint({
    operationId: 'getTokenById', method: 'GET', path: '/tokens/{tokenId}', tag, params: tokenParams, summary: 'Retrieve an API token',
    response: { status: 200, description: 'The token', schema: ApiToken }, errors: [404],
  }),
  deleteTokenById: defineEndpoint({
    operationId: 'deleteTokenById', method: 'DELETE', path: '/tokens/{tokenId}', tag, params: tokenParams,
    summary: 'Delete an API token: it stops authenticating at once',
    response: { status: 204, description: 'Deleted' }, errors: [404],
  }),
} as const;
