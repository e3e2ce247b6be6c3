/**
 * `@railyard/engine/sqlite`: the durable store of `railyard serve --data DIR`, for an engine of your own. Server-side
 * only (better-sqlite3, an optional dependency of the engine): neither `@railyard/engine` nor its msw handlers load it.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createEngine } from '@railyard/engine';
 * import { openSqliteStore } from '@railyard/engine/sqlite';
 *
 * const dir = mkdtempSync(join(tmpdir(), 'railyard-data-'));
 * const store = openSqliteStore(dir); // the key secrets are sealed under is made once, into dir/secret.key
 * const engine = createEngine({ durable: store, secretKey: store.secretKey });
 * const created = await engine.fetch(new Request('http://sandbox.test/2025-10-13/customers', {
 *   method: 'POST',
 *   headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }),
 * }));
 * const customer = await created.json(); // answered once it is in dir/railyard.db
 * engine.close();
 *
 * const reopened = openSqliteStore(dir);
 * const restarted = createEngine({ durable: reopened, secretKey: reopened.secretKey });
 * const found = await restarted.fetch(new Request(`http://sandbox.test/2025-10-13/customers/${customer.id}`, {
 *   headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` },
 * }));
 * assert.equal(found.status, 200);
 * restarted.close();
 * ```
 * @module
 */
export { DataStoreRefusal, openSqliteStore, SQLITE_SCHEMA_VERSION, type SqliteStore, type SqliteStoreOptions } from './durability/sqlite.js';
export type { CommitBatch, DurableBackend, PartitionChanges, StoredJob, StoredPlatform } from './durability/backend.js';
