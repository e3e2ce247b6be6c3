import { once } from 'node:events';
import { createClient, type RailyardClient } from '@railyard/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerSentEvents } from '../../packages/engine/src/event-stream/sse.js';
import { type Balancer, startBalancer } from '../support/balancer.js';
import { type PostgresCluster, startPostgres } from '../support/postgres.mjs';
import { type BuiltServer, ROOT_CREDENTIALS, startBuiltServer } from '../support/transports.js';

// Two `railyard serve --database` processes on one PostgreSQL, behind a round-robin balancer: every other request
// reaches the process that does not hold its platform. Each read sees every acknowledged write; 1,000 concurrent
// executes of one quote make one transaction; a killed holder's platforms are served by the other with nothing lost;
// PostgreSQL restarted under load gives 503s, then service, with nothing lost or doubled; a holder stopped past its
// lease is fenced off when it wakes.

type Credentials = { clientId: string; clientSecret: string };
const ENV = { RAILYARD_CLIENT_ID: ROOT_CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: ROOT_CREDENTIALS.clientSecret, RAILYARD_SECRET_KEY: 'shared-sandbox-test-key-of-32-bytes!!' };

let cluster: PostgresCluster;
let servers: BuiltServer[] = [];
let balancer: Balancer;
const origin = (server: BuiltServer) => new URL(server.baseUrl).origin;
const startOne = () => startBuiltServer(['--clock', 'virtual', '--database', cluster.url], ENV);

beforeAll(async () => {
  cluster = await startPostgres();
  servers = [await startOne(), await startOne()];
  balancer = await startBalancer(servers.map(origin));
}, 60_000);
afterAll(async () => {
  await balancer?.close();
  for (const server of servers) await server.stop();
  cluster?.destroy();
});

const clientOf = (credentials: Credentials, baseUrl = balancer.baseUrl): RailyardClient => createClient({ baseUrl, ...credentials, maxRetries: 0 });
const root = () => clientOf(ROOT_CREDENTIALS);

async function raw(baseUrl: string, credentials: Credentials, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

/** The origin of the process holding a platform, from its lease. */
async function holderOf(platformId: string): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    return (await client.query('SELECT holder_url FROM railyard_leases WHERE platform_id = $1', [platformId])).rows[0]?.holder_url ?? '';
  } finally {
    await client.end();
  }
}

/** Every customer of a platform, through the balancer. */
async function customerNames(credentials: Credentials): Promise<string[]> {
  const names: string[] = [];
  for await (const customer of clientOf(credentials).customers.list({ limit: 100 })) names.push((customer as { fullName: string }).fullName);
  return names;
}

