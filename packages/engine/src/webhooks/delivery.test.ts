import { createPublicKey, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { FIRST_RETRY_MS, retryDelay } from './delivery.js';
import { readVectors } from '../../../../test/support/vectors.js';

// Webhook delivery (SPEC §6; REFERENCE §8): signed deliveries through an injected fetch, retries on the virtual clock,
// order per resource, the no-retry rules, test sends, and the awaitable outbox.

const vectors = readVectors('webhooks.json') as Json;

interface Delivery { url: string; body: string; signature: string }
let deliveries: Delivery[];
/** How the receiver answers each delivery, in order; 200 once the list runs out. */
let answers: (number | 'unreachable')[];
/**
 * When set, `answers` go to deliveries of this event type only (others get 200): events of different resources are
 * sent concurrently, and which one reaches the receiver first depends on when its signature is ready.
 */
let answersOnlyFor: string | undefined;
let engine: Engine;
/** What a 200 answer carries (an approving receiver may send receiverCustomerInfo). */
let approvalBody = 'ok';
const ENDPOINT = 'https://platform.example/webhooks';

function start(options: { signingKeyPem?: string } = {}) {
  deliveries = [];
  answers = [];
  answersOnlyFor = undefined;
  engine = createEngine({
    platform: { regulated: true },
    webhooks: {
      ...options,
      fetch: async (url, init) => {
        deliveries.push({ url, body: init.body, signature: init.headers['X-Service-Signature']! });
        const answered = answersOnlyFor === undefined || JSON.parse(init.body).type === answersOnlyFor;
        const answer = (answered ? answers.shift() : undefined) ?? 200;
        if (answer === 'unreachable') throw new TypeError('fetch failed: connect ECONNREFUSED');
        return new Response(answer === 200 ? approvalBody : 'nope', { status: answer });
      },
    },
  });
}
beforeEach(() => start());
// Attempts run after the call that emitted the event: let each test's finish before the next test starts.
afterEach(() => engine.webhooks.settled());
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const withEndpoint = async () => {
  await call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
  await engine.webhooks.settled();
  deliveries.length = 0;
};
const customer = async (name = 'Ada Lovelace') => (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: name, currencies: ['USD'] })).body;
const typesDelivered = () => deliveries.map((d) => JSON.parse(d.body).type);
const eventsOfType = (type: string) => engine.sandbox().events({ limit: 100, type }).data;

describe('delivery', () => {
  it('POSTs the envelope with the resource as GET returns it, signed over the raw body with the platform key', async () => {
    start({ signingKeyPem: vectors.privateKeyPem });
    await withEndpoint();
    const created = await customer();
    await engine.webhooks.settled();
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery!.url).toBe(ENDPOINT);
    const envelope = JSON.parse(delivery!.body);
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(envelope).toMatchObject({ type: 'CUSTOMER.KYC_APPROVED', timestamp: engine.sandbox().clock().now });
    expect(envelope.id).toMatch(/^Webhook:/);
    expect(envelope.data).toEqual((await call('GET', `/customers/${created.id}`)).body);

    const header = JSON.parse(delivery!.signature);
    expect(header.v).toBe('1');
    expect(verify('sha256', Buffer.from(delivery!.body), createPublicKey(vectors.publicKeyPem), Buffer.from(header.s, 'base64'))).toBe(true);
    expect((await call('GET', '/_sandbox/webhook-key')).body.publicKeyPem).toBe(createPublicKey(vectors.publicKeyPem).export({ type: 'spki', format: 'pem' }));
  });

  it('each platform signs with its own key, served at /_sandbox/webhook-key', async () => {
    await withEndpoint();
    await customer();
    await engine.webhooks.settled();
    const { publicKeyPem } = (await call('GET', '/_sandbox/webhook-key')).body;
    const { s } = JSON.parse(deliveries[0]!.signature);
    expect(verify('sha256', Buffer.from(deliveries[0]!.body), createPublicKey(publicKeyPem), Buffer.from(s, 'base64'))).toBe(true);
    const other = engine.createPlatform();
    expect(await engine.webhooks.publicKey(other.clientId)).not.toBe(publicKeyPem);
  });

  it('delivers nothing without an endpoint; setting one sends it a TEST event', async () => {
    await customer();
    await engine.webhooks.settled();
    expect(deliveries).toEqual([]);
    expect(eventsOfType('CUSTOMER.KYC_APPROVED')[0]!.delivery).toBeUndefined();
    await call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
    await engine.webhooks.settled();
    expect(typesDelivered()).toEqual(['TEST']);
    expect(JSON.parse(deliveries[0]!.body).data).toEqual({});
  });
});

