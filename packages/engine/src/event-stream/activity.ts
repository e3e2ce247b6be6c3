/**
 * The control plane's log stream (`GET /_sandbox/logs/stream`, `railyard logs --follow`): a platform's requests and
 * webhook delivery attempts as they happen, each as the JSON line `railyard serve --log-format json` prints. Nothing is
 * kept: with nobody following a platform's log, an entry costs a map lookup, and a follower sees what happens next.
 */
import type { TenantContext } from '../core/context.js';
import { ReplyStream, type StreamSink } from '../http/stream.js';
import type { RequestLogEntry } from '../server/server.js';
import type { WebhookLogEntry } from '../webhooks/log.js';
import { KEEP_ALIVE_MS, RECONNECT_MS } from './feed.js';
import { sseComment, sseMessage, sseRetry } from './sse.js';

/** What a log shows of one happening. */
export type LogKind = 'request' | 'webhook';

/** A log entry as one JSON object: its kind and (real) time first, then the entry. */
export const logRecord = <T extends object>(kind: LogKind, entry: T): { kind: LogKind; at: string } & T => ({ kind, at: new Date().toISOString(), ...entry });

/** Lines a follower may have waiting before it is cut off (a client that stopped reading). */
const MAX_WAITING_LINES = 10_000;

/** The platforms' log followers. */
export class ActivityLog {
  private readonly followers = new Map<string, Set<(line: string) => void>>();

  /** Whether anyone follows the platform's log (an entry is built only then). */
  followed(platformId: string): boolean {
    return this.followers.has(platformId);
  }

  /** A request the platform's credentials made, answered. */
  request(platformId: string, entry: RequestLogEntry): void {
    this.publish(platformId, 'request', entry);
  }

  /** A webhook delivery attempt of the platform. */
  webhook(entry: WebhookLogEntry): void {
    this.publish(entry.platformId, 'webhook', entry);
  }

  /** The platform's log as a stream, opened when the transport sends it. */
  stream(tenant: TenantContext, allowed?: () => boolean): ReplyStream {
    return new ReplyStream((sink) => this.follow(tenant.platform.id, sink, allowed));
  }

  /** Ends every stream (the engine is closing, or the platform moved to another process). */
  endFor(platformId?: string): void {
    for (const [id, set] of [...this.followers]) if (platformId === undefined || id === platformId) for (const end of [...set]) end('');
  }

  private publish(platformId: string, kind: LogKind, entry: object): void {
    const set = this.followers.get(platformId);
    if (set === undefined) return;
    const line = sseMessage({ data: JSON.stringify(logRecord(kind, entry)) });
    for (const follower of set) follower(line);
  }

  /** `allowed`: whether the credential that opened the stream still may read it (see the event feed's). */
  private follow(platformId: string, sink: StreamSink, allowed?: () => boolean): () => void {
    const waiting: string[] = [];
    let writing = false;
    let stopped = false;
    const drain = async () => {
      writing = true;
      while (waiting.length > 0 && !stopped) await sink.write(waiting.splice(0, waiting.length).join(''));
      writing = false;
    };
    // Called with a line to send, or with '' to end the stream.
    const follower = (line: string) => {
      if (line === '' || waiting.length >= MAX_WAITING_LINES || allowed?.() === false) {
        stop();
        sink.end();
        return;
      }
      waiting.push(line);
      if (!writing) void drain();
    };
    // Only for an idle stream: lines waiting to be written keep it alive already.
    const keepAlive = setInterval(() => {
      if (allowed?.() === false) follower('');
      else if (!writing) follower(sseComment('keep-alive'));
    }, KEEP_ALIVE_MS);
    (keepAlive as { unref?: () => void }).unref?.();
    let set = this.followers.get(platformId);
    if (set === undefined) this.followers.set(platformId, (set = new Set()));
    set.add(follower);
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(keepAlive);
      set.delete(follower);
      if (set.size === 0 && this.followers.get(platformId) === set) this.followers.delete(platformId);
    };
    follower(`${sseRetry(RECONNECT_MS)}${sseComment('connected')}`);
    return stop;
  }
}
