import type { RailyardClient, SandboxEvent, TypedWebhookEvent } from '@railyard/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures, scaled } from '../support/figures.js';
import { inProcess, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';
import { startReceiver, type Receiver, type ReceiverAnswer } from '../support/webhook-receiver.js';

// Webhook receivers that misbehave: fail a few times, drop the connection, answer slowly, or never answer. The engine
// runs in process and delivers over real loopback sockets with the global fetch; the receivers verify every delivery
// with the client. Whatever a receiver does, once it recovers it has every event exactly once (same id and bytes on
// every attempt), each resource's events in the order they were emitted, and a hanging receiver holds up nothing else.

const MINUTE = 60_000;

let transport: Transport;
beforeAll(() => {
  transport = inProcess();
  return transport.start();
});
afterAll(() => transport.stop());

async function platformWithReceiver(name: string): Promise<{ client: RailyardClient; receiver: Receiver }> {
  const platform = await transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name });
  const client = transport.clientFor(platform);
  const receiver = await startReceiver(client, (await client.sandbox.webhookKey()).publicKeyPem);
  return { client, receiver };
}

async function eventsOf(client: RailyardClient): Promise<SandboxEvent[]> {
  await transport.engine!.webhooks.settled();
  const events: SandboxEvent[] = [];
  for await (const event of client.sandbox.events.list({ limit: 100 })) events.push(event);
  return events.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** A small deterministic hash of an event id, so each event gets its own misbehaviour, the same on every run. */
const hashOf = (text: string) => [...text].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);

const FAILURES: ReceiverAnswer[] = [500, 503, 'reset', { status: 502, afterMs: 30 }, 429];

