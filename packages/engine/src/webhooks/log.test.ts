import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi } from '../testing/requests.js';
import { formatWebhookLogLine, type WebhookLogEntry } from './log.js';

describe('the webhook log', () => {
  it('hears every attempt, retries numbered, with the endpoint stripped of its query and user info', async () => {
    const heard: WebhookLogEntry[] = [];
    let answer = 503;
    const engine = createEngine({
      platform: { regulated: true },
      webhooks: { fetch: async () => new Response('', { status: answer }), onDelivery: (entry) => heard.push(entry) },
    });
    expect((await callApi(engine, 'PATCH', '/config', { webhookEndpoint: 'https://user:pw@hooks.example/in?token=secret' })).status).toBe(200);
    const customer = (await callApi(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' })).body;
    await engine.webhooks.settled();
    const approved = heard.filter((entry) => entry.eventType === 'CUSTOMER.KYC_APPROVED');
    expect(approved).toEqual([{
      platformId: engine.defaultPlatform.id, eventId: expect.stringMatching(/^Webhook:/), eventType: 'CUSTOMER.KYC_APPROVED',
      url: 'https://hooks.example/in', attempt: 1, status: 503, durationMs: expect.any(Number),
    }]);
    answer = 200;
    await callApi(engine, 'POST', '/_sandbox/clock/advance', { ms: 31_000 }); // the first retry is due after 30 s
    await engine.webhooks.settled();
    expect(heard.filter((entry) => entry.eventId === approved[0]!.eventId).map((entry) => [entry.attempt, entry.status])).toEqual([[1, 503], [2, 200]]);
    expect(JSON.stringify(heard)).not.toContain('secret');
    expect(JSON.stringify(heard)).not.toContain(customer.id); // no body
    engine.close();
  });

  it('says why a receiver was not reached', () => {
    const entry: WebhookLogEntry = { platformId: 'Platform:p', eventId: 'Webhook:w', eventType: 'TEST', url: 'http://127.0.0.1:9/x', attempt: 3, error: 'TypeError: fetch failed', durationMs: 1.25 };
    expect(formatWebhookLogLine(entry)).toBe('webhook TEST -> http://127.0.0.1:9/x unreachable (TypeError: fetch failed) 1.3ms Webhook:w attempt 3');
    expect(formatWebhookLogLine({ ...entry, error: undefined, status: 200 } as WebhookLogEntry)).toBe('webhook TEST -> http://127.0.0.1:9/x 200 1.3ms Webhook:w attempt 3');
  });
});
