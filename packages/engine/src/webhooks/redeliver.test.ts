import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi } from '../testing/requests.js';

// GET /_sandbox/events/{id} (the signed payload) and POST /_sandbox/events/{id}/redeliver, and the list's resource filter.

function sandbox(answer = 200) {
  const received: { body: string; signature: string | undefined }[] = [];
  const engine = createEngine({
    webhooks: {
      fetch: async (_url, init) => {
        received.push({ body: String(init.body), signature: init.headers['X-Service-Signature'] });
        return new Response(null, { status: answer });
      },
    },
  });
  return { engine, received };
}

/** A customer's account funded: its events (the incoming payment, the balance) are about the account and the payment. */
async function fundedAccount(engine: ReturnType<typeof createEngine>): Promise<string> {
  const customer = await callApi(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
  expect(customer.status).toBe(201);
  const [account] = (await callApi(engine, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`)).body.data;
  expect((await callApi(engine, 'POST', `/sandbox/internal-accounts/${account.id}/fund`, { amount: 500 })).status).toBe(200);
  return account.id as string;
}

describe('an event on the control plane', () => {
  it('shows its payload byte for byte with a signature the platform key verifies', async () => {
    const { engine, received } = sandbox();
    await callApi(engine, 'PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
    await engine.webhooks.settled();
    const [test] = (await callApi(engine, 'GET', '/_sandbox/events?type=TEST')).body.data;
    const detail = await callApi(engine, 'GET', `/_sandbox/events/${test.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.payload).toBe(JSON.stringify({ id: test.id, type: 'TEST', timestamp: test.timestamp, data: {} }));
    expect(detail.body.payload).toBe(received[0]!.body);
    const verified = await engine.fetch(new Request('http://sandbox.test/_sandbox/webhook-key/verify', {
      method: 'POST', body: detail.body.payload,
      headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`, 'content-type': 'application/json', 'X-Service-Signature': detail.body.signature },
    }));
    expect(verified.status).toBe(204);
    engine.close();
  });

  it('is sent again on redelivery, recorded as one more attempt, its delivery state unchanged', async () => {
    const { engine, received } = sandbox();
    await callApi(engine, 'PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
    const [test] = (await callApi(engine, 'GET', '/_sandbox/events?type=TEST')).body.data;
    const again = await callApi(engine, 'POST', `/_sandbox/events/${test.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.deliveries).toHaveLength(2);
    expect(again.body.deliveries[1]).toMatchObject({ attempt: 2, url: 'https://platform.example/hooks', status: 200 });
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect((await callApi(engine, 'GET', `/_sandbox/events/${test.id}`)).body.deliveries).toHaveLength(2);
    engine.close();
  });

  it('answers 400 WEBHOOK_ENDPOINT_NOT_SET without an endpoint, and 404 for an unknown or another platform’s event', async () => {
    const { engine, received } = sandbox();
    const accountId = await fundedAccount(engine);
    const [event] = (await callApi(engine, 'GET', '/_sandbox/events')).body.data;
    const refused = await callApi(engine, 'POST', `/_sandbox/events/${event.id}/redeliver`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
    expect(received).toHaveLength(0);
    expect((await callApi(engine, 'GET', '/_sandbox/events/Webhook:00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const other = engine.createPlatform();
    const theirs = await callApi(engine, 'GET', `/_sandbox/events/${event.id}`, undefined, undefined, other);
    expect(theirs.status).toBe(404);
    expect((await callApi(engine, 'POST', `/_sandbox/events/${event.id}/redeliver`, undefined, undefined, other)).status).toBe(404);
    // The list narrowed to one record's events.
    const mine = await callApi(engine, 'GET', `/_sandbox/events?resource=${encodeURIComponent(accountId)}`);
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((e: { resource: string }) => e.resource === accountId)).toBe(true);
    expect((await callApi(engine, 'GET', '/_sandbox/events?resource=Customer:nobody')).body).toMatchObject({ data: [], totalCount: 0 });
    engine.close();
  });
});
