import { readFileSync } from 'node:fs';
import { ACCESS, requiredPermissions, tokenEndpoints, endpoints, type Endpoint } from '@railyard/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { TenantContext } from '../core/context.js';
import { CredentialDirectory } from '../core/directory.js';
import { randomIds } from '../core/ids.js';
import { Scheduler } from '../core/scheduler.js';
import { createMemoryStore } from '../core/store.js';
import { PlatformRegistry, type Platform } from '../platforms/registry.js';
import { authenticateWithTokens, createToken } from './tokens.js';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// API tokens (REFERENCE §19): create, list, get, delete; Basic auth with a token; the permission rule.

let engine: Engine;
const call = (method: string, path: string, body?: unknown, credentials?: { clientId: string; clientSecret: string }) =>
  callApi(engine, method, path, body, undefined, credentials);
beforeEach(() => {
  engine = createEngine();
});

const create = (name: string, permissions: string[]) => call('POST', '/tokens', { name, permissions });
const credentialsOf = (token: Json) => ({ clientId: token.clientId as string, clientSecret: token.clientSecret as string });

describe('tokens', () => {
  it('creates a token whose secret is shown once: 201 with clientSecret, then never again, and never stored', async () => {
    const created = await create('reporting', ['VIEW', 'VIEW']);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^Token:/), name: 'reporting', permissions: ['VIEW'], clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
      clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/), createdAt: expect.any(String), updatedAt: created.body.createdAt,
    });
    const read = (await call('GET', `/tokens/${created.body.id}`)).body;
    const { clientSecret: _secret, ...withoutSecret } = created.body;
    expect(read).toEqual(withoutSecret);
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain(created.body.clientSecret);
  });

  it('lists by name and time ranges, newest first; deletes (204), then 404 TOKEN_NOT_FOUND', async () => {
    const first = (await create('ci', ['VIEW'])).body;
    engine.sandbox().advance(60_000);
    const second = (await create('payouts', ['TRANSACT'])).body;
    expect((await call('GET', '/tokens')).body).toMatchObject({ data: [{ id: second.id }, { id: first.id }], hasMore: false, totalCount: 2 });
    expect((await call('GET', '/tokens?name=ci')).body.data.map((t: Json) => t.id)).toEqual([first.id]);
    expect((await call('GET', `/tokens?createdAfter=${encodeURIComponent(second.createdAt)}`)).body.data.map((t: Json) => t.id)).toEqual([second.id]);
    expect((await call('GET', `/tokens?updatedBefore=${encodeURIComponent(first.updatedAt)}`)).body.data.map((t: Json) => t.id)).toEqual([first.id]);
    expect((await call('GET', '/tokens?createdAfter=yesterday')).status).toBe(400);
    expect((await call('DELETE', `/tokens/${first.id}`)).status).toBe(204);
    const gone = await call('GET', `/tokens/${first.id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'TOKEN_NOT_FOUND']);
    expect((await call('DELETE', `/tokens/${first.id}`)).body.code).toBe('TOKEN_NOT_FOUND');
  });

  it('refuses a bad create with every field listed, and stores nothing', async () => {
    const bad = await call('POST', '/tokens', { name: ' ', permissions: ['ADMIN'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['name', 'permissions.0']);
    expect((await call('POST', '/tokens', { name: 'x', permissions: [] })).body.details.errors[0].field).toBe('permissions');
    expect((await call('GET', '/tokens')).body.totalCount).toBe(0);
  });
});

describe('authenticating with a token', () => {
  it('acts as the platform, within its permissions: VIEW reads, cannot quote (403 FORBIDDEN) or create a customer', async () => {
    const viewer = credentialsOf((await create('viewer', ['VIEW'])).body);
    expect((await call('GET', '/customers', undefined, viewer)).status).toBe(200);
    const quote = await call('POST', '/quotes', {}, viewer);
    expect(quote.status).toBe(403);
    expect(quote.body).toMatchObject({ code: 'FORBIDDEN', details: { requiredPermission: 'TRANSACT' } });
    expect((await call('POST', '/customers', { customerType: 'INDIVIDUAL' }, viewer)).body.details).toEqual({ requiredPermission: 'MANAGE' });
    expect((await call('GET', '/customers')).body.totalCount).toBe(0);
  });

  it('TRANSACT moves money but reads nothing; MANAGE changes, with VIEW it reads too', async () => {
    const payer = credentialsOf((await create('payer', ['TRANSACT'])).body);
    const admin = credentialsOf((await create('admin', ['MANAGE', 'VIEW'])).body);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }, admin)).body;
    expect(customer.id).toMatch(/^Customer:/);
    expect((await call('GET', `/customers/${customer.id}`, undefined, admin)).status).toBe(200);
    expect((await call('GET', `/customers/${customer.id}`, undefined, payer)).status).toBe(403);
    const account = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    expect((await call('POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 1_000 }, payer)).status).toBe(200);
    expect((await call('POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 1_000 }, admin)).status).toBe(403);
  });

  it('a deleted token, a wrong secret, or a token of a reset platform fails at once with 401', async () => {
    const token = (await create('short-lived', ['VIEW'])).body;
    const credentials = credentialsOf(token);
    expect((await call('GET', '/customers', undefined, credentials)).status).toBe(200);
    // The secret with its last character changed (a random secret may already end in '0').
    const wrongSecret = `${credentials.clientSecret.slice(0, -1)}${credentials.clientSecret.endsWith('0') ? '1' : '0'}`;
    expect((await call('GET', '/customers', undefined, { ...credentials, clientSecret: wrongSecret })).status).toBe(401);
    await call('DELETE', `/tokens/${token.id}`);
    expect((await call('GET', '/customers', undefined, credentials)).status).toBe(401);
    const other = credentialsOf((await create('other', ['VIEW'])).body);
    engine.sandbox().reset();
    expect((await call('GET', '/customers', undefined, other)).status).toBe(401);
  });

  it('a restored snapshot brings its tokens back; a token of one platform never reads another', async () => {
    const token = (await create('kept', ['VIEW'])).body;
    const snapshot = engine.sandbox().snapshot();
    engine.sandbox().reset();
    engine.sandbox().restore(snapshot);
    expect((await call('GET', '/tokens', undefined, credentialsOf(token))).body.data.map((t: Json) => t.id)).toEqual([token.id]);
    const b = engine.createPlatform({ name: 'B' });
    await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Only B' }, b);
    expect((await call('GET', '/customers', undefined, credentialsOf(token))).body.totalCount).toBe(0);
  });
});

describe('finding a token among many platforms (issue 32, hole 7)', () => {
  it('reads the state of the one platform holding it, and never walks the platforms', () => {
    const platforms = new PlatformRegistry(randomIds, () => Date.UTC(2026, 0, 1), 1_000);
    const directory = new CredentialDirectory(createMemoryStore());
    const store = createMemoryStore();
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const contexts = new Map<string, TenantContext>();
    const read: string[] = [];
    const tenantOf = (platform: Platform) => {
      read.push(platform.id);
      let context = contexts.get(platform.id);
      if (!context) contexts.set(platform.id, (context = new TenantContext(platform, store.tenant(platform.id), clock, randomIds, new Scheduler(clock), undefined, directory)));
      return context;
    };
    const all = Array.from({ length: 500 }, (_, i) => platforms.create({ name: `platform ${i}` }));
    const holder = all[321]!;
    const token = createToken(tenantOf(holder), { name: 'reader', permissions: ['VIEW'] });
    read.length = 0;
    const walked = vi.spyOn(platforms, 'all');
    const principal = authenticateWithTokens(platforms, tenantOf, directory, `Basic ${btoa(`${token.clientId}:${token.clientSecret}`)}`);
    expect([principal.platform.id, principal.permissions, read, walked.mock.calls.length]).toEqual([holder.id, ['VIEW'], [holder.id], 0]);
  });
});

describe('the permission rule', () => {
  it('gives every operation its row of the ACCESS table: TRANSACT for those that move money, VIEW for reads, MANAGE for changes', () => {
    const all = Object.values(endpoints) as Endpoint[];
    expect(all.map((e) => e.operationId).filter((id) => !Object.hasOwn(ACCESS, id))).toEqual([]);
    expect(Object.keys(ACCESS).filter((id) => !all.some((e) => e.operationId === id))).toEqual([]);
    expect(requiredPermissions(endpoints.createQuote)).toEqual(['TRANSACT']);
    expect(requiredPermissions(endpoints.executeQuote)).toEqual(['TRANSACT']);
    expect(requiredPermissions(endpoints.listCustomers)).toEqual(['VIEW']);
    expect(requiredPermissions(tokenEndpoints.createToken)).toEqual(['MANAGE']);
    expect(requiredPermissions(endpoints.transferOut)).toEqual(['TRANSACT']);
    expect(requiredPermissions(endpoints.approveAgentAction)).toEqual(['TRANSACT']);
    expect(requiredPermissions(endpoints.getSandboxSnapshot)).toEqual(['VIEW', 'MANAGE']);
    expect(requiredPermissions(endpoints.restoreSandbox)).toEqual(['MANAGE', 'TRANSACT']);
    // The deprecated GET /customers/kyc-link is no read: it makes a link, as POST /customers/{id}/kyc-link does (MANAGE).
    expect(requiredPermissions(endpoints.getKycLinkLegacy)).toEqual(requiredPermissions(endpoints.createKycLink));
    // GET /_sandbox/whoami reads nothing of the platform: any credential may ask who it is.
    expect(requiredPermissions(endpoints.getSandboxWhoami)).toEqual([]);
    const basicGets = all.filter((e) => e.method === 'GET' && !e.public && e.auth === undefined && !['getSandboxSnapshot', 'getKycLinkLegacy', 'getSandboxWhoami'].includes(e.operationId));
    for (const endpoint of basicGets) expect(requiredPermissions(endpoint)).toEqual(['VIEW']);
  });
});

describe('docs/access.md', () => {
  it('prints the ACCESS row of every operation: who may call it, and why', () => {
    const page = readFileSync(new URL('../../../../docs/access.md', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf('<!-- permission-table:start -->'), page.indexOf('<!-- permission-table:end -->'));
    const printed = table.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '')));
    const expected = (Object.values(endpoints) as Endpoint[]).map((e) => {
      const rule = ACCESS[e.operationId]!;
      const who = rule.auth === 'basic' ? (rule.token.length === 0 ? 'any credential' : rule.token.join(' + ')) : rule.auth === 'agent' ? `agent${rule.agent ? `: ${rule.agent}` : ''}` : rule.auth === 'link' ? 'link token' : 'none';
      return [`\`${e.method} ${e.path}\``, e.operationId, who, rule.why.replace(/\|/g, '\\|')];
    });
    expect(printed).toEqual(expected);
  });
});