describe('webhook receivers that misbehave', () => {
  it('a receiver that fails, drops connections or answers slowly gets every event once it recovers, in order per resource', async ({ task }) => {
    const { client, receiver } = await platformWithReceiver('flaky receiver');
    // Each event fails 0–3 times, in one of several ways, then succeeds, sometimes slowly.
    const plannedFailures = (event: TypedWebhookEvent) => (event.type === 'TEST' ? 0 : hashOf(event.id) % 4);
    receiver.answer = (event, attempt) => {
      if (attempt <= plannedFailures(event)) return FAILURES[(hashOf(event.id) + attempt) % FAILURES.length]!;
      return hashOf(event.id) % 3 === 0 ? { status: 200, afterMs: 40 } : 200;
    };
    await client.config.update({ webhookEndpoint: receiver.url });

    // Customers created, renamed and funded: several events per resource, across many resources.
    const customers = scaled(12, 120);
    for (let i = 0; i < customers; i++) {
      const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: `Flaky Receiver${i}` });
      await client.customers.update(customer.id, { customerType: 'INDIVIDUAL', fullName: `Flaky Receiver${i} Renamed` });
      const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
      await client.sandbox.fundInternalAccount(usd!.id, 1_000 + i);
      await client.sandbox.fundInternalAccount(usd!.id, 2_000 + i);
    }

    // Retries wait on the virtual clock: move it half an hour at a time (the longest wait) until nothing is pending.
    let events = await eventsOf(client);
    for (let step = 0; step < 20 && events.some((e) => e.delivery?.status !== 'DELIVERED'); step++) {
      await client.sandbox.clock.advance(30 * MINUTE);
      events = await eventsOf(client);
    }

    expect(events.filter((e) => e.delivery?.status !== 'DELIVERED').map((e) => [e.type, e.delivery])).toEqual([]);
    expect(receiver.deliveries.filter((d) => d.error !== undefined)).toEqual([]);
    let duplicates = 0;
    let orderViolations = 0;
    for (const event of events) {
      const attempts = receiver.deliveries.filter((d) => d.event?.id === event.id);
      const accepted = attempts.filter((d) => d.status >= 200 && d.status < 300);
      if (accepted.length > 1) duplicates++;
      expect(accepted).toHaveLength(1);
      // Every attempt is the same event: same id, same bytes (so the same signature verifies each time).
      expect(new Set(attempts.map((d) => d.rawBody.toString())).size).toBe(1);
      expect(attempts.length).toBe(plannedFailures(accepted[0]!.event!) + 1);
      expect(event.deliveries).toHaveLength(attempts.length);
    }
    // Per resource, each event reaches the receiver only after the one before it was accepted.
    const resources = new Set(events.map((e) => e.resource));
    for (const resource of resources) {
      const emitted = events.filter((e) => e.resource === resource).map((e) => e.id);
      const seen = receiver.deliveries.filter((d) => emitted.includes(d.event!.id));
      let accepted = 0;
      for (const delivery of seen) {
        if (delivery.event!.id !== emitted[accepted]) orderViolations++;
        if (delivery.status >= 200 && delivery.status < 300) accepted++;
      }
    }
    expect(orderViolations).toBe(0);
    await receiver.close();
    recordFigures(task, {
      events: events.length,
      resources: resources.size,
      attempts: receiver.deliveries.length,
      'failed attempts injected': receiver.deliveries.length - events.length,
      'signatures verified': receiver.deliveries.filter((d) => d.event).length,
      lost: events.filter((e) => e.delivery?.status !== 'DELIVERED').length,
      duplicates,
      'order violations': orderViolations,
    });
  }, 60_000);

  it('a hanging receiver times out and is retried, holding up neither its other resources nor other platforms', async ({ task }) => {
    const hanging = await platformWithReceiver('hanging receiver');
    const healthy = await platformWithReceiver('healthy receiver');
    const accountOf = async (client: RailyardClient, fullName: string) => {
      const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName });
      return (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.id;
    };
    const [first, second, elsewhere] = [await accountOf(hanging.client, 'Stuck Delivery'), await accountOf(hanging.client, 'Other Resource'), await accountOf(healthy.client, 'Other Platform')];
    let hangsLeft = 1;
    hanging.receiver.answer = (event) => (event.type !== 'TEST' && hangsLeft-- > 0 ? 'hang' : 200);
    await hanging.client.config.update({ webhookEndpoint: hanging.receiver.url });
    await healthy.client.config.update({ webhookEndpoint: healthy.receiver.url });
    await transport.engine!.webhooks.settled();
    const acceptedBy = (receiver: Receiver) => receiver.deliveries.filter((d) => d.status === 200 && d.event?.type !== 'TEST').length;

    // A funding emits two events (the payment's and the balance's): the first to arrive hangs.
    const started = Date.now();
    await hanging.client.sandbox.fundInternalAccount(first, 100);
    await hanging.client.sandbox.fundInternalAccount(second, 200);
    await healthy.client.sandbox.fundInternalAccount(elsewhere, 300);
    // While it hangs, the other three events of the hanging platform and both of the other platform arrive.
    while (acceptedBy(hanging.receiver) < 3 || acceptedBy(healthy.receiver) < 2) {
      expect(Date.now() - started, 'other deliveries waited for the hanging one').toBeLessThan(4_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const othersAfterMs = Date.now() - started;
    const hung = hanging.receiver.deliveries.find((d) => d.status === 0 && d.event?.type !== 'TEST')!.event!;

    // The hanging attempt ends at the response timeout (5 s) as an error, and a retry is scheduled on the clock.
    const afterTimeout = (await eventsOf(hanging.client)).find((e) => e.id === hung.id)!;
    const timedOutAfterMs = Date.now() - started;
    expect(afterTimeout.delivery).toMatchObject({ status: 'PENDING', nextAttemptAt: expect.any(String) });
    expect(afterTimeout.deliveries).toHaveLength(1);
    expect(afterTimeout.deliveries[0]!.error).toMatch(/timeout|abort/i);
    expect(afterTimeout.deliveries[0]!.status).toBeUndefined();

    await hanging.client.sandbox.clock.advance(30_000);
    const retried = (await eventsOf(hanging.client)).find((e) => e.id === afterTimeout.id)!;
    expect(retried.delivery?.status).toBe('DELIVERED');
    const attempts = hanging.receiver.deliveries.filter((d) => d.event?.id === afterTimeout.id);
    expect(attempts.map((d) => d.status)).toEqual([0, 200]);
    expect(attempts[0]!.rawBody.equals(attempts[1]!.rawBody)).toBe(true);
    await Promise.all([hanging.receiver.close(), healthy.receiver.close()]);
    recordFigures(task, { 'others delivered after ms': othersAfterMs, 'hanging attempt ended after ms': timedOutAfterMs, 'retry delivered': 1 });
  }, 30_000);
});
