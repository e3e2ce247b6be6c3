// `pnpm bench`: throughput and latency in process and over HTTP (beside a bare node:http server), lists and memory at
// 1k, 100k and 1M records, snapshots, the virtual clock and start-up; each figure against its target, PASS or FAIL.
// Runs the built packages. HTTP load comes from this process (autocannon, on core 0 when the machine has two); each
// server runs in a child process (on core 1). Sections: BENCH_ONLY=inprocess,wallet,http,durable,shared,scale,state,adversarial,size (default all); BENCH_DURABLE_SEED (1M) sizes the --data restart.
// BENCH_OUT=file.json writes every figure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arch, cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createClient } from '@railyard/client';
import { createEngine, SANDBOX_ENCLAVE_PUBLIC_KEY_HEX, verifyStampSignature } from '@railyard/engine';
import { decodeWalletStamp } from '@railyard/contract';
import { SessionKey, encryptOtp } from '@railyard/wallet';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';

import { GZIP_TARGETS, KB, REPORTED_PACKAGES, formatBundleSize, measureBrowserBundle } from '../support/bundle-size.mjs';
import { durableServers, restartTime } from './durable.mjs';
import { sharedFigures } from './shared.mjs';
import { AUTH, CREDENTIALS, PINNED, bankAccountBody, customerBody, median, payOutQuoteBody, runJsonChild, startChild } from './lib.mjs';

const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const INPROCESS_CALLS = Number(process.env.BENCH_CALLS ?? 20000);
const LIST_SEED = Number(process.env.BENCH_LIST_SEED ?? 1_000_000);
const SECTIONS = new Set((process.env.BENCH_ONLY ?? 'inprocess,wallet,http,durable,shared,scale,state,adversarial,size').split(','));
const DURABLE_SEED = Number(process.env.BENCH_DURABLE_SEED ?? 1_000_000);
const here = (file) => fileURLToPath(new URL(file, import.meta.url));

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

/** A payer with a large balance and a bank account to pay out to: each flow is a quote and its execution, settled at once. */
async function payoutSetup(client) {
  const payer = await client.customers.create(customerBody);
  const [usd] = (await client.internalAccounts.list({ customerId: payer.id })).data;
  for (let i = 0; i < 5; i++) await client.sandbox.fundInternalAccount(usd.id, 100_000_000_000);
  const bank = await client.externalAccounts.create(bankAccountBody(payer.id, 'Bench Mark'));
  return async () => {
    const quote = await client.quotes.create(payOutQuoteBody(usd.id, bank.id));
    // Execute answers PROCESSING (SPEC §4.5); the sandbox settles right after the response, so the next read is final.
    const executed = await client.quotes.execute(quote.id);
    if (executed.status !== 'PROCESSING') throw new Error(`execute answered ${executed.status}`);
    const settled = await client.quotes.retrieve(quote.id);
    if (settled.status !== 'COMPLETED') throw new Error(`payout ended ${settled.status}`);
  };
}

/** Flows per second with `workers` running flows back to back for `seconds`. */
async function flows(name, flow, workers, seconds) {
  await flow();
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: workers }, async () => {
    while (Date.now() < deadline) {
      const t0 = process.hrtime.bigint();
      await flow();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }));
  const total = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort((a, b) => a - b);
  record(name, latencies.length / total, latencies[Math.floor(latencies.length * 0.5)], latencies[Math.floor(latencies.length * 0.99)]);
}

async function inProcess() {
  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  const client = createClient({ baseUrl: 'http://in-process.test/2025-10-13', ...CREDENTIALS, fetch: engine.fetch, maxRetries: 0, sandbox: true });
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
  await flows('in-process pay-out flow (quote, execute, settle)', await payoutSetup(client), 1, HTTP_SECONDS);
  engine.close();
  await manyPlatforms();
}

/** Among this many platforms, credentials and invitation codes are still found in one lookup (no walk of the platforms). */
const MANY_PLATFORMS = Number(process.env.BENCH_PLATFORMS ?? 100_000);

