import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { DataStoreRefusal, openSqliteStore, SQLITE_SCHEMA_VERSION } from './sqlite.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'railyard-sqlite-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const open = (dir: string, clock: 'virtual' | 'real' = 'virtual'): Engine => {
  const store = openSqliteStore(dir);
  return createEngine({ clock, durable: store, secretKey: store.secretKey, platform: { regulated: true } });
};
const call = (engine: Engine, method: string, path: string, body?: unknown, headers?: Record<string, string>, credentials?: { clientId: string; clientSecret: string }) =>
  callApi(engine, method, path, body, headers, credentials);

/** A data directory holding one customer made over the API and `count` more like it (restored at once), closed. */
async function directoryWithCustomers(count: number) {
  const dir = freshDir();
  const first = open(dir);
  const customer = (await call(first, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Template', currencies: ['USD'] })).body;
  const template = (await call(first, 'GET', '/_sandbox/snapshot')).body;
  const records = Array.from({ length: count }, (_, i) => ({
    ...template.collections.customers[0], id: `Customer:${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`, fullName: `Ada ${i}`, platformCustomerId: `pc-${i}`,
  }));
  expect((await call(first, 'POST', '/_sandbox/restore', { ...template, collections: { ...template.collections, customers: [...template.collections.customers, ...records] } })).status).toBe(204);
  first.close();
  return { dir, customer, records };
}

describe('an engine on a SQLite data directory', () => {
  it('comes back after a restart with its platforms, records, cursors, tokens, agents, clocks and jobs', async () => {
    const dir = freshDir();
    const first = open(dir);
    const customers: Json[] = [];
    for (let i = 0; i < 5; i++) customers.push((await call(first, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Ada ${i}`, currencies: ['USD'] })).body);
    expect((await call(first, 'DELETE', `/customers/${customers[4]!.id}`)).status).toBeLessThan(300);
    const token = (await call(first, 'POST', '/tokens', { name: 'viewer', permissions: ['VIEW'] })).body;
    const other = (await call(first, 'POST', '/_sandbox/platforms', { name: 'B', regulated: true })).body;
    const otherCredentials = { clientId: other.clientId, clientSecret: other.clientSecret };
    const inB = (await call(first, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Bea', currencies: ['USD'] }, undefined, otherCredentials)).body;
    expect((await call(first, 'POST', '/_sandbox/clock/advance', { ms: 3_600_000 }, undefined, otherCredentials)).status).toBe(200);
    const page = (await call(first, 'GET', '/customers?limit=2')).body;
    const snapshot = (await call(first, 'GET', '/_sandbox/snapshot')).body;
    const clockB = (await call(first, 'GET', '/_sandbox/clock', undefined, undefined, otherCredentials)).body;
    const publicKey = await first.webhooks.publicKey();
    first.close();

    const second = open(dir);
    expect(second.defaultPlatform.id).toBe(first.defaultPlatform.id);
    const again = (await call(second, 'GET', '/_sandbox/snapshot')).body;
    expect({ ...again, takenAt: undefined }).toEqual({ ...snapshot, takenAt: undefined });
    expect((await call(second, 'GET', `/customers?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)).body.data.map((c: Json) => c.id))
      .toEqual([customers[1]!.id, customers[0]!.id]);
    expect((await call(second, 'GET', '/customers', undefined, undefined, { clientId: token.clientId, clientSecret: token.clientSecret })).status).toBe(200);
    expect((await call(second, 'GET', `/customers/${inB.id}`, undefined, undefined, otherCredentials)).body.fullName).toBe('Bea');
    expect((await call(second, 'GET', '/_sandbox/clock', undefined, undefined, otherCredentials)).body).toEqual(clockB);
    expect(await second.webhooks.publicKey()).toBe(publicKey);
    // A new record takes the next number, never one a deleted record had.
    const next = (await call(second, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Later', currencies: ['USD'] })).body;
    expect((await call(second, 'GET', '/customers?limit=1')).body.data[0].id).toBe(next.id);
    second.close();
  });

  it('answers before it has read every record back, and a request then sees all of them', async () => {
    // 3,000 more customers: more records than one turn of the background reader takes.
    const { dir, customer, records } = await directoryWithCustomers(3_000);

    const store = openSqliteStore(dir);
    let read = 0;
    const counted = { ...store, forEachCollection: (visit: Parameters<typeof store.forEachCollection>[0]) => store.forEachCollection((partition, collection, entries, next) => visit(partition, collection, (function* () {
      for (const entry of entries) {
        read++;
        yield entry;
      }
    })(), next)) };
    const second = createEngine({ durable: counted, secretKey: store.secretKey, platform: { regulated: true } });
    expect(read).toBeLessThan(2_000); // not even one turn of the background reader before the engine is there
    const list = (await call(second, 'GET', '/customers?limit=1')).body;
    expect(list.totalCount).toBe(3_001);
    expect((await call(second, 'GET', `/customers/${customer.id}`)).body.fullName).toBe('Template');
    expect((await call(second, 'GET', `/customers/${records[2_999]!.id}`)).body.fullName).toBe('Ada 2999');
    // The rest (accounts, events) is read in the background meanwhile.
    await expect.poll(() => read).toBeGreaterThanOrEqual(3_001 + 2);
    const total = read;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toBe(total);
    expect((await call(second, 'GET', '/_sandbox/snapshot')).body.collections.customers).toHaveLength(3_001);
    second.close();
  });

  it('sends an event emitted right after a restart once, while it still reads its records (re-sends only what the stop cut short)', async () => {
    const dir = freshDir();
    const answered = async () => new Response('', { status: 200 });
    const firstStore = openSqliteStore(dir);
    const first = createEngine({ durable: firstStore, secretKey: firstStore.secretKey, platform: { regulated: true }, webhooks: { fetch: answered } });
    expect((await call(first, 'PATCH', '/config', { webhookEndpoint: 'https://hooks.example/in' })).status).toBe(200);
    await first.webhooks.settled();
    first.close();
    const sent: string[] = [];
    const store = openSqliteStore(dir);
    const second = createEngine({
      durable: store, secretKey: store.secretKey, platform: { regulated: true },
      webhooks: { fetch: async (_url, init) => {
        sent.push((JSON.parse(init.body) as { id: string }).id);
        return new Response('', { status: 200 });
      } },
    });
    const customer = (await call(second, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the records are read, and the cut-short deliveries resumed
    await second.webhooks.settled();
    const events = (await call(second, 'GET', '/_sandbox/events')).body.data as Json[];
    const approved = events.find((event) => event.type === 'CUSTOMER.KYC_APPROVED' && event.data.id === customer.id)!;
    expect(approved.deliveries).toHaveLength(1);
    expect(sent.filter((id) => id === approved.id)).toHaveLength(1);
    second.close();
  });

  it('fails every use of a collection whose stored records cannot be read, never answering from part of it', async () => {
    const { dir, customer } = await directoryWithCustomers(4_999);
    const db = new BetterSqlite3(join(dir, 'railyard.db'));
    db.prepare("UPDATE railyard_records SET body = '{not json' WHERE seq = 2500 AND collection_id = (SELECT id FROM railyard_collections WHERE collection = 'customers')").run();
    db.close();

    const errors: unknown[] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const second = open(dir);
      for (let i = 0; i < 2; i++) {
        const listed = await call(second, 'GET', '/customers?limit=1');
        expect(listed.status).toBe(500);
        expect((await call(second, 'GET', `/customers/${customer.id}`)).status).toBe(500);
        expect((await call(second, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Not on top of half' })).status).toBe(500);
      }
      second.close();
    } finally {
      console.error = logged;
    }
  });

  it('refuses a directory another engine holds, a newer schema, and another secret key, each in one line', () => {
    const dir = freshDir();
    const held = openSqliteStore(dir);
    expect(() => openSqliteStore(dir)).toThrow(new DataStoreRefusal(`the data directory ${dir} is in use by another railyard (pid ${process.pid}): stop it, or give another --data`));
    held.close();
    expect(() => openSqliteStore(dir, { secretKey: 'k'.repeat(40) })).toThrow(/is sealed under another secret key/);
    const store = openSqliteStore(dir);
    store.close();

    const newer = freshDir();
    const made = openSqliteStore(newer);
    made.close();
    // Bump the stored schema past this version's, as a later railyard would have written it.
    const Database = require('better-sqlite3');
    const db = new Database(join(newer, 'railyard.db'));
    db.prepare("UPDATE railyard_meta SET value = ? WHERE key = 'schema_version'").run(String(SQLITE_SCHEMA_VERSION + 1));
    db.close();
    expect(() => openSqliteStore(newer)).toThrow(`the data in ${newer} has schema ${SQLITE_SCHEMA_VERSION + 1}; this railyard reads up to schema ${SQLITE_SCHEMA_VERSION}: upgrade railyard`);

    const foreign = freshDir();
    writeFileSync(join(foreign, 'railyard.db'), 'not a database at all, just some text long enough to be a header');
    expect(() => openSqliteStore(foreign)).toThrow(DataStoreRefusal);
  });
});

describe('when the data store fails', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while commits fail, keeps what it could not store, and stores it once they work again', async () => {
    const dir = freshDir();
    const store = openSqliteStore(dir);
    let down = false;
    const flaky = { ...store, commit: (batch: Parameters<typeof store.commit>[0]) => {
      if (down) throw new Error('disk I/O error');
      return store.commit(batch);
    } };
    const engine = createEngine({ durable: flaky, secretKey: store.secretKey });
    const before = (await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Before', currencies: ['USD'] })).body;
    down = true;
    const refused = await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'During', currencies: ['USD'] });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    // A read would show what is not stored yet: it waits for the store too.
    expect((await call(engine, 'GET', '/customers')).status).toBe(503);
    down = false;
    const listed = (await call(engine, 'GET', '/customers')).body.data.map((c: Json) => c.fullName);
    expect(listed).toEqual(['During', 'Before']);
    engine.close();
    const again = open(dir);
    expect((await call(again, 'GET', '/customers')).body.data.map((c: Json) => c.id)).toContain(before.id);
    expect((await call(again, 'GET', '/customers')).body.data.map((c: Json) => c.fullName)).toEqual(['During', 'Before']);
    again.close();
  });
});

describe('a durable engine runs a platform’s requests one at a time', () => {
  it('but a test send waiting on its receiver holds up none of them, and a repeat of it under its Idempotency-Key waits its turn', async () => {
    const store = openSqliteStore(freshDir());
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const engine = createEngine({
      durable: store, secretKey: store.secretKey,
      webhooks: { fetch: async () => { await answered; return new Response('ok'); } },
    });
    const body = { url: 'https://receiver.example/hooks' };
    const first = call(engine, 'POST', '/sandbox/webhooks/test', body, { 'idempotency-key': 'test-send' });
    const repeat = call(engine, 'POST', '/sandbox/webhooks/test', body, { 'idempotency-key': 'test-send' });
    // The receiver has not answered: the platform still serves its other requests.
    const created = await call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Meanwhile', currencies: ['USD'] });
    expect(created.status).toBe(201);
    answer();
    const [sent, replayed] = await Promise.all([first, repeat]);
    expect(sent.status).toBe(200);
    expect(replayed.body).toEqual(sent.body);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    engine.close();
  });
});

describe('sync full: each commit waits for the disk, off the event loop', () => {
  it('answers concurrent writes once flushed, the next commit going on meanwhile, and keeps every one of them', async () => {
    const dir = freshDir();
    const store = openSqliteStore(dir, { sync: 'full' });
    let commits = 0;
    const counted = { ...store, commit: (batch: Parameters<typeof store.commit>[0]) => {
      commits++;
      return store.commit(batch);
    } };
    const engine = createEngine({ durable: counted, secretKey: store.secretKey });
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Flushed ${i}`, currencies: ['USD'] })));
    expect(made.map((answer) => answer.status)).toEqual(made.map(() => 201));
    // Group commit: far fewer commits than requests.
    expect(commits).toBeLessThan(20);
    engine.close();
    const again = open(dir);
    const listed = (await call(again, 'GET', '/customers?limit=100')).body.data.map((c: Json) => c.id).sort();
    expect(listed).toEqual(made.map((answer) => answer.body.id).sort());
    again.close();
  });
});

describe('jobs across restarts', () => {
  it('jobs due at the same instant keep their order through two restarts', async () => {
    const dir = freshDir();
    const jobOrder = async (engine: Engine) => ((await call(engine, 'GET', '/_sandbox/snapshot')).body.collections.jobs ?? []).map((job: Json) => job.payload.code);
    const invite = async (engine: Engine, expiresAt: string) => (await call(engine, 'POST', '/invitations', { inviterUma: '$ada@example.com', expiresAt })).body.code;
    const first = open(dir);
    const at = new Date(first.clock.now() + 3_600_000).toISOString();
    // Jobs scheduled and cancelled first, so the ones kept were not the first scheduled.
    for (let i = 0; i < 4; i++) expect((await call(first, 'POST', `/invitations/${await invite(first, at)}/cancel`)).status).toBe(200);
    const codes = [await invite(first, at), await invite(first, at)];
    first.close();
    const second = open(dir);
    codes.push(await invite(second, at));
    expect(await jobOrder(second)).toEqual(codes);
    second.close();
    const third = open(dir);
    expect(await jobOrder(third)).toEqual(codes);
    third.close();
  });
});

describe('sync full: a reply waits for the disk', () => {
  it('no answer leaves before the flush of its commit has finished', async () => {
    const store = openSqliteStore(freshDir(), { sync: 'full' });
    let flushed!: () => void;
    const slowFlush = new Promise<void>((resolve) => (flushed = resolve));
    let held = false;
    const slow = { ...store, commit: (batch: Parameters<typeof store.commit>[0]) => {
      const done = store.commit(batch);
      if (held) return done;
      held = true;
      return Promise.all([done, slowFlush]).then(() => undefined);
    } };
    const engine = createEngine({ durable: slow, secretKey: store.secretKey });
    let answered = false;
    const pending = call(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Waits', currencies: ['USD'] }).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    flushed();
    expect((await pending).status).toBe(201);
    engine.close();
  });
});
