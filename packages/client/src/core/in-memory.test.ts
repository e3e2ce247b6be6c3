import { IN_MEMORY_DISPATCH, type WireReply, type WireRequest } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { APIUserAbortError, InternalServerError } from './errors.js';

/** A fetch that must never be called, carrying an in-memory dispatch that records what it receives. */
function engineLike(replies: WireReply[]) {
  const received: WireRequest[] = [];
  const fetch = Object.assign(
    async () => {
      throw new Error('the in-memory transport must not call fetch');
    },
    {
      [IN_MEMORY_DISPATCH]: async (request: WireRequest) => {
        received.push(request);
        const reply = replies.shift();
        if (!reply) throw new Error('no reply left');
        return reply;
      },
    },
  );
  return { fetch, received };
}

const ok = (body: unknown, status = 200): WireReply => ({ status, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' }, body: JSON.stringify(body) });

describe('in-memory transport', () => {
  it('sends plain objects with credentials, a JSON body and an idempotency key', async () => {
    const { fetch, received } = engineLike([ok({ id: 'Customer:1' }, 201)]);
    const client = createClient({ fetch, clientId: 'id', clientSecret: 'secret', sleep: async () => undefined });
    const { data, response } = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'A B' }).withResponse();
    expect(data).toEqual({ id: 'Customer:1' });
    expect(response).toMatchObject({ status: 201, requestId: 'req_1', retries: 0 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:4100/2025-10-13/customers',
      body: '{"customerType":"INDIVIDUAL","fullName":"A B"}',
      headers: { authorization: `Basic ${btoa('id:secret')}`, 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(received[0]!.headers['idempotency-key']).toMatch(/^railyard-/);
  });

  it('keeps the retry rules: a POST with its key is retried on 500 with the same key', async () => {
    const failure: WireReply = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"status":500,"code":"INTERNAL_ERROR","message":"boom"}' };
    const { fetch, received } = engineLike([failure, ok({ id: 'Customer:1' }, 201)]);
    const client = createClient({ fetch, clientId: 'id', clientSecret: 'secret', sleep: async () => undefined });
    await client.customers.create({ customerType: 'INDIVIDUAL' });
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['idempotency-key']).toBe(received[0]!.headers['idempotency-key']);

    const exhausted = engineLike([failure, failure, failure]);
    const again = createClient({ fetch: exhausted.fetch, clientId: 'id', clientSecret: 'secret', sleep: async () => undefined });
    await expect(again.customers.retrieve('Customer:1')).rejects.toBeInstanceOf(InternalServerError);
    expect(exhausted.received).toHaveLength(3);
  });

  it('passes the query string and gives a real Response on asResponse()', async () => {
    const { fetch, received } = engineLike([ok({ data: [], hasMore: false, totalCount: 0 })]);
    const client = createClient({ fetch, clientId: 'id', clientSecret: 'secret' });
    const raw = await client.customers.list({ limit: 5, customerType: 'BUSINESS' }).asResponse();
    expect(received[0]!.url).toBe('http://127.0.0.1:4100/2025-10-13/customers?limit=5&customerType=BUSINESS');
    expect(raw).toBeInstanceOf(Response);
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('honours an aborted signal', async () => {
    const { fetch, received } = engineLike([ok({})]);
    const client = createClient({ fetch, clientId: 'id', clientSecret: 'secret' });
    const controller = new AbortController();
    controller.abort();
    await expect(client.customers.retrieve('Customer:1', { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(received).toHaveLength(0);
  });
});