/** API-token authentication, an agent's Bearer authentication and invitation creation with MANY_PLATFORMS platforms. */
async function manyPlatforms() {
  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true }, maxPlatforms: MANY_PLATFORMS + 1 });
  for (let i = 1; i < MANY_PLATFORMS; i++) engine.createPlatform({ name: `bench ${i}` });
  const last = engine.createPlatform({ name: 'last', regulated: true });
  const owner = createClient({ baseUrl: 'http://in-process.test/2025-10-13', ...last, fetch: engine.fetch, maxRetries: 0, sandbox: true });
  const token = await owner.tokens.create({ name: 'bench', permissions: ['VIEW', 'MANAGE'] });
  const asToken = owner.withOptions({ clientId: token.clientId, clientSecret: token.clientSecret });
  await measure(`API-token GET customers (auth) at ${MANY_PLATFORMS} platforms`, Math.floor(INPROCESS_CALLS / 4), () => asToken.customers.list({ limit: 1 }));
  await measure(`invitation create at ${MANY_PLATFORMS} platforms`, Math.floor(INPROCESS_CALLS / 10), () => asToken.invitations.create({ inviterUma: '$bench@example.com' }));
  engine.close();
}

/**
 * Embedded-wallet costs: the engine's check of a signed-retry stamp beside a bare node:crypto P-256 verify of the same
 * signature, and the first leg of an OTP verify (HPKE open of the sealed code) through engine.fetch.
 */
async function walletAuth() {
  const key = await SessionKey.generate();
  const payload = JSON.stringify({ organizationId: 'Platform:bench', parameters: { accountId: 'InternalAccount:bench' }, timestampMs: '1', type: 'ACTIVITY_TYPE_UPDATE_WALLET' });
  const stamp = decodeWalletStamp(await key.stamp(payload));
  const spki = Buffer.concat([Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'), Buffer.from(stamp.publicKey, 'hex')]);
  const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const signature = Buffer.from(stamp.signature, 'hex');
  const data = Buffer.from(payload);
  await measure('bare node:crypto P-256 verify', INPROCESS_CALLS, async () => {
    if (!nodeVerify('sha256', data, { key: publicKey, dsaEncoding: 'der' }, signature)) throw new Error('bare verify failed');
  });
  await measure('engine signed-retry stamp check', INPROCESS_CALLS, async () => {
    if (!(await verifyStampSignature(stamp, payload))) throw new Error('engine verify failed');
  });

  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  const client = createClient({ baseUrl: 'http://in-process.test/2025-10-13', ...CREDENTIALS, fetch: engine.fetch, maxRetries: 0, sandbox: true });
  const customer = await client.customers.create({ ...customerBody, email: 'bench@example.com', currencies: ['USDB'] });
  const [wallet] = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const headers = { authorization: AUTH, 'content-type': 'application/json' };
  const api = (path, init) => engine.fetch(new Request(`http://in-process.test/2025-10-13${path}`, { headers, ...init }));
  const [credential] = (await (await api(`/auth/credentials?accountId=${wallet.id}`)).json()).data;
  const challenge = await (await api(`/auth/credentials/${credential.id}/challenge`, { method: 'POST' })).json();
  const tek = await SessionKey.generate();
  const body = JSON.stringify({ type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX }) });
  await measure('OTP verify, first leg (HPKE open) in process', Math.floor(INPROCESS_CALLS / 10), async () => {
    const response = await api(`/auth/credentials/${credential.id}/verify`, { method: 'POST', body });
    if (response.status !== 202) throw new Error(`OTP verify answered ${response.status}`);
    await response.text();
  });
  engine.close();
}

