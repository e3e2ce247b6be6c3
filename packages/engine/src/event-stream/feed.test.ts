import { describe, expect, it } from 'vitest';
import { SandboxStreamEvent } from '@railyard/contract';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';
import { isValidSignatureHeader, type WebhookKey } from '../webhooks/signing.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';

/** Opens the stream in process and reads its messages as they come. */
async function openStream(engine: Engine, query = '', headers: Record<string, string> = {}) {
  const response = await engine.fetch(apiRequest('GET', `/_sandbox/events/stream${query}`, undefined, headers));
  expect(response.status).toBe(200);
  const body = response.body!.getReader();
  const chunks = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { done, value } = await body.read();
        if (done) return;
        yield value;
      }
    },
  };
  const reader = readServerSentEvents(chunks)[Symbol.asyncIterator]();
  return {
    response,
    /** The next `count` messages, their data parsed as the contract's stream event. */
    async take(count: number): Promise<(SandboxStreamEvent & { sseId: string | undefined })[]> {
      const taken: (SandboxStreamEvent & { sseId: string | undefined })[] = [];
      while (taken.length < count) {
        const { value, done } = await reader.next();
        if (done) throw new Error(`the stream ended after ${taken.length} of ${count} messages`);
        const message = value as ServerSentEvent;
        taken.push({ ...SandboxStreamEvent.parse(JSON.parse(message.data)), sseId: message.id });
      }
      return taken;
    },
    /** Stops reading: the reader cancels the body, as a client that goes away does. */
    close: () => body.cancel(),
  };
}

/** Credits the platform's first internal account: one INTERNAL_ACCOUNT.BALANCE_UPDATED event, its `data.balance` the new balance. */
async function fund(engine: Engine, amount: number, credentials?: { clientId: string; clientSecret: string }): Promise<void> {
  const accounts = await (await engine.fetch(apiRequest('GET', '/platform/internal-accounts', undefined, {}, credentials))).json();
  const response = await engine.fetch(apiRequest('POST', `/sandbox/internal-accounts/${accounts.data[0].id}/fund`, { amount }, {}, credentials));
  expect(response.status).toBe(200);
}

/** The platform's events, oldest first. */
const eventsOf = async (engine: Engine) => ((await (await engine.fetch(apiRequest('GET', '/_sandbox/events?limit=100'))).json()).data as { id: string; type: string; order: number; timestamp: string; data: unknown }[]).reverse();

const amountOf = (event: SandboxStreamEvent) => (JSON.parse(event.body) as { data: { balance: { amount: number } } }).data.balance.amount;

