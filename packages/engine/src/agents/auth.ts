/**
 * AgentAuth (SPEC §5 item 2): `Authorization: Bearer gat_<platform tag><random>`, the access token a device-code
 * redemption gave. The tag finds the platform; the token's SHA-256 finds the agent, which must still exist.
 */
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import type { Principal } from '../http/app.js';
import type { Platform, PlatformRegistry } from '../platforms/registry.js';
import { agentWithToken, holdsDeviceCode } from './agents.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="Railyard sandbox agents"' };

/** The agent (and its platform) of a Bearer header, or 401 UNAUTHORIZED. */
export function authenticateAgent(platforms: PlatformRegistry, tenantOf: (platform: Platform) => TenantContext, authorization: string | null): Principal {
  const token = /^Bearer\s+(gat_[0-9a-f]{40})\s*$/i.exec(authorization ?? '')?.[1];
  if (token === undefined) {
    throw new ApiError(401, 'UNAUTHORIZED', "Agent operations take the agent's access token: Authorization: Bearer gat_…, from redeeming its device code", undefined, CHALLENGE);
  }
  for (const platform of platforms.byTag(token.slice(4, 12))) {
    const agent = agentWithToken(tenantOf(platform), token);
    if (agent !== undefined) return { platform, agentId: agent.id };
  }
  throw new ApiError(401, 'UNAUTHORIZED', 'Unknown or revoked agent access token', undefined, CHALLENGE);
}

/** The platform that issued a device code (its first eight characters are the platform's tag), or undefined. */
export function platformOfDeviceCode(platforms: PlatformRegistry, tenantOf: (platform: Platform) => TenantContext, code: string): Platform | undefined {
  return platforms.byTag(code.slice(0, 8).toLowerCase()).find((platform) => holdsDeviceCode(tenantOf(platform), code));
}