/** One load run: `connections` clients sending back to back for HTTP_SECONDS. */
async function load(name, options) {
  const result = await autocannon({ connections: 16, pipelining: 1, duration: HTTP_SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Seconds each load runs unrecorded before the measured rounds. */
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);

/**
 * Runs every load once unrecorded (the servers' code is compiled by then, and their heaps have grown to their working
 * size: a first round measured start-up, not the steady state), then three times interleaved (a, b, c, a, b, c, …),
 * and records the median of the rounds for each.
 */
async function interleaved(loads, rounds = 3, warmSeconds = WARM_SECONDS) {
  for (const [name, options] of loads) await load(name, { ...options, duration: warmSeconds });
  const runs = loads.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [name, options]] of loads.entries()) runs[i].push(await load(name, options));
  }
  for (const [i, [name]] of loads.entries()) {
    record(name, median(runs[i].map((r) => r.rps)), median(runs[i].map((r) => r.p50)), median(runs[i].map((r) => r.p99)));
  }
}

const sandboxEnv = { RAILYARD_CLIENT_ID: CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: CREDENTIALS.clientSecret };

async function overHttp() {
  const bare = await startChild([here('./bare-server.mjs')]);
  const sandbox = await startChild([here('../../packages/engine/dist/cli.cjs'), 'serve', '--port', '0', '--regulated'], { env: sandboxEnv });
  try {
    const client = createClient({ baseUrl: sandbox.url, ...CREDENTIALS });
    const customer = await client.customers.create(customerBody);
    for (let i = 0; i < 200; i++) await client.customers.create(customerBody);
    const headers = { authorization: AUTH, 'content-type': 'application/json' };
    await interleaved([
      ['bare node:http fixed JSON', { url: `${bare.url}/` }],
      ['standalone server GET customer', { url: `${sandbox.url}/customers/${encodeURIComponent(customer.id)}`, headers }],
      ['standalone server POST customer', { url: `${sandbox.url}/customers`, method: 'POST', headers, body: JSON.stringify(customerBody) }],
    ]);
    await flows('standalone server pay-out flow (quote, execute, settle)', await payoutSetup(createClient({ baseUrl: sandbox.url, ...CREDENTIALS, maxRetries: 0 })), 10, HTTP_SECONDS);
  } finally {
    sandbox.stop();
  }
  // Lists on a server that already holds LIST_SEED customers (seeded in its own process), beside the bare server again.
  const seeded = await startChild([here('./seeded-server.mjs')], { env: { BENCH_SEED: String(LIST_SEED) }, nodeFlags: ['--expose-gc', '--max-old-space-size=8192'] });
  try {
    const customerId = /customer (\S+)/.exec(seeded.output())[1];
    const headers = { authorization: AUTH };
    await interleaved([
      ['bare node:http fixed JSON (beside the seeded server)', { url: `${bare.url}/` }],
      [`seeded server GET customers (list, 20) at ${LIST_SEED}`, { url: `${seeded.url}/customers?limit=20`, headers }],
      [`seeded server GET customer at ${LIST_SEED}`, { url: `${seeded.url}/customers/${encodeURIComponent(customerId)}`, headers }],
    ]);
  } finally {
    seeded.stop();
    bare.stop();
  }
}

/**
 * Seconds each load of the `durable` section runs unrecorded: a --data server's POSTs reach their steady latency after
 * ~10 s (p99 14–24 ms in its first 5 s, while its heap and SQLite's file grow; 5–6 ms from then on).
 */
const DURABLE_WARM_SECONDS = Number(process.env.BENCH_DURABLE_WARM_SECONDS ?? 10);

