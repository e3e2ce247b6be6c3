// `pnpm bench`: throughput and latency of the sandbox in-process and over HTTP, beside a bare node:http server.
// Runs the built packages. HTTP load comes from this process (autocannon); each server runs in a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';

const CREDENTIALS = { clientId: 'bench-id', clientSecret: 'bench-secret' };
const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.clientSecret}`).toString('base64')}`;
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const INPROCESS_CALLS = Number(process.env.BENCH_CALLS ?? 20000);
const customerBody = { customerType: 'INDIVIDUAL', fullName: 'Bench Mark', birthDate: '1990-01-01', address: { line1: '1 Main St', postalCode: '10001', country: 'US' } };

const rows = [];
const record = (name, rps, p50, p99) => {
  rows.push({ name, rps, p50, p99 });
  console.log(`${name.padEnd(44)} ${Math.round(rps).toString().padStart(8)} req/s   p50 ${p50.toFixed(3)} ms   p99 ${p99.toFixed(3)} ms`);
};

/** Sequential calls, timing each: requests per second and latency percentiles. */
async function measure(name, calls, fn) {
  for (let i = 0; i < Math.min(2000, calls); i++) await fn(i); // warm up
  const times = new Float64Array(calls);
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  const total = Number(process.hrtime.bigint() - start) / 1e9;
  times.sort();
  record(name, calls / total, times[Math.floor(calls * 0.5)], times[Math.floor(calls * 0.99)]);
}

async function inProcess() {
  const engine = createEngine({ platform: CREDENTIALS });
  const client = createClient({ baseUrl: 'http://in-process.test/2025-10-13', ...CREDENTIALS, fetch: engine.fetch, maxRetries: 0 });
  const customer = await client.customers.create(customerBody);
  for (let i = 0; i < 200; i++) await client.customers.create(customerBody);
  const url = `http://in-process.test/2025-10-13/customers/${encodeURIComponent(customer.id)}`;
  const headers = { authorization: AUTH };

  await measure('bare engine.fetch GET customer', INPROCESS_CALLS, async () => {
    const response = await engine.fetch(new Request(url, { headers }));
    await response.json();
  });
  await measure('in-process client GET customer', INPROCESS_CALLS, () => client.customers.retrieve(customer.id));
  await measure('in-process client POST customer', Math.floor(INPROCESS_CALLS / 4), () => client.customers.create(customerBody));
  await measure('in-process client GET customers (list, 20)', Math.floor(INPROCESS_CALLS / 4), () => client.customers.list({ limit: 20 }));
  engine.close();
}

function startChild(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

async function load(name, options) {
  const result = await autocannon({ connections: 10, pipelining: 1, duration: HTTP_SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  record(name, result.requests.average, result.latency.p50, result.latency.p99);
}

async function overHttp() {
  const bare = await startChild([fileURLToPath(new URL('./bare-server.mjs', import.meta.url))]);
  const sandbox = await startChild([fileURLToPath(new URL('../../packages/engine/dist/cli.js', import.meta.url)), 'serve', '--port', '0'], {
    RAILYARD_CLIENT_ID: CREDENTIALS.clientId,
    RAILYARD_CLIENT_SECRET: CREDENTIALS.clientSecret,
  });
  try {
    const client = createClient({ baseUrl: sandbox.url, ...CREDENTIALS });
    const customer = await client.customers.create(customerBody);
    for (let i = 0; i < 200; i++) await client.customers.create(customerBody);
    const headers = { authorization: AUTH, 'content-type': 'application/json' };
    await load('bare node:http fixed JSON', { url: `${bare.url}/` });
    await load('standalone server GET customer', { url: `${sandbox.url}/customers/${encodeURIComponent(customer.id)}`, headers });
    await load('standalone server POST customer', { url: `${sandbox.url}/customers`, method: 'POST', headers, body: JSON.stringify(customerBody) });
    await load('standalone server GET customers (list, 20)', { url: `${sandbox.url}/customers?limit=20`, headers });
  } finally {
    bare.stop();
    sandbox.stop();
  }
}

await inProcess();
await overHttp();

const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
const bareFetch = byName['bare engine.fetch GET customer'];
const clientGet = byName['in-process client GET customer'];
const bareHttp = byName['bare node:http fixed JSON'];
const serverGet = byName['standalone server GET customer'];
const checks = [
  ['in-process client GET customer >= 20,000 req/s', clientGet.rps >= 20000, `${Math.round(clientGet.rps)} req/s`],
  ['in-process client GET <= 3x bare engine.fetch', bareFetch.rps / clientGet.rps <= 3, `${(bareFetch.rps / clientGet.rps).toFixed(2)}x`],
  ['standalone GET >= 25% of bare node:http', serverGet.rps / bareHttp.rps >= 0.25, `${((100 * serverGet.rps) / bareHttp.rps).toFixed(1)}%`],
  ['standalone GET p99 < 5 ms', serverGet.p99 < 5, `${serverGet.p99.toFixed(2)} ms`],
];
console.log('\nTargets');
for (const [name, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(48)} ${value}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
