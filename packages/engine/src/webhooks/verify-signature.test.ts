import { WEBHOOK_SIGNATURE_HEADER } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { apiRequest, callApi } from '../testing/requests.js';

// The control plane's signature check (`POST /_sandbox/webhook-key/verify`): a receiver's view of X-Service-Signature.

describe('checking a webhook signature', () => {
  it('204 for a delivery as received; 401 INVALID_SIGNATURE for an edited body, a missing, malformed or foreign header', async () => {
    const deliveries: { body: string; signature: string }[] = [];
    const engine = createEngine({
      webhooks: { fetch: async (_url, init) => (deliveries.push({ body: init.body, signature: init.headers[WEBHOOK_SIGNATURE_HEADER]! }), new Response('ok')) },
    });
    expect((await callApi(engine, 'POST', '/sandbox/webhooks/test', { url: 'https://platform.example/hooks' })).status).toBe(200);
    const [{ body, signature }] = deliveries as [{ body: string; signature: string }];
    const check = async (text: string, header?: string) =>
      engine.fetch(apiRequest('POST', '/_sandbox/webhook-key/verify', text, header === undefined ? {} : { [WEBHOOK_SIGNATURE_HEADER]: header }));

    expect((await check(body, signature)).status).toBe(204);
    // The bare base64 form the reference's examples tolerate.
    expect((await check(body, JSON.parse(signature).s)).status).toBe(204);
    const refused = [
      await check(body.replace('"TEST"', '"TEST" '), signature),
      await check(JSON.stringify(JSON.parse(body)) + ' ', signature),
      await check(body),
      await check(body, '{"v":"1","s":"not base64!"}'),
      await check(body, '{"v":"2","s":"AAAA"}'),
      await check(body, 'AAAA'),
    ];
    for (const answer of refused) expect(await answer.json()).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });

    // Another platform's key does not verify this platform's deliveries.
    const other = createEngine();
    expect((await other.fetch(apiRequest('POST', '/_sandbox/webhook-key/verify', body, { [WEBHOOK_SIGNATURE_HEADER]: signature }))).status).toBe(401);
    engine.close();
    other.close();
  });
});