/** `railyard serve --data` beside the in-memory server, in turns; then the restart of a data directory at scale. */
async function durable() {
  const servers = await durableServers();
  try {
    const headers = { authorization: AUTH, 'content-type': 'application/json' };
    const ids = {};
    for (const [name, server] of [['memory', servers.memory], ['data', servers.durable]]) {
      const client = createClient({ baseUrl: server.url, ...CREDENTIALS });
      ids[name] = (await client.customers.create(customerBody)).id;
      for (let i = 0; i < 200; i++) await client.customers.create(customerBody);
    }
    await interleaved([
      ['in-memory server GET customer', { url: `${servers.memory.url}/customers/${encodeURIComponent(ids.memory)}`, headers }],
      ['--data server GET customer', { url: `${servers.durable.url}/customers/${encodeURIComponent(ids.data)}`, headers }],
      ['in-memory server POST customer', { url: `${servers.memory.url}/customers`, method: 'POST', headers, body: JSON.stringify(customerBody) }],
      ['--data server POST customer', { url: `${servers.durable.url}/customers`, method: 'POST', headers, body: JSON.stringify(customerBody) }],
    ], 3, DURABLE_WARM_SECONDS);
  } finally {
    await servers.stop();
  }
  const restart = await restartTime(DURABLE_SEED);
  console.log(`  restart of --data holding ${restart.count} customers (${restart.records} records): ${restart.restartMs.toFixed(0)} ms to its first answer (seeded in ${(restart.seedMs / 1000).toFixed(0)} s, stored in ${(restart.storeMs / 1000).toFixed(0)} s)`);
  return restart;
}

/** `railyard serve --database`: one server against two on one PostgreSQL, and a takeover (shared.mjs). */
async function shared() {
  const figures = await sharedFigures();
  const { throughput: t, takeover: k } = figures;
  console.log(`\nShared sandbox on PostgreSQL (POST customer over ${t.platforms} platforms, held ${t.split.join(' + ')})`);
  console.log(`  one server ${Math.round(t.one)} req/s; two servers, round robin ${Math.round(t.roundRobin)} req/s, each platform to its holder ${Math.round(t.affine)} req/s`);
  console.log(`  the machine's ceiling (the same loads, in-memory servers sharing nothing): one ${Math.round(figures.ceiling.one)} req/s, two ${Math.round(figures.ceiling.two)} req/s (${(figures.ceiling.two / figures.ceiling.one).toFixed(2)}x)`);
  console.log(`  takeover of a killed server's platform of ${k.count} customers: ${k.takeoverMs.toFixed(0)} ms to its first answer (its load alone ${k.loadMs.toFixed(0)} ms)`);
  return figures;
}

/** Lists and memory at 1k, 100k and 1M records (a child with a large heap). */
async function scale() {
  const result = await runJsonChild([here('./scale.mjs')], ['--expose-gc', '--max-old-space-size=8192']);
  console.log('\nLists (median ms per call, in process)');
  for (const row of result.rows) console.log(`  ${`${row.list}, ${row.query}`.padEnd(46)} ${String(row.n).padStart(8)}   ${row.ms.toFixed(3)} ms`);
  console.log(`In turns, 1k and ${result.scale} (median of five rounds each)`);
  for (const pair of result.paired) console.log(`  ${`${pair.list}, ${pair.query}`.padEnd(46)} ${pair.small.toFixed(3)} ms   ${pair.large.toFixed(3)} ms`);
  console.log(`Memory per record at ${result.scale}: customer ${Math.round(result.memory.customer)} B, transaction ${Math.round(result.memory.transaction)} B, pay-out ${Math.round(result.memory.payout)} B (${result.memory.payouts} pay-outs)`);
  const slowest = ({ ms, over10ms }) => `${ms.toFixed(1)} ms (${over10ms} calls over 10 ms)`;
  console.log(`Slowest single call while growing to ${result.scale}, GC pauses left out: create customer ${slowest(result.slowest.customer)}, funding ${slowest(result.slowest.funding)}`);
  return result;
}

