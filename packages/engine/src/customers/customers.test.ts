import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest, callApi } from '../testing/requests.js';

let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});

type Json = Record<string, any>;
const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>, credentials?: { clientId: string; clientSecret: string }) => {
  const response = await engine.fetch(apiRequest(method, path, body, headers, credentials));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Json };
};
const fields = (body: Json) => (body.details.errors as { field: string }[]).map((e) => e.field).sort();

const alice = {
  customerType: 'INDIVIDUAL',
  platformCustomerId: 'alice-1',
  fullName: 'Alice Liddell',
  birthDate: '1990-04-01',
  nationality: 'US',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
  idType: 'SSN',
  identifier: '123-45-6789',
  email: 'alice@example.com',
};
const acme = {
  customerType: 'BUSINESS',
  platformCustomerId: 'acme',
  businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber: 'REG-100' },
};

describe('POST /customers', () => {
  it('creates an individual, never returns the identifier, and opens a USD internal account', async () => {
    const { status, body } = await call('POST', '/customers', alice);
    expect(status).toBe(201);
    expect(body.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    expect(body).toMatchObject({ customerType: 'INDIVIDUAL', platformCustomerId: 'alice-1', kycStatus: 'UNVERIFIED', currencies: ['USD'], region: 'US', countryOfIssuance: 'US', isDeleted: false });
    expect(body.umaAddress).toMatch(/^\$user[0-9a-f]{12}@/);
    expect(body).not.toHaveProperty('identifier');
    const accounts = await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(body.id)}`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.totalCount).toBe(1);
    expect(accounts.body.data[0]).toMatchObject({ customerId: body.id, type: 'INTERNAL_FIAT', status: 'ACTIVE', balance: { amount: 0, currency: { code: 'USD', decimals: 2 } } });
    expect(accounts.body.data[0].fundingPaymentInstructions[0].accountOrWalletInfo.accountType).toBe('USD_ACCOUNT');
  });

  it('opens one internal account per currency', async () => {
    const { body } = await call('POST', '/customers', { ...alice, currencies: ['USD', 'USDC'] });
    const accounts = await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(body.id)}`);
    expect(accounts.body.data.map((a: Json) => [a.balance.currency.code, a.type]).sort()).toEqual([['USD', 'INTERNAL_FIAT'], ['USDC', 'INTERNAL_CRYPTO']]);
  });

  it('creates a business with its required businessInfo', async () => {
    const { status, body } = await call('POST', '/customers', acme);
    expect(status).toBe(201);
    expect(body).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED', businessInfo: { legalName: 'Acme Inc', taxId: '12-3456789' } });
  });

  it('lists every invalid field of an individual at once', async () => {
    const { status, body } = await call('POST', '/customers', {
      customerType: 'INDIVIDUAL',
      birthDate: '1990-13-45',
      nationality: 'XX',
      address: { line1: '1 Main St', country: 'USA' },
      idType: 'SSN',
      identifier: '123456789',
      phoneNumber: '555-1234',
      sourceOfFundsCategories: ['SALARY', 'OTHER'],
      favouriteColour: 'blue', // not a field: ignored, as the reference does (a strict platform lists it, below)
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(fields(body)).toEqual([
      'address.country', 'address.postalCode', 'birthDate', 'identifier', 'nationality', 'phoneNumber', 'sourceOfFundsOtherDescription',
    ]);
    const byField = Object.fromEntries(body.details.errors.map((e: Json) => [e.field, e]));
    expect(byField.identifier.constraint).toMatchObject({ format: 'us-ssn' });
    expect(byField.nationality.constraint).toEqual({ format: 'iso3166-1-alpha-2' });
    expect(byField['address.postalCode'].constraint).toEqual({ required: true });
    expect(byField.birthDate.constraint).toEqual({ format: 'date' });
    expect(byField.sourceOfFundsOtherDescription.message).toContain('OTHER');
  });

  it('requires the business fields of SPEC §2.6 and validates the tax id against the country', async () => {
    const { status, body } = await call('POST', '/customers', { customerType: 'BUSINESS', businessInfo: { country: 'US', taxId: 'abc' } });
    expect(status).toBe(400);
    expect(fields(body)).toEqual(['businessInfo.incorporatedOn', 'businessInfo.legalName', 'businessInfo.taxId']);
    expect(body.details.errors.find((e: Json) => e.field === 'businessInfo.taxId').message).toContain('EIN');
  });

  it('says which type a field expected', async () => {
    const { body } = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 5, address: null });
    expect(body.details.errors).toEqual([
      { field: 'fullName', message: 'must be a string, not number', constraint: { type: 'string' } },
      { field: 'address', message: 'must be an object, not null', constraint: { type: 'object' } },
    ]);
  });

  it('lists schema and platform problems in one response', async () => {
    const { status, body } = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wanda Wallet', currencies: ['USDB', 'XYZ'], birthDate: 'bad' });
    expect(status).toBe(400);
    expect(fields(body)).toEqual(['birthDate', 'currencies.1', 'email']);
  });

  it('counts a currency listed twice once', async () => {
    const { status, body } = await call('POST', '/customers', { ...alice, currencies: ['USD', 'USD'] });
    expect(status).toBe(201);
    expect(body.currencies).toEqual(['USD']);
    expect((await call('GET', `/customers/internal-accounts?customerId=${body.id}`)).body.totalCount).toBe(1);
  });

  it('infers the currencies from the region when none are sent: the local currency where the platform offers it, else USD', async () => {
    const region = async (r: string) => (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Person of ${r}`, region: r })).body;
    expect(await region('MX')).toMatchObject({ region: 'MX', currencies: ['MXN'] });
    expect(await region('DE')).toMatchObject({ region: 'DE', currencies: ['EUR'] });
    expect(await region('GB')).toMatchObject({ region: 'GB', currencies: ['GBP'] });
    expect(await region('JP')).toMatchObject({ region: 'JP', currencies: ['USD'] });
    expect((await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'No Region' })).body).toMatchObject({ region: 'US', currencies: ['USD'] });
  });

  it('ignores fields it does not know; a strict platform lists each of them with the other problems', async () => {
    const body = { ...alice, favouriteColour: 'blue', address: { ...alice.address, floor: 3 } };
    const lenient = await call('POST', '/customers', body);
    expect(lenient.status).toBe(201);
    expect(lenient.body).not.toHaveProperty('favouriteColour');
    expect(lenient.body.address).not.toHaveProperty('floor');
    engine.createPlatform({ clientId: 'strict-platform', clientSecret: 'strict-secret', strict: true });
    const strict = await callApi(engine, 'POST', '/customers', { ...body, birthDate: 'soon' }, undefined, { clientId: 'strict-platform', clientSecret: 'strict-secret' });
    expect(strict.status).toBe(400);
    expect(fields(strict.body)).toEqual(['address.floor', 'birthDate', 'favouriteColour']);
    expect(strict.body.details.errors.find((e: Json) => e.field === 'favouriteColour').message).toContain('not a field of this request');
    const unknownQuery = await callApi(engine, 'GET', '/customers?limit=5&colour=blue', undefined, undefined, { clientId: 'strict-platform', clientSecret: 'strict-secret' });
    expect(unknownQuery.status).toBe(400);
    expect(fields(unknownQuery.body)).toEqual(['colour']);
    expect((await callApi(engine, 'GET', '/customers', undefined, undefined, { clientId: 'strict-platform', clientSecret: 'strict-secret' })).body.totalCount).toBe(0);
  });

  it('rejects an unknown customerType with the accepted values', async () => {
    const { status, body } = await call('POST', '/customers', { customerType: 'ROBOT' });
    expect(status).toBe(400);
    expect(body.details.errors).toEqual([expect.objectContaining({ field: 'customerType', constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] } })]);
  });

  it('accepts only SSN or ITIN for individuals, issued in the US', async () => {
    const { body } = await call('POST', '/customers', { ...alice, idType: 'EIN', identifier: '12-3456789' });
    expect(fields(body)).toEqual(['idType']);
    const itin = await call('POST', '/customers', { ...alice, idType: 'ITIN', identifier: '912-70-1234', countryOfIssuance: 'GB' });
    expect(fields(itin.body)).toEqual(['countryOfIssuance']);
    const goodItin = await call('POST', '/customers', { ...alice, idType: 'ITIN', identifier: '912-70-1234' });
    expect(goodItin.status).toBe(201);
  });

  it('adds the provider-required fields of the customer currencies (USDB: an email for the wallet)', async () => {
    const { status, body } = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wanda Wallet', currencies: ['USDB'] });
    expect(status).toBe(400);
    expect(fields(body)).toEqual(['email']);
    const ok = await call('POST', '/customers', { ...alice, currencies: ['EUR'] });
    expect(ok.status).toBe(201);
    expect(ok.body.region).toBe('EU');
  });

  it('refuses a currency the platform does not offer', async () => {
    const { status, body } = await call('POST', '/customers', { ...alice, currencies: ['USD', 'JPY'] });
    expect(status).toBe(400);
    expect(body.details.errors[0]).toMatchObject({ field: 'currencies.1' });
  });

  it('refuses a duplicate platformCustomerId with 409 CONFLICT, and allows it again after delete', async () => {
    const first = await call('POST', '/customers', alice);
    const again = await call('POST', '/customers', alice);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 409, code: 'CONFLICT' });
    await call('DELETE', `/customers/${first.body.id}`);
    expect((await call('POST', '/customers', alice)).status).toBe(201);
  });

  it('refuses a malformed UMA address with 400 INVALID_UMA_ADDRESS', async () => {
    const { status, body } = await call('POST', '/customers', { ...alice, umaAddress: 'alice@example.com' });
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_UMA_ADDRESS');
    expect(fields(body)).toEqual(['umaAddress']);
    const mixed = await call('POST', '/customers', { ...alice, umaAddress: 'alice', nationality: 'XX' });
    expect(mixed.body.code).toBe('INVALID_INPUT');
  });

  it('refuses a taken UMA address with 409 UMA_ADDRESS_EXISTS', async () => {
    await call('POST', '/customers', { ...alice, umaAddress: '$alice@example.com' });
    const { status, body } = await call('POST', '/customers', { ...alice, platformCustomerId: 'other', umaAddress: '$Alice@example.com' });
    expect(status).toBe(409);
    expect(body.code).toBe('UMA_ADDRESS_EXISTS');
  });

  it('records end-user terms consent and refuses an unknown terms version', async () => {
    const consent = { acceptedAt: '2026-11-01T10:00:00Z', ipAddress: '203.0.113.7', termsVersion: 'V1', acceptanceMethod: 'CHECKBOX' };
    const ok = await call('POST', '/customers', { ...alice, endUserTermsConsent: consent });
    expect(ok.body.endUserTermsConsent).toEqual(consent);
    const bad = await call('POST', '/customers', { ...alice, platformCustomerId: 'x', endUserTermsConsent: { ...consent, termsVersion: 'V9' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND');
  });

  it('changes no state when it refuses a request', async () => {
    await call('POST', '/customers', { ...alice, nationality: 'XX' });
    await call('POST', '/customers', { ...alice, currencies: ['USDB'], email: undefined });
    const list = await call('GET', '/customers');
    expect(list.body.totalCount).toBe(0);
    expect((await call('GET', '/customers/internal-accounts')).body.totalCount).toBe(0);
  });
});

describe('regulated and skip-paperwork platforms', () => {
  it('resolve the individual suffix at creation and emit the status event', async () => {
    const platform = engine.createPlatform({ regulated: true });
    const as = { clientId: platform.clientId, clientSecret: platform.clientSecret };
    const approved = await call('POST', '/customers', { ...alice, fullName: 'Alice Approved' }, {}, as);
    const pending = await call('POST', '/customers', { ...alice, platformCustomerId: 'p', fullName: 'Paula Pending001' }, {}, as);
    const rejected = await call('POST', '/customers', { ...alice, platformCustomerId: 'r', fullName: 'Rex Rejected002' }, {}, as);
    const unverified = await call('POST', '/customers', { ...alice, platformCustomerId: 'u', fullName: 'Uma Unverified003' }, {}, as);
    expect([approved, pending, rejected, unverified].map((r) => r.body.kycStatus)).toEqual(['APPROVED', 'PENDING', 'REJECTED', 'UNVERIFIED']);
    const events = engine.sandbox(platform.id).events();
    expect(events.data.map((e) => e.type)).toEqual(['CUSTOMER.KYC_REJECTED', 'CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_APPROVED']);
    expect(events.data[2]!.data).toMatchObject({ id: approved.body.id, kycStatus: 'APPROVED' });
    // Each platform sees only its own customers.
    expect((await call('GET', '/customers')).body.totalCount).toBe(0);
  });

  it('leave businesses UNVERIFIED at creation', async () => {
    const platform = engine.createPlatform({ skipPaperwork: true });
    const { body } = await call('POST', '/customers', acme, {}, { clientId: platform.clientId, clientSecret: platform.clientSecret });
    expect(body.kybStatus).toBe('UNVERIFIED');
  });
});

describe('retrieve, update, delete', () => {
  it('retrieves a customer and 404s USER_NOT_FOUND for an unknown id', async () => {
    const created = await call('POST', '/customers', alice);
    const { status, body } = await call('GET', `/customers/${created.body.id}`);
    expect(status).toBe(200);
    expect(body).toEqual(created.body);
    const missing = await call('GET', '/customers/Customer:00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('USER_NOT_FOUND');
  });

  it('updates partially, replaces currencies wholesale and keeps the status', async () => {
    const platform = engine.createPlatform({ regulated: true });
    const as = { clientId: platform.clientId, clientSecret: platform.clientSecret };
    const created = await call('POST', '/customers', alice, {}, as);
    engine.sandbox(platform.id).advance(1000);
    const { status, body } = await call('PATCH', `/customers/${created.body.id}`, { customerType: 'INDIVIDUAL', fullName: 'Alice Renamed002', currencies: ['USDC'] }, {}, as);
    expect(status).toBe(200);
    expect(body).toMatchObject({ fullName: 'Alice Renamed002', kycStatus: 'APPROVED', currencies: ['USDC'], birthDate: '1990-04-01' });
    expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(body.createdAt));
    const accounts = await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`, undefined, {}, as);
    expect(accounts.body.data.map((a: Json) => a.balance.currency.code).sort()).toEqual(['USD', 'USDC']);
  });

  it('requires customerType on PATCH and refuses changing it', async () => {
    const created = await call('POST', '/customers', alice);
    const missing = await call('PATCH', `/customers/${created.body.id}`, { fullName: 'No Type' });
    expect(missing.status).toBe(400);
    expect(fields(missing.body)).toEqual(['customerType']);
    const changed = await call('PATCH', `/customers/${created.body.id}`, { customerType: 'BUSINESS' });
    expect(changed.status).toBe(400);
    expect(changed.body.details.errors[0]).toMatchObject({ field: 'customerType', constraint: { enum: ['INDIVIDUAL'] } });
  });

  it('checks a PATCH against the customer it produces', async () => {
    const created = await call('POST', '/customers', alice);
    const path = `/customers/${created.body.id}`;
    const abroad = await call('PATCH', path, { customerType: 'INDIVIDUAL', countryOfIssuance: 'GB' });
    expect(abroad.status).toBe(400);
    expect(fields(abroad.body)).toEqual(['countryOfIssuance']);
    // The stored idType makes a new identifier alone acceptable, and it is checked as an SSN.
    expect((await call('PATCH', path, { customerType: 'INDIVIDUAL', identifier: '987-65-4321' })).status).toBe(200);
    expect(fields((await call('PATCH', path, { customerType: 'INDIVIDUAL', identifier: '987654321' })).body)).toEqual(['identifier']);
    // Moving to USDB needs the USDB provider's email: Nia has only a name.
    const nia = await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'nia', fullName: 'Nia Nowhere' });
    expect(fields((await call('PATCH', `/customers/${nia.body.id}`, { customerType: 'INDIVIDUAL', currencies: ['USDB'], nationality: 'FR' })).body)).toEqual(['email']);
    expect((await call('GET', path)).body).toMatchObject({ countryOfIssuance: 'US', currencies: ['USD'] });
    expect((await call('GET', `/customers/${nia.body.id}`)).body).not.toHaveProperty('nationality');

    const business = await call('POST', '/customers', acme);
    const businessPath = `/customers/${business.body.id}`;
    expect(fields((await call('PATCH', businessPath, { customerType: 'BUSINESS', businessInfo: { taxId: 'zz' } })).body)).toEqual(['businessInfo.taxId']);
    expect(fields((await call('PATCH', businessPath, { customerType: 'BUSINESS', businessInfo: { country: 'GB' } })).body)).toEqual(['businessInfo.taxId']);
    expect((await call('PATCH', businessPath, { customerType: 'BUSINESS', businessInfo: { country: 'GB', taxId: '1234567890' } })).status).toBe(200);
  });

  it('refuses email and phoneNumber in one PATCH', async () => {
    const created = await call('POST', '/customers', alice);
    const { status, body } = await call('PATCH', `/customers/${created.body.id}`, { customerType: 'INDIVIDUAL', email: 'a@b.co', phoneNumber: '+14155550100' });
    expect(status).toBe(400);
    expect(fields(body)).toEqual(['phoneNumber']);
  });

  it('merges businessInfo on PATCH', async () => {
    const created = await call('POST', '/customers', acme);
    const { body } = await call('PATCH', `/customers/${created.body.id}`, { customerType: 'BUSINESS', businessInfo: { doingBusinessAs: 'Acme' } });
    expect(body.businessInfo).toMatchObject({ legalName: 'Acme Inc', doingBusinessAs: 'Acme', taxId: '12-3456789' });
    // The merged customer is checked as a whole: a tax id that does not fit the business's country is refused.
    const refused = await call('PATCH', `/customers/${created.body.id}`, { customerType: 'BUSINESS', businessInfo: { taxId: '12-34' } });
    expect(refused.status).toBe(400);
    expect(fields(refused.body)).toEqual(['businessInfo.taxId']);
    expect((await call('GET', `/customers/${created.body.id}`)).body.businessInfo.taxId).toBe('12-3456789');
  });

  it('deletes once (200 with isDeleted) and answers 410 CUSTOMER_DELETED after', async () => {
    const created = await call('POST', '/customers', alice);
    const first = await call('DELETE', `/customers/${created.body.id}`);
    expect(first.status).toBe(200);
    expect(first.body.isDeleted).toBe(true);
    const second = await call('DELETE', `/customers/${created.body.id}`);
    expect(second.status).toBe(410);
    expect(second.body.code).toBe('CUSTOMER_DELETED');
    expect((await call('PATCH', `/customers/${created.body.id}`, { customerType: 'INDIVIDUAL' })).status).toBe(410);
    expect((await call('GET', '/customers')).body.totalCount).toBe(0);
    expect((await call('GET', '/customers?isIncludingDeleted=true')).body.totalCount).toBe(1);
  });
});

