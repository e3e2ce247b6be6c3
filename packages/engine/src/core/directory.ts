import type { Store } from './store.js';
import { onField } from './store.js';

/**
 * Which platform holds a credential or code that arrives without naming its platform: an API token's client id, the
 * SHA-256 of an agent's access token or of a device code, an invitation code. One lookup, whatever the number of
 * platforms, and nothing derived from a platform's id, so credentials keep working when a platform's state is restored
 * into another server (or another platform).
 *
 * Kept in the engine's store as a partition of its own, so a durable store keeps it with everything else. A key may
 * be registered by several platforms (a platform restored from another's snapshot holds copies of its credentials):
 * a lookup answers them in the order they registered, and the caller takes the first whose own record accepts the
 * credential, so the original keeps working and a copy answers for itself only once the original is gone.
 */
export class CredentialDirectory {
  private readonly entries;

  constructor(store: Store) {
    this.entries = store.tenant(DIRECTORY_PARTITION).collection<DirectoryEntry>('credentials', {
      indexes: { key: onField('key'), platformId: onField('platformId') },
    });
  }

  /** Files `key` (of `kind`) as held by the platform; a second registration by the same platform changes nothing. */
  register(kind: CredentialKind, key: string, platformId: string): void {
    const id = entryId(kind, key, platformId);
    if (!this.entries.has(id)) this.entries.insert({ id, key: `${kind}:${key}`, platformId });
  }

  /** Removes the platform's registration of `key`. */
  unregister(kind: CredentialKind, key: string, platformId: string): void {
    this.entries.delete(entryId(kind, key, platformId));
  }

  /** The platforms that registered `key`, oldest registration first. */
  holders(kind: CredentialKind, key: string): string[] {
    return this.entries.findBy('key', `${kind}:${key}`).map((entry) => entry.platformId);
  }

  /** Replaces every registration of the platform with `keys` (after a reset or a restore replaced its state). */
  replacePlatform(platformId: string, keys: Iterable<readonly [CredentialKind, string]>): void {
    for (const entry of this.entries.findBy('platformId', platformId)) this.entries.delete(entry.id);
    for (const [kind, key] of keys) this.register(kind, key, platformId);
  }
}

/** What a key stands for: each kind is its own namespace. */
export type CredentialKind = 'apiToken' | 'agentToken' | 'deviceCode' | 'invitation';

interface DirectoryEntry {
  readonly id: string;
  readonly key: string;
  readonly platformId: string;
}

/** The store partition of the directory: not a platform id (those are `Platform:<uuid>`), so never a tenant's state. */
export const DIRECTORY_PARTITION = 'railyard:directory';

const entryId = (kind: CredentialKind, key: string, platformId: string) => `${kind}:${key}@${platformId}`;
