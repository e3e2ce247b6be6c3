/**
 * Following a sandbox's event stream (`GET /_sandbox/events/stream`) from the command line, for `railyard listen` and
 * `railyard events --follow`: events in order, one at a time, and after a drop (the network, a proxy, the server
 * restarting) a reconnect that resumes right after the last event handled, so none is lost or handled twice.
 */
import type { SandboxStreamEvent } from '@railyard/contract';
import { readServerSentEvents } from '../event-stream/sse.js';
import { callSandbox, CommandFailure, EXIT, type Remote } from './remote.js';

/** How long to wait before reconnecting after a drop, and at most, as drops repeat (doubling from the first). */
const FIRST_RECONNECT_MS = 500;
const MAX_RECONNECT_MS = 5_000;

/** What {@link followEvents} is told to do. */
export interface FollowOptions {
  /** Only these types (the stream's `type` query: `A,B`). */
  readonly types?: string;
  /** Start right after this event (`Last-Event-ID`); undefined: with the next event emitted. */
  readonly after?: string;
  /** Ends the following (Ctrl+C). */
  readonly signal: AbortSignal;
  /** Handles one event; the next is read once it resolves. */
  onEvent(event: SandboxStreamEvent): Promise<void>;
  /** Told each time the stream is open: the first time, and after each reconnect. */
  onConnected(reconnected: boolean): void;
  /** Told of a drop, before the wait to reconnect. */
  onDropped(reason: string, retryInMs: number): void;
}

/**
 * Follows the stream until `signal` aborts. A first connection that fails (no sandbox, wrong credentials, a refused
 * `--events` list) rejects with its {@link CommandFailure}; once it has been open, drops are retried for as long as it
 * takes, except a refusal of the credentials (the platform is gone, or they were rotated).
 */
export async function followEvents(remote: Remote, options: FollowOptions): Promise<void> {
  let after = options.after;
  let connectedOnce = false;
  let retryMs = FIRST_RECONNECT_MS;
  const query = options.types === undefined ? '' : `?${new URLSearchParams({ type: options.types })}`;
  while (!options.signal.aborted) {
    let reason: string;
    try {
      await callSandbox(remote, 'GET', `/_sandbox/events/stream${query}`, {
        ...(after === undefined ? {} : { headers: { 'last-event-id': after } }),
        signal: options.signal,
        read: async (response) => {
          options.onConnected(connectedOnce);
          connectedOnce = true;
          retryMs = FIRST_RECONNECT_MS;
          for await (const message of readServerSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
            if (message.event !== 'message') continue;
            await options.onEvent(JSON.parse(message.data) as SandboxStreamEvent);
            // Only once handled: a drop during the handling resumes with this event again.
            after = message.id;
          }
        },
      });
      reason = 'the sandbox ended the stream';
    } catch (error) {
      if (options.signal.aborted) return;
      // A refusal stays a refusal; a sandbox that is down or busy (unreachable, a 5xx while a shared one hands over) is waited for.
      if (error instanceof CommandFailure && (!connectedOnce || error.exitCode === EXIT.credentials || (error.status !== undefined && error.status < 500))) throw error;
      reason = error instanceof CommandFailure ? error.message : `the connection broke (${(error as Error).message})`;
    }
    if (options.signal.aborted) return;
    options.onDropped(reason, retryMs);
    await sleep(retryMs, options.signal);
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
