/**
 * API tokens (REFERENCE §19): extra Basic-auth credentials of a platform, each limited to its permissions (the
 * contract's ACCESS table). A token's secret is shown once, on create; only its SHA-256 is kept, so a snapshot holds no
 * secret. A deleted token stops authenticating at once: every request reads the token's record. A credential grants
 * only what it holds: a token makes tokens (and agents, and restores state) with no permission it lacks.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { ApiToken, ApiTokenPermission, ApiTokenWithSecret, Page } from '@railyard/contract';
import { bytesToHex, missingPermissions, TokenCreateRequest, TokenListQuery } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import type { CredentialDirectory } from '../core/directory.js';
import { ApiError, notFound } from '../core/errors.js';
import { randomHex } from '../core/ids.js';
import { definedOnly, listPage, timeRanges } from '../core/pagination.js';
import { onField } from '../core/store.js';
import type { Principal } from '../http/app.js';
import { constantTimeEqual, parseBasic, type Platform, type PlatformRegistry } from '../platforms/registry.js';

export const API_TOKENS = 'apiTokens';

/** A token as kept: the API's fields and the SHA-256 of its secret (hex). */
export const ApiTokenRecord = z.object({
  id: z.string(), name: z.string(), permissions: z.array(z.enum(['VIEW', 'TRANSACT', 'MANAGE'])), clientId: z.string(),
  createdAt: z.string(), updatedAt: z.string(), secretSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The client id of the platform that issued it: a restore makes it work again only there (core/directory.ts). */
  issuer: z.string().optional(),
});
export type ApiTokenRecord = z.infer<typeof ApiTokenRecord>;

const tokens = (tenant: TenantContext) => tenant.store.collection<ApiTokenRecord>(API_TOKENS, {
  indexes: { clientId: onField('clientId'), name: onField('name') },
  createdAt: (t) => Date.parse(t.createdAt),
});

const secretHash = (secret: string): string => bytesToHex(sha256(new TextEncoder().encode(secret)));
const view = ({ secretSha256: _hash, issuer: _issuer, ...token }: ApiTokenRecord): ApiToken => token;

/**
 * 403 FORBIDDEN unless `holder` (an API token's permissions; undefined for the platform's own credentials, which hold
 * them all) holds every permission of `wanted`: a credential may grant only what it holds itself.
 */
export function assertMayGrant(holder: readonly ApiTokenPermission[] | undefined, wanted: readonly ApiTokenPermission[], what: string): void {
  const missing = missingPermissions(holder, wanted);
  if (missing.length > 0) {
    throw new ApiError(403, 'FORBIDDEN', `${what} would grant ${missing.join(' and ')}, which this API token does not hold (it has ${holder!.join(', ')}): a credential grants only what it holds`, {
      rule: 'grant', missingPermissions: missing,
    });
  }
}

/** `POST /tokens`: a random client id, found again through the engine's credential directory; only what the caller holds. */
export function createToken(tenant: TenantContext, request: z.output<typeof TokenCreateRequest>, holder?: readonly ApiTokenPermission[]): ApiTokenWithSecret {
  const permissions = [...new Set(request.permissions)];
  assertMayGrant(holder, permissions, 'This token');
  const now = tenant.nowIso();
  const clientSecret = randomHex(32);
  const record: ApiTokenRecord = {
    id: tenant.ids('Token'), name: request.name, permissions, clientId: randomHex(16),
    createdAt: now, updatedAt: now, secretSha256: secretHash(clientSecret), issuer: tenant.platform.clientId,
  };
  tokens(tenant).insert(record);
  tenant.directory.register('apiToken', record.clientId, tenant.platform.id);
  return { ...view(record), clientSecret };
}

export function listTokens(tenant: TenantContext, query: z.output<typeof TokenListQuery>): Page<ApiToken> {
  return listPage(tokens(tenant), query, { where: definedOnly({ name: query.name }), ...timeRanges(query) }, view);
}

/** A token by id, or 404 TOKEN_NOT_FOUND. */
export function findToken(tenant: TenantContext, tokenId: string): ApiToken {
  const found = tokens(tenant).get(tokenId);
  if (!found) throw notFound('API token', tokenId, 'TOKEN_NOT_FOUND');
  return view(found);
}

/** Whether the platform still has this API token (a stream opened with it ends once it is deleted). */
export const tokenExists = (tenant: TenantContext, tokenId: string): boolean => tokens(tenant).get(tokenId) !== undefined;

/** `DELETE /tokens/{id}`. */
export function deleteToken(tenant: TenantContext, tokenId: string): void {
  const { clientId } = findToken(tenant, tokenId);
  tokens(tenant).delete(tokenId);
  tenant.directory.unregister('apiToken', clientId, tenant.platform.id);
}

/** The directory keys of the tokens the platform issued itself (claimed after a restore). */
export const tokenCredentialKeys = (tenant: TenantContext) =>
  Array.from(tokens(tenant).values()).filter((token) => token.issuer === tenant.platform.clientId).map((token) => ['apiToken', token.clientId] as const);

/** The token with this client id whose secret matches, or undefined (the secret compared in constant time). */
export function tokenFor(tenant: TenantContext, clientId: string, clientSecret: string): ApiTokenRecord | undefined {
  const record = tokens(tenant).findBy('clientId', clientId)[0];
  const matches = constantTimeEqual(secretHash(clientSecret), record?.secretSha256 ?? '');
  return record !== undefined && matches ? record : undefined;
}


/**
 * Authenticates a Basic header as a platform or, failing that, as one of its API tokens (found through the engine's
 * credential directory). Refusals are the platform check's 401.
 */
export function authenticateWithTokens(
  platforms: PlatformRegistry, tenantOf: (platform: Platform) => TenantContext, directory: CredentialDirectory, authorization: string | null,
): Principal {
  try {
    return { platform: platforms.authenticate(authorization) };
  } catch (refusal) {
    const credentials = parseBasic(authorization);
    if (credentials === undefined || !/^[0-9a-f]{32}$/.test(credentials.clientId)) throw refusal;
    const owner = directory.owner('apiToken', credentials.clientId);
    const platform = owner === undefined ? undefined : platforms.byId(owner);
    const token = platform === undefined ? undefined : tokenFor(tenantOf(platform), credentials.clientId, credentials.clientSecret);
    if (token !== undefined) return { platform: platform!, permissions: token.permissions, tokenId: token.id };
    throw refusal;
  }
}