describe('retries', () => {
  it('retries a failing receiver with backoff on the clock, with the same id, until it recovers', async () => {
    await withEndpoint();
    answers = [500, 'unreachable', 503];
    await customer();
    await engine.webhooks.settled();
    const [event] = eventsOfType('CUSTOMER.KYC_APPROVED');
    expect(event!.delivery).toMatchObject({ status: 'PENDING', nextAttemptAt: new Date(engine.clock.now() + FIRST_RETRY_MS).toISOString() });
    for (const attempt of [1, 2, 3]) {
      engine.sandbox().advance(retryDelay(attempt) - 1);
      await engine.webhooks.settled();
      expect(deliveries).toHaveLength(attempt);
      engine.sandbox().advance(1);
      await engine.webhooks.settled();
      expect(deliveries).toHaveLength(attempt + 1);
    }
    const delivered = eventsOfType('CUSTOMER.KYC_APPROVED')[0]!;
    expect(delivered.delivery).toEqual({ status: 'DELIVERED', url: ENDPOINT });
    expect(delivered.deliveries.map((d) => d.status ?? d.error)).toEqual([500, 'TypeError: fetch failed: connect ECONNREFUSED', 503, 200]);
    expect(new Set(deliveries.map((d) => JSON.parse(d.body).id))).toEqual(new Set([delivered.id]));
    expect(retryDelay(1)).toBe(30_000);
    expect(retryDelay(7)).toBe(30 * 60_000);
  });

  it('keeps the order of one resource: a later event waits until the earlier one is delivered', async () => {
    await withEndpoint();
    const payer = await customer();
    await engine.webhooks.settled();
    deliveries.length = 0;
    const usd = (await call('GET', `/customers/internal-accounts?customerId=${payer.id}`)).body.data[0].id;
    answers = [500];
    answersOnlyFor = 'INTERNAL_ACCOUNT.BALANCE_UPDATED';
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 100 });
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 200 });
    await engine.webhooks.settled();
    const balanceEvents = () => eventsOfType('INTERNAL_ACCOUNT.BALANCE_UPDATED').reverse();
    expect(balanceEvents().map((e) => e.delivery?.status)).toEqual(['PENDING', 'QUEUED']);
    expect(deliveries.filter((d) => JSON.parse(d.body).type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).toHaveLength(1);
    engine.sandbox().advance(FIRST_RETRY_MS);
    await engine.webhooks.settled();
    expect(balanceEvents().map((e) => e.delivery?.status)).toEqual(['DELIVERED', 'DELIVERED']);
    const amounts = deliveries.filter((d) => JSON.parse(d.body).type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED').map((d) => JSON.parse(d.body).data.balance.amount);
    expect(amounts).toEqual([100, 100, 300]);
  });

  it('does not retry a 409 answer, a TEST event, or past 7 days', async () => {
    await withEndpoint();
    answers = [409];
    await customer('Ann Conflict');
    await engine.webhooks.settled();
    expect(eventsOfType('CUSTOMER.KYC_APPROVED')[0]!.delivery!.status).toBe('DELIVERED');

    answers = [500];
    await call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
    await engine.webhooks.settled();
    expect(eventsOfType('TEST')[0]!.delivery!.status).toBe('FAILED');

    answers = Array.from({ length: 1000 }, () => 500);
    await customer('Never Reachable');
    await engine.webhooks.settled();
    const pending = () => eventsOfType('CUSTOMER.KYC_APPROVED')[0]!;
    // Step from retry to retry, as a test on the virtual clock does: each attempt runs after the advance that made it due.
    while (pending().delivery!.status === 'PENDING') {
      engine.sandbox().advance(Date.parse(pending().delivery!.nextAttemptAt!) - engine.clock.now());
      await engine.webhooks.settled();
    }
    const given = pending();
    expect(given.delivery!.status).toBe('FAILED');
    const span = Date.parse(given.deliveries.at(-1)!.at) - Date.parse(given.timestamp);
    expect(span).toBeLessThanOrEqual(7 * 24 * 3600_000);
    expect(span).toBeGreaterThan(7 * 24 * 3600_000 - 30 * 60_000);
    // 30 s, 1, 2, 4, 8, 16 minutes, then every 30 minutes until 7 days have passed.
    expect(given.deliveries).toHaveLength(1 + 6 + Math.floor((7 * 24 * 3600_000 - 31.5 * 60_000) / (30 * 60_000)));
  });
});

