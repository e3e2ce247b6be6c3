/**
 * Which platform a request is for, before it is served: what a process of a shared sandbox needs to know to serve the
 * request itself or to pass it to the process holding that platform. It reads only what routes a request (the
 * credential's client id, the SHA-256 of an agent's token or device code, an invitation code, a page's platform id),
 * never checks a secret: the holder authenticates.
 */
import type { Endpoint } from '@railyard/contract';
import { type CredentialDirectory, type CredentialKind, entryId } from '../core/directory.js';
import { parseBasic, type PlatformRegistry } from '../platforms/registry.js';
import { accessTokenKey, deviceCodeKey } from '../agents/agents.js';

/** Where a request goes. */
export type Location =
  /** Served wherever it arrives: no platform's state (an unknown route, the health check, a missing credential). */
  | { readonly kind: 'anywhere' }
  /** `caller`: the platform the request authenticates as, when it is not `platformId` (it must be served there too). */
  | { readonly kind: 'platform'; readonly platformId: string; readonly caller?: string }
  /** Names a platform this process has not heard of: look these up in the shared store, then locate again. */
  | { readonly kind: 'unknown'; readonly clientId?: string; readonly platformId?: string; readonly entries: readonly string[] };

/** What a location is read from. */
export interface LocateLookup {
  readonly platforms: PlatformRegistry;
  readonly directory: CredentialDirectory;
}

const ANYWHERE: Location = { kind: 'anywhere' };

/** The platform a request to `endpoint` (with these path parameters and `Authorization`) reads or changes. */
export function locate(lookup: LocateLookup, endpoint: Endpoint, params: Record<string, string>, authorization: string | null): Location {
  if (endpoint.public === true) return params.platformId === undefined ? ANYWHERE : known(lookup, params.platformId);
  // An invitation lives in the platform that made it; any platform may read or claim it there, so the holder of the
  // inviting platform must know the caller's platform too (learned first when this process has not seen it).
  if (params.invitationCode !== undefined) {
    const clientId = parseBasic(authorization)?.clientId;
    const inviter = owned(lookup, 'invitation', params.invitationCode);
    if (clientId === undefined) return inviter;
    const caller = lookup.platforms.withClientId(clientId)?.id ?? lookup.directory.owner('apiToken', clientId);
    if (caller === undefined) return { kind: 'unknown', clientId, entries: [entryId('apiToken', clientId), entryId('invitation', params.invitationCode)] };
    return inviter.kind === 'platform' && inviter.platformId !== caller ? { ...inviter, caller } : inviter;
  }
  if (endpoint.auth === 'none') return params.code === undefined ? ANYWHERE : owned(lookup, 'deviceCode', deviceCodeKey(params.code));
  if (endpoint.auth === 'agent') {
    const token = /^Bearer\s+(gat_[0-9a-f]{40})\s*$/i.exec(authorization ?? '')?.[1];
    return token === undefined ? ANYWHERE : owned(lookup, 'agentToken', accessTokenKey(`gat_${token.slice(4).toLowerCase()}`));
  }
  const clientId = parseBasic(authorization)?.clientId;
  if (clientId === undefined) return ANYWHERE;
  const platform = lookup.platforms.withClientId(clientId);
  if (platform !== undefined) return { kind: 'platform', platformId: platform.id };
  const owner = lookup.directory.owner('apiToken', clientId);
  if (owner !== undefined) return known(lookup, owner);
  return { kind: 'unknown', clientId, entries: [entryId('apiToken', clientId)] };
}

function owned(lookup: LocateLookup, kind: CredentialKind, key: string): Location {
  const owner = lookup.directory.owner(kind, key);
  return owner === undefined ? { kind: 'unknown', entries: [entryId(kind, key)] } : known(lookup, owner);
}

/** A platform by id: one this process has not loaded the row of is looked up first. */
function known(lookup: LocateLookup, platformId: string): Location {
  return lookup.platforms.byId(platformId) === undefined ? { kind: 'unknown', entries: [], platformId } : { kind: 'platform', platformId };
}
