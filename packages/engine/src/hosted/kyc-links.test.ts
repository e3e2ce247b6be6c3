import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';

// POST /customers/{id}/kyc-link through the public API (SPEC §3.4, §4.3; REFERENCE §2.1).

let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});

type Json = Record<string, any>;
const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const response = await engine.fetch(apiRequest(method, path, body, headers));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Json };
};
const customerPath = (id: string, rest = '') => `/customers/${encodeURIComponent(id)}${rest}`;
const create = async (body: Json) => (await call('POST', '/customers', body)).body;
const link = (id: string, redirectUri = 'https://platform.example/onboarding/done', headers?: Record<string, string>) =>
  call('POST', customerPath(id, '/kyc-link'), { redirectUri }, headers);
const open = (url: string) => engine.fetch(new Request(url));

const us = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' };
const eu = { customerType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR', currencies: ['EUR'], email: 'marie@example.eu', address: { line1: '1 Rue', postalCode: '75005', country: 'FR' } };

const verify = async (id: string, channel: 'email' | 'phone') => {
  expect((await call('POST', customerPath(id, `/verify-${channel}`))).status).toBe(204);
  expect((await call('POST', customerPath(id, `/verify-${channel}/confirm`), { code: '123456' })).status).toBe(200);
};

describe('POST /customers/{id}/kyc-link', () => {
  it('201 with a single-use kycUrl on the origin the request came to, expiresAt in 30 minutes, provider SUMSUB and a token', async () => {
    const customer = await create(us);
    const now = Date.parse(engine.sandbox().clock().now);
    const res = await link(customer.id);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'kycUrl', 'provider', 'token']);
    expect(res.body.provider).toBe('SUMSUB');
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.body.kycUrl).toBe(`http://sandbox.test/_sandbox/hosted/${encodeURIComponent(engine.defaultPlatform.id)}/kyc/${res.body.token}`);
    expect(Date.parse(res.body.expiresAt) - now).toBe(30 * 60_000);
    const page = await open(res.body.kycUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves businesses (KYB) too', async () => {
    const business = await create({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30' } });
    const res = await link(business.id);
    expect(res.status).toBe(201);
    expect(await (await open(res.body.kycUrl)).text()).toContain('Business (KYB)');
  });

  it('accepts https, and http only for local development (loopback, private addresses, *.localhost)', async () => {
    const customer = await create(us);
    const local = ['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/', 'http://192.168.1.5:3000/done', 'http://app.localhost/cb', 'http://10.0.0.7/'];
    for (const ok of ['https://platform.example/cb?x=1', 'https://user:pw@platform.example/', ...local]) {
      expect((await link(customer.id, ok)).status, ok).toBe(201);
    }
    for (const bad of ['http://platform.example/cb', 'http://8.8.8.8/', 'ftp://platform.example/', 'javascript:alert(1)', 'not a url', '/relative', '']) {
      const res = await link(customer.id, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(res.body.details.errors.map((e: Json) => e.field)).toEqual(['redirectUri']);
    }
  });

  it('takes no body, or a body without redirectUri (optional in the reference)', async () => {
    const customer = await create(us);
    const bare = await call('POST', customerPath(customer.id, '/kyc-link'));
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ provider: 'SUMSUB', kycUrl: expect.stringContaining('/hosted/'), token: expect.any(String) });
    expect((await call('POST', customerPath(customer.id, '/kyc-link'), {})).status).toBe(201);
  });

  it('409 while a channel of contactVerification is not VERIFIED; 201 once every present channel is', async () => {
    const customer = await create({ ...eu, phoneNumber: '+33123456789' });
    const refused = await link(customer.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { unverifiedChannels: ['email', 'phone'] } });
    expect(refused.body.message).toMatch(/must verify email and phone/);
    await verify(customer.id, 'email');
    const stillRefused = await link(customer.id);
    expect(stillRefused.status).toBe(409);
    expect(stillRefused.body.details.unverifiedChannels).toEqual(['phone']);
    await verify(customer.id, 'phone');
    expect((await link(customer.id)).status).toBe(201);
  });

  it('409 again after a PATCH changes a verified email', async () => {
    const customer = await create(eu);
    await verify(customer.id, 'email');
    expect((await link(customer.id)).status).toBe(201);
    await call('PATCH', customerPath(customer.id), { customerType: 'INDIVIDUAL', email: 'curie@example.eu' });
    expect((await link(customer.id)).status).toBe(409);
  });

  it('404 USER_NOT_FOUND for an unknown customer, 410 CUSTOMER_DELETED for a deleted one', async () => {
    const unknown = await link('Customer:00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('USER_NOT_FOUND');
    const customer = await create(us);
    await call('DELETE', customerPath(customer.id));
    const gone = await link(customer.id);
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe('CUSTOMER_DELETED');
  });

  it('each call returns a fresh link; earlier links stay valid', async () => {
    const customer = await create(us);
    const first = (await link(customer.id)).body;
    const second = (await link(customer.id)).body;
    expect(second.token).not.toBe(first.token);
    expect(second.kycUrl).not.toBe(first.kycUrl);
    expect((await open(first.kycUrl)).status).toBe(200);
    expect((await open(second.kycUrl)).status).toBe(200);
  });

  it('an Idempotency-Key replay returns the same link and stores no second one', async () => {
    const customer = await create(us);
    const first = await link(customer.id, undefined, { 'idempotency-key': 'link-1' });
    const replay = await link(customer.id, undefined, { 'idempotency-key': 'link-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(engine.sandbox().snapshot().collections.kycLinks).toHaveLength(1);
    const other = await link(customer.id, 'https://platform.example/other', { 'idempotency-key': 'link-1' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('CONFLICT');
  });

  it('expires after 30 minutes of engine time', async () => {
    const customer = await create(us);
    const { kycUrl } = (await link(customer.id)).body;
    engine.sandbox().advance(30 * 60_000 - 1);
    expect((await open(kycUrl)).status).toBe(200);
    engine.sandbox().advance(1);
    const expired = await open(kycUrl);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This verification link has expired');
  });

  it('links are per platform: another platform id in the URL does not open it', async () => {
    const customer = await create(us);
    const { kycUrl } = (await link(customer.id)).body;
    const other = engine.createPlatform({ name: 'other' });
    const res = await open(kycUrl.replace(encodeURIComponent(engine.defaultPlatform.id), encodeURIComponent(other.id)));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This verification link is not valid');
  });

  it('links are kept in snapshots, whose kycLinks records are checked on restore', async () => {
    const customer = await create(us);
    const { kycUrl, token } = (await link(customer.id)).body;
    const snapshot = engine.sandbox().snapshot();
    expect(snapshot.collections.kycLinks).toEqual([expect.objectContaining({ customerId: customer.id, redirectUri: 'https://platform.example/onboarding/done' })]);
    engine.sandbox().reset();
    expect((await open(kycUrl)).status).toBe(404);
    engine.sandbox().restore(snapshot);
    expect((await open(kycUrl)).status).toBe(200);
    // Checked in full (a copy is not one of the engine's own), and still opening.
    engine.sandbox().restore(structuredClone(snapshot));
    expect((await open(kycUrl)).status).toBe(200);
    const broken = structuredClone(snapshot) as Json;
    broken.collections.kycLinks[0].expiresAt = 'tomorrow';
    expect(() => engine.sandbox().restore(broken)).toThrow();
  });

  it('the state keeps the SHA-256 of the token, never the token or the URL; the answer carries them once', async () => {
    const customer = await create(us);
    const { kycUrl, token } = (await link(customer.id)).body;
    const state = JSON.stringify(engine.sandbox().snapshot());
    expect(state).not.toContain(token);
    expect(state).not.toContain('/kyc/');
    const [stored] = engine.sandbox().snapshot().collections.kycLinks as Json[];
    expect(stored!.id).toBe(createHash('sha256').update(token).digest('hex'));
    expect(stored).not.toHaveProperty('kycUrl');
    // The hash is not a token: it opens nothing.
    expect((await open(kycUrl.replace(token, stored!.id))).status).toBe(404);
    expect((await open(kycUrl)).status).toBe(200);
  });

  it('a link of an older snapshot (its id the token, with its kycUrl) is restored under the hash and still opens', async () => {
    const customer = await create(us);
    const { kycUrl, token } = (await link(customer.id)).body;
    const old = structuredClone(engine.sandbox().snapshot()) as Json;
    old.collections.kycLinks[0] = { ...old.collections.kycLinks[0], id: token, kycUrl };
    engine.sandbox().restore(old);
    expect((await open(kycUrl)).status).toBe(200);
    const state = JSON.stringify(engine.sandbox().snapshot());
    expect(state).not.toContain(token);
  });
});

describe('GET /customers/kyc-link (deprecated alias)', () => {
  const legacy = (query: string) => call('GET', `/customers/kyc-link${query}`);

  it('is routed before /customers/{customerId}, and makes the link of the active customer with the platformCustomerId', async () => {
    const customer = await create({ ...us, platformCustomerId: 'ada' });
    const res = await legacy(`?platformCustomerId=ada&redirectUri=${encodeURIComponent('https://platform.example/done')}`);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'kycUrl', 'provider', 'token']);
    expect((await open(res.body.kycUrl)).status).toBe(200);
    // Only the link was added; the customer is as it was.
    expect((await call('GET', customerPath(customer.id))).body).toEqual(customer);
  });

  it('a deleted holder is 410 while no active one exists; a new active holder gets the link', async () => {
    const first = await create({ ...us, platformCustomerId: 'ada' });
    expect((await call('DELETE', customerPath(first.id))).status).toBe(200);
    expect((await legacy('?platformCustomerId=ada')).body).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
    await create({ ...us, platformCustomerId: 'ada' });
    expect((await legacy('?platformCustomerId=ada')).status).toBe(201);
  });

  it('refuses with nothing created: no platformCustomerId (400), an unknown one (404), a bad redirectUri (400), an unverified channel (409)', async () => {
    const before = engine.sandbox().snapshot();
    expect((await legacy('')).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'platformCustomerId' })] } });
    expect((await legacy('?platformCustomerId=')).status).toBe(400);
    expect((await legacy('?platformCustomerId=nobody')).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(before.collections).toEqual(engine.sandbox().snapshot().collections);
    await create({ ...eu, platformCustomerId: 'marie' });
    expect((await legacy('?platformCustomerId=marie')).body).toMatchObject({ status: 409, details: { unverifiedChannels: ['email'] } });
    expect((await legacy(`?platformCustomerId=marie&redirectUri=${encodeURIComponent('ftp://x.example')}`)).status).toBe(400);
    const links = engine.sandbox().snapshot().collections.kycLinks;
    expect(links === undefined || Object.keys(links).length === 0).toBe(true);
  });
});