describe('two --database servers behind a balancer', () => {
  it('serve one sandbox: every read sees every acknowledged write, wherever each lands', async () => {
    const platforms: (Credentials & { id: string })[] = [];
    for (let i = 0; i < 8; i++) platforms.push(await root().sandbox.platforms.create({ name: `P${i}` }));
    await Promise.all(platforms.map(async (platform) => {
      const client = clientOf(platform);
      for (let i = 0; i < 10; i++) {
        const made = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: `${platform.id} ${i}` });
        // The next request goes to the other server.
        expect(((await client.customers.retrieve(made.id)) as { fullName: string }).fullName).toBe(`${platform.id} ${i}`);
      }
      expect((await customerNames(platform)).length).toBe(10);
    }));
    // Both servers hold some of them (each platform is held where its first request landed).
    const holders = new Set(await Promise.all(platforms.map((platform) => holderOf(platform.id))));
    expect(holders).toEqual(new Set(servers.map(origin)));
  });

  it("stream a platform's events from either server: the one that does not hold it passes the stream on, as it comes", async () => {
    const platform = await root().sandbox.platforms.create({ name: 'stream' });
    const client = clientOf(platform);
    const account = (await raw(balancer.baseUrl, platform, 'GET', '/platform/internal-accounts')).json.data[0] as { id: string };
    await client.sandbox.fundInternalAccount(account.id, 1); // its first request: now one of the servers holds it
    const holder = await holderOf(platform.id);
    const streams = await Promise.all(servers.map(async (server) => {
      const response = await fetch(`${server.baseUrl}/_sandbox/events/stream?type=INTERNAL_ACCOUNT.BALANCE_UPDATED`, { headers: { authorization: `Basic ${btoa(`${platform.clientId}:${platform.clientSecret}`)}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      return { passedOn: origin(server) !== holder, messages: readServerSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]() };
    }));
    expect(streams.map((stream) => stream.passedOn).sort()).toEqual([false, true]);
    await client.sandbox.fundInternalAccount(account.id, 41);
    for (const stream of streams) {
      const { value } = await stream.messages.next();
      const event = JSON.parse(value!.data) as { type: string; body: string };
      expect(event.type).toBe('INTERNAL_ACCOUNT.BALANCE_UPDATED');
      expect((JSON.parse(event.body) as { data: { balance: { amount: number } } }).data.balance.amount).toBe(42);
      await stream.messages.return?.(undefined);
    }
  });

  it('execute one quote 1,000 times at once, over both servers: one transaction, one debit', async () => {
    const platform = await root().sandbox.platforms.create({ name: 'quotes', regulated: true });
    const client = clientOf(platform);
    const payer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Pat Payer', currencies: ['USD'] });
    const usd = (await client.internalAccounts.list({ customerId: payer.id, currency: 'USD' })).data[0]!;
    await client.sandbox.fundInternalAccount(usd.id, 1_000_000);
    const bank = await client.externalAccounts.create({
      customerId: payer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pat Payer' } },
    });
    const quote = await client.quotes.create({ source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => raw(balancer.baseUrl, platform, 'POST', `/quotes/${quote.id}/execute`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status < 300)).toHaveLength(1);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const transactions = (await client.transactions.list({ limit: 100 })).data.filter((t) => (t as { quoteId?: string }).quoteId === quote.id);
    expect(transactions).toHaveLength(1);
    const after = (await client.internalAccounts.list({ customerId: payer.id, currency: 'USD' })).data[0]!;
    expect(1_000_000 - after.balance.amount).toBe(quote.totalSendingAmount ?? 10_000);
  });

  it("serve a killed holder's platforms from the other server within seconds, with every acknowledged write", async () => {
    const platform = await root().sandbox.platforms.create({ name: 'to be orphaned' });
    const written: string[] = [];
    for (let i = 0; i < 20; i++) written.push(((await clientOf(platform).customers.create({ customerType: "INDIVIDUAL", fullName: `Orphan ${i}` })) as { fullName: string }).fullName);
    const holder = await holderOf(platform.id);
    const victim = servers.find((server) => origin(server) === holder)!;
    const survivor = servers.find((server) => server !== victim)!;
    const exited = once(victim.child, 'exit');
    victim.child.kill('SIGKILL');
    await exited;
    const startedAt = Date.now();
    // Through the survivor directly: it passes the request to the dead holder, finds nobody, and takes over once the
    // lease runs out (3 s).
    const names = (await raw(survivor.baseUrl, platform, 'GET', '/customers?limit=100')).json.data.map((c: { fullName: string }) => c.fullName);
    expect(Date.now() - startedAt).toBeLessThan(8_000);
    expect(names.sort()).toEqual([...written].sort());
    expect(await holderOf(platform.id)).toBe(origin(survivor));
    // The killed process comes back as a new server, and the balancer spreads over both again.
    const restarted = await startOne();
    servers = [survivor, restarted];
    balancer.targets = servers.map(origin);
    expect((await customerNames(platform)).sort()).toEqual([...written].sort());
  }, 30_000);

  it('answer 503 while PostgreSQL restarts under load, then serve again, with nothing lost or applied twice', async () => {
    const platform = await root().sandbox.platforms.create({ name: 'through a database restart' });
    const acknowledged = new Set<string>();
    let unavailable = 0;
    let stopLoad = false;
    /** Writes the customer, retrying with the same Idempotency-Key until it is answered 2xx. */
    const write = async (name: string) => {
      for (;;) {
        const answer = await raw(balancer.baseUrl, platform, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: name }, { 'idempotency-key': name }).catch(() => undefined);
        if (answer !== undefined && answer.status < 300) return acknowledged.add(name);
        if (answer !== undefined && answer.status !== 503 && answer.status !== 502) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.json)}`);
        if (answer?.status === 503) unavailable++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const workers = Array.from({ length: 4 }, async (_, worker) => {
      for (let i = worker; !stopLoad; i += 4) await write(`Restart ${i}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    cluster.start();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    stopLoad = true;
    await Promise.all(workers);
    expect(unavailable).toBeGreaterThan(0);
    const names = await customerNames(platform);
    expect(names.length).toBe(new Set(names).size); // nothing applied twice
    // Nothing lost, and nothing applied that was not acknowledged (every write was retried until it was).
    expect({ lost: [...acknowledged].filter((name) => !names.includes(name)), unacknowledged: names.filter((name) => !acknowledged.has(name)) }).toEqual({ lost: [], unacknowledged: [] });
  }, 60_000);

  it('fence off a holder stopped past its lease: its late write is refused or passed on, never applied on stale state', async () => {
    const platform = await root().sandbox.platforms.create({ name: 'zombie' });
    await clientOf(platform).customers.create({ customerType: 'INDIVIDUAL', fullName: 'Before' });
    const holder = await holderOf(platform.id);
    const zombie = servers.find((server) => origin(server) === holder)!;
    const other = servers.find((server) => server !== zombie)!;
    zombie.child.kill('SIGSTOP');
    try {
      // The other server passes a read to the zombie, which does not answer; once the zombie's lease has run out it
      // takes the platform over and answers the read itself. Then it writes.
      expect((await raw(other.baseUrl, platform, 'GET', '/customers?limit=1')).status).toBe(200);
      expect((await raw(other.baseUrl, platform, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Taken over' })).status).toBe(201);
      expect(await holderOf(platform.id)).toBe(origin(other));
    } finally {
      zombie.child.kill('SIGCONT');
    }
    // Straight to the zombie, which may not have noticed yet: the database refuses its commit (503), or it has already
    // noticed and passes the request on (201). Either way its stale state is never written.
    const late = await raw(zombie.baseUrl, platform, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Late' });
    expect([201, 503]).toContain(late.status);
    const names = (await raw(other.baseUrl, platform, 'GET', '/customers?limit=100')).json.data.map((c: { fullName: string }) => c.fullName).sort();
    expect(names).toEqual(late.status === 201 ? ['Before', 'Late', 'Taken over'] : ['Before', 'Taken over']);
    // From then on the zombie passes the platform's requests to its holder.
    expect((await raw(zombie.baseUrl, platform, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'After' })).status).toBe(201);
    expect(await holderOf(platform.id)).toBe(origin(other));
  }, 30_000);
});