describe('incoming payments decided by the webhook answer (REFERENCE §8)', () => {
  it('200 approves, 403 rejects, 202 leaves the decision to the API; none is retried', async () => {
    await withEndpoint();
    const payee = await customer();
    await engine.webhooks.settled();
    const receive = async (answer: number) => {
      answers = [answer];
      const received = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 });
      expect(received.body.status).toBe('PENDING');
      await engine.webhooks.settled();
      return (await call('GET', `/transactions/${received.body.id}`)).body;
    };
    approvalBody = JSON.stringify({ receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } });
    expect(await receive(200)).toMatchObject({ status: 'COMPLETED', counterpartyInformation: { FULL_NAME: 'Ada Lovelace' } });
    approvalBody = 'ok';
    expect((await receive(403)).status).toBe('REJECTED');
    const waiting = await receive(202);
    expect(waiting.status).toBe('PENDING');
    expect((await call('POST', `/transactions/${waiting.id}/approve`)).body.status).toBe('COMPLETED');
    expect(eventsOfType('INCOMING_PAYMENT.PENDING').map((e) => e.deliveries.length)).toEqual([1, 1, 1]);
  });

  it('reads an approval longer than 4 KiB whole (it was cut before it was parsed)', async () => {
    await withEndpoint();
    const payee = await customer();
    await engine.webhooks.settled();
    approvalBody = JSON.stringify({ receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace', PURPOSE_OF_PAYMENT: 'x'.repeat(6_000) } });
    answers = [200];
    const received = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 });
    await engine.webhooks.settled();
    approvalBody = 'ok';
    expect((await call('GET', `/transactions/${received.body.id}`)).body).toMatchObject({ status: 'COMPLETED', counterpartyInformation: { FULL_NAME: 'Ada Lovelace' } });
  });
});

describe('a receiver that answers without end', () => {
  it('has at most 64 KiB of its answer read, and the rest cancelled', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = createEngine({
      webhooks: {
        fetch: async () => new Response(new ReadableStream({
          pull(controller) {
            pulled += 16_384;
            controller.enqueue(new Uint8Array(16_384).fill(0x61));
          },
          cancel() {
            cancelled = true;
          },
        }), { status: 200 }),
      },
    });
    await callApi(endless, 'PATCH', '/config', { webhookEndpoint: ENDPOINT });
    await endless.webhooks.settled();
    // Read whole, the stream was pulled for the 5 s response timeout: gigabytes, all held in memory.
    expect(pulled).toBeLessThanOrEqual(64 * 1024 + 2 * 16_384);
    expect(cancelled).toBe(true);
    expect(endless.sandbox().events({ type: 'TEST' }).data[0]!.delivery?.status).toBe('DELIVERED');
    endless.close();
  });
});

describe('test sends', () => {
  it('sends a signed TEST to the url or the endpoint and reports the answer; 400 when none or when it fails', async () => {
    expect((await call('POST', '/sandbox/webhooks/test', {})).body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
    const sent = await call('POST', '/sandbox/webhooks/test', { url: 'https://other.example/hook' });
    expect(sent).toMatchObject({ status: 200, body: { url: 'https://other.example/hook', response_status: 200, response_body: 'ok' } });
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({ type: 'TEST', data: {} });
    // The TEST event a receiver took is recorded with its one attempt; refused ones below record nothing.
    expect(eventsOfType('TEST')).toMatchObject([{ id: JSON.parse(deliveries[0]!.body).id, deliveries: [{ attempt: 1, status: 200 }] }]);
    await withEndpoint();
    const recorded = eventsOfType('TEST').length;
    answers = [500];
    const failed = await call('POST', '/sandbox/webhooks/test');
    expect(failed).toMatchObject({ status: 400, body: { code: 'WEBHOOK_DELIVERY_ERROR', details: { url: ENDPOINT, response_status: 500, response_body: 'nope' } } });
    answers = ['unreachable'];
    const unreachable = await call('POST', '/sandbox/webhooks/test');
    expect(unreachable.body.details.error).toContain('ECONNREFUSED');
    await engine.webhooks.settled();
    expect(deliveries).toHaveLength(2);
    expect(eventsOfType('TEST')).toHaveLength(recorded);
  });

  it('shows the first 4 KiB of a long answer', async () => {
    approvalBody = 'é'.repeat(10_000);
    const sent = await call('POST', '/sandbox/webhooks/test', { url: 'https://other.example/hook' });
    approvalBody = 'ok';
    expect(sent.body.response_body).toBe('é'.repeat(4_096));
  });
});

describe('the awaitable outbox', () => {
  it('next(type) returns each event once, oldest first, and waits for one not yet emitted', async () => {
    await customer('First One');
    await customer('Second One');
    const first = await engine.webhooks.next('CUSTOMER.KYC_APPROVED');
    const second = await engine.webhooks.next('CUSTOMER.KYC_APPROVED');
    expect([(first.data as Json).fullName, (second.data as Json).fullName]).toEqual(['First One', 'Second One']);
    const third = engine.webhooks.next('CUSTOMER.KYC_APPROVED');
    await customer('Third One');
    expect(((await third).data as Json).fullName).toBe('Third One');
    await expect(engine.webhooks.next('CUSTOMER.KYC_APPROVED', { timeoutMs: 10 })).rejects.toThrow(/within 10 ms/);
  });
});
