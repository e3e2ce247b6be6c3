// Shared pieces of the benchmark scripts: child servers (pinned to their own core when the machine allows), load
// rounds, medians and the request shapes every section sends.
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

export const CREDENTIALS = { clientId: 'bench-id', clientSecret: 'bench-secret' };
export const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.clientSecret}`).toString('base64')}`;
export const customerBody = { customerType: 'INDIVIDUAL', fullName: 'Bench Mark', birthDate: '1990-01-01', address: { line1: '1 Main St', postalCode: '10001', country: 'US' } };

/**
 * Whether servers and the load generator get a core each. With one core to share, a server's figure depends on how
 * much of the core the load generator took, so ratios to the bare server would mean little.
 */
export const PINNED = (() => {
  if (process.env.BENCH_PIN === '0' || availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Runs `task` with this process (and so every child it starts meanwhile, a database server included) free to use every
 * core, then pins it back: for sections that compare one server with several, which need the whole machine.
 */
export async function onEveryCore(task) {
  if (!PINNED) return task();
  execFileSync('taskset', ['-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], { stdio: 'ignore' });
  try {
    return await task();
  } finally {
    execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  }
}

/** Runs `node args` as a child (on core 1 when pinned, unless `pin` is false) and resolves once it prints "listening on <url>". */
export function startChild(args, { env = {}, nodeFlags = [], pin = true } = {}) {
  const pinned = PINNED && pin;
  const command = pinned ? 'taskset' : process.execPath;
  const argv = pinned ? ['-c', '1', process.execPath, ...nodeFlags, ...args] : [...nodeFlags, ...args];
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], output: () => out, stop: () => child.kill('SIGTERM'), kill: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

/** Runs a script as a child and returns the JSON it prints on its last line. */
export function runJsonChild(args, nodeFlags = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args[0]} exited ${code}: ${out.slice(-2000)}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Median of `runs` timings (ms) of `fn`, after `warm` untimed calls. */
export async function medianMs(fn, runs, warm = Math.min(20, runs)) {
  for (let i = 0; i < warm; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** An engine.handle request without WHATWG objects, for seeding quickly. */
export function plainRequest(method, path, body) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers = { authorization: AUTH, 'content-type': 'application/json' };
  return {
    method,
    url: `http://bench.test/2025-10-13${path}`,
    header: (name) => headers[name] ?? null,
    text: async () => text,
    bytes: async () => new TextEncoder().encode(text),
    toRequest: () => new Request(`http://bench.test/2025-10-13${path}`, { method, headers, ...(body === undefined ? {} : { body: text }) }),
  };
}

/** Calls an engine's `handle` and returns the parsed JSON, throwing on an error status. */
export async function callEngine(engine, method, path, body) {
  const reply = await engine.handle(plainRequest(method, path, body));
  if (reply.status >= 400) throw new Error(`${method} ${path} → ${reply.status} ${reply.body}`);
  return reply.body ? JSON.parse(reply.body) : undefined;
}

/** Creates `count` customers in `engine`, spread over `regions` (round robin); returns the first one's id. */
export async function seedCustomers(engine, count, regions = ['US'], from = 0) {
  let first;
  for (let i = from; i < from + count; i++) {
    const customer = await callEngine(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Scale Person', region: regions[i % regions.length] });
    first ??= customer.id;
  }
  return first;
}

/** A US bank account of `customerId`: where the pay-outs of the benchmarks go. */
export const bankAccountBody = (customerId, fullName) => ({
  customerId, currency: 'USD',
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName } },
});

/** A quote paying 100 cents from one account to another. */
export const payOutQuoteBody = (fromAccountId, toAccountId, extra = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: fromAccountId }, destination: { destinationType: 'ACCOUNT', accountId: toAccountId },
  lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100, ...extra,
});

/** A customer in `engine` with its USD account (funded with `funds` cents when given) and a bank account to pay. */
export async function payerIn(engine, fullName, funds) {
  const customer = await callEngine(engine, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName });
  const [usd] = (await callEngine(engine, 'GET', `/customers/internal-accounts?customerId=${customer.id}`)).data;
  if (funds !== undefined) await callEngine(engine, 'POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: funds });
  const bank = await callEngine(engine, 'POST', '/customers/external-accounts', bankAccountBody(customer.id, fullName));
  return { usd, bank };
}

/** The heap after two full collections (needs --expose-gc). */
export function settledHeap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}
