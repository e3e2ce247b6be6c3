/**
 * `@railyard/engine/postgres`: the shared store of `railyard serve --database`, for servers of your own. Server-side
 * only (node-postgres, an optional dependency of the engine): neither `@railyard/engine` nor its msw handlers load it.
 * Every process opens the same database, makes its engine on it, and serves requests through a {@link SharedSandbox},
 * which serves the platforms this process holds and passes the others' requests to their holders.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { createEngine } from '@railyard/engine';
 * import { LEASE_TTL_MS, openPostgresStore, SharedSandbox } from '@railyard/engine/postgres';
 * import { startServer } from '@railyard/engine/server';
 *
 * // Two servers on one database (a load balancer would sit in front of them).
 * async function serverOn(url: string) {
 *   const store = await openPostgresStore(url); // without secretKey, the database keeps its own
 *   const engine = createEngine({ durable: store, secretKey: store.secretKey });
 *   await store.started();
 *   const shared = new SharedSandbox(engine, store, { realClock: false, leaseTtlMs: LEASE_TTL_MS });
 *   const server = await startServer({ handle: (request) => shared.handle(request), close: () => undefined }, { port: 0 });
 *   await shared.start(new URL(server.baseUrl).origin); // where the other server passes this one's requests
 *   return { baseUrl: server.baseUrl, close: async () => { await shared.close(); await server.close(); engine.close(); } };
 * }
 * const first = await serverOn(process.env.RAILYARD_DATABASE_URL!);
 * const second = await serverOn(process.env.RAILYARD_DATABASE_URL!);
 * const headers = { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`, 'content-type': 'application/json' };
 * const created = await fetch(`${first.baseUrl}/customers`, { method: 'POST', headers, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }) });
 * const customer = await created.json();
 * const found = await fetch(`${second.baseUrl}/customers/${customer.id}`, { headers }); // passed on to the holder
 * assert.equal((await found.json()).id, customer.id);
 * await second.close();
 * await first.close();
 * ```
 * @module
 */
export { LEASE_TTL_MS, openPostgresStore, POSTGRES_SCHEMA_VERSION, type LeaseHolder, type PostgresStore, type PostgresStoreOptions } from './durability/postgres.js';
export { FORWARDED_HEADER, SharedSandbox, type SharedSandboxOptions } from './durability/sharing.js';
export { DataStoreRefusal } from './durability/refusal.js';
export type { CommitBatch, DurableBackend, LoadedPlatform, PartitionChanges, SharedBackend, StoredJob, StoredPlatform } from './durability/backend.js';
