// Lists and memory as a platform grows (run by run.mjs in a child process: node --expose-gc --max-old-space-size=…).
// Seeds customers and transactions through engine.handle, and at 1k, 100k and 1M of each measures the first page, a
// deep page (from the cursor of the record halfway down the list) and a filtered page, then the heap per record; and
// the same lists on a 1k platform and the largest one in turns, and the slowest create and funding while growing (GC
// pauses left out). Prints one JSON line: { scale, rows, paired, memory, slowest }.
import { PerformanceObserver } from 'node:perf_hooks';
import { createEngine } from '@railyard/engine';
import { CREDENTIALS, callEngine, medianMs, payOutQuoteBody, payerIn, settledHeap } from './lib.mjs';

const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const CHECKPOINTS = [1_000, 100_000, 1_000_000].filter((n) => n <= SCALE);
if (!CHECKPOINTS.includes(SCALE)) CHECKPOINTS.push(SCALE);
const CALLS = Number(process.env.BENCH_LIST_CALLS ?? 300);
const REGIONS = ['US', 'MX', 'BR', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PT'];

const engine = createEngine({ platform: CREDENTIALS });
const call = (method, path, body) => callEngine(engine, method, path, body);

/**
 * A platform of 1,000 customers and 1,000 fundings, seeded as the growing one is, kept beside it: once the growing one
 * holds the largest N, the two are measured in turns, so the comparison of N with 1k sees the same machine. The
 * checkpoints are minutes apart, and this machine's speed moves by tens of percent from one minute to the next.
 */
const PAIRED = 1_000;
const small = createEngine({ platform: CREDENTIALS });
for (let i = 0; i < PAIRED; i++) {
  await callEngine(small, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Scale Person', region: REGIONS[i % REGIONS.length] });
}
const smallPayees = (await callEngine(small, 'GET', '/customers/internal-accounts?limit=40')).data;
for (let i = 0; i < PAIRED; i++) await callEngine(small, 'POST', `/sandbox/internal-accounts/${smallPayees[i % smallPayees.length].id}/fund`, { amount: 1 });

/** The six lists measured at each checkpoint: path by platform, its size and a customer whose fundings it filters on. */
const LISTS = [
  ['customers', 'first page', () => '/customers?limit=20'],
  ['customers', 'deep page (cursor halfway)', (n) => `/customers?limit=20&cursor=${cursorAt(Math.floor(n / 2))}`],
  ['customers', 'filtered (region=MX)', () => '/customers?limit=20&region=MX'],
  ['transactions', 'first page', () => '/transactions?limit=20'],
  ['transactions', 'deep page (cursor halfway)', (n) => `/transactions?limit=20&cursor=${cursorAt(Math.floor(n / 2))}`],
  ['transactions', 'filtered (customerId)', (_n, customerId) => `/transactions?limit=20&customerId=${customerId}`],
];
const listsOf = (list) => LISTS.filter(([name]) => name === list);

/** The cursor the API gives for the record with sequence number `seq` (bench only: the cursor's inner form). */
const cursorAt = (seq) => btoa(`c1:${seq}`).replace(/=+$/, '');

/** Median milliseconds of sequential calls of `fn`, from a collected heap (so earlier garbage costs nothing). */
async function median(fn) {
  for (let i = 0; i < 20; i++) await fn();
  settledHeap();
  return medianMs(fn, CALLS, 0);
}

const rows = [];
const memory = {};

/**
 * The slowest single call while a platform grows, garbage collection left out: the time the engine's own data
 * structures can stall one request (a JavaScript Map rehashes all its entries at once when it doubles). Calls that
 * took over 5 ms are kept with their start, and the collector's pauses within each are subtracted once V8 has
 * reported them (incremental marking steps are not reported, so the figures are upper bounds). With the count of
 * calls over 10 ms, so that one pause of the machine is told from a stall that repeats.
 */
function stallTracker() {
  const pauses = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const slow = [];
  return {
    async time(fn) {
      const start = performance.now();
      await fn();
      const took = performance.now() - start;
      if (took > 5) slow.push({ start, took });
    },
    /** The slowest call and how many took over 10 ms, each without the collector's pauses within it. */
    async slowest() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      const inGc = ({ start, took }) => pauses
        .filter((pause) => pause.startTime < start + took && pause.startTime + pause.duration > start)
        .reduce((sum, pause) => sum + Math.min(pause.startTime + pause.duration, start + took) - Math.max(pause.startTime, start), 0);
      const outsideGc = slow.map((call) => call.took - inGc(call));
      return { ms: Math.max(0, ...outsideGc), over10ms: outsideGc.filter((ms) => ms > 10).length };
    },
  };
}

// Customers: 10 regions, so `region=MX` matches a tenth.
let customers = 0;
const heapBeforeCustomers = settledHeap();
const customerStalls = stallTracker();
for (const target of CHECKPOINTS) {
  for (; customers < target; customers++) {
    await customerStalls.time(() => call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Scale Person', region: REGIONS[customers % REGIONS.length] }));
  }
  if (target === SCALE) memory.customer = (settledHeap() - heapBeforeCustomers) / SCALE;
  // A collection numbers its records 1, 2, 3, … in insertion order: the customer created n-th is record n.
  for (const [list, query, path] of listsOf('customers')) rows.push({ list, query, n: target, ms: await median(() => call('GET', path(target))) });
}
const slowest = { customer: await customerStalls.slowest() };

// Transactions: sandbox fundings of 40 customers' accounts, so `customerId=` matches a fortieth (a full page at 1k).
const payees = (await call('GET', '/customers/internal-accounts?limit=40')).data;
let fundings = 0;
const heapBeforeTransactions = settledHeap();
const fundingStalls = stallTracker();
for (const target of CHECKPOINTS) {
  for (; fundings < target; fundings++) {
    await fundingStalls.time(() => call('POST', `/sandbox/internal-accounts/${payees[fundings % payees.length].id}/fund`, { amount: 1 }));
  }
  if (target === SCALE) memory.transaction = (settledHeap() - heapBeforeTransactions) / SCALE;
  for (const [list, query, path] of listsOf('transactions')) {
    rows.push({ list, query, n: target, ms: await median(() => call('GET', path(target, payees[7].customerId))) });
  }
}
slowest.funding = await fundingStalls.slowest();

// The largest N and 1k in turns: five rounds, each list on the small platform then on the large one, and the median of
// each side's five medians.
const paired = [];
{
  settledHeap();
  const sides = [[small, PAIRED, smallPayees[7].customerId], [engine, SCALE, payees[7].customerId]];
  for (const [list, query, path] of LISTS) {
    const times = [[], []];
    for (let round = 0; round < 5; round++) {
      for (const [side, [platform, n, customerId]] of sides.entries()) {
        times[side].push(await medianMs(() => callEngine(platform, 'GET', path(n, customerId)), CALLS));
      }
    }
    const middle = (values) => values.sort((a, b) => a - b)[2];
    paired.push({ list, query, n: SCALE, small: middle(times[0]), large: middle(times[1]) });
  }
}
engine.close();
small.close();

// Pay-outs: a quote, its transaction, two ledger entries and four events each.
{
  const payouts = Math.min(SCALE, 100_000);
  const payer = createEngine({ platform: { ...CREDENTIALS, regulated: true } });
  const { usd, bank } = await payerIn(payer, 'Pay Out', 100_000_000_000);
  const before = settledHeap();
  for (let i = 0; i < payouts; i++) await callEngine(payer, 'POST', '/quotes', payOutQuoteBody(usd.id, bank.id, { immediatelyExecute: true }));
  memory.payout = (settledHeap() - before) / payouts;
  memory.payouts = payouts;
  payer.close();
}

console.log(JSON.stringify({ scale: SCALE, rows, paired, memory, slowest }));
