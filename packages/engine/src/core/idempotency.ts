import type { WireReply } from '@railyard/contract';
import { z } from 'zod';
import type { TenantStore } from './store.js';

/** A response kept for replay. */
export type StoredResponse = WireReply;

/** A remembered key: what the request looked like and the response it got. Also checks records of a restored snapshot. */
export const IdempotencyRecord = z.object({
  /** The key as sent (up to 255 characters), after the agent's id for an agent's request. */
  id: z.string().min(1).max(320),
  fingerprint: z.string(),
  response: z.object({
    status: z.number().int().min(100).max(599),
    headers: z.record(z.string(), z.string()),
    body: z.string().nullable(),
  }),
  /**
   * Fields of the body (dotted paths) that hold a secret the operation declares, sealed with the engine's sealer: the
   * record, and a snapshot of it, holds none in the clear; a replay opens them.
   */
  sealed: z.array(z.string()).optional(),
  storedAt: z.number().finite(),
});
type IdempotencyRecord = z.infer<typeof IdempotencyRecord>;


/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyLookup =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse; sealed: readonly string[] }
  | { kind: 'mismatch' }
  | { kind: 'in-flight'; done: Promise<void> };

/**
 * Idempotency keys per platform (DESIGN §5): the first response is stored and replayed unchanged; the same key with a
 * different request is refused; a request arriving while the first is still running waits for it.
 * Records live in the tenant store, so reset, snapshot and restore include them.
 */
export class IdempotencyKeys {
  private readonly inFlight = new Map<string, { fingerprint: string; done: Promise<void> }>();

  lookup(store: TenantStore, tenantId: string, key: string, fingerprint: string, now: number): IdempotencyLookup {
    const flying = this.inFlight.get(`${tenantId}\u0000${key}`);
    if (flying) return flying.fingerprint === fingerprint ? { kind: 'in-flight', done: flying.done } : { kind: 'mismatch' };
    const records = store.collection<IdempotencyRecord>('idempotency');
    const record = records.get(key);
    if (record && now - record.storedAt > IDEMPOTENCY_TTL_MS) records.delete(key);
    else if (record) return record.fingerprint === fingerprint ? { kind: 'replay', response: record.response, sealed: record.sealed ?? [] } : { kind: 'mismatch' };
    return { kind: 'new' };
  }

  /** Marks a key as being processed; call the returned function when the request ends. */
  begin(tenantId: string, key: string, fingerprint: string): () => void {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const slot = `${tenantId}\u0000${key}`;
    this.inFlight.set(slot, { fingerprint, done });
    return () => {
      this.inFlight.delete(slot);
      finish();
    };
  }

  save(store: TenantStore, key: string, fingerprint: string, response: StoredResponse, now: number, sealed: readonly string[] = []): void {
    const records = store.collection<IdempotencyRecord>('idempotency');
    records.delete(key);
    records.insert({ id: key, fingerprint, response, ...(sealed.length === 0 ? {} : { sealed: [...sealed] }), storedAt: now });
  }
}
