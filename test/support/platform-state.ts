// A platform's state as its snapshot gives it, read for what checks aim at: its ids by type and its values by field.

/** Which records a path, query or body field names, by the prefix of their ids (`Customer:<uuid>`). */
export const ID_FIELDS: Record<string, readonly string[]> = {
  customerId: ['Customer'], documentHolder: ['Customer', 'BeneficialOwner'], accountId: ['InternalAccount', 'ExternalAccount'],
  documentId: ['Document'], verificationId: ['Verification'], beneficialOwnerId: ['BeneficialOwner'], externalAccountId: ['ExternalAccount'],
  quoteId: ['Quote'], transactionId: ['Transaction'], credentialId: ['AuthMethod'], sessionId: ['Session'], challengeId: ['ScaChallenge'],
  lookupId: ['Lookup'], cardId: ['Card'], cardholderId: ['Customer'], cardTransactionId: ['CardTransaction'],
  stablecoinId: ['Stablecoin'], stablecoinProviderAccountId: ['StablecoinProviderAccount'], stablecoinOperationId: ['StablecoinOperation'],
  agentId: ['Agent'], actionId: ['AgentAction'], tokenId: ['Token'],
  delegatedKeyId: ['DelegatedKey'], fundingSourceId: ['CardFundingSource'], jobId: ['Job'], resetId: ['TwoFactorReset'],
  // The event stream's resume point, and an event of the control plane.
  lastEventId: ['Webhook'], eventId: ['Webhook'],
};

const ID = /^([A-Z][A-Za-z]*):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A platform's whole state (its snapshot) and what a check needs from it: its ids by type, and values by field. */
export class PlatformState {
  readonly ids = new Map<string, Set<string>>();
  private readonly fields = new Map<string, Set<string>>();

  constructor(readonly snapshot: { takenAt: string; collections: Record<string, unknown[]> }) {
    const walk = (value: unknown, key: string | undefined) => {
      if (typeof value === 'string') {
        const type = ID.exec(value)?.[1];
        if (type) this.add(this.ids, type, value);
        if (key !== undefined) this.add(this.fields, key, value);
      } else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
      else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k);
    };
    walk(snapshot.collections, undefined);
  }

  private add(map: Map<string, Set<string>>, key: string, value: string) {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(value);
  }

  /** The ids of these types, type by type in the order given. */
  idsOf(types: readonly string[]): string[] {
    return types.flatMap((type) => [...(this.ids.get(type) ?? [])].sort());
  }

  valuesAt(field: string): string[] {
    return [...(this.fields.get(field) ?? [])].sort();
  }

  /** Every id of the platform, and the values that are its own (names, addresses, tokens): what must never reach B. */
  secrets(): string[] {
    const tokens = (this.snapshot.collections.kycLinks ?? []).map((link) => (link as { id: string }).id);
    const own = ['platformCustomerId', 'umaAddress', 'umaDomain', 'fullName', 'legalName', 'email', 'iban', 'accountNumber', 'address', 'payloadToSign'];
    // Enumerated words (an email channel's `PENDING`) are anyone's: only distinctive values are A's own.
    const distinctive = (value: string) => value.length >= 6 && !/^[A-Z_]+$/.test(value);
    return [...[...this.ids.values()].flatMap((set) => [...set]), ...tokens, ...own.flatMap((field) => this.valuesAt(field)).filter(distinctive)];
  }
}

