// `pnpm bench`: throughput and latency of the sandbox in-process and over HTTP, beside a bare node:http server.
// Runs the built packages. HTTP load comes from this process (autocannon); each server runs in a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createClient } from '@railyard/client';
import { createEngine, SANDBOX_ENCLAVE_PUBLIC_KEY_HEX, verifyStampSignature } from '@railyard/engine';
import { decodeWalletStamp } from '@railyard/contract';
import { SessionKey, encryptOtp } from '@railyard/wallet';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';

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

/** A payer with a large balance and a bank account to pay out to: each flow is a quote and its execution, settled at once. */
async function payoutSetup(client) {
  const payer = await client.customers.create(customerBody);
  const [usd] = (await client.internalAccounts.list({ customerId: payer.id })).data;
  for (let i = 0; i < 5; i++) await client.sandbox.fundInternalAccount(usd.id, 100_000_000_000);
  const bank = await client.externalAccounts.create({
    customerId: payer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Mark' } },
  });
  return async () => {
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100,
    });
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
  const sandbox = await startChild([fileURLToPath(new URL('../../packages/engine/dist/cli.js', import.meta.url)), 'serve', '--port', '0', '--regulated'], {
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
    await flows('standalone server pay-out flow (quote, execute, settle)', await payoutSetup(createClient({ baseUrl: sandbox.url, ...CREDENTIALS, maxRetries: 0 })), 10, HTTP_SECONDS);
  } finally {
    bare.stop();
    sandbox.stop();
  }
}

await inProcess();
await walletAuth();
await overHttp();

const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
const bareFetch = byName['bare engine.fetch GET customer'];
const clientGet = byName['in-process client GET customer'];
const bareHttp = byName['bare node:http fixed JSON'];
const serverGet = byName['standalone server GET customer'];
const inProcessFlow = byName['in-process pay-out flow (quote, execute, settle)'];
const bareVerify = byName['bare node:crypto P-256 verify'];
const stampCheck = byName['engine signed-retry stamp check'];
const httpFlow = byName['standalone server pay-out flow (quote, execute, settle)'];
const checks = [
  ['in-process client GET customer >= 20,000 req/s', clientGet.rps >= 20000, `${Math.round(clientGet.rps)} req/s`],
  ['in-process client GET <= 3x bare engine.fetch', bareFetch.rps / clientGet.rps <= 3, `${(bareFetch.rps / clientGet.rps).toFixed(2)}x`],
  ['standalone GET >= 25% of bare node:http', serverGet.rps / bareHttp.rps >= 0.25, `${((100 * serverGet.rps) / bareHttp.rps).toFixed(1)}%`],
  ['standalone GET p99 < 5 ms', serverGet.p99 < 5, `${serverGet.p99.toFixed(2)} ms`],
  ['in-process pay-out flows >= 500 per second', inProcessFlow.rps >= 500, `${Math.round(inProcessFlow.rps)} flows/s`],
  ['standalone pay-out flows >= 200 per second', httpFlow.rps >= 200, `${Math.round(httpFlow.rps)} flows/s`],
  ['signed-retry stamp check <= 1.5x bare node:crypto verify', bareVerify.rps / stampCheck.rps <= 1.5, `${(bareVerify.rps / stampCheck.rps).toFixed(2)}x`],
];
console.log('\nTargets');
for (const [name, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(48)} ${value}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
