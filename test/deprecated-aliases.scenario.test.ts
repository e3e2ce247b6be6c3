import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { RailyardClient } from '@railyard/client';
import { rawCaller, type RawCall } from './support/raw-api.js';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// The paths the latest published reference SDK still calls, served as deprecated aliases of the operations that
// replaced them (issue 33, item 13), over every transport: the request that SDK sends, raw, and the answer of the
// modern operation. The OpenAPI document marks each alias deprecated.

const ALIASES = [
  ['get', '/customers/kyc-link'],
  ['get', '/quotes'],
  ['post', '/webhooks/test'],
] as const;

/** A client for a fresh regulated platform (customers APPROVED at creation, so quotes can be made at once). */
async function regulatedPlatform(scope: TransportScope): Promise<{ client: RailyardClient; call: RawCall }> {
  const platform = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'deprecated aliases', regulated: true });
  return { client: scope.transport.clientFor(platform), call: rawCaller(scope.transport, platform) };
}

describeOverTransports('deprecated aliases', (scope) => {
  let call: RawCall;
  beforeEach(() => {
    call = rawCaller(scope.transport, scope.platform);
  });

  it('the OpenAPI document serves every alias, marked deprecated, and the transfers too', async () => {
    const doc = (await call('GET', '/_sandbox/openapi.json')).json as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
    for (const [method, path] of ALIASES) expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({ deprecated: true });
    expect(doc.paths['/transfer-in']?.post?.deprecated).toBe(true);
    expect(doc.paths['/transfer-out']?.post?.deprecated).toBe(true);
    // The operations that replaced them are not.
    expect(doc.paths['/customers/{customerId}/kyc-link']?.post?.deprecated).toBeUndefined();
    expect(doc.paths['/sandbox/webhooks/test']?.post?.deprecated).toBeUndefined();
    expect(doc.paths['/quotes']?.post?.deprecated).toBeUndefined();
  });

  it('GET /customers/kyc-link?platformCustomerId= answers as POST /customers/{id}/kyc-link does', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada-1815', fullName: 'Ada Lovelace' });
    const answer = await call('GET', `/customers/kyc-link?platformCustomerId=ada-1815&redirectUri=${encodeURIComponent('https://platform.example/done')}`);
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ kycUrl: expect.any(String), expiresAt: expect.any(String), provider: 'SUMSUB', token: expect.any(String) });
    expect(answer.json.kycUrl).toMatch(new RegExp(`/_sandbox/hosted/[^/]+/kyc/${answer.json.token}$`));
    const modern = await scope.client.customers.createKycLink(customer.id, { redirectUri: 'https://platform.example/done' });
    expect(Object.keys(answer.json).sort()).toEqual(Object.keys(modern).sort());
    expect(answer.json.token).not.toBe(modern.token);

    // The hosted page of the link opens, without credentials.
    const page = await rawCaller(scope.transport)('GET', new URL(answer.json.kycUrl).pathname.replace(/^\/2025-10-13/, ''));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Ada Lovelace');

    // Without redirectUri, as the modern call without a body.
    expect((await call('GET', '/customers/kyc-link?platformCustomerId=ada-1815')).status).toBe(201);
  });

  it('GET /customers/kyc-link creates a link, so it replays under an Idempotency-Key and HEAD (which changes nothing) is 405', async () => {
    await scope.client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada-once', fullName: 'Ada Lovelace' });
    const first = await call('GET', '/customers/kyc-link?platformCustomerId=ada-once', { headers: { 'Idempotency-Key': 'link-once' } });
    const again = await call('GET', '/customers/kyc-link?platformCustomerId=ada-once', { headers: { 'Idempotency-Key': 'link-once' } });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json.token).toBe(first.json.token);
    const head = await call('HEAD', '/customers/kyc-link?platformCustomerId=ada-once');
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'GET']);
    const links = (await call('GET', '/_sandbox/snapshot')).json.collections.kycLinks as unknown[];
    expect(links).toHaveLength(1);
  });

  it('GET /customers/kyc-link: a missing platformCustomerId is 400, an unknown one 404, an unverified contact 409, a bad redirectUri 400', async () => {
    const missing = await call('GET', '/customers/kyc-link');
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(missing.json.details.errors).toContainEqual(expect.objectContaining({ field: 'platformCustomerId' }));

    const unknown = await call('GET', '/customers/kyc-link?platformCustomerId=nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(unknown.json.message).toContain('nobody');

    await scope.client.customers.create({
      customerType: 'INDIVIDUAL', platformCustomerId: 'marie', fullName: 'Marie Curie', nationality: 'FR', currencies: ['EUR'],
      address: { line1: '11 Rue Pierre et Marie Curie', city: 'Paris', postalCode: '75005', country: 'FR' }, email: 'marie@example.eu',
    });
    const unverified = await call('GET', '/customers/kyc-link?platformCustomerId=marie');
    expect(unverified.status).toBe(409);
    expect(unverified.json).toMatchObject({ status: 409, code: 'CONFLICT', details: { unverifiedChannels: ['email'] } });

    await scope.client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada', fullName: 'Ada Lovelace' });
    const badRedirect = await call('GET', `/customers/kyc-link?platformCustomerId=ada&redirectUri=${encodeURIComponent('http://platform.example/done')}`);
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.json.details.errors).toContainEqual(expect.objectContaining({ field: 'redirectUri' }));
  });

  it('GET /customers/kyc-link: the customer of a deleted platformCustomerId is 410 CUSTOMER_DELETED', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'gone', fullName: 'Ada Lovelace' });
    await scope.client.customers.delete(customer.id);
    const answer = await call('GET', '/customers/kyc-link?platformCustomerId=gone');
    expect(answer.status).toBe(410);
    expect(answer.json).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
  });

  it('GET /quotes pages through the platform\'s quotes, newest first, and client.quotes.list iterates them all', async () => {
    const { client, call: as } = await regulatedPlatform(scope);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 100_000);
    const bank = await client.externalAccounts.create({
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    const ids: string[] = [];
    for (const amount of [1_000, 2_000, 3_000]) {
      const quote = await client.quotes.create({
        source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
        lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
      });
      ids.push(quote.id);
    }
    await client.quotes.execute(ids[1]!);

    const first = await as('GET', '/quotes?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    expect(first.json.data.map((q: { id: string }) => q.id)).toEqual([ids[2], ids[1]]);
    expect(first.json.data[0]).toEqual(await client.quotes.retrieve(ids[2]!));
    expect(first.json.data[1].status).not.toBe('PENDING');
    const second = await as('GET', `/quotes?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(second.json).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.json.data.map((q: { id: string }) => q.id)).toEqual([ids[0]]);

    const listed: string[] = [];
    for await (const quote of client.quotes.list({ limit: 1 })) listed.push(quote.id);
    expect(listed).toEqual([...ids].reverse());
    expect((await client.quotes.list()).data).toHaveLength(3);

    // A page of no quotes, and the shared limit bounds.
    expect((await call('GET', '/quotes')).json).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const tooMany = await call('GET', '/quotes?limit=101');
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.details.errors).toContainEqual(expect.objectContaining({ field: 'limit' }));
  });

  it('GET /quotes shows an overdue quote as EXPIRED, as GET /quotes/{id} does', async () => {
    const { client, call: as } = await regulatedPlatform(scope);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'ada', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    const bank = await client.externalAccounts.create({
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    await client.sandbox.clock.advance(10 * 60_000);
    const page = await as('GET', '/quotes');
    expect(page.json.data).toEqual([await client.quotes.retrieve(quote.id)]);
    expect(page.json.data[0].status).toBe('EXPIRED');
  });

  webhookTestScenarios(scope, () => call);
});

/** `POST /webhooks/test` against a loopback receiver, and without an endpoint. */
function webhookTestScenarios(scope: TransportScope, callOf: () => RawCall): void {
  let receiver: Server;
  let url = '';
  const received: string[] = [];
  beforeEach(async () => {
    received.length = 0;
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterEach(async () => {
    await scope.transport.engine?.webhooks.settled();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('POST /webhooks/test answers as POST /sandbox/webhooks/test: 400 WEBHOOK_ENDPOINT_NOT_SET, then a TEST to the given url', async () => {
    const call = callOf();
    const unset = await call('POST', '/webhooks/test');
    expect(unset.status).toBe(400);
    expect(unset.json).toMatchObject({ status: 400, code: 'WEBHOOK_ENDPOINT_NOT_SET' });
    expect((await call('POST', '/sandbox/webhooks/test')).json.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');

    const sent = await call('POST', '/webhooks/test', { body: { url } });
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({ url, response_status: 200, response_body: 'thanks' });
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!)).toMatchObject({ type: 'TEST' });
    expect(await call('POST', '/sandbox/webhooks/test', { body: { url } }).then((a) => a.json)).toEqual(sent.json);

    // The configured endpoint when no url is given (setting it sends a TEST of its own).
    const before = received.length + 1;
    await scope.client.config.update({ webhookEndpoint: url });
    // That TEST is delivered after the answer: wait for it (the server's engine is in another process).
    await scope.transport.engine?.webhooks.settled();
    await expect.poll(() => received.length).toBe(before);
    const configured = await call('POST', '/webhooks/test');
    expect(configured.json).toEqual({ url, response_status: 200, response_body: 'thanks' });
    expect(received).toHaveLength(before + 1);
  });
}