/** Snapshots, the virtual clock and start-up (a child, so that start-up figures are not warmed by the other sections). */
async function state(coldStart) {
  const result = { ...coldStart, ...(await runJsonChild([here('./state.mjs')], ['--expose-gc', '--max-old-space-size=8192'])) };
  console.log('\nState and start-up');
  console.log(`  in-process snapshot of ${result.snapshotRecords} records: ${result.snapshot.toFixed(2)} ms (first ${result.snapshotFirst.toFixed(1)} ms); restore ${result.restore.toFixed(2)} ms (first ${result.restoreFirst.toFixed(1)} ms; an edited copy ${result.restoreEdited.toFixed(1)} ms)`);
  console.log(`  restore over HTTP of ${result.httpRestoreRecords} records (${result.httpRestoreMiB.toFixed(1)} MiB): ${result.httpRestore.toFixed(0)} ms, read back ${result.httpRestoreWorks ? 'intact' : 'WRONG'}`);
  console.log(`  advance 30 days, 100k waiting jobs: scheduler ${result.advanceScheduler.toFixed(0)} ms; ${result.quotes} quote expiries through the engine ${result.advanceQuoteExpiries.toFixed(0)} ms`);
  console.log(`  createEngine() ${result.createEngineMicros.toFixed(1)} µs; cold process to first response ${result.coldStart.toFixed(0)} ms`);
  console.log(`    in turns with it: a process that only prints a line ${result.floor.node.toFixed(0)} ms; one that starts an empty worker first ${result.floor.nodeAndWorker.toFixed(0)} ms; one whose worker serves a fixed answer ${result.floor.fixedAnswerOnWorker.toFixed(0)} ms`);
  return result;
}

/**
 * 100 kB adversarial strings in every field of every operation (test/reliability/regex.test.ts, run by vitest with the
 * 10 ms target): the slowest answer, each timed as the best of three.
 */
function adversarial() {
  const out = join(tmpdir(), `railyard-adversarial-${process.pid}.json`);
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/reliability/regex.test.ts', '-t', 'adversarial'], {
    cwd: here('../..'), env: { ...process.env, RAILYARD_ADVERSARIAL_TARGET_MS: '10', RAILYARD_ADVERSARIAL_OUT: out }, encoding: 'utf8',
  });
  if (!existsSync(out)) throw new Error(`the adversarial-input check wrote no figures:\n${run.stdout}${run.stderr}`);
  const figures = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  console.log(`\nAdversarial 100 kB inputs: ${figures.requests} requests, median ${figures['median ms']} ms, p99 ${figures['p99 ms']} ms, slowest ${figures['slowest ms']} ms (${figures.slowest})`);
  return figures;
}

/** What the wallet and the client add to a browser app: bundled from dist/, minified, gzipped (as test/bundle-size.test.ts). */
async function bundleSizes() {
  console.log('\nBundle sizes (browser, minified + gzipped)');
  const sizes = {};
  for (const specifier of REPORTED_PACKAGES) {
    sizes[specifier] = await measureBrowserBundle(specifier);
    console.log(`  ${formatBundleSize(sizes[specifier], { packages: 3 })}`);
  }
  return sizes;
}

console.log(`Machine: ${cpus()[0]?.model ?? arch()} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; servers ${PINNED ? 'pinned to core 1, load on core 0' : 'not pinned'}\n`);
// A cold start is timed first, on a quiet machine: right after the scale section has released its 8 GB heap, the same
// start took ~40 ms longer.
const coldStart = SECTIONS.has('state') ? await runJsonChild([here('./cold-start.mjs')]) : undefined;
if (SECTIONS.has('inprocess')) await inProcess();
if (SECTIONS.has('wallet')) await walletAuth();
if (SECTIONS.has('http')) await overHttp();
const restarted = SECTIONS.has('durable') ? await durable() : undefined;
const sharedRun = SECTIONS.has('shared') ? await shared() : undefined;
const scaled = SECTIONS.has('scale') ? await scale() : undefined;
const stated = SECTIONS.has('state') ? await state(coldStart) : undefined;
const hostile = SECTIONS.has('adversarial') ? adversarial() : undefined;
const bundles = SECTIONS.has('size') ? await bundleSizes() : undefined;
const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
const checks = [];
/** A target: checked when its figures were measured (a section left out skips its targets). */
const target = (name, figures, ok, shown) => {
  if (figures.every((figure) => figure !== undefined)) checks.push([name, ok(...figures), shown(...figures)]);
};
const ratio = (a, b) => a.rps / b.rps;
const rps = (row) => `${Math.round(row.rps)} req/s`;

