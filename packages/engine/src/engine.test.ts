import type { Customer, OutgoingTransaction, WebhookEventType } from '@railyard/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createEngine, type OutboxEventOf } from './engine.js';
import { callApi } from './testing/requests.js';
import { DEFAULT_CREDENTIALS } from './platforms/registry.js';

// The engine's public typing: `webhooks.next` knows the contract's event names and narrows to the event asked for;
// `fetch` stands wherever the global fetch's type is asked for (tsc checks the types: `pnpm typecheck`).

describe('engine.webhooks.next', () => {
  it('resolves to the event of the type asked for, its data the resource of that type', async () => {
    const engine = createEngine({ platform: { regulated: true } }); // a regulated platform approves KYC at once
    const created = (await callApi(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Tia Types', currencies: ['USD'] })).body;
    const event = await engine.webhooks.next('CUSTOMER.KYC_APPROVED', { timeoutMs: 1_000 });
    expectTypeOf(event.type).toEqualTypeOf<'CUSTOMER.KYC_APPROVED'>();
    expectTypeOf(event.data).toEqualTypeOf<Customer>();
    expectTypeOf(event.deliveries).toBeArray();
    expect(event.type).toBe('CUSTOMER.KYC_APPROVED');
    expect(event.data.id).toBe(created.id);
    expect(event.data.customerType === 'INDIVIDUAL' && event.data.fullName).toBe('Tia Types');
  });

  it('types each event name, refuses names the contract does not have, and without a name gives the union', () => {
    expectTypeOf<OutboxEventOf<'OUTGOING_PAYMENT.COMPLETED'>['data']>().toEqualTypeOf<OutgoingTransaction>();
    expectTypeOf<OutboxEventOf['type']>().toEqualTypeOf<WebhookEventType>();
    const engine = createEngine();
    expectTypeOf(engine.webhooks.next).parameter(0).toEqualTypeOf<WebhookEventType | undefined>();
    // @ts-expect-error not an event type of the contract
    const refused = engine.webhooks.next('CUSTOMER.KYC_DONE', { timeoutMs: 1 });
    return expect(refused).rejects.toThrow();
  });
});

describe('engine.fetch', () => {
  it('is assignable to typeof fetch and answers a URL with its init, as the global fetch takes them', async () => {
    const engine = createEngine();
    const f: typeof fetch = engine.fetch;
    const auth = `Basic ${btoa(`${DEFAULT_CREDENTIALS.clientId}:${DEFAULT_CREDENTIALS.clientSecret}`)}`;
    const created = await f(new URL('http://sandbox.test/2025-10-13/customers'), {
      method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Fay Fetch' }),
    });
    expect(created.status).toBe(201);
    const listed = await f('http://sandbox.test/2025-10-13/customers', { headers: { authorization: auth } });
    expect((await listed.json()).data.map((c: { fullName: string }) => c.fullName)).toEqual(['Fay Fetch']);
    // A Request alone, as before.
    expect((await f(new Request('http://sandbox.test/_sandbox/clock', { headers: { authorization: auth } }))).status).toBe(200);
  });

  it('rejects a URL fetch could not take, as fetch does, instead of throwing', async () => {
    const engine = createEngine();
    await expect(engine.fetch('/2025-10-13/customers')).rejects.toThrow(TypeError);
  });
});
