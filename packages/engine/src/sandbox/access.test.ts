import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest, callApi, type Json } from '../testing/requests.js';

// Who may dump, replace and extend a platform's state through the control plane (issue 32, hole 2), what a stored
// reply keeps of a secret, and what a restore brings back (holes 2 and 11).

type Credentials = { clientId: string; clientSecret: string };
const call = (engine: Engine, method: string, path: string, body?: unknown, headers?: Record<string, string>, credentials?: Credentials) =>
  callApi(engine, method, path, body, headers, credentials);
const tokenOf = async (engine: Engine, permissions: string[]): Promise<Credentials> => {
  const made = (await call(engine, 'POST', '/tokens', { name: permissions.join('+'), permissions })).body;
  return { clientId: made.clientId, clientSecret: made.clientSecret };
};
const anonymous = async (engine: Engine, method: string, path: string, headers: Record<string, string> = {}) => {
  const response = await engine.fetch(new Request(`http://sandbox.test/2025-10-13${path}`, { method, headers }));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
};

const POLICY = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
};

describe('the control plane: who may dump or replace state', () => {
  it('a snapshot needs VIEW and MANAGE; a restore MANAGE and TRANSACT; new platforms and a reset MANAGE', async () => {
    const engine = createEngine();
    const snapshot = (await call(engine, 'GET', '/_sandbox/snapshot')).body;
    const cases: [string[], string, string, unknown, number][] = [
      [['VIEW'], 'GET', '/_sandbox/snapshot', undefined, 403],
      [['TRANSACT'], 'GET', '/_sandbox/snapshot', undefined, 403],
      [['MANAGE'], 'GET', '/_sandbox/snapshot', undefined, 403],
      [['VIEW', 'MANAGE'], 'GET', '/_sandbox/snapshot', undefined, 200],
      [['VIEW'], 'POST', '/_sandbox/restore', snapshot, 403],
      [['MANAGE'], 'POST', '/_sandbox/restore', snapshot, 403],
      [['VIEW'], 'POST', '/_sandbox/platforms', {}, 403],
      [['TRANSACT'], 'POST', '/_sandbox/platforms', {}, 403],
      [['VIEW', 'TRANSACT'], 'POST', '/_sandbox/reset', undefined, 403],
    ];
    const answers = [];
    for (const [permissions, method, path, body] of cases) answers.push((await call(engine, method, path, body, undefined, await tokenOf(engine, permissions))).status);
    expect(answers).toEqual(cases.map((c) => c[4]));
    const refused = await call(engine, 'GET', '/_sandbox/snapshot', undefined, undefined, await tokenOf(engine, ['MANAGE']));
    expect(refused.body.details).toEqual({ requiredPermission: 'VIEW', requiredPermissions: ['VIEW', 'MANAGE'] });
  });

  it('a restore grants nothing its caller lacks: no stronger token and no money-moving agent through a snapshot', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const customer = (await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
    await call(engine, 'POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY });
    const withAgent = (await call(engine, 'GET', '/_sandbox/snapshot')).body;
    const restorer = await tokenOf(engine, ['MANAGE', 'TRANSACT']);
    // The token a snapshot holds with every permission: forged by editing a snapshot.
    const forged = structuredClone(withAgent);
    forged.collections.apiTokens = [{ ...forged.collections.apiTokens?.[0], id: 'Token:00000000-0000-4000-8000-000000000001', name: 'forged', clientId: 'f'.repeat(32), permissions: ['VIEW', 'TRANSACT', 'MANAGE'], secretSha256: '0'.repeat(64), createdAt: withAgent.takenAt, updatedAt: withAgent.takenAt }];
    const refusedToken = await call(engine, 'POST', '/_sandbox/restore', forged, undefined, restorer);
    expect([refusedToken.status, refusedToken.body.details]).toEqual([403, { rule: 'grant', missingPermissions: ['VIEW'] }]);
    const refusedAgent = await call(engine, 'POST', '/_sandbox/restore', { ...withAgent, collections: { ...withAgent.collections, apiTokens: [] } }, undefined, restorer);
    expect([refusedAgent.status, refusedAgent.body.details.missingPermissions]).toEqual([403, ['VIEW']]);
    const full = await tokenOf(engine, ['VIEW', 'MANAGE', 'TRANSACT']);
    expect((await call(engine, 'POST', '/_sandbox/restore', { ...withAgent, collections: { ...withAgent.collections, apiTokens: [] } }, undefined, full)).status).toBe(204);
  });
});

describe('secrets in stored replies and snapshots', () => {
  it('a replay answers its own credential; a secret shown once is left out, the others kept sealed, never in the snapshot', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const key = { 'idempotency-key': 'token-1' };
    const first = await call(engine, 'POST', '/tokens', { name: 'payouts', permissions: ['TRANSACT'] }, key);
    const replay = await call(engine, 'POST', '/tokens', { name: 'payouts', permissions: ['TRANSACT'] }, key);
    expect(first.body.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    const { clientSecret, ...withoutSecret } = first.body;
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.headers.get('withheld-fields'), replay.body]).toEqual([201, 'true', 'clientSecret', withoutSecret]);
    // Another credential's keys are its own: the same key from a token is another request, not a replay of this one.
    const manager = await tokenOf(engine, ['MANAGE', 'TRANSACT']);
    const other = await call(engine, 'POST', '/tokens', { name: 'payouts', permissions: ['TRANSACT'] }, key, manager);
    expect([other.status, other.headers.get('idempotent-replayed'), other.body.id === first.body.id]).toEqual([201, null, false]);

    const customer = (await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
    const agent = await call(engine, 'POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY }, { 'idempotency-key': 'agent-1' });
    // A device code may be fetched again by its maker's retry: it is kept sealed.
    expect((await call(engine, 'POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY }, { 'idempotency-key': 'agent-1' })).body).toEqual(agent.body);
    const redeemed = await anonymous(engine, 'POST', `/agents/device-codes/${agent.body.deviceCode.code}/redeem`, { 'idempotency-key': 'redeem-1' });
    const again = await anonymous(engine, 'POST', `/agents/device-codes/${agent.body.deviceCode.code}/redeem`, { 'idempotency-key': 'redeem-1' });
    expect([again.status, again.body.accessToken, again.headers.get('withheld-fields')]).toEqual([200, undefined, 'accessToken']);
    const platform = await call(engine, 'POST', '/_sandbox/platforms', { name: 'second' }, { 'idempotency-key': 'platform-1' });
    expect((await call(engine, 'POST', '/_sandbox/platforms', { name: 'second' }, { 'idempotency-key': 'platform-1' })).body).toEqual(platform.body);

    const snapshot = (await call(engine, 'GET', '/_sandbox/snapshot')).body;
    const dumped = JSON.stringify(snapshot);
    for (const secret of [clientSecret, agent.body.deviceCode.code, redeemed.body.accessToken, platform.body.clientSecret]) {
      expect(secret).toEqual(expect.any(String));
      expect(dumped).not.toContain(secret);
    }
    expect(snapshot.collections.idempotency.find((r: Json) => r.id === 'platform-1').sealed).toEqual(['clientSecret']);

    // Restored into another platform, even of the same engine (same secret key), a sealed secret opens for nobody: the
    // replay there leaves it out and says so.
    const elsewhere = engine.createPlatform({ name: 'elsewhere', regulated: true });
    expect((await call(engine, 'POST', '/_sandbox/restore', snapshot, undefined, elsewhere)).status).toBe(204);
    const lost = await call(engine, 'POST', '/_sandbox/platforms', { name: 'second' }, { 'idempotency-key': 'platform-1' }, elsewhere);
    const { clientSecret: _sealed, ...rest } = platform.body;
    expect([lost.status, lost.headers.get('withheld-fields'), lost.body]).toEqual([201, 'clientSecret', rest]);
  });

  it('a refusal by a permission, a grant or a policy is not kept: the same key works once the refusal lifts', async () => {
    const engine = createEngine();
    const manager = await tokenOf(engine, ['MANAGE']);
    const key = { 'idempotency-key': 'grant-1' };
    expect((await call(engine, 'POST', '/tokens', { name: 'payer', permissions: ['TRANSACT'] }, key, manager)).status).toBe(403);
    expect((await call(engine, 'GET', '/_sandbox/snapshot')).body.collections.idempotency ?? []).toEqual([]);
    expect((await call(engine, 'POST', '/tokens', { name: 'payer', permissions: ['MANAGE'] }, key, manager)).status).toBe(201);
  });
});

describe('a restore brings back working credentials and runs what is due', () => {
  it('tokens, agents and device codes restored into another engine (a restarted server) authenticate there', async () => {
    const first = createEngine({ platform: { regulated: true } });
    const token = await tokenOf(first, ['VIEW']);
    const customer = (await call(first, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
    const connected = (await call(first, 'POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY })).body;
    const accessToken = (await anonymous(first, 'POST', `/agents/device-codes/${connected.deviceCode.code}/redeem`)).body.accessToken;
    const waiting = (await call(first, 'POST', '/agents', { name: 'later', customerId: customer.id, policy: POLICY })).body;
    const invitation = (await call(first, 'POST', '/invitations', { inviterUma: '$ada@example.com' })).body;
    const snapshot = (await call(first, 'GET', '/_sandbox/snapshot')).body;

    const second = createEngine({ platform: { regulated: true } });
    expect(second.defaultPlatform.id).not.toBe(first.defaultPlatform.id);
    expect((await call(second, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    expect((await call(second, 'GET', '/customers', undefined, undefined, token)).body.data.map((c: Json) => c.id)).toEqual([customer.id]);
    expect((await anonymous(second, 'GET', '/agents/me', { authorization: `Bearer ${accessToken}` })).body.id).toBe(connected.agent.id);
    expect((await anonymous(second, 'POST', `/agents/device-codes/${waiting.deviceCode.code}/redeem`)).status).toBe(200);
    expect((await call(second, 'GET', `/invitations/${invitation.code}`)).body.status).toBe('PENDING');
  });

  it("another platform's copy of a platform's credentials never answers for them, whatever either restores later", async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const token = await tokenOf(engine, ['VIEW', 'MANAGE']);
    const invitation = (await call(engine, 'POST', '/invitations', { inviterUma: '$ada@example.com' })).body;
    const fixture = (await call(engine, 'GET', '/_sandbox/snapshot')).body;
    const b = engine.createPlatform({ name: 'B', regulated: true });
    // B restores A's state (a shared fixture), and an invitation of its own under A's code (a crafted snapshot).
    const crafted = structuredClone(fixture);
    crafted.collections.invitations = [{ ...crafted.collections.invitations[0], inviterUma: '$mallory@b.example', issuer: b.clientId }];
    expect((await call(engine, 'POST', '/_sandbox/restore', crafted, undefined, b)).status).toBe(204);
    // A resets and restores its fixture: a test suite's step before each test.
    await call(engine, 'POST', '/_sandbox/reset');
    expect((await call(engine, 'POST', '/_sandbox/restore', fixture)).status).toBe(204);
    const created = (await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Written By Token' }, undefined, token)).body;
    expect((await call(engine, 'GET', `/customers/${created.id}`)).status).toBe(200);
    expect((await call(engine, 'GET', `/customers/${created.id}`, undefined, undefined, b)).status).toBe(404);
    expect((await call(engine, 'GET', `/invitations/${invitation.code}`, undefined, undefined, b)).body.inviterUma).toBe('$ada@example.com');
  });

  it('a job already due runs as part of the restore: no read sees a PENDING payment whose quote expired', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const engine = createEngine({ clock, platform: { regulated: true } });
    const customer = (await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
    const usd = (await call(engine, 'GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    await call(engine, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
    const bank = (await call(engine, 'POST', '/customers/external-accounts', {
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    })).body.id;
    const quote = (await call(engine, 'POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    })).body;
    const snapshot = (await call(engine, 'GET', '/_sandbox/snapshot')).body;

    const later = createEngine({ clock: new VirtualClock(Date.parse(quote.expiresAt) + 60_000), platform: { regulated: true } });
    expect((await call(later, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    const restored = later.sandbox().snapshot();
    expect((await call(later, 'GET', `/transactions/${quote.transactionId}`)).body.status).toBe('EXPIRED');
    expect((await call(later, 'GET', `/quotes/${quote.id}`)).body.status).toBe('EXPIRED');
    // The reads found the state as it is: they changed nothing.
    expect(later.sandbox().snapshot().collections).toEqual(restored.collections);
  });
});

describe('platforms', () => {
  it('one engine holds at most maxPlatforms: one more is a 409 with the limit, and nothing is made', async () => {
    const engine = createEngine({ maxPlatforms: 3 });
    expect((await call(engine, 'POST', '/_sandbox/platforms', {})).status).toBe(201);
    expect((await call(engine, 'POST', '/_sandbox/platforms', {})).status).toBe(201);
    const refused = await call(engine, 'POST', '/_sandbox/platforms', {});
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([409, 'CONFLICT', { reason: 'PLATFORM_LIMIT_REACHED', maxPlatforms: 3 }]);
  });
});