target('in-process client GET customer >= 50,000 req/s', [byName['in-process client GET customer']], (r) => r.rps >= 50_000, rps);
target('in-process client GET <= 3x bare engine.fetch', [byName['bare engine.fetch GET customer'], byName['in-process client GET customer']], (bare, client) => ratio(bare, client) <= 3, (bare, client) => `${ratio(bare, client).toFixed(2)}x`);
target('in-process pay-out flows >= 500 per second', [byName['in-process pay-out flow (quote, execute, settle)']], (r) => r.rps >= 500, (r) => `${Math.round(r.rps)} flows/s`);
for (const row of [`API-token GET customers (auth) at ${MANY_PLATFORMS} platforms`, `invitation create at ${MANY_PLATFORMS} platforms`]) {
  target(`${row}: p99 < 5 ms`, [byName[row]], (r) => r.p99 < 5, (r) => `p99 ${r.p99.toFixed(3)} ms`);
}
target('signed-retry stamp check <= 1.5x bare node:crypto verify', [byName['bare node:crypto P-256 verify'], byName['engine signed-retry stamp check']], (bare, stamp) => ratio(bare, stamp) <= 1.5, (bare, stamp) => `${ratio(bare, stamp).toFixed(2)}x`);

const bare = byName['bare node:http fixed JSON'];
const share = (row, of) => `${ratio(row, of).toFixed(2)}x (${rps(row)}, p99 ${row.p99} ms)`;
for (const [name, row, floor] of [
  ['standalone GET customer', byName['standalone server GET customer'], 0.4],
  ['standalone POST customers', byName['standalone server POST customer'], 0.25],
]) target(`${name} >= ${floor}x bare node:http, p99 < 5 ms`, [row, bare], (r, b) => ratio(r, b) >= floor && r.p99 < 5, share);
target(`GET /customers (20) at ${LIST_SEED} customers >= 0.25x bare, p99 < 5 ms`,
  [byName[`seeded server GET customers (list, 20) at ${LIST_SEED}`], byName['bare node:http fixed JSON (beside the seeded server)']],
  (r, b) => ratio(r, b) >= 0.25 && r.p99 < 5, share);
target('standalone pay-out flows >= 200 per second', [byName['standalone server pay-out flow (quote, execute, settle)']], (r) => r.rps >= 200, (r) => `${Math.round(r.rps)} flows/s`);

target('--data POST customer >= 0.5x in-memory, p99 < 10 ms', [byName['--data server POST customer'], byName['in-memory server POST customer']],
  (d, m) => ratio(d, m) >= 0.5 && d.p99 < 10, (d, m) => `${ratio(d, m).toFixed(2)}x (${rps(d)}, p99 ${d.p99} ms)`);
target('--data GET customer >= 0.9x in-memory', [byName['--data server GET customer'], byName['in-memory server GET customer']],
  (d, m) => ratio(d, m) >= 0.9, (d, m) => `${ratio(d, m).toFixed(2)}x (${rps(d)}, p99 ${d.p99} ms)`);
