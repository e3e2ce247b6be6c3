// Fills a data directory (`railyard serve --data DIR`) with BENCH_SEED customers of the bench platform, fast: they are
// created in an in-memory engine and handed to an engine on DIR as that engine's own snapshot (no re-check), which
// stores them in one commit. Prints {"customerId", "seedMs", "storeMs", "records"} as its last line.
import { createEngine } from '@railyard/engine';
import { openSqliteStore } from '@railyard/engine/sqlite';
import { CREDENTIALS, seedCustomers } from './lib.mjs';

const [dir] = process.argv.slice(2);
const count = Number(process.env.BENCH_SEED ?? 1_000_000);
const platform = { ...CREDENTIALS, regulated: true };
let started = performance.now();
const memory = createEngine({ platform });
const customerId = await seedCustomers(memory, count);
const seedMs = performance.now() - started;
started = performance.now();
const snapshot = memory.sandbox().snapshot();
const store = openSqliteStore(dir, { sync: 'normal' });
const durable = createEngine({ durable: store, secretKey: store.secretKey, platform });
durable.sandbox().restore(snapshot);
durable.close(); // commits what the restore wrote, then closes the file
const records = Object.values(snapshot.collections).reduce((sum, list) => sum + list.length, 0);
console.log(JSON.stringify({ customerId, seedMs, storeMs: performance.now() - started, records }));
