// A standalone server over an engine that already holds BENCH_SEED customers (seeded in process, which is much faster
// than over HTTP). Prints "customer <id>" and then "listening on <url>". Like `railyard serve`, it serves from a worker
// thread with the limits that command gives its server (serverThreadLimits).
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { createEngine } from '@railyard/engine';
import { serverThreadLimits, startServer } from '@railyard/engine/server';
import { CREDENTIALS, seedCustomers } from './lib.mjs';

if (isMainThread) {
  const thread = new Worker(new URL(import.meta.url), { resourceLimits: serverThreadLimits() });
  thread.on('message', (line) => console.log(line));
  thread.once('exit', (code) => process.exit(code));
  process.on('SIGTERM', () => thread.postMessage('stop'));
} else {
  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  const first = await seedCustomers(engine, Number(process.env.BENCH_SEED ?? 1000));
  globalThis.gc?.();
  const server = await startServer(engine, { port: 0 });
  parentPort.postMessage(`customer ${first}`);
  parentPort.postMessage(`listening on ${server.baseUrl}`);
  parentPort.once('message', () => server.close().then(() => process.exit(0)));
}
