// The durable store (`railyard serve --data DIR`) against the in-memory server: POST and GET customer over HTTP,
// measured in turns with the same load, and the restart of a server whose directory holds BENCH_DURABLE_SEED customers
// (default 1M) until it answers. Prints {"restartMs", "records", …} as its last line; the HTTP rows go through `load`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH, CREDENTIALS, runJsonChild, startChild } from './lib.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const cli = here('../../packages/engine/dist/cli.cjs');
const env = { RAILYARD_CLIENT_ID: CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: CREDENTIALS.clientSecret };

/** Two servers, in memory and on a fresh data directory, for the same loads. */
export async function durableServers() {
  const dir = mkdtempSync(join(tmpdir(), 'railyard-bench-data-'));
  const memory = await startChild([cli, 'serve', '--port', '0', '--regulated'], { env });
  const durable = await startChild([cli, 'serve', '--port', '0', '--regulated', '--data', dir], { env });
  return {
    memory, durable,
    async stop() {
      memory.stop();
      durable.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Milliseconds from starting `railyard serve --data DIR` on a directory holding `count` customers to its first answer
 * of one of them (the banner comes once every record is loaded; the GET proves it serves).
 */
export async function restartTime(count) {
  const dir = mkdtempSync(join(tmpdir(), 'railyard-bench-restart-'));
  try {
    const seeded = await runJsonChild([here('./seed-data-dir.mjs'), dir], ['--max-old-space-size=16384'], { BENCH_SEED: String(count) });
    const started = performance.now();
    // Nothing else runs meanwhile: the server has both cores (its collector works on the second).
    const server = await startChild([cli, 'serve', '--port', '0', '--regulated', '--data', dir], { env, nodeFlags: ['--max-old-space-size=16384'], pin: false });
    const response = await fetch(`${server.url}/customers/${encodeURIComponent(seeded.customerId)}`, { headers: { authorization: AUTH } });
    const restartMs = performance.now() - started;
    const ok = response.status === 200 && (await response.json()).id === seeded.customerId;
    server.stop();
    return { count, restartMs, ok, records: seeded.records, seedMs: seeded.seedMs, storeMs: seeded.storeMs };
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the server lets go of the file
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run alone (`node test/bench/durable.mjs`): the restart figure only.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await restartTime(Number(process.env.BENCH_DURABLE_SEED ?? 1_000_000))));
}