describe('GET /customers', () => {
  it('pages newest first with a cursor and filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await call('POST', '/customers', { ...alice, platformCustomerId: `c${i}` })).body.id);
      engine.sandbox().advance(1000);
    }
    await call('POST', '/customers', acme);
    const first = await call('GET', '/customers?limit=2&customerType=INDIVIDUAL');
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 5 });
    expect(first.body.data.map((c: Json) => c.id)).toEqual([ids[4], ids[3]]);
    const second = await call('GET', `/customers?limit=2&customerType=INDIVIDUAL&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((c: Json) => c.id)).toEqual([ids[2], ids[1]]);
    const third = await call('GET', `/customers?limit=2&customerType=INDIVIDUAL&cursor=${second.body.nextCursor}`);
    expect(third.body.data.map((c: Json) => c.id)).toEqual([ids[0]]);
    expect(third.body.hasMore).toBe(false);
    expect(third.body).not.toHaveProperty('nextCursor');

    expect((await call('GET', '/customers?platformCustomerId=c2')).body.data.map((c: Json) => c.id)).toEqual([ids[2]]);
    const created2 = (await call('GET', `/customers/${ids[2]}`)).body.createdAt;
    const range = await call('GET', `/customers?customerType=INDIVIDUAL&createdAfter=${created2}&createdBefore=${created2}`);
    expect(range.body.data.map((c: Json) => c.id)).toEqual([ids[2]]);
    expect((await call('GET', '/customers?currency=EUR')).body.totalCount).toBe(0);
    expect((await call('GET', '/customers?limit=100')).body.data).toHaveLength(6);
  });

  it('date-only range bounds cover their whole UTC day; a bound that is neither form says which forms it takes', async () => {
    engine = createEngine({ clock: new VirtualClock(Date.parse('2026-03-10T23:59:00Z')) });
    const late = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'late', fullName: 'Lou Late' })).body;
    engine.sandbox().advance(120_000);
    const next = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'next', fullName: 'Nia Next' })).body;
    expect(late.createdAt.slice(0, 10)).toBe('2026-03-10');
    expect(next.createdAt.slice(0, 10)).toBe('2026-03-11');
    const ids = async (query: string) => (await call('GET', `/customers?${query}`)).body.data.map((c: Json) => c.id);
    expect(await ids('createdAfter=2026-03-10&createdBefore=2026-03-10')).toEqual([late.id]);
    expect(await ids('createdAfter=2026-03-11')).toEqual([next.id]);
    const refused = await call('GET', '/customers?createdAfter=yesterday&createdBefore=2026-02-30');
    expect(refused.status).toBe(400);
    expect(refused.body.details.errors).toEqual([
      { field: 'createdAfter', message: 'must be an ISO 8601 UTC timestamp or a date YYYY-MM-DD' },
      { field: 'createdBefore', message: 'must be an ISO 8601 UTC timestamp or a date YYYY-MM-DD' },
    ]);
  });

  it('returns the end-user terms', async () => {
    const { status, body } = await call('GET', '/customers/end-user-terms');
    expect(status).toBe(200);
    expect(body).toEqual({ version: 'V1', url: expect.stringMatching(/^https:\/\//) });
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response unchanged and creates one customer', async () => {
    const headers = { 'idempotency-key': 'k-1' };
    const first = await call('POST', '/customers', alice, headers);
    const replay = await call('POST', '/customers', alice, headers);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('GET', '/customers')).body.totalCount).toBe(1);
  });

  it('refuses the same key with another body with 409 and no second effect', async () => {
    await call('POST', '/customers', alice, { 'idempotency-key': 'k-2' });
    const other = await call('POST', '/customers', { ...alice, platformCustomerId: 'bob' }, { 'idempotency-key': 'k-2' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('CONFLICT');
    expect((await call('GET', '/customers')).body.totalCount).toBe(1);
  });

  it('serves concurrent requests with one key once', async () => {
    const results = await Promise.all([1, 2, 3].map(() => call('POST', '/customers', alice, { 'idempotency-key': 'k-3' })));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201)).toBe(true);
  });

  it('does not remember a validation failure, so a corrected request may reuse the key', async () => {
    const bad = await call('POST', '/customers', { ...alice, nationality: 'XX' }, { 'idempotency-key': 'k-4' });
    expect(bad.status).toBe(400);
    const good = await call('POST', '/customers', alice, { 'idempotency-key': 'k-4' });
    expect(good.status).toBe(201);
  });

  it('remembers a 409 conflict', async () => {
    await call('POST', '/customers', alice);
    const a = await call('POST', '/customers', alice, { 'idempotency-key': 'k-5' });
    const b = await call('POST', '/customers', alice, { 'idempotency-key': 'k-5' });
    expect([a.status, b.status]).toEqual([409, 409]);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('GET /config', () => {
  it("shows each currency's provider-required customer fields and the platform mode", async () => {
    const { status, body } = await call('GET', '/config');
    expect(status).toBe(200);
    expect(body.isRegulatedFinancialInstitution).toBe(false);
    const usdb = body.supportedCurrencies.find((c: Json) => c.currencyCode === 'USDB');
    expect(usdb.providerRequiredCustomerFields).toEqual(['EMAIL']);
    const eur = body.supportedCurrencies.find((c: Json) => c.currencyCode === 'EUR');
    expect(eur).not.toHaveProperty('providerRequiredCustomerFields');
    const usd = body.supportedCurrencies.find((c: Json) => c.currencyCode === 'USD');
    expect(usd).not.toHaveProperty('providerRequiredCustomerFields');
    expect(usd).toMatchObject({ minAmount: 1, maxAmount: 100_000_000, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
  });

  it('takes back what it shows: a read-modify-write PATCH of the whole document, read-only fields included, is accepted', async () => {
    const { body: shown } = await call('GET', '/config');
    const patched = await call('PATCH', '/config', { ...shown, webhookEndpoint: 'https://platform.example/hooks' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...shown, webhookEndpoint: 'https://platform.example/hooks', updatedAt: patched.body.updatedAt });
  });
});
