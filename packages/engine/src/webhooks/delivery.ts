/**
 * Webhook delivery. Every event a platform emits while it has a `webhookEndpoint` is POSTed
 * there as `{id, type, timestamp, data}`, signed (signing.ts), through any `fetch` (a real network, or a test's own
 * handler in process). Delivery state lives on the event record, so snapshots, restores and `GET /_sandbox/events` see
 * it:
 *
 * - order per resource: an event waits (QUEUED) while an earlier event of the same resource is still PENDING;
 * - retries: a non-2xx answer or an unreachable receiver is retried with exponential backoff on the engine clock
 *   (30 s, doubling, at most 30 minutes apart) for 7 days, with the same event id; never for TEST, for a 409 answer
 *   (the receiver already has it) or for INCOMING_PAYMENT.PENDING;
 * - the answer to INCOMING_PAYMENT.PENDING decides the payment: 200 approves it, 403 rejects it.
 */
import type { DeliveryAttempt, WebhookEventType } from '@railyard/contract';
import { IncomingPaymentApproval, WEBHOOK_RETRY_POLICY, WEBHOOK_SIGNATURE_HEADER } from '@railyard/contract';
import { eventsOf, type EmitOptions, type EventSink, type OutboxEvent, type TenantContext } from '../core/context.js';
import { settingsOf } from '../platforms/config.js';
import { approveIncoming, rejectIncoming, requestCounterpartyInformation } from '../transactions/incoming.js';
import { refusedEndpoint } from './endpoint-policy.js';
import { signatureHeader, type WebhookKey } from './signing.js';

/** Clock-job kind of a retry. */
export const RETRY_JOB = 'webhooks.retry';

/** The first retry waits this long; each next one twice as long, up to {@link WEBHOOK_RETRY_POLICY.maxIntervalMs}. */
export const FIRST_RETRY_MS = 30_000;

/** The wait before retry `attempt + 1` after `attempt` failed attempts. */
export const retryDelay = (attempt: number): number => Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), WEBHOOK_RETRY_POLICY.maxIntervalMs);

/**
 * The most of a receiver's answer that is read (an approval's `receiverCustomerInfo` may be long); the rest is cancelled,
 * so a receiver cannot make the sandbox buffer more.
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** The most of an answer a test send shows. */
export const MAX_SHOWN_ANSWER_CHARS = 4_096;

/** The delivery transport: WHATWG fetch, or anything shaped like it. */
export type WebhookFetch = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<Response>;

/** What one attempt gave. */
export interface AttemptResult {
  readonly url: string;
  readonly status?: number;
  /** The answer's body, its first {@link MAX_ANSWER_BYTES} bytes. */
  readonly body?: string;
  readonly error?: string;
  /** The attempt as the event's `deliveries` list keeps it. */
  readonly attempt: DeliveryAttempt;
}


export interface DispatcherOptions {
  readonly fetch: WebhookFetch;
  /** The signing key of a platform. */
  readonly keyOf: (platformId: string) => Promise<WebhookKey>;
  /** A public sandbox: see `EngineOptions.webhooks.publicEndpointsOnly`. */
  readonly publicEndpointsOnly?: boolean;
  /**
   * Defers `task` until the platform's changes so far are durable (a durable engine): no receiver ever gets an event
   * that a crash could take back. Runs it at once when absent.
   */
  readonly afterDurable?: (platformId: string, task: () => void) => void;
  /** Hears every attempt, a test send's included, once it is recorded (`railyard serve --log`). */
  readonly onAttempt?: (tenant: TenantContext, event: OutboxEvent, result: AttemptResult) => void;
}

const ok = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** `receiverCustomerInfo` of an approving answer's body, when it has a well-formed one. */
function receiverInfoOf(body: string | undefined): Record<string, unknown> | undefined {
  try {
    const parsed = IncomingPaymentApproval.safeParse(JSON.parse(body ?? ''));
    return parsed.success ? parsed.data.receiverCustomerInfo : undefined;
  } catch {
    return undefined;
  }
}

/** The first `maxBytes` of a response's body as text; the rest of the stream is cancelled, not read. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size >= maxBytes) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  // A character cut at the limit decodes as U+FFFD rather than failing.
  return new TextDecoder().decode(all.subarray(0, maxBytes));
}

/** The JSON body a receiver gets: exactly these four keys, in this order. */
export const envelopeOf = (event: OutboxEvent): string =>
  JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });

