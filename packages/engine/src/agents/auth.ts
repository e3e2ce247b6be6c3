/**
 * AgentAuth (SPEC §5 item 2): `Authorization: Bearer gat_<40 hex>`, the access token a device-code redemption gave.
 * The engine's credential directory finds the platform by the token's SHA-256; the agent must still exist there.
 */
import type { TenantContext } from '../core/context.js';
import type { CredentialDirectory, CredentialKind } from '../core/directory.js';
import { ApiError } from '../core/errors.js';
import type { Principal } from '../http/app.js';
import type { Platform, PlatformRegistry } from '../platforms/registry.js';
import { accessTokenKey, agentWithTokenHash, deviceCodeKey, holdsDeviceCode } from './agents.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="Railyard sandbox agents"' };

/** Where an agent credential's platform is found: the platforms, their contexts and the credential directory. */
export interface AgentCredentialLookup {
  readonly platforms: PlatformRegistry;
  readonly tenantOf: (platform: Platform) => TenantContext;
  readonly directory: CredentialDirectory;
}

/** The agent (and its platform) of a Bearer header, or 401 UNAUTHORIZED. */
export function authenticateAgent(lookup: AgentCredentialLookup, authorization: string | null): Principal {
  const token = /^Bearer\s+(gat_[0-9a-f]{40})\s*$/i.exec(authorization ?? '')?.[1];
  if (token === undefined) {
    throw new ApiError(401, 'UNAUTHORIZED', "Agent operations take the agent's access token: Authorization: Bearer gat_…, from redeeming its device code", undefined, CHALLENGE);
  }
  const key = accessTokenKey(`gat_${token.slice(4).toLowerCase()}`);
  const platform = ownerOf(lookup, 'agentToken', key);
  const agent = platform === undefined ? undefined : agentWithTokenHash(lookup.tenantOf(platform), key);
  if (agent !== undefined) return { platform: platform!, agentId: agent.id };
  throw new ApiError(401, 'UNAUTHORIZED', 'Unknown or revoked agent access token', undefined, CHALLENGE);
}

/** The platform that issued a device code, or undefined. */
export function platformOfDeviceCode(lookup: AgentCredentialLookup, code: string): Platform | undefined {
  const platform = ownerOf(lookup, 'deviceCode', deviceCodeKey(code));
  return platform !== undefined && holdsDeviceCode(lookup.tenantOf(platform), code) ? platform : undefined;
}

/** The platform the directory says owns `key`, or undefined. */
function ownerOf(lookup: AgentCredentialLookup, kind: CredentialKind, key: string): Platform | undefined {
  const owner = lookup.directory.owner(kind, key);
  return owner === undefined ? undefined : lookup.platforms.byId(owner);
}
