import type { Platform } from '../platforms/registry.js';
import type { Clock } from './clock.js';
import { iso } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Scheduler } from './scheduler.js';
import { createSealer, type Sealer } from './secrets.js';
import { createMemoryStore, type TenantStore } from './store.js';
import { CredentialDirectory } from './directory.js';
import { WEBHOOK_EVENT_TYPES, type SandboxEvent, type WebhookEventType } from '@railyard/contract';

/** `sealer` with every context prefixed by the platform it seals for. */
const sealedFor = (sealer: Sealer, platformClientId: string): Sealer => ({
  get keyId() {
    return sealer.keyId;
  },
  seal: (plaintext, context) => sealer.seal(plaintext, `platform:${platformClientId}:${context}`),
  open: (sealed, context) => sealer.open(sealed, `platform:${platformClientId}:${context}`),
});

/** A platform's events and the record of their webhook deliveries (DESIGN §3 `/_sandbox/events`). */
export type OutboxEvent = SandboxEvent;

/** Each event type's one string: types built from parts (`OUTGOING_PAYMENT.${status}`) are stored as this one. */
const EVENT_TYPES = new Map<string, WebhookEventType>(WEBHOOK_EVENT_TYPES.map((type) => [type, type]));

/** The attempts of an event not delivered yet: one shared empty list (deliveries replace it, never add to it). */
const NO_DELIVERIES = Object.freeze([]) as unknown as OutboxEvent['deliveries'];

/** The platform's outbox: every emitted event, with its delivery state. */
export const eventsOf = (tenant: TenantContext) => tenant.store.collection<OutboxEvent>('events');

/** Told of every emitted event (the webhook dispatcher). */
export interface EventSink {
  emitted(tenant: TenantContext, event: OutboxEvent, options: EmitOptions): void;
  /** Why webhooks may not be delivered to `url` (a public sandbox's address policy), or undefined when they may. */
  endpointRefusal(url: string): string | undefined;
}

export interface EmitOptions {
  /** False: record the event without delivering it to the webhook endpoint (a test send delivers it itself). */
  readonly deliver?: boolean;
}

/** What a durable engine's units offer a request that must wait on the network (see `TenantContext.outsideUnit`). */
export interface UnitGate {
  outside<T>(platformId: string, work: () => Promise<T>): Promise<T>;
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
    private readonly sink?: EventSink,
    /** Where credentials that arrive without naming their platform are found (the engine's, shared by its platforms). */
    readonly directory: CredentialDirectory = new CredentialDirectory(createMemoryStore()),
    /** The engine's sealer (core/secrets.ts), under its `secretKey`. */
    sealer: Sealer = createSealer(),
    /** How a durable engine lets other requests of the platform run while one waits on the network (durability/). */
    private readonly units?: UnitGate,
  ) {
    this.secrets = sealedFor(sealer, platform.clientId);
  }

  /**
   * Waits for `work` (a request to somewhere else) with the platform free for its other requests meanwhile: in a
   * durable engine, which runs a platform's requests one at a time, the changes made so far are sealed first and the
   * request takes its turn again after. In memory, just `work()`.
   */
  outsideUnit<T>(work: () => Promise<T>): Promise<T> {
    return this.units === undefined ? work() : this.units.outside(this.platform.id, work);
  }

  /**
   * Seals what stored state must keep secret (core/secrets.ts), for this platform only: every context is bound to the
   * platform's client id, so a value sealed here opens for no other platform of the engine (a copy of this state
   * restored elsewhere), and again for this one after a restart (its client id stays; its random id does not).
   */
  readonly secrets: Sealer;

  /** Current time as an ISO 8601 string. */
  nowIso(): string {
    return iso(this.clock.now());
  }

  /**
   * Records an event with the full resource as `data` (SPEC §6), as it is at this moment, and hands it to the webhook
   * dispatcher. The event keeps that version of the resource itself, not a copy: records are replaced, never changed
   * in place (see freeze.ts).
   */
  emit(type: WebhookEventType, data: unknown, options: EmitOptions = {}): OutboxEvent {
    return this.record(this.draftEvent(type, data), options);
  }

  /**
   * An event as {@link emit} would record it, not recorded: for a send that only counts if it succeeds (a refused
   * webhook test changes nothing). {@link record} files it.
   */
  draftEvent(type: WebhookEventType, data: unknown): OutboxEvent {
    const id = (data as { id?: unknown } | null)?.id;
    return {
      id: this.ids('Webhook'), type: EVENT_TYPES.get(type) ?? type, timestamp: this.nowIso(), data,
      resource: typeof id === 'string' ? id : type, order: eventsOf(this).size + 1, deliveries: NO_DELIVERIES,
    };
  }

  /** Files an event drafted earlier (its place in the order is now) and hands it to the webhook dispatcher. */
  record(event: OutboxEvent, options: EmitOptions = {}): OutboxEvent {
    const events = eventsOf(this);
    const order = events.size + 1;
    const recorded = event.order === order ? event : { ...event, order };
    events.insert(recorded);
    this.sink?.emitted(this, recorded, options);
    return recorded;
  }

  /** Why webhooks may not be delivered to `url` (see {@link EventSink.endpointRefusal}), or undefined when they may. */
  webhookEndpointRefusal(url: string): string | undefined {
    return this.sink?.endpointRefusal(url);
  }

  /**
   * Runs `task` right after the operation under way has answered (see {@link Scheduler.soon}). The queue is the
   * engine's, drained when any request finishes: a handler that queues work must build its answer without awaiting
   * after that, and the task must carry everything it needs (it may run at the end of another request).
   */
  afterResponse(task: () => void): void {
    this.scheduler.soon(task);
  }

  /**
   * Another process serves this platform now (a sandbox shared over a database): what is still under way here (a
   * webhook attempt, a request's last steps) schedules and cancels nothing more; its store is detached already.
   */
  retire(): void {
    this.retired = true;
  }

  private retired = false;

  /** Schedules a job for this platform `delayMs` from now; name it (`id`) to be able to cancel it. */
  schedule(delayMs: number, kind: string, payload: unknown, id?: string): string {
    if (this.retired) return id === undefined ? '' : this.jobId(id);
    return this.scheduler.schedule(this.platform.id, this.clock.now() + delayMs, kind, payload, id === undefined ? undefined : this.jobId(id));
  }

  /** Cancels a job this platform scheduled under `id`, if it still waits. */
  cancelJob(id: string): void {
    if (this.retired) return;
    const jobId = this.jobId(id);
    if (this.scheduler.jobOf(jobId)?.tenantId === this.platform.id) this.scheduler.cancel(jobId);
  }

  /** A named job's id: the platform's id and the name, so platforms never share one. */
  private jobId(name: string): string {
    return `${this.platform.id}/${name}`;
  }
}
