import type { Platform } from '../platforms/registry.js';
import type { Clock } from './clock.js';
import { iso } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Scheduler } from './scheduler.js';
import type { TenantStore } from './store.js';

/** A platform's events waiting for delivery, and the record of what happened to them (DESIGN §3 `/_sandbox/events`). */
export interface OutboxEvent {
  id: string;
  type: string;
  timestamp: string;
  data: unknown;
  deliveries: { attempt: number; url: string; at: string; status?: number; error?: string }[];
}

/**
 * Everything a domain operation needs, for one platform: its state, the clock, ids, the scheduler and the outbox.
 * Domain modules take this instead of reaching for globals, so they stay testable and tenant-scoped.
 */
export class TenantContext {
  constructor(
    readonly platform: Platform,
    readonly store: TenantStore,
    readonly clock: Clock,
    readonly ids: IdGenerator,
    readonly scheduler: Scheduler,
  ) {}

  /** Current time as an ISO 8601 string. */
  nowIso(): string {
    return iso(this.clock.now());
  }

  /** Records an event with the full resource as `data` (SPEC §6). */
  emit(type: string, data: unknown): OutboxEvent {
    const event: OutboxEvent = { id: this.ids('Webhook'), type, timestamp: this.nowIso(), data: structuredClone(data), deliveries: [] };
    this.store.collection<OutboxEvent>('events').insert(event);
    return event;
  }

  /** Schedules a job for this platform `delayMs` from now. */
  schedule(delayMs: number, kind: string, payload: unknown): string {
    return this.scheduler.schedule(this.platform.id, this.clock.now() + delayMs, kind, payload);
  }
}
