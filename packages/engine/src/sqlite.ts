/**
 * `@railyard/engine/sqlite`: the durable store of `railyard serve --data DIR`, for an engine of your own.
 *
 * @example
 * ```ts
 * import { createEngine } from '@railyard/engine';
 * import { openSqliteStore } from '@railyard/engine/sqlite';
 *
 * const store = openSqliteStore('./railyard-data');
 * const engine = createEngine({ clock: 'real', durable: store, secretKey: store.secretKey });
 * // … serve engine.fetch; every answered write is in ./railyard-data/railyard.db
 * engine.close();
 * ```
 * @module
 */
export { DataStoreRefusal, openSqliteStore, SQLITE_SCHEMA_VERSION, type SqliteStore, type SqliteStoreOptions } from './durability/sqlite.js';
export type { CommitBatch, DurableBackend, PartitionChanges, StoredJob, StoredPlatform } from './durability/backend.js';
