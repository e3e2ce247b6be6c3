import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase as databaseOfItsOwn } from '../../../../test/support/postgres.mjs';
import { type SharedServer, startSharedServer } from '../../../../test/support/shared-servers.js';
import { DEFAULT_CREDENTIALS } from '../platforms/registry.js';
import { openPostgresStore, POSTGRES_SCHEMA_VERSION } from './postgres.js';
import { DataStoreRefusal } from './refusal.js';

type Json = Record<string, any>;
type Credentials = { clientId: string; clientSecret: string };

const databases: Awaited<ReturnType<typeof databaseOfItsOwn>>[] = [];
afterAll(async () => {
  for (const database of databases) await database.destroy();
});

/** A database of its own for one test. */
const freshDatabase = async () => {
  const database = await databaseOfItsOwn();
  databases.push(database);
  return database.url;
};

const started: SharedServer[] = [];
afterAll(async () => {
  for (const server of started) await server.close().catch(() => undefined);
});
const serverOn = async (url: string, options: Parameters<typeof startSharedServer>[1] = {}) => {
  const server = await startSharedServer(url, { clock: 'virtual', platform: { regulated: true }, ...options });
  started.push(server);
  return server;
};

async function call(server: SharedServer, method: string, path: string, body?: unknown, credentials: Credentials = DEFAULT_CREDENTIALS) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as Json };
}

const query = async (url: string, text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
};

const customer = (name: string) => ({ customerType: 'INDIVIDUAL', fullName: name, currencies: ['USD'] });

