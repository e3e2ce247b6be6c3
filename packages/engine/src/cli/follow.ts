/**
 * Following a sandbox's streams from the command line: its events (`GET /_sandbox/events/stream`, for `railyard
 * listen` and `railyard events --follow`), in order, one at a time, and after a drop (the network, a proxy, the server
 * restarting) a reconnect that resumes right after the last event handled, so none is lost or handled twice; and its
 * log (`GET /_sandbox/logs/stream`, `railyard logs --follow`), which has no history to resume from.
 */
import type { SandboxStreamEvent } from '@railyard/contract';
import { readServerSentEvents, type ServerSentEvent } from '../event-stream/sse.js';
import { callSandbox, CommandFailure, EXIT, type Remote } from './remote.js';

/** How long to wait before reconnecting after a drop, and at most, as drops repeat (doubling from the first). */
const FIRST_RECONNECT_MS = 500;
const MAX_RECONNECT_MS = 5_000;

/** What following a stream is told to do. */
interface FollowHooks {
  /** Ends the following (Ctrl+C). */
  readonly signal: AbortSignal;
  /** Told each time the stream is open: the first time, and after each reconnect. */
  onConnected(reconnected: boolean): void;
  /** Told of a drop, before the wait to reconnect. */
  onDropped(reason: string, retryInMs: number): void;
}

/** What {@link followEvents} is told to do. */
export interface FollowOptions extends FollowHooks {
  /** Only these types (the stream's `type` query: `A,B`). */
  readonly types?: string;
  /** Start right after this event (`Last-Event-ID`); undefined: with the next event emitted. */
  readonly after?: string;
  /** Handles one event; the next is read once it resolves. */
  onEvent(event: SandboxStreamEvent): Promise<void>;
}

/** Follows the platform's events until `signal` aborts (see {@link followStream}), resuming after the last one handled. */
export function followEvents(remote: Remote, options: FollowOptions): Promise<void> {
  const query = options.types === undefined ? '' : `?${new URLSearchParams({ type: options.types })}`;
  return followStream(remote, `/_sandbox/events/stream${query}`, options.after, async (message) => {
    await options.onEvent(JSON.parse(message.data) as SandboxStreamEvent);
  }, options);
}

/** Follows the platform's log until `signal` aborts: each line as JSON (what `railyard serve --log-format json` prints). */
export function followLog(remote: Remote, options: FollowHooks & { onLine(record: Record<string, unknown>): void }): Promise<void> {
  return followStream(remote, '/_sandbox/logs/stream', undefined, async (message) => options.onLine(JSON.parse(message.data) as Record<string, unknown>), options);
}

/**
 * Follows the stream at `path` until `signal` aborts. A first connection that fails (no sandbox, wrong credentials, a
 * refused query) rejects with its {@link CommandFailure}; once it has been open, drops are retried for as long as it
 * takes, except a refusal (4xx: the platform is gone, or its credentials were rotated). With `after`, each reconnect
 * resumes after the last message handled (`Last-Event-ID`).
 */
async function followStream(remote: Remote, path: string, after: string | undefined, onMessage: (message: ServerSentEvent) => Promise<void>, hooks: FollowHooks): Promise<void> {
  let connectedOnce = false;
  let retryMs = FIRST_RECONNECT_MS;
  while (!hooks.signal.aborted) {
    let reason: string;
    try {
      await callSandbox(remote, 'GET', path, {
        ...(after === undefined ? {} : { headers: { 'last-event-id': after } }),
        signal: hooks.signal,
        read: async (response) => {
          if (response.headers.get('content-type')?.startsWith('text/event-stream') !== true) {
            throw new CommandFailure(`${remote.baseUrl} answered ${path} with ${response.headers.get('content-type') ?? 'no content type'}, not an event stream: is --base-url a Railyard sandbox?`, EXIT.refused, response.status);
          }
          hooks.onConnected(connectedOnce);
          connectedOnce = true;
          retryMs = FIRST_RECONNECT_MS;
          for await (const message of readServerSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
            if (message.event !== 'message') continue;
            await onMessage(message);
            // Only once handled: a drop during the handling resumes with this message again. (Log lines have no id.)
            if (message.id !== undefined) after = message.id;
          }
        },
      });
      reason = 'the sandbox ended the stream';
    } catch (error) {
      if (hooks.signal.aborted) return;
      // A refusal stays a refusal; a sandbox that is down or busy (unreachable, a 5xx while a shared one hands over) is waited for.
      if (error instanceof CommandFailure && (!connectedOnce || error.exitCode === EXIT.credentials || (error.status !== undefined && error.status < 500))) throw error;
      reason = error instanceof CommandFailure ? error.message : `the connection broke (${(error as Error).message})`;
    }
    if (hooks.signal.aborted) return;
    hooks.onDropped(reason, retryMs);
    await sleep(retryMs, hooks.signal);
    retryMs = Math.min(MAX_RECONNECT_MS, retryMs * 2);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
