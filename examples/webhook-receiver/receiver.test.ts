import { createClient, type RailyardClient, type TypedWebhookEvent } from '@railyard/client';
import { createEngine, type Engine } from '@railyard/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type RunningReceiver } from './receiver.js';

// The example receiver on 127.0.0.1 (port 0): deliveries from an in-process engine that POSTs with the global fetch
// over loopback, and hand-made requests for the answers a receiver owes (401, 409, 405, 500 then retried).

let engine: Engine;
let client: RailyardClient;
let receiver: RunningReceiver | undefined;
let lines: string[];
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } }); // default webhook transport: the global fetch
  client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  lines = [];
});
afterEach(async () => {
  await engine.webhooks.settled();
  await receiver?.close();
  receiver = undefined;
  engine.close();
});

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('examples/webhook-receiver', () => {
  it('verifies, handles and acknowledges every event the sandbox delivers over loopback', async () => {
    const handled: TypedWebhookEvent[] = [];
    const { publicKeyPem } = await client.sandbox.webhookKey();
    receiver = await startWebhookReceiver({ client, publicKeyPem, log: (line) => lines.push(line), onEvent: (event) => void handled.push(event) });
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);

    await client.config.update({ webhookEndpoint: receiver.url });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 10_000);
    await engine.webhooks.settled();

    // Deliveries of different resources run side by side, so only each resource's own events keep their order.
    expect(handled.map((e) => e.type).sort()).toEqual(['CUSTOMER.KYC_APPROVED', 'INCOMING_PAYMENT.COMPLETED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED', 'TEST']);
    const approved = handled.find((e) => e.type === 'CUSTOMER.KYC_APPROVED')!;
    expect(lines).toContain(`Received CUSTOMER.KYC_APPROVED ${approved.id} about ${customer.id}`);
    expect(receiver.processed).toEqual(handled.map((e) => e.id));
    const events = engine.sandbox().events({ limit: 100 }).data;
    expect(events.map((e) => [e.delivery?.status, e.deliveries.map((d) => d.status)])).toEqual(events.map(() => ['DELIVERED', [200]]));
  });

  it('answers 401 to a bad signature, 409 to a duplicate, 405 to other methods, and 500 (then 200 on the retry) when handling fails', async () => {
    const keys = await client.webhooks.generateTestKeyPair();
    let failures = 1;
    receiver = await startWebhookReceiver({
      client, publicKeyPem: keys.publicKeyPem, log: (line) => lines.push(line),
      onEvent: () => {
        if (failures-- > 0) throw new Error('database unavailable');
      },
    });
    const body = JSON.stringify({ id: 'Webhook:019a7c10-2f4e-7b3d-8000-00000000b001', type: 'TEST', timestamp: '2026-01-01T00:00:00Z', data: {} });
    const header = await client.webhooks.generateTestHeader({ payload: body, privateKeyPem: keys.privateKeyPem });

    expect((await post(receiver.url, body, { 'x-service-signature': header })).status).toBe(500);
    expect((await post(receiver.url, body, { 'x-service-signature': header })).status).toBe(200);
    const duplicate = await post(receiver.url, body, { 'x-service-signature': header });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ error: 'already processed', id: 'Webhook:019a7c10-2f4e-7b3d-8000-00000000b001' });

    expect((await post(receiver.url, body.replace('2026', '2027'), { 'x-service-signature': header })).status).toBe(401);
    expect((await post(receiver.url, body, {})).status).toBe(401);
    expect((await post(receiver.url, body, { 'x-service-signature': '{"v":"9","s":"AAAA"}' })).status).toBe(401);
    expect((await fetch(receiver.url)).status).toBe(405);
    expect((await post(receiver.url.replace('/webhooks', '/other'), body, { 'x-service-signature': header })).status).toBe(404);

    expect(lines).toEqual([
      'Failed to handle TEST Webhook:019a7c10-2f4e-7b3d-8000-00000000b001: database unavailable; answering 500 so it is retried',
      'Received TEST Webhook:019a7c10-2f4e-7b3d-8000-00000000b001',
      'Duplicate TEST Webhook:019a7c10-2f4e-7b3d-8000-00000000b001: already processed',
      expect.stringMatching(/^Rejected a delivery \(SIGNATURE_MISMATCH\): /),
      expect.stringMatching(/^Rejected a delivery \(MISSING_HEADER\): /),
      expect.stringMatching(/^Rejected a delivery \(UNSUPPORTED_VERSION\): /),
    ]);
  });

  it('acknowledges an authentic event of a type newer than the SDK without handling it, and answers 422 to a body that is not an event', async () => {
    const keys = await client.webhooks.generateTestKeyPair();
    const handled: TypedWebhookEvent[] = [];
    receiver = await startWebhookReceiver({ client, publicKeyPem: keys.publicKeyPem, log: (line) => lines.push(line), onEvent: (event) => void handled.push(event) });
    const sign = (payload: string) => client.webhooks.generateTestHeader({ payload, privateKeyPem: keys.privateKeyPem });

    const newer = JSON.stringify({ id: 'Webhook:019a7c10-2f4e-7b3d-8000-00000000b002', type: 'CARD.REISSUED', timestamp: '2026-01-01T00:00:00Z', data: { id: 'Card:1' } });
    const ignored = await post(receiver.url, newer, { 'x-service-signature': await sign(newer) });
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: true });

    const notAnEvent = JSON.stringify({ hello: 'world' });
    expect((await post(receiver.url, notAnEvent, { 'x-service-signature': await sign(notAnEvent) })).status).toBe(422);

    expect(handled).toEqual([]);
    expect(lines).toEqual([
      'Ignored CARD.REISSUED Webhook:019a7c10-2f4e-7b3d-8000-00000000b002: a type this SDK does not know',
      expect.stringMatching(/^Not an event: /),
    ]);
  });

  it('answers 500 (its own fault, to be fixed) when configured with a key that is not a public key', async () => {
    const keys = await client.webhooks.generateTestKeyPair();
    receiver = await startWebhookReceiver({ client, publicKeyPem: keys.privateKeyPem, log: (line) => lines.push(line) });
    const body = '{}';
    const header = await client.webhooks.generateTestHeader({ payload: body, privateKeyPem: keys.privateKeyPem });
    expect((await post(receiver.url, body, { 'x-service-signature': header })).status).toBe(500);
    expect(lines[0]).toMatch(/^Rejected a delivery \(INVALID_KEY\): .*private key/);
  });
});
