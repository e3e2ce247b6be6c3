import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { STABLECOIN_PROVISIONING_MS, STABLECOIN_REVIEW_MS } from '../sandbox/magic-values.js';

// Stablecoin issuance, first half (SPEC §3.7; REFERENCE §17.1, §17.2): provider links, registration and its review,
// enablement. Mints and burns are in operations.test.ts.

let engine: Engine;
let keys = 0;
/** A request with a fresh Idempotency-Key on every POST (they are required here). */
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callApi(engine, method, path, body, method === 'POST' ? { 'idempotency-key': `key-${++keys}`, ...headers } : headers);
beforeEach(() => {
  engine = createEngine();
});

const link = (apiClientId = 'brale-client-1', extra: Json = {}) =>
  call('POST', '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId, apiClientSecret: 's3cret', ...extra });
const register = (providerTokenIdentifier = 'usdx', extra: Json = {}) =>
  call('POST', '/stablecoins', { providerTokenIdentifier, networkTokenIdentifier: `btkn1${providerTokenIdentifier}`, network: 'SPARK', ...extra });
const stored = () => engine.sandbox().snapshot().collections;

describe('provider accounts', () => {
  it('links an account: 201 ACTIVE in the SANDBOX environment, checked now, the secret never returned; list and get', async () => {
    const linked = await link();
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({
      id: expect.stringMatching(/^StablecoinProviderAccount:/), provider: 'BRALE', providerAccountId: expect.stringMatching(/^brale_acct_[0-9a-f]{12}$/),
      providerEnvironment: 'SANDBOX', status: 'ACTIVE', lastVerifiedAt: linked.body.createdAt,
    });
    expect(JSON.stringify(linked.body)).not.toContain('s3cret');
    expect(JSON.stringify(stored())).not.toContain('s3cret');
    expect((await call('GET', `/stablecoin-provider-accounts/${linked.body.id}`)).body).toEqual(linked.body);
    const list = await call('GET', '/stablecoin-provider-accounts?provider=BRALE&status=ACTIVE');
    expect(list.body).toMatchObject({ data: [linked.body], hasMore: false, totalCount: 1 });
    expect((await call('GET', '/stablecoin-provider-accounts?status=REVOKED')).body.data).toEqual([]);
  });

  it('needs an Idempotency-Key of at most 255 characters, replays the first answer, and refuses another payload under the key', async () => {
    const body = { provider: 'BRALE', apiClientId: 'client-9', apiClientSecret: 'x' };
    const missing = await callApi(engine, 'POST', '/stablecoin-provider-accounts', body);
    expect(missing.status).toBe(400);
    expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    const long = await call('POST', '/stablecoin-provider-accounts', body, { 'idempotency-key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    const first = await call('POST', '/stablecoin-provider-accounts', body, { 'idempotency-key': 'link-once' });
    const replay = await call('POST', '/stablecoin-provider-accounts', body, { 'idempotency-key': 'link-once' });
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.body).toEqual(first.body);
    const other = await call('POST', '/stablecoin-provider-accounts', { ...body, apiClientId: 'client-8' }, { 'idempotency-key': 'link-once' });
    expect(other.status).toBe(409);
    expect((await call('GET', '/stablecoin-provider-accounts')).body.totalCount).toBe(1);
  });

  it('reports every invalid field at once, and stores nothing', async () => {
    const bad = await call('POST', '/stablecoin-provider-accounts', { provider: 'CIRCLE', apiClientSecret: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['apiClientId', 'apiClientSecret', 'provider']);
    expect(stored().stablecoinProviderAccounts ?? []).toEqual([]);
  });

  it('follows the apiClientId suffixes: 002 credentials refused (400 INVALID, nothing stored), 003 several accounts (providerAccountId needed)', async () => {
    const refused = await link('client-002');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID', details: { errors: [{ field: 'apiClientSecret' }] } });
    const unnamed = await link('client-003');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'providerAccountId' }] } });
    expect((await call('GET', '/stablecoin-provider-accounts')).body.data).toEqual([]);
    const named = await link('client-003', { providerAccountId: 'acct-eu' });
    expect(named.status).toBe(201);
    expect(named.body.providerAccountId).toBe('acct-eu');
  });

  it('refuses to link the same provider account twice (409), unless the first link was revoked', async () => {
    const first = (await link('client-1', { providerAccountId: 'acct-1' })).body;
    expect((await link('client-2', { providerAccountId: 'acct-1' })).status).toBe(409);
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${first.id}/status`, { status: 'REVOKED' });
    expect((await link('client-2', { providerAccountId: 'acct-1' })).status).toBe(201);
  });

  it('lets an INVALID link be replaced by a new one, and keeps one ACTIVE link per provider account', async () => {
    const first = (await link('client-1', { providerAccountId: 'acct-1' })).body;
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${first.id}/status`, { status: 'INVALID' });
    const again = await link('client-1b', { providerAccountId: 'acct-1' });
    expect(again.status).toBe(201);
    const restored = await call('PUT', `/_sandbox/stablecoin-provider-accounts/${first.id}/status`, { status: 'ACTIVE' });
    expect(restored.status).toBe(409);
    expect((await call('GET', `/stablecoin-provider-accounts/${first.id}`)).body.status).toBe('INVALID');
  });

  it('refuses an Idempotency-Key of spaces alone, as over HTTP', async () => {
    const spaces = await call('POST', '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'c', apiClientSecret: 's' }, { 'idempotency-key': '   ' });
    expect(spaces.status).toBe(400);
    expect(spaces.body.details.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
  });

  it('answers 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND for an unknown account, on the API and the control plane', async () => {
    const missing = await call('GET', '/stablecoin-provider-accounts/StablecoinProviderAccount:nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    expect((await call('PUT', '/_sandbox/stablecoin-provider-accounts/StablecoinProviderAccount:nope/status', { status: 'ACTIVE' })).status).toBe(404);
  });
});

describe('registration', () => {
  it('registers a token on the only ACTIVE link: PENDING_REVIEW, PROVISIONING after the review, PROVISIONED after provisioning', async () => {
    const account = (await link()).body;
    const created = await register('usdx');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^Stablecoin:/), symbol: 'USDX', baseCurrency: 'USD', network: 'SPARK', decimals: 6, issuanceStatus: 'PENDING_REVIEW',
      serviceOperationsStatus: 'NOT_ENABLED', networkTokenIdentifier: 'btkn1usdx', provider: 'BRALE', stablecoinProviderAccountId: account.id,
      providerEnvironment: 'SANDBOX', providerTokenIdentifier: 'usdx',
    });
    expect(created.body).not.toHaveProperty('currency');
    const status = async () => (await call('GET', `/stablecoins/${created.body.id}`)).body.issuanceStatus;
    engine.sandbox().advance(STABLECOIN_REVIEW_MS - 1);
    expect(await status()).toBe('PENDING_REVIEW');
    engine.sandbox().advance(1);
    expect(await status()).toBe('PROVISIONING');
    engine.sandbox().advance(STABLECOIN_PROVISIONING_MS);
    expect(await status()).toBe('PROVISIONED');
  });

  it('follows the providerTokenIdentifier suffixes: 002 REJECTED at review, 003 FAILED at provisioning', async () => {
    await link();
    const rejected = (await register('tok-002')).body;
    const failed = (await register('tok-003')).body;
    engine.sandbox().advance(STABLECOIN_REVIEW_MS);
    const status = async (id: string) => (await call('GET', `/stablecoins/${id}`)).body.issuanceStatus;
    expect([await status(rejected.id), await status(failed.id)]).toEqual(['REJECTED', 'PROVISIONING']);
    engine.sandbox().advance(STABLECOIN_PROVISIONING_MS);
    expect([await status(rejected.id), await status(failed.id)]).toEqual(['REJECTED', 'FAILED']);
  });

  it('picks the link: 404 with none, 400 SELECTION_REQUIRED with several ACTIVE, 400 INVALID and REVOKED for unusable ones', async () => {
    const none = await register();
    expect([none.status, none.body.code]).toEqual([404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND']);
    const a = (await link('client-a')).body;
    const b = (await link('client-b')).body;
    const several = await register();
    expect([several.status, several.body.code]).toEqual([400, 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED']);
    expect(several.body.details.errors).toEqual([expect.objectContaining({ field: 'stablecoinProviderAccountId' })]);
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${a.id}/status`, { status: 'INVALID' });
    const invalid = await register('usdx', { stablecoinProviderAccountId: a.id });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID']);
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${b.id}/status`, { status: 'REVOKED' });
    const revoked = await register('usdx', { stablecoinProviderAccountId: b.id });
    expect([revoked.status, revoked.body.code]).toEqual([400, 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED']);
    const unknown = await register('usdx', { stablecoinProviderAccountId: 'StablecoinProviderAccount:0b5e8d3c-4c1e-4a6b-9f3e-2f6a1d7c9e01' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND']);
    expect((await call('GET', '/stablecoins')).body.data).toEqual([]);
    // Restored credentials are checked again.
    const restored = (await call('PUT', `/_sandbox/stablecoin-provider-accounts/${a.id}/status`, { status: 'ACTIVE' })).body;
    expect(restored).toMatchObject({ status: 'ACTIVE', lastVerifiedAt: restored.updatedAt });
    expect((await register()).status).toBe(201);
  });

  it('gives a symbol that starts with a letter, so an enabled coin\'s currency is a currency code and its snapshot restores', async () => {
    await link();
    const coin = (await register('1usd')).body;
    expect(coin.symbol).toBe('X1USD');
    engine.sandbox().advance(STABLECOIN_REVIEW_MS + STABLECOIN_PROVISIONING_MS);
    expect((await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { serviceOperationsStatus: 'ENABLED' })).body.currency).toBe('X1USD');
    expect((await call('POST', '/_sandbox/restore', engine.sandbox().snapshot())).status).toBe(204);
  });

  it('lets a token whose coin was REJECTED or FAILED be registered again', async () => {
    await link();
    const rejected = (await register('tok-002')).body;
    expect((await register('tok-002')).status).toBe(409);
    engine.sandbox().advance(STABLECOIN_REVIEW_MS);
    expect((await call('GET', `/stablecoins/${rejected.id}`)).body.issuanceStatus).toBe('REJECTED');
    expect((await register('tok-002')).status).toBe(201);
  });

  it('refuses a token registered already (409), and lists with filters, newest first', async () => {
    await link();
    const first = (await register('usdx')).body;
    expect((await register('usdx')).status).toBe(409);
    const second = (await register('eurx')).body;
    engine.sandbox().advance(STABLECOIN_REVIEW_MS);
    const list = (await call('GET', '/stablecoins')).body;
    expect(list.data.map((c: Json) => c.id)).toEqual([second.id, first.id]);
    expect((await call('GET', '/stablecoins?issuanceStatus=PROVISIONING&provider=BRALE&limit=1')).body).toMatchObject({ data: [{ id: second.id }], hasMore: true, totalCount: 2 });
    expect((await call('GET', '/stablecoins?serviceOperationsStatus=ENABLED')).body.data).toEqual([]);
    expect((await call('GET', '/stablecoins?issuanceStatus=SOON')).status).toBe(400);
    expect((await call('GET', '/stablecoins/Stablecoin:missing')).status).toBe(404);
  });
});

describe('enablement (SPEC §3.7)', () => {
  it('moves NOT_ENABLED to PENDING_APPROVAL, succeeds again while pending, and refuses from the operator states with 409', async () => {
    await link();
    const coin = (await register()).body;
    const asked = await call('POST', `/stablecoins/${coin.id}/enablement`);
    expect(asked.status).toBe(200);
    expect(asked.body.serviceOperationsStatus).toBe('PENDING_APPROVAL');
    const again = await call('POST', `/stablecoins/${coin.id}/enablement`);
    expect([again.status, again.body.serviceOperationsStatus, again.body.updatedAt]).toEqual([200, 'PENDING_APPROVAL', asked.body.updatedAt]);
    for (const operatorStatus of ['ENABLING', 'ENABLED', 'DISABLED']) {
      const set = await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { serviceOperationsStatus: operatorStatus });
      expect(set.body.serviceOperationsStatus).toBe(operatorStatus);
      const refused = await call('POST', `/stablecoins/${coin.id}/enablement`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE', details: { serviceOperationsStatus: operatorStatus } });
      expect((await call('GET', `/stablecoins/${coin.id}`)).body.serviceOperationsStatus).toBe(operatorStatus);
    }
  });

  it('gives an ENABLED coin its currency, which it keeps', async () => {
    await link();
    const coin = (await register('usdx')).body;
    const enabled = (await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { serviceOperationsStatus: 'ENABLED' })).body;
    expect(enabled.currency).toBe('USDX');
    const disabled = (await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { serviceOperationsStatus: 'DISABLED' })).body;
    expect(disabled.currency).toBe('USDX');
    expect((await call('POST', '/stablecoins/Stablecoin:missing/enablement')).status).toBe(404);
  });
});
