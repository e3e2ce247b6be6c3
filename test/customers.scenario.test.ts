import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  AuthenticationError, BadRequestError, ConflictError, GoneError, NotFoundError,
} from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports } from './support/transports.js';

// The same customer scenarios over every transport: in-process, msw and HTTP (SPEC §2.6, §4.3, §7).

const ada = {
  customerType: 'INDIVIDUAL' as const,
  platformCustomerId: 'ada',
  fullName: 'Ada Lovelace',
  birthDate: '1815-12-10',
  nationality: 'GB',
  address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
  idType: 'SSN' as const,
  identifier: '123-45-6789',
};

describeOverTransports('customers', (scope) => {
  const raw = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const authorization = `Basic ${btoa(`${scope.platform.clientId}:${scope.platform.clientSecret}`)}`;
    const response = await scope.transport.raw(path, { method, headers: { authorization, ...headers }, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  it('creates, retrieves, updates, lists and deletes a customer', async () => {
    const created = await scope.client.customers.create(ada);
    expect(created).toMatchObject({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', kycStatus: 'UNVERIFIED', platformCustomerId: 'ada' });
    expect(created).not.toHaveProperty('identifier');

    const { data: fetched, response } = await scope.client.customers.retrieve(created.id).withResponse();
    expect(fetched).toEqual(created);
    expect(response.status).toBe(200);
    expect(response.requestId).toMatch(/^req_/);

    const updated = await scope.client.customers.update(created.id, { customerType: 'INDIVIDUAL', fullName: 'Augusta Ada King' });
    expect(updated).toMatchObject({ id: created.id, fullName: 'Augusta Ada King', birthDate: '1815-12-10' });

    const accounts = await scope.client.internalAccounts.list({ customerId: created.id });
    expect(accounts.data).toHaveLength(1);
    expect(accounts.data[0]).toMatchObject({ customerId: created.id, balance: { amount: 0, currency: { code: 'USD' } } });

    const deleted = await scope.client.customers.delete(created.id);
    expect(deleted.isDeleted).toBe(true);
    await expect(scope.client.customers.delete(created.id)).rejects.toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
    await expect(scope.client.customers.delete(created.id)).rejects.toBeInstanceOf(GoneError);
  });

  it('creates a business and auto-paginates a list across pages', async () => {
    const business = await scope.client.customers.create({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Analytical Engines Ltd', country: 'US', taxId: '12-3456789', incorporatedOn: '1843-07-01' },
    });
    expect(business).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED' });
    for (let i = 0; i < 4; i++) await scope.client.customers.create({ ...ada, platformCustomerId: `ada-${i}` });

    const first = await scope.client.customers.list({ limit: 2 });
    expect(first).toMatchObject({ hasMore: true, totalCount: 5 });
    const seen: string[] = [];
    for await (const customer of scope.client.customers.list({ limit: 2 })) seen.push(customer.platformCustomerId);
    expect(seen).toEqual(['ada-3', 'ada-2', 'ada-1', 'ada-0', business.platformCustomerId]);
    const onlyBusinesses = await scope.client.customers.list({ customerType: 'BUSINESS' });
    expect(onlyBusinesses.data.map((c) => c.id)).toEqual([business.id]);
  });

  it('lists every invalid field in one 400 and creates nothing', async () => {
    const error = await scope.client.customers
      .create({ customerType: 'INDIVIDUAL', birthDate: '10 Dec 1815', nationality: 'England', idType: 'SSN', identifier: '123456789' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect(bad.code).toBe('INVALID_INPUT');
    expect(bad.fieldErrors.map((f) => f.field).sort()).toEqual(['birthDate', 'identifier', 'nationality']);
    expect((await scope.client.customers.list()).totalCount).toBe(0);
  });

  it('lists every invalid field of a PATCH and changes nothing', async () => {
    const created = await scope.client.customers.create(ada);
    const error = await scope.client.customers
      .update(created.id, { customerType: 'INDIVIDUAL', countryOfIssuance: 'FR', birthDate: 'yesterday', currencies: ['USD', 'JPY'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fieldErrors.map((f) => f.field).sort()).toEqual(['birthDate', 'countryOfIssuance', 'currencies.1']);
    expect(await scope.client.customers.retrieve(created.id)).toEqual(created);
  });

  it('answers malformed HTTP with the error shape: bad JSON, wrong content type, wrong method, unknown route, oversized body', async () => {
    const json = { 'content-type': 'application/json' };
    const badJson = await raw('POST', '/customers', '{"customerType":', json);
    expect(badJson).toMatchObject({ status: 400, body: { status: 400, code: 'INVALID_REQUEST_FORMAT' } });
    const form = await raw('POST', '/customers', 'customerType=INDIVIDUAL', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST_FORMAT' } });
    const wrongMethod = await raw('PUT', '/customers', '{}', json);
    expect(wrongMethod).toMatchObject({ status: 405, body: { status: 405, code: 'METHOD_NOT_ALLOWED' } });
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET, HEAD');
    const unknown = await raw('GET', '/no-such-thing');
    expect(unknown).toMatchObject({ status: 404, body: { status: 404, code: 'REFERENCE_NOT_FOUND' } });
    const huge = await raw('POST', '/customers', JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'x'.repeat(1_100_000) }), json);
    expect(huge).toMatchObject({ status: 413, body: { status: 413, code: 'INVALID_INPUT' } });
    expect((await scope.client.customers.list()).totalCount).toBe(0);
  });

  it('records end-user terms consent and filters internal accounts', async () => {
    const terms = await scope.client.customers.endUserTerms();
    const consent = { acceptedAt: '2026-11-01T10:00:00Z', ipAddress: '203.0.113.7', termsVersion: terms.version, acceptanceMethod: 'CLICK_TO_ACCEPT' as const };
    const created = await scope.client.customers.create({ ...ada, currencies: ['USD', 'USDC'], endUserTermsConsent: consent });
    expect(created.endUserTermsConsent).toEqual(consent);
    const stale = await scope.client.customers.create({ ...ada, platformCustomerId: 'old', endUserTermsConsent: { ...consent, termsVersion: 'V0' } }).catch((e: unknown) => e);
    expect((stale as BadRequestError).code).toBe('END_USER_TERMS_VERSION_NOT_FOUND');
    const crypto = await scope.client.internalAccounts.list({ customerId: created.id, type: 'INTERNAL_CRYPTO' });
    expect(crypto.data.map((a) => a.balance.currency.code)).toEqual(['USDC']);
    const usd = await scope.client.internalAccounts.list({ customerId: created.id, currency: 'USD' });
    expect(usd.data.map((a) => a.type)).toEqual(['INTERNAL_FIAT']);
  });

  it('refuses a duplicate platformCustomerId with 409 CONFLICT', async () => {
    await scope.client.customers.create(ada);
    const error = await scope.client.customers.create(ada).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('CONFLICT');
  });

  it('answers an unknown customer with 404 USER_NOT_FOUND', async () => {
    const error = await scope.client.customers.retrieve('Customer:00000000-0000-4000-8000-00000000dead').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('USER_NOT_FOUND');
  });

  it('refuses wrong credentials with 401 UNAUTHORIZED', async () => {
    const stranger = scope.transport.clientFor({ clientId: 'nobody', clientSecret: 'nothing' });
    const error = await stranger.customers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('UNAUTHORIZED');
  });

  it('replays a create sent twice with one Idempotency-Key', async () => {
    const first = await scope.client.customers.create(ada, { idempotencyKey: 'scenario-key' });
    const again = await scope.client.customers.create(ada, { idempotencyKey: 'scenario-key' });
    expect(again.id).toBe(first.id);
    expect((await scope.client.customers.list()).totalCount).toBe(1);
  });

  it('drives the control plane: clock, snapshot, restore, reset, events', async () => {
    const before = await scope.client.sandbox.clock.get();
    const after = await scope.client.sandbox.clock.advance(60_000);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(60_000);

    const kept = await scope.client.customers.create(ada);
    const snapshot = await scope.client.sandbox.snapshot();
    await scope.client.sandbox.reset();
    expect((await scope.client.customers.list()).totalCount).toBe(0);
    await scope.client.sandbox.restore(snapshot);
    expect(await scope.client.customers.retrieve(kept.id)).toMatchObject({ fullName: 'Ada Lovelace' });

    const regulated = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ regulated: true });
    const regulatedClient = scope.transport.clientFor(regulated);
    await regulatedClient.customers.create({ ...ada, fullName: 'Grace Hopper' });
    const events = await regulatedClient.sandbox.events.list();
    expect(events.data.map((e) => e.type)).toEqual(['CUSTOMER.KYC_APPROVED']);
  });

  it('reads the provider-required customer fields from the configuration', async () => {
    const config = await scope.client.config.retrieve();
    const usdb = config.supportedCurrencies.find((c) => c.currencyCode === 'USDB');
    expect(usdb?.providerRequiredCustomerFields).toEqual(['EMAIL']);
    const error = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wanda Wallet', currencies: ['USDB'] }).catch((e: unknown) => e);
    expect((error as BadRequestError).fieldErrors.map((f) => f.field)).toEqual(['email']);
  });

  it('answers the health check through the client', async () => {
    const engineVersion = (JSON.parse(readFileSync(new URL('../packages/engine/package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const health = await scope.client.sandbox.health();
    // The standalone server runs the built engine, which names its package version; in this process the engine runs
    // from source, where it is `development`.
    const version = scope.transport.name === 'http' ? engineVersion : 'development';
    expect(health).toEqual({ status: 'ok', version, apiVersion: '2025-10-13', uptimeSeconds: expect.any(Number) });
    expect(health.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('serves the OpenAPI document', async () => {
    const document = await scope.client.sandbox.openapi();
    expect(document.openapi).toBe('3.1.0');
    expect(JSON.stringify(document.paths)).toContain('createCustomer');
  });
});
