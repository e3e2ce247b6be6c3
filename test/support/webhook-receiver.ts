import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerificationError, type RailyardClient, type TypedWebhookEvent } from '@railyard/client';

/** What the receiver got in one request, and what it answered (0 when it hung up or never answered). */
export interface Delivery {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  status: number;
  event?: TypedWebhookEvent;
  error?: unknown;
}

/**
 * How the receiver answers one attempt: a status at once, a status after a delay, no answer at all (`'hang'`: the
 * connection stays open until the sender gives up), or a dropped connection (`'reset'`).
 */
export type ReceiverAnswer = number | { status: number; afterMs: number } | 'hang' | 'reset';

/** A loopback receiver: verifies each delivery with the client, then answers what `answer` says (200 by default). */
export interface Receiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** The verified events, in the order they arrived. */
  readonly events: () => TypedWebhookEvent[];
  /** `attempt` counts the verified deliveries of this event id, this one included. */
  answer: (event: TypedWebhookEvent, attempt: number) => ReceiverAnswer;
  close(): Promise<void>;
}

/** Starts a {@link Receiver} on 127.0.0.1 that verifies with `client.webhooks.unwrap` and the platform's public key. */
export async function startReceiver(client: RailyardClient, publicKeyPem: string): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const attempts = new Map<string, number>();
  const receiver: Receiver & { url: string } = {
    url: '',
    deliveries,
    events: () => deliveries.flatMap((d) => (d.event ? [d.event] : [])),
    answer: () => 200,
    close: async () => undefined,
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const delivery: Delivery = { rawBody: Buffer.concat(chunks), headers: request.headers, status: 0 };
    let answer: ReceiverAnswer;
    try {
      delivery.event = await client.webhooks.unwrap(delivery.rawBody, request.headers, publicKeyPem);
      const attempt = (attempts.get(delivery.event.id) ?? 0) + 1;
      attempts.set(delivery.event.id, attempt);
      answer = receiver.answer(delivery.event, attempt);
    } catch (error) {
      delivery.error = error;
      answer = error instanceof WebhookVerificationError ? 401 : 500;
    }
    deliveries.push(delivery);
    if (answer === 'hang') return;
    if (answer === 'reset') {
      request.socket.destroy();
      return;
    }
    const { status, afterMs } = typeof answer === 'number' ? { status: answer, afterMs: 0 } : answer;
    if (afterMs > 0) await new Promise((resolve) => setTimeout(resolve, afterMs));
    delivery.status = status;
    response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return receiver;
}
