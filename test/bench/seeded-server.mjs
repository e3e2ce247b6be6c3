// A standalone server over an engine that already holds BENCH_SEED customers (seeded in process, which is much faster
// than over HTTP). Prints "customer <id>" and then "listening on <url>".
import { createEngine, startServer } from '@railyard/engine';
import { CREDENTIALS, seedCustomers } from './lib.mjs';

const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
const first = await seedCustomers(engine, Number(process.env.BENCH_SEED ?? 1000));
globalThis.gc?.();
const server = await startServer(engine, { port: 0 });
console.log(`customer ${first}`);
console.log(`listening on ${server.baseUrl}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
