import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookPayloadError, WebhookVerificationError, type RailyardClient, type TypedWebhookEvent } from '@railyard/client';

/** Largest body the receiver reads; deliveries are a resource each, far below this. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The client whose `webhooks.unwrap` verifies deliveries (no API call is made). */
  client: RailyardClient;
  /** The platform's webhook public key, SPKI PEM (`GET /_sandbox/webhook-key`: `client.sandbox.webhookKey()`). */
  publicKeyPem: string;
  /**
   * Your handling of a verified event. Throw to answer 500: the sandbox retries the delivery later, with the same id.
   * Answering `INCOMING_PAYMENT.PENDING` with 200 approves the incoming payment (REFERENCE §8).
   */
  onEvent?: (event: TypedWebhookEvent) => void | Promise<void>;
  /** Where log lines go. */
  log?: (line: string) => void;
  /** The path deliveries are POSTed to. Default `/webhooks`. */
  path?: string;
}

/** A running receiver. */
export interface RunningReceiver {
  /** The URL to configure as the platform's `webhookEndpoint`. */
  readonly url: string;
  readonly server: Server;
  /** Ids of the events handled, in order. */
  readonly processed: readonly string[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on plain `node:http` (SPEC §6; REFERENCE §8):
 *
 * 1. reads the raw body (the signature covers those exact bytes: never parse before verifying);
 * 2. verifies and parses it with `client.webhooks.unwrap`: a bad signature is 401;
 * 3. de-duplicates on the event `id` (the same on every retry of a delivery): a duplicate is 409, which also tells the
 *    sender to stop retrying;
 * 4. handles the event, then answers 200. A handler that throws answers 500, and the event is not marked processed,
 *    so the retry is handled again.
 *
 * The processed ids live in memory here. A real receiver keeps them where it keeps the effects of handling (a table
 * with a unique key on the id, written in the same transaction), so a crash between the two cannot lose or repeat one.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): Server & { processed: string[] } {
  const { client, publicKeyPem, onEvent, log = console.log, path = '/webhooks' } = options;
  const processed: string[] = [];
  const seen = new Set<string>();
  const inFlight = new Set<string>();

  const answer = (response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (new URL(request.url ?? '/', 'http://receiver').pathname !== path) return answer(response, 404, { error: 'not found' });
    if (request.method !== 'POST') return answer(response, 405, { error: 'method not allowed' }, { allow: 'POST' });

    // 1. The raw bytes, exactly as received.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return answer(response, 413, { error: 'body too large' });
      chunks.push(chunk);
    }
    const rawBody = Buffer.concat(chunks);

    // 2. Verify, then parse into a typed event.
    let event: TypedWebhookEvent;
    try {
      event = await client.webhooks.unwrap(rawBody, request.headers, publicKeyPem);
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        // A missing, malformed or wrong signature is the request's fault: 401. A wrong key is ours: 500, then fix it.
        log(`Rejected a delivery (${error.reason}): ${error.message}`);
        return answer(response, error.isRequestError ? 401 : 500, { error: error.reason });
      }
      if (error instanceof WebhookPayloadError) {
        // Authentic, but not an event envelope (no id, type, timestamp or data object): keep it failing (and retried).
        log(`Not an event: ${error.message}`);
        return answer(response, 422, { error: 'not an event' });
      }
      throw error;
    }

    // An event type newer than this SDK arrives as an UnknownWebhookEvent: acknowledge it, so the service does not
    // retry what this receiver will never handle, and say so.
    if (!client.webhooks.isKnownEventType(event.type)) {
      log(`Ignored ${event.type} ${event.id}: a type this SDK does not know`);
      return answer(response, 200, { received: true, ignored: true });
    }

    // 3. At most once per event id.
    if (seen.has(event.id) || inFlight.has(event.id)) {
      log(`Duplicate ${event.type} ${event.id}: already processed`);
      return answer(response, 409, { error: 'already processed', id: event.id });
    }

    // 4. Handle, then acknowledge.
    inFlight.add(event.id);
    try {
      await onEvent?.(event);
      seen.add(event.id);
      processed.push(event.id);
      log(`Received ${event.type} ${event.id}${'id' in event.data ? ` about ${String(event.data.id)}` : ''}`);
      answer(response, 200, { received: true });
    } catch (error) {
      log(`Failed to handle ${event.type} ${event.id}: ${error instanceof Error ? error.message : String(error)}; answering 500 so it is retried`);
      answer(response, 500, { error: 'handler failed' });
    } finally {
      inFlight.delete(event.id);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`Receiver error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answer(response, 500, { error: 'internal error' });
      else response.end();
    });
  });
  return Object.assign(server, { processed });
}

/** Starts a receiver on `host:port` (port 0: any free port) and resolves with its URL once it listens. */
export async function startWebhookReceiver(options: WebhookReceiverOptions & { port?: number; host?: string }): Promise<RunningReceiver> {
  const server = createWebhookReceiver(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${options.path ?? '/webhooks'}`,
    server,
    processed: server.processed,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
