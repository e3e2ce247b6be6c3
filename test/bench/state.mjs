// Sandbox state: snapshot and restore, the virtual clock with many waiting jobs, engine start-up.
// Run by run.mjs in a child process (node --expose-gc); prints one JSON line.
import { fileURLToPath } from 'node:url';
import { createClient } from '@railyard/client';
import { createEngine, Scheduler, VirtualClock } from '@railyard/engine';
import { AUTH, CREDENTIALS, callEngine, median, medianMs, payOutQuoteBody, payerIn, seedCustomers, startChild } from './lib.mjs';

const DAY = 86_400_000;
const CLI = fileURLToPath(new URL('../../packages/engine/dist/cli.cjs', import.meta.url));
const results = {};
const recordsOf = (snapshot) => Object.values(snapshot.collections).reduce((n, records) => n + records.length, 0);

/** Seeds customers until the platform's snapshot holds at least `records` records (a customer brings its account and events). */
async function engineWithRecords(records) {
  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  let customers = 0;
  const perCustomer = 3;
  while (recordsOf(engine.sandbox().snapshot()) < records) {
    const batch = Math.max(1, Math.ceil((records - recordsOf(engine.sandbox().snapshot())) / perCustomer));
    await seedCustomers(engine, batch, ['US'], customers);
    customers += batch;
  }
  return engine;
}

// createEngine() first, while this process holds no other engine, once warm. (A cold `railyard serve` is timed by
// cold-start.mjs, in a process of its own.)
{
  const creates = [];
  for (let round = 0; round < 10; round++) {
    const n = 2000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) createEngine().close();
    creates.push(((performance.now() - t0) * 1000) / n);
  }
  // The first rounds run before the JIT has compiled createEngine: the figure is the median of the last five.
  results.createEngineMicros = median(creates.slice(5));
}

// In process: the engine's own snapshot shares its (frozen) records; restoring it needs no re-check.
{
  const engine = await engineWithRecords(10_000);
  const sandbox = engine.sandbox();
  // Each timed operation here starts with the garbage of its set-up collected (as the clock and bulk figures below
  // do): a collection the seeding left due would otherwise land in whichever first call came next.
  globalThis.gc?.();
  let t0 = performance.now();
  const first = sandbox.snapshot();
  results.snapshotFirst = performance.now() - t0;
  results.snapshotRecords = recordsOf(first);
  results.snapshot = await medianMs(() => sandbox.snapshot(), 21, 1);
  globalThis.gc?.();
  t0 = performance.now();
  sandbox.restore(first);
  results.restoreFirst = performance.now() - t0;
  results.restore = await medianMs(() => sandbox.restore(first), 11, 1);
  // An edited copy (what a test that tweaks a snapshot hands back) is checked in full.
  const edited = structuredClone(first);
  results.restoreEdited = await medianMs(() => sandbox.restore(edited), 5, 1);
  engine.close();
}

// Over HTTP: a snapshot of 100k records taken in process, restored into a standalone server, then read back.
{
  const engine = await engineWithRecords(100_000);
  const snapshot = engine.sandbox().snapshot();
  const customers = snapshot.collections.customers.length;
  engine.close();
  const server = await startChild([CLI, 'serve', '--port', '0', '--regulated'], {
    env: { RAILYARD_CLIENT_ID: CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: CREDENTIALS.clientSecret },
  });
  try {
    const client = createClient({ baseUrl: server.url, ...CREDENTIALS, maxRetries: 0, timeout: 120_000 });
    const body = JSON.stringify(snapshot);
    const t0 = performance.now();
    await client.sandbox.restore(JSON.parse(body));
    results.httpRestore = performance.now() - t0;
    results.httpRestoreRecords = recordsOf(snapshot);
    results.httpRestoreMiB = Buffer.byteLength(body) / 2 ** 20;
    const page = await client.customers.list({ limit: 1 });
    results.httpRestoreWorks = page.totalCount === customers;
  } finally {
    server.stop();
  }
}

// The virtual clock: 100k jobs due at random times over 30 days, then one advance of 30 days.
{
  const runs = [];
  for (let round = 0; round < 3; round++) {
    const scheduler = new Scheduler(new VirtualClock(0));
    let ran = 0;
    scheduler.register('tick', () => void ran++);
    let seed = round + 1;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 100_000; i++) scheduler.schedule('bench', Math.floor(random() * 30 * DAY), 'tick', { i });
    globalThis.gc?.();
    const t0 = performance.now();
    scheduler.advance(30 * DAY);
    runs.push(performance.now() - t0);
    if (ran !== 100_000) throw new Error(`ran ${ran} of 100000 jobs`);
  }
  results.advanceScheduler = median(runs);
}

// The same through the engine: 100k quotes, each expiring on the clock (the expiry updates the transaction and emits
// its event), so this figure includes the work the jobs do.
{
  const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  const { usd, bank } = await payerIn(engine, 'Quote Maker');
  const quotes = Number(process.env.BENCH_QUOTES ?? 100_000);
  for (let i = 0; i < quotes; i++) {
    await callEngine(engine, 'POST', '/quotes', payOutQuoteBody(usd.id, bank.id));
    if (i % 1000 === 999) engine.sandbox().advance(1000); // due times spread over 100 s
  }
  globalThis.gc?.();
  const t0 = performance.now();
  engine.sandbox().advance(30 * DAY);
  results.advanceQuoteExpiries = performance.now() - t0;
  results.quotes = quotes;
  engine.close();
}

// A bulk customer import of 10,000 CSV rows, wall time from the upload to the job COMPLETED (the clock advanced past
// its steps): parsing, the checks of POST /customers and the creation of every customer with its accounts and events.
{
  const rows = Number(process.env.BENCH_BULK_ROWS ?? 10_000);
  const header = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email';
  const lines = Array.from({ length: rows }, (_, i) => `$bulk${i}@example.com,bulk-${i},INDIVIDUAL,Bulk Person ${i},1990-01-01,${i} Main St,Springfield,IL,62701,US,bulk${i}@example.com`);
  const csv = [header, ...lines].join('\r\n');
  const runs = [];
  for (let round = 0; round < 3; round++) {
    const engine = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
    globalThis.gc?.();
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
    const accepted = await (await engine.fetch(new Request('http://bench/2025-10-13/customers/bulk/csv', { method: 'POST', headers: { authorization: AUTH }, body: form }))).json();
    engine.sandbox().advance(60_000);
    const job = await callEngine(engine, 'GET', `/customers/bulk/jobs/${accepted.jobId}`);
    runs.push(performance.now() - t0);
    if (job.status !== 'COMPLETED' || job.progress.successful !== rows) throw new Error(`bulk import ended ${job.status} with ${JSON.stringify(job.progress)}`);
    engine.close();
  }
  results.bulkImportRows = rows;
  results.bulkImportMs = median(runs);
}

console.log(JSON.stringify(results));
