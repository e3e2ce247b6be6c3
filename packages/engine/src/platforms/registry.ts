import { sha256 } from '@noble/hashes/sha2.js';
import type { PlatformCreateRequest } from '@railyard/contract';
import { ApiError, conflict } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import { CURRENCIES } from '../config/currencies.js';
import { DEFAULT_MAX_PLATFORMS } from './limits.js';

/** A platform (tenant): its credentials and the options that change sandbox behaviour. */
export interface Platform {
  readonly id: string;
  readonly name: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Regulated institution: KYC resolves at creation. */
  readonly regulated: boolean;
  /** "Skip verification paperwork": resolves like a regulated platform. */
  readonly skipPaperwork: boolean;
  /** Strict validation: unknown request fields and account identifiers failing their checksums are refused. */
  readonly strict: boolean;
  /** The platform has a card issuer; without one every card operation is 501 NOT_IMPLEMENTED. */
  readonly cards: boolean;
  /** Invitations are configured; without them, creating one is 400 INVITATIONS_NOT_CONFIGURED. */
  readonly invitations: boolean;
  readonly umaDomain: string;
  readonly supportedCurrencies: readonly string[];
  readonly createdAt: string;
}

export { DEFAULT_CREDENTIALS } from './default-credentials.js';

/** Tells HTTP clients (curl, browsers) which scheme to answer a 401 with. */
const CHALLENGE = { 'www-authenticate': 'Basic realm="Railyard sandbox", charset="UTF-8"' };

export { DEFAULT_MAX_PLATFORMS } from './limits.js';

/** Every platform of an engine, and Basic authentication against them. */
export class PlatformRegistry {
  private readonly byClientId = new Map<string, Platform>();
  private readonly byPlatformId = new Map<string, Platform>();
  private readonly accepted = new Map<string, Platform>();

  constructor(
    private readonly ids: IdGenerator,
    private readonly now: () => number,
    /** The most platforms this engine holds: creating one more is refused (409), so one credential cannot fill the server. */
    private readonly maxPlatforms = DEFAULT_MAX_PLATFORMS,
    /** Told of every platform created (a durable store keeps it). */
    private readonly created?: (platform: Platform) => void,
  ) {}

  /** Takes back a platform created before (by a durable store's reload), keeping its id and credentials. */
  adopt(platform: Platform): void {
    this.byClientId.set(platform.clientId, platform);
    this.byPlatformId.set(platform.id, platform);
  }

  /** The platform with this client id. */
  withClientId(clientId: string): Platform | undefined {
    return this.byClientId.get(clientId);
  }

  create(options: PlatformCreateRequest = {}): Platform {
    if (this.byPlatformId.size >= this.maxPlatforms) {
      throw conflict(`This sandbox holds its maximum of ${this.maxPlatforms} platforms: reuse one (POST /_sandbox/reset empties it), or start the server with a higher --max-platforms`, 'CONFLICT', {
        reason: 'PLATFORM_LIMIT_REACHED', maxPlatforms: this.maxPlatforms,
      });
    }
    const id = this.ids('Platform');
    const suffix = id.slice(-12);
    const clientId = options.clientId ?? `client-${suffix}`;
    if (this.byClientId.has(clientId)) throw conflict(`a platform with clientId ${clientId} already exists`);
    const platform: Platform = {
      id,
      name: options.name ?? `Sandbox platform ${suffix}`,
      clientId,
      clientSecret: options.clientSecret ?? `secret-${crypto.randomUUID().replace(/-/g, '')}`,
      regulated: options.regulated ?? false,
      skipPaperwork: options.skipPaperwork ?? false,
      strict: options.strict ?? false,
      cards: options.cards ?? true,
      invitations: options.invitations ?? true,
      umaDomain: `${suffix}.sandbox.railyard.dev`,
      supportedCurrencies: Object.keys(CURRENCIES),
      createdAt: new Date(this.now()).toISOString(),
    };
    this.byClientId.set(clientId, platform);
    this.byPlatformId.set(id, platform);
    this.created?.(platform);
    return platform;
  }

  byId(id: string): Platform | undefined {
    return this.byPlatformId.get(id);
  }

  all(): Platform[] {
    return [...this.byClientId.values()];
  }

  /** The platform named by an `Authorization: Basic …` header, or a 401 UNAUTHORIZED. */
  authenticate(authorization: string | null): Platform {
    // Accepted headers are remembered: a client sends the same one on every call. Refusals are not cached.
    const known = authorization === null ? undefined : this.accepted.get(authorization);
    if (known) return known;
    const platform = this.verify(authorization);
    if (this.accepted.size >= 1000) this.accepted.clear();
    this.accepted.set(authorization!, platform);
    return platform;
  }

  private verify(authorization: string | null): Platform {
    const credentials = parseBasic(authorization);
    if (!credentials) {
      throw new ApiError(401, 'UNAUTHORIZED', 'Missing or malformed Basic credentials: send Authorization: Basic base64(clientId:clientSecret)', undefined, CHALLENGE);
    }
    const platform = this.byClientId.get(credentials.clientId);
    // Compare the secret even for an unknown id, so timing does not reveal which client ids exist.
    const secretMatches = constantTimeEqual(credentials.clientSecret, platform?.clientSecret ?? '\u0000unknown');
    if (!platform || !secretMatches) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid client id or client secret', undefined, CHALLENGE);
    return platform;
  }
}

/** The client id and secret of an `Authorization: Basic …` header, or undefined for anything else. */
export function parseBasic(header: string | null): { clientId: string; clientSecret: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

/**
 * Compares two strings in time that depends on neither their contents nor where they differ: both are hashed to 32
 * bytes first, and every byte of the digests is compared. A plain `===` stops at the first difference, which lets a
 * caller learn a secret one character at a time; comparing the strings themselves would still leak the secret's length.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  const left = sha256(encoder.encode(a));
  const right = sha256(encoder.encode(b));
  let diff = 0;
  for (let i = 0; i < left.length; i++) diff |= left[i]! ^ right[i]!;
  return diff === 0;
}