if (restarted) {
  target(`restart of --data with ${restarted.count} customers answers <= 30 s`, [restarted], (r) => r.ok && r.restartMs <= 30_000, (r) => `${(r.restartMs / 1000).toFixed(1)} s${r.ok ? '' : ' (WRONG answer)'}`);
}
if (sharedRun) {
  const { throughput: t, takeover: k } = sharedRun;
  target('--database POST, two servers (round robin) >= 1.5x one', [t], (x) => x.roundRobin >= 1.5 * x.one, (x) => `${(x.roundRobin / x.one).toFixed(2)}x (${Math.round(x.roundRobin)} vs ${Math.round(x.one)} req/s; to each holder ${(x.affine / x.one).toFixed(2)}x; machine ceiling ${(sharedRun.ceiling.two / sharedRun.ceiling.one).toFixed(2)}x)`);
  target(`takeover of a killed server's platform <= 5 s + its load`, [k], (x) => x.takeoverMs <= 5_000 + x.loadMs, (x) => `${(x.takeoverMs / 1000).toFixed(1)} s (load ${(x.loadMs / 1000).toFixed(1)} s)`);
}
if (scaled) {
  // The 1k and largest platforms measured in turns (scale.mjs), so both figures come from the same minutes.
  for (const pair of scaled.paired) {
    // Below 0.05 ms the figure is timer noise: a list that fast passes whatever the ratio.
    target(`${pair.list}, ${pair.query}: ${pair.n} within 1.5x of 1k`, [pair], (p) => p.large <= Math.max(1.5 * p.small, 0.05),
      (p) => `${p.small.toFixed(3)} → ${p.large.toFixed(3)} ms (${(p.large / p.small).toFixed(2)}x, in turns)`);
  }
  // Per-record figures mean something only at scale: at a few thousand records the engine's fixed heap dominates.
  if (scaled.scale >= 100_000) {
    target(`heap per customer at ${scaled.scale} <= 2 KB`, [scaled.memory.customer], (b) => b <= 2048, (b) => `${Math.round(b)} B`);
    target(`heap per transaction at ${scaled.scale} <= 2 KB`, [scaled.memory.transaction], (b) => b <= 2048, (b) => `${Math.round(b)} B`);
  }
}
if (stated) {
  target('createEngine() < 20 µs', [stated.createEngineMicros], (us) => us < 20, (us) => `${us.toFixed(1)} µs`);
  target('cold process to first response < 250 ms', [stated.coldStart, stated.floor], (ms) => ms < 250, (ms, floor) => `${ms.toFixed(0)} ms (a worker serving a fixed answer: ${floor.fixedAnswerOnWorker.toFixed(0)} ms)`);
  target(`snapshot of ${stated.snapshotRecords} records < 50 ms (first, then median)`, [stated.snapshotFirst, stated.snapshot], (first, ms) => first < 50 && ms < 50, (first, ms) => `${first.toFixed(1)} ms, ${ms.toFixed(2)} ms`);
  // The engine's own snapshot, as a test suite restores it before each test; an edited copy is re-checked (shown above).
  target(`restore of ${stated.snapshotRecords} records < 50 ms (first, then median)`, [stated.restoreFirst, stated.restore], (first, ms) => first < 50 && ms < 50, (first, ms) => `${first.toFixed(1)} ms, ${ms.toFixed(2)} ms`);
  target(`restore of ${stated.httpRestoreRecords} records over HTTP works`, [stated.httpRestoreWorks], (ok) => ok, () => `${stated.httpRestore.toFixed(0)} ms, ${stated.httpRestoreMiB.toFixed(1)} MiB`);
  target(`bulk import of ${stated.bulkImportRows} CSV rows < 1 s`, [stated.bulkImportMs], (ms) => ms < 1000, (ms) => `${ms.toFixed(0)} ms`);
  target('advance 30 days with 100k waiting jobs < 200 ms', [stated.advanceScheduler], (ms) => ms < 200, (ms) => `${ms.toFixed(0)} ms`);
}
if (hostile) {
  target('every answer to a 100 kB adversarial string < 10 ms', [Number(hostile['slowest ms'])], (ms) => ms < 10, (ms) => `${ms.toFixed(2)} ms (${hostile.slowest})`);
}
if (bundles) {
  for (const [specifier, limit] of Object.entries(GZIP_TARGETS)) {
    target(`${specifier} browser bundle <= ${limit / KB} KB gzipped`, [bundles[specifier]], (size) => size.gzipBytes <= limit, (size) => `${(size.gzipBytes / KB).toFixed(1)} KB`);
  }
}

console.log('\nTargets');
for (const [name, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(72)} ${value}`);
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify({ pinned: PINNED, rows, durable: restarted, shared: sharedRun, scale: scaled, state: stated, bundles, targets: checks }, null, 2));
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