describe('the event stream (GET /_sandbox/events/stream)', () => {
  it('sends each new event as it is emitted, with the webhook body and a signature the platform key verifies', async () => {
    const engine = createEngine();
    await fund(engine, 100); // emitted before: not sent to a stream opened without Last-Event-ID
    const stream = await openStream(engine);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    await fund(engine, 250);
    const [balance, payment] = await stream.take(2);
    const [balanceListed, paymentListed] = (await eventsOf(engine)).slice(-2);
    expect([balance!.id, payment!.id]).toEqual([balanceListed!.id, paymentListed!.id]);
    expect(balance!.sseId).toBe(balance!.id);
    expect([balance!.type, payment!.type]).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INCOMING_PAYMENT.COMPLETED']);
    expect([balance!.order, payment!.order]).toEqual([3, 4]);
    expect(JSON.parse(balance!.body)).toEqual({ id: balanceListed!.id, type: balanceListed!.type, timestamp: balanceListed!.timestamp, data: balanceListed!.data });
    expect(amountOf(balance!)).toBe(350);
    const event = balance;
    // Only the public half verifies: the receiver's side.
    const key = { publicKeyPem: await engine.webhooks.publicKey() } as WebhookKey;
    expect(await isValidSignatureHeader(key, event!.body, event!.signature)).toBe(true);
    expect(await isValidSignatureHeader(key, `${event!.body} `, event!.signature)).toBe(false);
    await stream.close();
  });

  it('resumes after Last-Event-ID with every later event in order, then the new ones, none twice', async () => {
    const engine = createEngine();
    for (const amount of [1, 2, 3]) await fund(engine, amount);
    const all = await eventsOf(engine);
    expect(all.map((e) => e.order)).toEqual([1, 2, 3, 4, 5, 6]);
    const stream = await openStream(engine, '', { 'last-event-id': all[0]!.id });
    const backlog = await stream.take(5);
    expect(backlog.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
    expect(backlog.filter((e) => e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED').map(amountOf)).toEqual([3, 6]);
    await fund(engine, 4);
    const live = await stream.take(2);
    expect(live.map((e) => e.order)).toEqual([7, 8]);
    expect(amountOf(live[0]!)).toBe(10);
    await stream.close();
    // The query form, for an EventSource's first connection; the header wins over it.
    const byQuery = await openStream(engine, `?lastEventId=${all[4]!.id}`);
    expect((await byQuery.take(1))[0]!.id).toBe(all[5]!.id);
    await byQuery.close();
    const both = await openStream(engine, `?lastEventId=${all[0]!.id}`, { 'last-event-id': all[5]!.id });
    expect((await both.take(1))[0]!.order).toBe(7);
    await both.close();
  });

  it('starts from the first event for an id the platform no longer has (a reset since)', async () => {
    const engine = createEngine();
    await fund(engine, 5);
    const gone = (await eventsOf(engine))[0]!.id;
    expect((await engine.fetch(apiRequest('POST', '/_sandbox/reset'))).status).toBe(204);
    await fund(engine, 7);
    const stream = await openStream(engine, '', { 'last-event-id': gone });
    const [first] = await stream.take(1);
    expect([first!.order, amountOf(first!)]).toEqual([1, 7]);
    expect(first!.id).not.toBe(gone);
    await stream.close();
  });

  it('narrows to the types of ?type=A,B and refuses a type the sandbox does not emit, naming it', async () => {
    const engine = createEngine();
    const stream = await openStream(engine, '?type=TEST,%20INTERNAL_ACCOUNT.BALANCE_UPDATED');
    await fund(engine, 9);
    expect((await stream.take(1))[0]!.type).toBe('INTERNAL_ACCOUNT.BALANCE_UPDATED');
    await stream.close();
    const none = await openStream(engine, '?type=TEST&lastEventId=evt_none');
    await fund(engine, 1);
    const race = await Promise.race([none.take(1).then(() => 'sent', () => 'ended'), new Promise((resolve) => setTimeout(() => resolve('nothing'), 50))]);
    expect(race).toBe('nothing');
    await none.close();
    const refused = await engine.fetch(apiRequest('GET', '/_sandbox/events/stream?type=TEST,CUSTOMER.TYPO,NOPE'));
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.details.errors).toEqual([expect.objectContaining({ field: 'type', message: expect.stringContaining('CUSTOMER.TYPO, NOPE, which are not event types') })]);
  });

  it("shows one platform's stream nothing of another's", async () => {
    const engine = createEngine();
    const other = engine.createPlatform({ name: 'Other' });
    const stream = await openStream(engine);
    await fund(engine, 11, other);
    await fund(engine, 12);
    const [event] = await stream.take(1);
    expect(amountOf(event!)).toBe(12);
    await stream.close();
    // The other platform's event id, as a resume point: an id this platform does not have, so its own events from the start.
    const othersEvent = engine.sandbox(engine.platforms().find((p) => p.clientId === other.clientId)!).events({ limit: 1 }).data[0]!.id;
    const resumed = await openStream(engine, '', { 'last-event-id': othersEvent });
    const [own] = await resumed.take(1);
    expect([own!.order, amountOf(own!)]).toEqual([1, 12]);
    await resumed.close();
  });

  it('ends a stream opened with an API token once the token is deleted', async () => {
    const engine = createEngine();
    const created = await (await engine.fetch(apiRequest('POST', '/tokens', { name: 'reader', permissions: ['VIEW'] }))).json();
    const token = { clientId: created.clientId as string, clientSecret: created.clientSecret as string };
    const response = await engine.fetch(apiRequest('GET', '/_sandbox/events/stream', undefined, {}, token));
    expect(response.status).toBe(200);
    const reader = readServerSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await fund(engine, 3);
    expect(JSON.parse((await reader.next()).value!.data).type).toBe('INTERNAL_ACCOUNT.BALANCE_UPDATED');
    // The rest of that funding's events, then the deletion: the next batch finds the token gone.
    await reader.next();
    expect((await engine.fetch(apiRequest('DELETE', `/tokens/${created.id}`))).status).toBe(204);
    await fund(engine, 4);
    expect((await reader.next()).done).toBe(true);
  });

  it('answers HEAD with the head alone, and is ended by the engine closing', async () => {
    const engine = createEngine();
    const head = await engine.fetch(apiRequest('HEAD', '/_sandbox/events/stream'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('text/event-stream');
    expect(await head.text()).toBe('');
    const stream = await openStream(engine);
    engine.close();
    await expect(stream.take(1)).rejects.toThrow('the stream ended after 0 of 1 messages');
  });
});