/**
 * Delivers the events of every platform of an engine. Attempts run asynchronously after the call that emitted the
 * event; {@link WebhookDispatcher.settled} waits for the ones under way.
 */
export class WebhookDispatcher implements EventSink {
  private readonly running = new Set<Promise<void>>();
  /** The events (platform id, NUL, event id) whose attempt this process has started and not finished. */
  private readonly underway = new Set<string>();
  private readonly listeners = new Set<(tenant: TenantContext, event: OutboxEvent) => void>();

  constructor(private readonly options: DispatcherOptions) {}

  /**
   * True in a public sandbox: endpoints at non-public addresses are refused (endpoint-policy.ts), and what a receiver
   * answers is not shown to the caller (the sandbox must not be a way to read what some address returns).
   */
  get publicEndpointsOnly(): boolean {
    return this.options.publicEndpointsOnly === true;
  }

  /** Why deliveries may not go to `url`, judged from the URL (a public sandbox's policy); undefined when they may. */
  endpointRefusal(url: string): string | undefined {
    const refusal = this.publicEndpointsOnly ? refusedEndpoint(url) : undefined;
    return refusal === undefined ? undefined : `${refusal}; this sandbox delivers webhooks to public addresses only`;
  }

  /** Called for every emitted event (the {@link EventSink} of each tenant). */
  emitted(tenant: TenantContext, event: OutboxEvent, options: EmitOptions): void {
    const url = settingsOf(tenant).webhookEndpoint;
    if (url !== undefined && options.deliver !== false) {
      const waiting = eventsOf(tenant).findBy('resource', event.resource).some((e) => e.id !== event.id && e.delivery?.status === 'PENDING');
      this.update(tenant, { ...event, delivery: { status: waiting ? 'QUEUED' : 'PENDING', url } });
      if (!waiting) this.start(tenant, event.id);
    }
    for (const listener of this.listeners) listener(tenant, eventsOf(tenant).get(event.id)!);
  }

