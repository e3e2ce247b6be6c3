// Lists and memory as a platform grows (run by run.mjs in a child process: node --expose-gc --max-old-space-size=…).
// Seeds customers and transactions through engine.handle, and at 1k, 100k and 1M of each measures the first page, a
// deep page (from the cursor of the record halfway down the list) and a filtered page, then the heap per record.
// Prints one JSON line: { scale, rows, memory }.
import { createEngine } from '@railyard/engine';
import { CREDENTIALS, callEngine, medianMs, payOutQuoteBody, payerIn, settledHeap } from './lib.mjs';

const SCALE = Number(process.env.BENCH_SCALE ?? 1_000_000);
const CHECKPOINTS = [1_000, 100_000, 1_000_000].filter((n) => n <= SCALE);
if (!CHECKPOINTS.includes(SCALE)) CHECKPOINTS.push(SCALE);
const CALLS = Number(process.env.BENCH_LIST_CALLS ?? 300);
const REGIONS = ['US', 'MX', 'BR', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'PT'];

const engine = createEngine({ platform: CREDENTIALS });
const call = (method, path, body) => callEngine(engine, method, path, body);

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

// Customers: 10 regions, so `region=MX` matches a tenth.
let customers = 0;
const heapBeforeCustomers = settledHeap();
for (const target of CHECKPOINTS) {
  for (; customers < target; customers++) {
    await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Scale Person', region: REGIONS[customers % REGIONS.length] });
  }
  if (target === SCALE) memory.customer = (settledHeap() - heapBeforeCustomers) / SCALE;
  // A collection numbers its records 1, 2, 3, … in insertion order: the customer created n-th is record n.
  const middle = cursorAt(Math.floor(target / 2));
  rows.push({ list: 'customers', query: 'first page', n: target, ms: await median(() => call('GET', '/customers?limit=20')) });
  rows.push({ list: 'customers', query: 'deep page (cursor halfway)', n: target, ms: await median(() => call('GET', `/customers?limit=20&cursor=${middle}`)) });
  rows.push({ list: 'customers', query: 'filtered (region=MX)', n: target, ms: await median(() => call('GET', '/customers?limit=20&region=MX')) });
}

// Transactions: sandbox fundings of 40 customers' accounts, so `customerId=` matches a fortieth (a full page at 1k).
const payees = (await call('GET', '/customers/internal-accounts?limit=40')).data;
let fundings = 0;
const heapBeforeTransactions = settledHeap();
for (const target of CHECKPOINTS) {
  for (; fundings < target; fundings++) await call('POST', `/sandbox/internal-accounts/${payees[fundings % payees.length].id}/fund`, { amount: 1 });
  if (target === SCALE) memory.transaction = (settledHeap() - heapBeforeTransactions) / SCALE;
  const middle = cursorAt(Math.floor(target / 2));
  const customerId = payees[7].customerId;
  rows.push({ list: 'transactions', query: 'first page', n: target, ms: await median(() => call('GET', '/transactions?limit=20')) });
  rows.push({ list: 'transactions', query: 'deep page (cursor halfway)', n: target, ms: await median(() => call('GET', `/transactions?limit=20&cursor=${middle}`)) });
  rows.push({ list: 'transactions', query: 'filtered (customerId)', n: target, ms: await median(() => call('GET', `/transactions?limit=20&customerId=${customerId}`)) });
}
engine.close();

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

console.log(JSON.stringify({ scale: SCALE, rows, memory }));
