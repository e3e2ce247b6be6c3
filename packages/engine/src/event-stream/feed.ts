/**
 * The control plane's event stream (`GET /_sandbox/events/stream`, contract event-stream.ts): each platform's events
 * as server-sent events, each carrying the webhook the sandbox signs for it, so `railyard listen` can forward it to a
 * developer's endpoint exactly as the sandbox would deliver it.
 *
 * - Resume: a stream opened after an event (`Last-Event-ID`) first sends every later event of the platform, in order,
 *   then the new ones. The backlog is read and the listener attached in one synchronous step, so no event falls
 *   between them or comes twice.
 * - Durable: an event is sent once the change that emitted it is stored (a durable sandbox never streams what a failed
 *   commit took back).
 * - Bounded: a client that stops reading holds its stream back (the transport's `write` waits), and one that falls
 *   {@link MAX_QUEUED_EVENTS} behind is cut off; it reconnects with its last id and loses nothing.
 */
import { eventsOf, type OutboxEvent, type TenantContext } from '../core/context.js';
import { ReplyStream, type StreamSink } from '../http/stream.js';
import { envelopeOf } from '../webhooks/delivery.js';
import { signatureHeader, type WebhookKey } from '../webhooks/signing.js';
import { sseComment, sseMessage, sseRetry } from './sse.js';

/** How often an idle stream sends a comment, so proxies and load balancers do not close it (most wait 60 s). */
export const KEEP_ALIVE_MS = 15_000;

/** How long a client waits before reconnecting after a drop (the `retry:` field). */
export const RECONNECT_MS = 1_000;

/** Events a stream may have waiting to be sent before its client is cut off (it resumes from its last id). */
export const MAX_QUEUED_EVENTS = 100_000;

/** What the feed needs from the engine. */
export interface EventFeedHost {
  /** Hears every event emitted, of every platform (the webhook dispatcher's listeners). */
  listen(listener: (tenant: TenantContext, event: OutboxEvent) => void): () => void;
  /** The platform's webhook signing key. */
  keyOf(platformId: string): Promise<WebhookKey>;
  /** Calls `task` once the platform's changes so far are stored; absent in memory, where they are at once. */
  afterDurable?(platformId: string, task: () => void): void;
}

/** Where a stream starts and what it carries. */
export interface StreamOptions {
  /** Only these event types; every type when undefined. */
  readonly types?: ReadonlySet<string>;
  /** Resume after this event id; undefined: start with the next event emitted. */
  readonly after?: string;
  /**
   * Whether the credential that opened the stream still may read it (an API token not deleted since): asked before
   * each batch and at each keep-alive, and the stream ends once it answers false.
   */
  readonly allowed?: () => boolean;
}

/** The event streams of an engine's platforms. */
export class EventFeed {
  /** What ends each open stream, by platform id. */
  private readonly open = new Map<string, Set<() => void>>();

  constructor(private readonly host: EventFeedHost) {}

  /** A stream of the platform's events, opened when the transport sends it. */
  stream(tenant: TenantContext, options: StreamOptions): ReplyStream {
    return new ReplyStream((sink) => this.run(tenant, options, sink));
  }

  /** Ends the platform's streams: another process serves it now (their clients reconnect there). */
  endFor(platformId: string): void {
    for (const end of [...(this.open.get(platformId) ?? [])]) end();
  }

  /** Ends every stream (the engine is closing). */
  close(): void {
    for (const platformId of [...this.open.keys()]) this.endFor(platformId);
  }

  private run(tenant: TenantContext, options: StreamOptions, sink: StreamSink): () => void {
    const platformId = tenant.platform.id;
    const { types } = options;
    const wanted = (event: OutboxEvent) => types === undefined || types.has(event.type);
    // The backlog and the listener in one synchronous step: nothing is emitted between them.
    const queue: OutboxEvent[] = options.after === undefined ? [] : backlogAfter(tenant, options.after).filter(wanted);
    let next = 0;
    let stopped = false;
    let wake: (() => void) | undefined;
    let signalEnd: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (signalEnd = resolve));
    const unlisten = this.host.listen((emitter, event) => {
      if (emitter.platform.id !== platformId || !wanted(event)) return;
      queue.push(event);
      if (queue.length - next > MAX_QUEUED_EVENTS) stop(true);
      wake?.();
    });
    // Writes under way: a keep-alive is only for an idle stream (and two writes never wait on a full client at once).
    let writing = 0;
    const write = async (chunk: string) => {
      writing++;
      try {
        await sink.write(chunk);
      } finally {
        writing--;
      }
    };
    const keepAlive = setInterval(() => {
      if (options.allowed?.() === false) stop(true);
      else if (writing === 0) void write(sseComment('keep-alive'));
    }, KEEP_ALIVE_MS);
    (keepAlive as { unref?: () => void }).unref?.();
    const ends = this.open.get(platformId) ?? new Set<() => void>();
    this.open.set(platformId, ends);
    const stop = (endReply: boolean) => {
      if (stopped) return;
      stopped = true;
      unlisten();
      clearInterval(keepAlive);
      ends.delete(end);
      if (ends.size === 0 && this.open.get(platformId) === ends) this.open.delete(platformId);
      wake?.();
      signalEnd();
      if (endReply) sink.end();
    };
    const end = () => stop(true);
    ends.add(end);

    const stored = () => new Promise<void>((resolve) => (this.host.afterDurable === undefined ? resolve() : this.host.afterDurable(platformId, resolve)));
    const send = async () => {
      // The connection's first bytes: the reconnect delay, and a comment a client can take as "connected".
      await write(`${sseRetry(RECONNECT_MS)}${sseComment('connected')}`);
      const key = await this.host.keyOf(platformId);
      while (!stopped) {
        if (next === queue.length) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        // Everything queued so far was emitted before now: one wait covers the lot.
        const until = queue.length;
        // A stream ended meanwhile (its platform moved to another process, whose changes here are never stored) stops waiting.
        await Promise.race([stored(), ended]);
        if (options.allowed?.() === false) {
          stop(true);
          break;
        }
        while (next < until && !stopped) {
          const message = await messageOf(queue[next++]!, key);
          // Signing yields: the stream may have ended meanwhile.
          if (stopped) break;
          await write(message);
        }
        // Sent events are let go, in one step once they are most of the queue (linear over the stream's life).
        if (next > 1024 && next * 2 > queue.length) {
          queue.splice(0, next);
          next = 0;
        }
      }
    };
    send().catch(() => stop(true));
    return () => stop(false);
  }
}

/**
 * The platform's events after the one with id `after`, oldest first; every event when it has no such event (a reset or
 * a restore since the client last read: what it has now all came after).
 */
function backlogAfter(tenant: TenantContext, after: string): OutboxEvent[] {
  const events = eventsOf(tenant);
  const from = events.get(after)?.order ?? 0;
  const later: OutboxEvent[] = [];
  for (const event of events.values()) if ((event.order ?? 0) > from) later.push(event);
  return later.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** The stream message of an event: its id, and the webhook the sandbox would deliver for it, signed. */
async function messageOf(event: OutboxEvent, key: WebhookKey): Promise<string> {
  const body = envelopeOf(event);
  const data = JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, order: event.order ?? 0, body, signature: await signatureHeader(key, body) });
  return sseMessage({ id: event.id, data });
}