  /** Hears every emitted event (the awaitable outbox); returns the function that stops listening. */
  listen(listener: (tenant: TenantContext, event: OutboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The retry job: attempts the event again. */
  retryJob = (tenant: TenantContext, payload: unknown): void => {
    this.start(tenant, (payload as { eventId: string }).eventId);
  };

  /** Resolves once no attempt is under way (retries waiting on the clock do not count). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Sends one signed POST of `event` to `url`, and records the attempt on the event if the event is recorded. */
  async send(tenant: TenantContext, event: OutboxEvent, url: string): Promise<AttemptResult> {
    const body = envelopeOf(event);
    const signature = await signatureHeader(await this.options.keyOf(tenant.platform.id), body);
    const at = tenant.nowIso();
    const started = performance.now();
    // Checked at every attempt, not only when the endpoint was set: a restored snapshot may carry any endpoint.
    const refusal = this.endpointRefusal(url);
    const answer = refusal === undefined ? await this.post(url, body, signature) : { url, error: `Not sent: the endpoint ${refusal}` };
    const current = eventsOf(tenant).get(event.id);
    const attempt: DeliveryAttempt = {
      attempt: (current?.deliveries.length ?? 0) + 1, url, at, durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...(answer.status === undefined ? {} : { status: answer.status }), ...(answer.error === undefined ? {} : { error: answer.error }),
    };
    const result: AttemptResult = { ...answer, attempt };
    if (current) this.update(tenant, { ...current, deliveries: [...current.deliveries, attempt] });
    this.options.onAttempt?.(tenant, event, result);
    return result;
  }

  /** One POST through the transport: the receiver's status and answer, or why it could not be reached. */
  private async post(url: string, body: string, signature: string): Promise<Omit<AttemptResult, 'attempt'>> {
    try {
      const response = await this.options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
        body,
        signal: AbortSignal.timeout(WEBHOOK_RETRY_POLICY.responseTimeoutMs),
      });
      return { url, status: response.status, body: await readCapped(response, MAX_ANSWER_BYTES).catch(() => '') };
    } catch (error) {
      return { url, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  }

  /**
   * Attempts every event whose delivery was under way when the state was stored (a durable engine's restart): at
   * least once, with the same event id. An event waiting for its retry job is left to that job.
   */
  resume(tenant: TenantContext): void {
    const retrying = new Set(tenant.scheduler.exportTenant(tenant.platform.id).filter((job) => job.kind === RETRY_JOB).map((job) => (job.payload as { eventId: string }).eventId));
    for (const event of eventsOf(tenant).values()) {
      // An attempt this process started (an event emitted since the start, a retry that came due) is not cut short.
      if (event.delivery?.status === 'PENDING' && !retrying.has(event.id) && !this.underway.has(`${tenant.platform.id}\u0000${event.id}`)) this.start(tenant, event.id);
    }
  }

  private start(tenant: TenantContext, eventId: string): void {
    const { afterDurable } = this.options;
    const key = `${tenant.platform.id}\u0000${eventId}`;
    this.underway.add(key);
    const attempt = afterDurable === undefined
      ? this.attempt(tenant, eventId)
      : new Promise<void>((resolve) => afterDurable(tenant.platform.id, resolve)).then(() => this.attempt(tenant, eventId));
    const run = attempt.finally(() => {
      this.running.delete(run);
      this.underway.delete(key);
    });
    this.running.add(run);
  }

  private async attempt(tenant: TenantContext, eventId: string): Promise<void> {
    const event = eventsOf(tenant).get(eventId);
    if (!event?.delivery || event.delivery.status !== 'PENDING') return;
    const result = await this.send(tenant, event, event.delivery.url);
    const current = eventsOf(tenant).get(eventId);
    // A reset or restore while the attempt was under way: the event is gone or no longer this attempt's to settle.
    if (!current?.delivery || current.delivery.status !== 'PENDING') return;
    // Any answer to INCOMING_PAYMENT.PENDING is the platform's decision, a 403 included.
    const answered = event.type === 'INCOMING_PAYMENT.PENDING' && result.status !== undefined;
    if (answered || ok(result.status) || WEBHOOK_RETRY_POLICY.noRetryStatuses.includes(result.status as 409)) {
      this.finish(tenant, current, 'DELIVERED');
      if (answered) this.decideIncoming(tenant, event, result);
      return;
    }
    const neverRetried = (WEBHOOK_RETRY_POLICY.noRetryTypes as readonly WebhookEventType[]).includes(event.type as WebhookEventType);
    const delay = retryDelay(current.deliveries.length);
    const age = tenant.clock.now() + delay - Date.parse(event.timestamp);
    if (neverRetried || age > WEBHOOK_RETRY_POLICY.maxAgeMs) {
      this.finish(tenant, current, 'FAILED');
      return;
    }
    this.update(tenant, { ...current, delivery: { ...current.delivery, nextAttemptAt: new Date(tenant.clock.now() + delay).toISOString() } });
    tenant.schedule(delay, RETRY_JOB, { eventId });
  }

  /** Ends an event's delivery and starts the next event of its resource, if one waits. */
  private finish(tenant: TenantContext, event: OutboxEvent, status: 'DELIVERED' | 'FAILED'): void {
    const { nextAttemptAt: _done, ...delivery } = event.delivery!;
    this.update(tenant, { ...event, delivery: { ...delivery, status } });
    const next = eventsOf(tenant).findBy('resource', event.resource)
      .filter((e) => e.delivery?.status === 'QUEUED')
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))[0];
    if (next) {
      this.update(tenant, { ...next, delivery: { ...next.delivery!, status: 'PENDING' } });
      this.start(tenant, next.id);
    }
  }

  /**
   * The platform's answer to an incoming payment that waits for it: 200 approves (with the `receiverCustomerInfo` of
   * its body, if any), 403 rejects, 422 asks for more about the sender (it keeps waiting), anything else waits for the API.
   */
  private decideIncoming(tenant: TenantContext, event: OutboxEvent, result: AttemptResult): void {
    const transactionId = (event.data as { id: string }).id;
    try {
      if (result.status === 200) approveIncoming(tenant, transactionId, receiverInfoOf(result.body));
      else if (result.status === 403) rejectIncoming(tenant, transactionId);
      else if (result.status === 422) requestCounterpartyInformation(tenant, transactionId);
    } catch {
      // Already approved, rejected or timed out through the API: the first decision stands.
    }
  }

  private update(tenant: TenantContext, event: OutboxEvent): void {
    eventsOf(tenant).replace(event);
  }
}
