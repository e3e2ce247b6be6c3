/**
 * `railyard listen --forward-to URL` and `railyard events --follow`: a sandbox's events as they happen (local or a
 * shared one), followed through {@link followEvents}. `listen` delivers each to a local endpoint exactly as the sandbox
 * would (the same body bytes, the sandbox's own `X-Service-Signature`), so a receiver verifies it with the sandbox's
 * public key as it verifies real deliveries.
 */
import { WEBHOOK_RETRY_POLICY, WEBHOOK_SIGNATURE_HEADER, type SandboxStreamEvent } from '@railyard/contract';
import type { Command, Flags, Output } from './command.js';
import { formatRequestLogLine, type RequestLogEntry } from '../server/server.js';
import { formatWebhookLogLine, type WebhookLogEntry } from '../webhooks/log.js';
import { followEvents, followLog } from './follow.js';
import { CommandFailure, EXIT, type Remote } from './remote.js';

/** The result of forwarding one event, as `--json` prints it. */
interface Forwarded {
  readonly id: string;
  readonly type: string;
  readonly timestamp: string;
  readonly url: string;
  /** The endpoint's status; absent when it was not reached. */
  readonly status?: number;
  /** Why it was not reached. */
  readonly error?: string;
  readonly durationMs: number;
}

/** POSTs one event's body to `url` with the sandbox's signature, as the sandbox's own delivery does. */
async function forward(event: SandboxStreamEvent, url: string): Promise<Forwarded> {
  const started = performance.now();
  const sent = { id: event.id, type: event.type, timestamp: event.timestamp, url };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: event.signature },
      body: event.body,
      signal: AbortSignal.timeout(WEBHOOK_RETRY_POLICY.responseTimeoutMs),
      redirect: 'manual',
    });
    // Read to its end, so the connection is free for the next delivery.
    await response.arrayBuffer().catch(() => undefined);
    return { ...sent, status: response.status, durationMs: elapsed(started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${WEBHOOK_RETRY_POLICY.responseTimeoutMs / 1000} s` : cause?.code ?? cause?.message ?? (error as Error).message;
    return { ...sent, error: reason, durationMs: elapsed(started) };
  }
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/** An http(s) URL from a flag, or the usage error that says what is wrong. */
function endpointUrl(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string') throw new CommandFailure(`${flag} URL is required: the endpoint to deliver to, e.g. ${flag} http://localhost:3000/webhooks`, EXIT.usage);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CommandFailure(`${flag} must be a URL such as http://localhost:3000/webhooks, not ${value}`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CommandFailure(`${flag} must be an http(s) URL, not ${value}`, EXIT.usage);
  return url.href;
}

/** Aborts on Ctrl+C (SIGINT) or SIGTERM: a following command then ends with exit code 0. */
function untilInterrupted(): { signal: AbortSignal; done(): void } {
  const aborter = new AbortController();
  const stop = () => aborter.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: aborter.signal,
    done: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** The hooks that tell the person on stderr when a stream opens, drops and comes back; Ctrl+C ends it. */
async function interruptibly(ready: string, follow: (hooks: { signal: AbortSignal; onConnected(reconnected: boolean): void; onDropped(reason: string, retryInMs: number): void }) => Promise<void>): Promise<void> {
  const interrupt = untilInterrupted();
  try {
    await follow({
      signal: interrupt.signal,
      onConnected: (reconnected) => console.error(reconnected ? 'Reconnected: resuming where the stream was' : ready),
      onDropped: (reason, retryInMs) => console.error(`Lost the stream (${reason}); reconnecting in ${retryInMs / 1000} s`),
    });
  } finally {
    interrupt.done();
  }
}

/** Follows the platform's events (narrowed by `--events` or `--type`, resumed after `--after`). */
const follow = (remote: Remote, flags: Flags, ready: string, onEvent: (event: SandboxStreamEvent) => Promise<void>) =>
  interruptibly(ready, (hooks) => followEvents(remote, {
    ...(typeof flags.events === 'string' ? { types: flags.events } : typeof flags.type === 'string' ? { types: flags.type } : {}),
    ...(typeof flags.after === 'string' ? { after: flags.after } : {}),
    ...hooks,
    onEvent,
  }));

export const listen: Command = {
  words: ['listen'],
  usage: 'railyard listen --forward-to URL [--events TYPE,…] [--after EVENT_ID]',
  summary: "Delivers the platform's events, as they happen, to a local endpoint, signed as the sandbox signs them (GET /_sandbox/events/stream); prints each delivery with its status and time. Reconnects after a drop without losing or repeating an event.",
  example: 'railyard listen --forward-to http://localhost:3000/webhooks --events OUTGOING_PAYMENT.COMPLETED,CUSTOMER.KYC_APPROVED',
  flags: { 'forward-to': { type: 'string' }, events: { type: 'string' }, after: { type: 'string' } },
  flagHelp: `  --forward-to URL      the endpoint to POST each event to (required)
  --events TYPE,…       only these event types (default: every type)
  --after EVENT_ID      first deliver every event after this one (resume an earlier listen)
  Each delivery carries the sandbox's X-Service-Signature: verify it with GET /_sandbox/webhook-key, as in production.
  Deliveries are not retried; the sandbox's own webhook endpoint, if set, still gets its deliveries too. Ctrl+C stops.`,
  async run(remote, flags, _positionals, out) {
    const url = endpointUrl(flags['forward-to'], '--forward-to');
    const ready = `Ready: forwarding the events of client id ${remote.clientId} at ${new URL(remote.baseUrl).origin} to ${url} (Ctrl+C to stop)`;
    await follow(remote, flags, ready, async (event) => {
      const result = await forward(event, url);
      const outcome = result.status === undefined ? `not reached: ${result.error}` : String(result.status);
      out.printLine(`${event.timestamp}  ${event.type.padEnd(40)} ${event.id}  -> ${outcome} in ${result.durationMs} ms`, result);
    });
  },
};

/** `railyard events --follow`: one line per event as it happens (with `--json`, the event with its webhook body parsed). */
export async function followEventLines(remote: Remote, flags: Flags, out: Output): Promise<void> {
  const ready = `Following the events of client id ${remote.clientId} at ${new URL(remote.baseUrl).origin} (Ctrl+C to stop)`;
  await follow(remote, flags, ready, async (event) => {
    const { data } = JSON.parse(event.body) as { data: unknown };
    out.printLine(`${event.timestamp}  ${event.type.padEnd(40)} ${event.id}`, { id: event.id, type: event.type, timestamp: event.timestamp, order: event.order, data });
  });
}

export const logs: Command = {
  words: ['logs'],
  usage: 'railyard logs --follow',
  summary: "Prints the platform's requests and webhook delivery attempts as they happen (GET /_sandbox/logs/stream), as `railyard serve --log` prints them, until Ctrl+C.",
  example: 'railyard logs --follow --json',
  flags: { follow: { type: 'boolean', default: false } },
  flagHelp: `  --follow              follow the log (required: it has no history, and starts with what happens next)
  Each line is a request the platform's credentials made (method, path, status, milliseconds, request id) or a webhook
  delivery attempt (event type, endpoint, status, milliseconds, event id, attempt); --json prints each as one JSON line.`,
  async run(remote, flags, _positionals, out) {
    if (flags.follow !== true) throw new CommandFailure('railyard logs shows what happens from now on: run railyard logs --follow', EXIT.usage);
    const ready = `Following the log of client id ${remote.clientId} at ${new URL(remote.baseUrl).origin} (Ctrl+C to stop)`;
    await interruptibly(ready, (hooks) => followLog(remote, {
      ...hooks,
      onLine: (record) => {
        const text = record.kind === 'webhook' ? formatWebhookLogLine(record as unknown as WebhookLogEntry) : formatRequestLogLine(record as unknown as RequestLogEntry);
        out.printLine(`${String(record.at)}  ${text}`, record);
      },
    }));
  },
};
