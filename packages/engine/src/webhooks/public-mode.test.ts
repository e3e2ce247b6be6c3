import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi } from '../testing/requests.js';
import type { WebhookFetch } from './delivery.js';
import { createPublicOnlyFetch } from './public-delivery.js';

// A public sandbox (`createEngine({ webhooks: { publicEndpointsOnly: true, fetch } })`, `railyard serve --public`):
// webhook endpoints at non-public addresses are refused when set and never contacted, and what a receiver answers is
// not shown.

let sent: string[];
let engine: Engine;
/** An in-process receiver on any URL the policy lets through: it answers 200 with a body, or `answerStatus`. */
let answerStatus = 200;
const recording: WebhookFetch = async (url) => {
  sent.push(url);
  return new Response('receiver secret', { status: answerStatus });
};
const publicEngine = (fetch: WebhookFetch = recording) => createEngine({ platform: { regulated: true }, webhooks: { publicEndpointsOnly: true, fetch } });
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

beforeEach(() => {
  sent = [];
  answerStatus = 200;
  engine = publicEngine();
});

const REFUSED = [
  'http://127.0.0.1:4200/webhooks', 'http://localhost:4200/webhooks', 'http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/',
  'http://[::1]/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.5/', 'http://100.64.0.1/', 'http://192.168.1.1/', 'http://[fd00::1]/',
  'http://[fe80::1]/', 'http://0.0.0.0:4200/', 'http://[::]/',
];

describe('a public sandbox refuses non-public webhook endpoints', () => {
  it.each(REFUSED)('PATCH /config webhookEndpoint %s: 400 naming the field, nothing changed, nothing sent', async (url) => {
    const before = (await call('GET', '/config')).body;
    const refused = await call('PATCH', '/config', { webhookEndpoint: url });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'webhookEndpoint' }] } });
    expect(refused.body.details.errors[0].message).toMatch(/this sandbox delivers webhooks to public addresses only$/);
    expect((await call('GET', '/config')).body).toEqual(before);
    await engine.webhooks.settled();
    expect(sent).toEqual([]);
  });

  it.each(REFUSED)('POST /sandbox/webhooks/test url %s: 400 naming the field, no TEST event, nothing sent', async (url) => {
    const refused = await call('POST', '/sandbox/webhooks/test', { url });
    expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'url' }] } });
    expect(engine.sandbox().events({ type: 'TEST' }).data).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('refuses other fields of the same PATCH in the same 400', async () => {
    const refused = await call('PATCH', '/config', { webhookEndpoint: 'http://127.0.0.1/', feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 10, fixedFee: { amount: 1, currency: 'EUR' } }] });
    expect(refused.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['feeConfigs.0.fixedFee.currency', 'webhookEndpoint']);
  });

  it('does not send to a non-public endpoint a restored snapshot carries: the attempt records why', async () => {
    const snapshot = structuredClone(engine.sandbox().snapshot()) as { collections: Record<string, unknown[]> };
    snapshot.collections.platformSettings = [{ id: 'settings', webhookEndpoint: 'http://169.254.169.254/latest', supportedCurrencies: [], feeConfigs: [] }];
    engine.sandbox().restore(snapshot);
    await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    await engine.webhooks.settled();
    expect(sent).toEqual([]);
    const [event] = engine.sandbox().events({ type: 'CUSTOMER.KYC_APPROVED' }).data;
    expect(event!.deliveries).toMatchObject([{ attempt: 1, url: 'http://169.254.169.254/latest' }]);
    expect(event!.deliveries[0]!.error).toMatch(/^Not sent: the endpoint points to 169\.254\.169\.254: link-local/);
    expect(event!.deliveries[0]!.status).toBeUndefined();
  });

  it('needs a transport that checks resolved addresses', () => {
    expect(() => createEngine({ webhooks: { publicEndpointsOnly: true } })).toThrow(/webhooks\.publicEndpointsOnly needs webhooks\.fetch/);
  });
});

describe('a public sandbox shows no receiver answer', () => {
  it('delivers to a public endpoint; the test send and its error carry the status, never the body', async () => {
    const set = await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/webhooks' });
    expect(set.status).toBe(200);
    await engine.webhooks.settled();
    expect(sent).toEqual(['https://platform.example/webhooks']);

    const tested = await call('POST', '/sandbox/webhooks/test', { url: 'https://8.8.8.8/hook' });
    expect(tested).toMatchObject({ status: 200, body: { url: 'https://8.8.8.8/hook', response_status: 200 } });
    expect(tested.body).not.toHaveProperty('response_body');
    answerStatus = 500;
    const failed = await call('POST', '/sandbox/webhooks/test');
    expect(failed.body).toMatchObject({ code: 'WEBHOOK_DELIVERY_ERROR', details: { url: 'https://platform.example/webhooks', response_status: 500 } });
    expect(failed.body.details).not.toHaveProperty('response_body');
    expect(JSON.stringify(engine.sandbox().events({ limit: 100 }))).not.toContain('receiver secret');
  });

  it('an engine that is not public still shows the answer, and takes a loopback endpoint', async () => {
    const local = createEngine({ webhooks: { fetch: recording } });
    const tested = await callApi(local, 'POST', '/sandbox/webhooks/test', { url: 'http://127.0.0.1:4200/hook' });
    expect(tested.body).toEqual({ url: 'http://127.0.0.1:4200/hook', response_status: 200, response_body: 'receiver secret' });
  });
});

describe('a public sandbox checks host names after resolution', () => {
  let receiver: Server;
  let port: number;
  let received: number;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received++;
      res.end('inside');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('a name that resolves to a private address is taken when set, and never contacted', async () => {
    received = 0;
    engine = publicEngine(createPublicOnlyFetch({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] }));
    const url = `http://hooks.platform.example:${port}/webhooks`;
    expect((await call('PATCH', '/config', { webhookEndpoint: url })).status).toBe(200);
    await engine.webhooks.settled();
    const tested = await call('POST', '/sandbox/webhooks/test');
    expect(tested.body).toMatchObject({ code: 'WEBHOOK_DELIVERY_ERROR', details: { url } });
    expect(tested.body.details.error).toContain('hooks.platform.example resolves to 127.0.0.1 (loopback): not contacted');
    const [event] = engine.sandbox().events({ type: 'TEST' }).data;
    expect(event!.deliveries[0]!.error).toContain('resolves to 127.0.0.1 (loopback): not contacted');
    expect(received).toBe(0);
  });
});