describe('servers sharing a sandbox on PostgreSQL', () => {
  it('serve one sandbox: each platform at its holder, requests to the other server passed on, credentials of either found by both', async () => {
    const url = await freshDatabase();
    const first = await serverOn(url);
    const second = await serverOn(url);
    expect(second.engine.defaultPlatform.id).toBe(first.engine.defaultPlatform.id);
    const created = (await call(second, 'POST', '/customers', customer('Ada'))).body;
    expect((await call(first, 'GET', `/customers/${created.id}`)).body.fullName).toBe('Ada');
    // The first server made the default platform and holds it; the second passed its request on.
    expect(first.store.holds(first.engine.defaultPlatform.id)).toBe(true);
    expect(second.store.holds(first.engine.defaultPlatform.id)).toBe(false);

    // A platform is made by the holder of the platform asking for it, then let go: the server its first request
    // reaches takes it. Its credentials and its API token (made there) work through the other server, which had never
    // heard of them.
    const platform = (await call(second, 'POST', '/_sandbox/platforms', { name: 'B', regulated: true })).body as Credentials & Json;
    await expect.poll(() => first.store.holds(platform.id)).toBe(false);
    expect(second.store.holds(platform.id)).toBe(false);
    const token = (await call(first, 'POST', '/tokens', { name: 'viewer', permissions: ['VIEW'] }, platform)).body;
    expect(first.store.holds(platform.id)).toBe(true);
    const bea = (await call(second, 'POST', '/customers', customer('Bea'), platform)).body;
    const asToken = await call(second, 'GET', `/customers/${bea.id}`, undefined, { clientId: token.clientId, clientSecret: token.clientSecret });
    expect(asToken.status).toBe(200);
    expect(asToken.body.fullName).toBe('Bea');
    // …with its permissions: a VIEW token may not write, through either server.
    expect((await call(second, 'POST', '/customers', customer('Nope'), { clientId: token.clientId, clientSecret: token.clientSecret })).status).toBe(403);
    expect((await call(second, 'GET', `/customers/${bea.id}`, undefined, { ...platform, clientSecret: 'wrong' })).status).toBe(401);
    expect((await call(second, 'GET', '/customers', undefined, { clientId: 'nobody', clientSecret: 'nothing' })).status).toBe(401);
    // One platform's records are not another's.
    expect((await call(second, 'GET', `/customers/${bea.id}`)).status).toBe(404);
    // An invitation lives in the platform that made it: another platform, made through the other server and unknown
    // to the inviter's holder until then, reads and claims it through either server.
    const third = await serverOn(url);
    const invitee = (await call(third, 'POST', '/_sandbox/platforms', { name: 'C' })).body as Credentials & Json;
    const invitation = (await call(first, 'POST', '/invitations', { inviterUma: '$ada@sandbox.example.com' })).body;
    expect((await call(third, 'GET', `/invitations/${invitation.code}`, undefined, invitee)).body.status).toBe('PENDING');
    const claimed = await call(second, 'POST', `/invitations/${invitation.code}/claim`, { inviteeUma: '$cy@sandbox.example.com' }, invitee);
    expect([claimed.status, claimed.body.status]).toEqual([200, 'CLAIMED']);
  });

  it('bring everything back on a restart: platforms, records, tokens, clocks, webhook keys and jobs', async () => {
    const url = await freshDatabase();
    const first = await serverOn(url, { platform: {} });
    const ada = (await call(first, 'POST', '/customers', customer('Ada'))).body;
    const startedAt = Date.parse((await call(first, 'GET', '/_sandbox/clock')).body.now);
    const invitation = (await call(first, 'POST', '/invitations', { inviterUma: '$ada@sandbox.example.com', expiresAt: new Date(startedAt + 7_200_000).toISOString() })).body;
    const token = (await call(first, 'POST', '/tokens', { name: 'viewer', permissions: ['VIEW'] })).body;
    expect((await call(first, 'POST', '/_sandbox/clock/advance', { ms: 60_000 })).status).toBe(200);
    const clock = (await call(first, 'GET', '/_sandbox/clock')).body;
    const publicKey = await first.engine.webhooks.publicKey();
    const snapshot = (await call(first, 'GET', '/_sandbox/snapshot')).body;
    expect(snapshot.collections.jobs.length).toBeGreaterThan(0); // the invitation's expiry waits on the clock
    await first.close();

    const second = await serverOn(url, { platform: {} });
    const again = (await call(second, 'GET', '/_sandbox/snapshot')).body;
    expect({ ...again, takenAt: undefined }).toEqual({ ...snapshot, takenAt: undefined });
    expect((await call(second, 'GET', '/_sandbox/clock')).body).toEqual(clock);
    expect((await call(second, 'GET', `/customers/${ada.id}`, undefined, { clientId: token.clientId, clientSecret: token.clientSecret })).status).toBe(200);
    expect(await second.engine.webhooks.publicKey()).toBe(publicKey);
    // The job still fires when the clock passes it.
    expect((await call(second, 'GET', `/invitations/${invitation.code}`)).body.status).toBe('PENDING');
    expect((await call(second, 'POST', '/_sandbox/clock/advance', { ms: 7_200_000 })).status).toBe(200);
    expect((await call(second, 'GET', `/invitations/${invitation.code}`)).body.status).toBe('EXPIRED');
  });

  it('fence off a server whose platform another took over: its late write is refused (503), stored nowhere, and it passes requests on from then on', async () => {
    const url = await freshDatabase();
    const first = await serverOn(url);
    const second = await serverOn(url);
    const platformId = first.engine.defaultPlatform.id;
    await call(first, 'POST', '/customers', customer('Before'));
    // The first server stalls past its lease (as a stopped process would): the second takes the platform over.
    await query(url, "UPDATE railyard_leases SET expires_at = now() - interval '1 second' WHERE platform_id = $1", [platformId]);
    expect((await second.store.acquire(platformId)).acquired).toBe(true);
    second.engine.sharing!.serve(await second.store.load(platformId));
    const epoch = (await query(url, 'SELECT epoch FROM railyard_leases WHERE platform_id = $1', [platformId]))[0].epoch;
    expect(Number(epoch)).toBe(2);

    // The first server still thinks it holds the platform: its write reaches the database and is refused there.
    const late = await call(first, 'POST', '/customers', customer('Late'));
    expect(late.status).toBe(503);
    expect(late.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(late.headers.get('retry-after')).toBe('1');
    expect(first.engine.sharing!.serving(platformId)).toBe(false);
    const names = (await call(second, 'GET', '/customers?limit=100')).body.data.map((c: Json) => c.fullName);
    expect(names).toEqual(['Before']);
    // A retry through the first server is passed on to the new holder.
    expect((await call(first, 'POST', '/customers', customer('Retried'))).status).toBe(201);
    expect((await call(second, 'GET', '/customers?limit=100')).body.data.map((c: Json) => c.fullName).sort()).toEqual(['Before', 'Retried']);
    expect(first.store.holds(platformId)).toBe(false);
  });

  it("take a stopped server's platforms once its lease runs out, and let idle platforms go", async () => {
    const url = await freshDatabase();
    const first = await serverOn(url, { leaseTtlMs: 600 });
    const second = await serverOn(url, { leaseTtlMs: 600, idleMs: 400 });
    const platform = (await call(first, 'POST', '/_sandbox/platforms', { name: 'B', regulated: true })).body as Credentials & Json;
    const bea = (await call(first, 'POST', '/customers', customer('Bea'), platform)).body;
    // The first server dies without letting go: no renewals, no answers.
    await first.shared.close().catch(() => undefined); // stops its timers (what a killed process does not get to do is release: undo it)
    await query(url, "UPDATE railyard_leases SET holder = $1, expires_at = now() + interval '600 milliseconds' WHERE platform_id = $2", [first.store.holder, platform.id]);
    const startedAt = Date.now();
    const found = await call(second, 'GET', `/customers/${bea.id}`, undefined, platform);
    expect(found.status).toBe(200);
    expect(found.body.fullName).toBe('Bea');
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(second.store.holds(platform.id)).toBe(true);
    // Not asked for again: the second server lets it go, and marks the lease free.
    await expect.poll(() => second.store.holds(platform.id), { timeout: 5_000 }).toBe(false);
    expect((await query(url, 'SELECT holder FROM railyard_leases WHERE platform_id = $1', [platform.id]))[0].holder).toBe('');
    expect(second.engine.sharing!.serving(platform.id)).toBe(false);
    // Asked again, it is taken again, with everything.
    expect((await call(second, 'GET', `/customers/${bea.id}`, undefined, platform)).body.fullName).toBe('Bea');
  });

  it('wake a let-go platform when a real-clock job of its is due, with nobody asking for it', async () => {
    const url = await freshDatabase();
    const server = await serverOn(url, { clock: 'real', idleMs: 300 });
    const platform = (await call(server, 'POST', '/_sandbox/platforms', { name: 'sleeper' })).body as Credentials & Json;
    const invitation = (await call(server, 'POST', '/invitations', { inviterUma: '$ada@sandbox.example.com', expiresAt: new Date(Date.now() + 2_500).toISOString() }, platform)).body;
    await expect.poll(() => server.store.holds(platform.id), { timeout: 5_000 }).toBe(false);
    const stored = async () => (await query(url, "SELECT body FROM railyard_records WHERE partition = $1 AND body LIKE $2", [platform.id, `%${invitation.code}%`])).map((row) => JSON.parse(row.body).status);
    expect(await stored()).toEqual(['PENDING']);
    // Due: the sweep takes the platform, runs the expiry and stores it.
    await expect.poll(stored, { timeout: 8_000, interval: 200 }).toEqual(['EXPIRED']);
  });

  it('refuse to start on a database they cannot reach, a newer schema, or another secret key, each in one line', async () => {
    const unreachable = await openPostgresStore('postgres://railyard@127.0.0.1:1/none').catch((error: unknown) => error);
    expect(unreachable).toBeInstanceOf(DataStoreRefusal);
    expect((unreachable as Error).message).toMatch(/^cannot reach the database postgres:\/\/railyard@127\.0\.0\.1:1\/none: /);
    expect((unreachable as Error).message).not.toContain('\n');

    const url = await freshDatabase();
    const store = await openPostgresStore(url, { secretKey: 'k'.repeat(32) });
    await store.started();
    store.close();
    const otherKey = await openPostgresStore(url, { secretKey: 'x'.repeat(32) }).catch((error: unknown) => error);
    expect((otherKey as Error).message).toMatch(/is sealed under another secret key \(key id \w+, given \w+\): start every process with the RAILYARD_SECRET_KEY it was made with$/);

    await query(url, "UPDATE railyard_meta SET value = $1 WHERE key = 'schema_version'", [String(POSTGRES_SCHEMA_VERSION + 1)]);
    const newer = await openPostgresStore(url, { secretKey: 'k'.repeat(32) }).catch((error: unknown) => error);
    expect((newer as Error).message).toMatch(new RegExp(`has schema ${POSTGRES_SCHEMA_VERSION + 1} \\(written by railyard [^)]+\\); this railyard reads up to schema ${POSTGRES_SCHEMA_VERSION}: upgrade railyard$`));
  });

  it('keep no secret in the clear in the database', async () => {
    const url = await freshDatabase();
    const server = await serverOn(url, { secretKey: 's'.repeat(32) });
    const platform = (await call(server, 'POST', '/_sandbox/platforms', { name: 'B' })).body as Credentials & Json;
    const token = (await call(server, 'POST', '/tokens', { name: 'viewer', permissions: ['VIEW'] }, platform)).body;
    await server.engine.webhooks.publicKey(platform.id);
    await server.engine.sharing!.stored();
    const dump = JSON.stringify(await query(url, "SELECT * FROM railyard_platforms")) + JSON.stringify(await query(url, 'SELECT body FROM railyard_records'));
    expect(dump).not.toContain(platform.clientSecret);
    expect(dump).not.toContain(token.clientSecret);
    expect(dump).not.toContain('PRIVATE KEY');
    // Given a key, the database keeps none of its own.
    expect(await query(url, "SELECT key FROM railyard_meta WHERE key = 'secret_key'")).toEqual([]);
  });
});

describe('a PostgreSQL store', () => {
  it('gives the leases of a commit in flight while it advertised its address that address (else nobody could pass it requests)', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore(url, { secretKey: 'k'.repeat(32) });
    await store.started();
    try {
      const id = 'Platform:in-flight';
      store.created?.(id);
      const row = { id, clientId: 'in-flight-client', record: JSON.stringify({ id }), clockMs: null, webhookKey: null };
      // The commit leaves with no address known and is held inside its transaction (its lease row made, not yet
      // visible) while the address is advertised.
      const blocker = new pg.Client({ connectionString: url });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE railyard_platforms IN EXCLUSIVE MODE');
      const committed = store.commit({ platforms: [row], partitions: [] });
      await expect.poll(async () => (await query(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))[0].n).toBe(1);
      await store.advertise('http://127.0.0.1:4100');
      await blocker.query('COMMIT');
      await blocker.end();
      await committed;
      expect(await query(url, 'SELECT holder, holder_url FROM railyard_leases WHERE platform_id = $1', [id])).toEqual([{ holder: store.holder, holder_url: 'http://127.0.0.1:4100' }]);
    } finally {
      store.close();
    }
  });
});
