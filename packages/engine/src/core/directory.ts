import type { Store } from './store.js';

/**
 * Which platform owns a credential or code that arrives without naming its platform: an API token's client id, the
 * SHA-256 of an agent's access token or of a device code, an invitation code. One lookup, whatever the number of
 * platforms, and nothing derived from a platform's id, so credentials keep working when their platform's state is
 * restored into a server started again.
 *
 * A key has one owner: the platform that issued it, from then on. Its reset or a restore of its own earlier state
 * keeps the ownership, so a copy of its credentials that another platform restored (a shared fixture, a crafted
 * snapshot) never answers for them: a restore claims only keys nobody owns, and only those the restoring platform
 * issued itself (its records name their issuer's client id). Kept in the engine's store as a partition of its own, so
 * a durable store keeps it with everything else.
 */
export class CredentialDirectory {
  private readonly owners;
  /**
   * Entries of platforms other processes wrote (a sandbox shared over a database): known here, stored there. A key
   * never changes owner, so they stay true; one deleted since only sends its requests to a holder that refuses them.
   */
  private readonly learned = new Map<string, string>();

  constructor(store: Store) {
    this.owners = store.tenant(DIRECTORY_PARTITION).collection<DirectoryEntry>('owners');
  }

  /** Files a key just issued as the platform's. A key owned already keeps its owner (issued keys are random). */
  register(kind: CredentialKind, key: string, platformId: string): void {
    const id = entryId(kind, key);
    if (!this.owners.has(id) && !this.learned.has(id)) this.owners.insert({ id, platformId });
  }

  /** Forgets the key, when the platform owning it deleted it (a deleted token, a deleted agent). */
  unregister(kind: CredentialKind, key: string, platformId: string): void {
    const id = entryId(kind, key);
    if (this.learned.get(id) === platformId) {
      // Stored by the process that wrote it: the deletion is stored the same way as one of a local entry.
      this.learned.delete(id);
      this.owners.insert({ id, platformId });
    }
    if (this.owners.get(id)?.platformId === platformId) this.owners.delete(id);
  }

  /** The platform owning `key`, or undefined. */
  owner(kind: CredentialKind, key: string): string | undefined {
    const id = entryId(kind, key);
    return this.owners.get(id)?.platformId ?? this.learned.get(id);
  }

  /** Takes entries as a shared database holds them (`kind:key` ids), without storing them again. */
  learn(entries: Iterable<readonly [id: string, platformId: string]>): void {
    for (const [id, platformId] of entries) if (!this.owners.has(id)) this.learned.set(id, platformId);
  }

  /**
   * For a restore: makes the platform the owner of each key nobody owns yet (the platform's own credentials, restored
   * into a server that does not know them). A key another platform owns stays that platform's.
   */
  claim(platformId: string, keys: Iterable<readonly [CredentialKind, string]>): void {
    for (const [kind, key] of keys) this.register(kind, key, platformId);
  }
}

/** What a key stands for: each kind is its own namespace. */
export type CredentialKind = 'apiToken' | 'agentToken' | 'deviceCode' | 'invitation';

interface DirectoryEntry {
  readonly id: string;
  readonly platformId: string;
}

/** The store partition of the directory: not a platform id (those are `Platform:<uuid>`), so never a tenant's state. */
export const DIRECTORY_PARTITION = 'railyard:directory';

/** The id of a key's entry, as stored: each kind is its own namespace. */
export const entryId = (kind: CredentialKind, key: string) => `${kind}:${key}`;
