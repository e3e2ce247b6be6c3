import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RailyardClient } from '@railyard/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populate } from '../support/populate.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { startBuiltServer, ROOT_CREDENTIALS, type BuiltServer } from '../support/transports.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { freshDatabase } from '../support/postgres.mjs';

// `railyard serve --data DIR` (and `--database URL`) killed with SIGKILL in the middle of a mixed write load (customers,
// payouts, card authorizations, token creation), then started again on the same store: every write whose answer arrived is there, nothing is
// half-applied (the ledger balances, account balances are their postings), every token and agent authenticates, every
// pending job still fires, and every webhook event is delivered at least once with its id.

const ROOT_ENV = { RAILYARD_CLIENT_ID: ROOT_CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: ROOT_CREDENTIALS.clientSecret };
type Credentials = { clientId: string; clientSecret: string };

interface Acknowledged {
  customers: string[];
  tokens: Credentials[];
  payments: { quoteId: string; transactionId: string }[];
  authorizations: string[];
  pendingQuotes: string[];
}

interface Ledger { postings: { account: string; amount: number; currency?: string }[] }

/** Each ledger entry's postings add up to zero, and each internal account's balance is what its postings add up to. */
function ledgerErrors(collections: Record<string, unknown[]>): string[] {
  const errors: string[] = [];
  const totals = new Map<string, number>();
  for (const entry of (collections.ledger ?? []) as (Ledger & { id: string; currency: string })[]) {
    const sum = entry.postings.reduce((total, posting) => total + posting.amount, 0);
    if (sum !== 0) errors.push(`ledger entry ${entry.id} adds up to ${sum}`);
    for (const posting of entry.postings) totals.set(`${posting.account} ${entry.currency}`, (totals.get(`${posting.account} ${entry.currency}`) ?? 0) + posting.amount);
  }
  for (const account of (collections.internalAccounts ?? []) as { id: string; balance: { amount: number; currency: { code: string } } }[]) {
    const posted = totals.get(`${account.id} ${account.balance.currency.code}`) ?? 0;
    if (posted !== account.balance.amount) errors.push(`${account.id} holds ${account.balance.amount}, its postings add up to ${posted}`);
  }
  return errors;
}

/** Where a server keeps its state: a data directory, or a PostgreSQL database (each made for the test, then removed). */
interface StateStore {
  readonly flag: string;
  prepare(): Promise<{ args: string[]; remove(): void }>;
}
const STORES: StateStore[] = [
  {
    flag: '--data',
    async prepare() {
      const dir = mkdtempSync(join(tmpdir(), 'railyard-crash-'));
      return { args: ['--data', dir], remove: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    flag: '--database',
    async prepare() {
      const database = await freshDatabase();
      return { args: ['--database', database.url], remove: () => void database.destroy() };
    },
  },
];

describe.each(STORES)('a $flag server killed with SIGKILL under a mixed write load', (store) => {
  let state: Awaited<ReturnType<StateStore['prepare']>>;
  let server: BuiltServer;
  let receiver: Receiver;
  const start = () => startBuiltServer(['--clock', 'virtual', ...state.args], ROOT_ENV);
  beforeAll(async () => {
    state = await store.prepare();
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    state?.remove();
  });

  it('gives back every answered write, whole, after a restart: tokens, agents, jobs and webhooks included', async () => {
    const transport = { raw: (path: string, init: RequestInit) => fetch(`${server.baseUrl}${path}`, init) };
    const clientOf = (credentials: Credentials): RailyardClient => createClient({ baseUrl: server.baseUrl, ...credentials, maxRetries: 0 });
    const root = clientOf(ROOT_CREDENTIALS);

    // A platform with one of everything (cards, wallets, agents, SCA, stablecoins...), left as it is during the load.
    const rich = await root.sandbox.platforms.create({ name: 'one of everything' });
    const richCall = rawCaller(transport, rich);
    const { agentToken } = await populate(clientOf(rich), richCall);
    const richBefore = (await richCall('GET', '/_sandbox/snapshot')).json;

    // The platform under load: a funded customer, a bank account, a card, and a webhook receiver.
    const busy = await root.sandbox.platforms.create({ name: 'busy', regulated: true });
    const client = clientOf(busy);
    const call: RawCall = rawCaller(transport, busy);
    receiver = await startReceiver(client, (await client.sandbox.webhookKey()).publicKeyPem);
    await client.config.update({ webhookEndpoint: receiver.url });
    const payer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Pat Payer', currencies: ['USD'] });
    const usd = (await client.internalAccounts.list({ customerId: payer.id, currency: 'USD' })).data[0]!;
    await client.sandbox.fundInternalAccount(usd.id, 100_000_000);
    const bank = await client.externalAccounts.create({
      customerId: payer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pat Payer' } },
    });
    const card = await client.cards.create({ cardholderId: payer.id, form: 'VIRTUAL', fundingSources: [usd.id] });

    const acknowledged: Acknowledged = { customers: [], tokens: [], payments: [], authorizations: [], pendingQuotes: [] };
    let killed = false;
    const answered = (answer: RawAnswer | undefined) => !killed && answer !== undefined && answer.status < 300 ? answer.json : undefined;
    const attempt = (method: string, path: string, body?: unknown) => call(method, path, body === undefined ? {} : { body }).catch(() => undefined);
    const quoteBody = { source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 };
    const operations = [
      async (i: number) => {
        const made = answered(await attempt('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Load ${i}` }));
        if (made) acknowledged.customers.push(made.id);
      },
      async (i: number) => {
        const made = answered(await attempt('POST', '/tokens', { name: `load-${i}`, permissions: ['VIEW'] }));
        if (made) acknowledged.tokens.push({ clientId: made.clientId, clientSecret: made.clientSecret });
      },
      async () => {
        const quote = answered(await attempt('POST', '/quotes', quoteBody));
        if (!quote) return;
        const executed = answered(await attempt('POST', `/quotes/${quote.id}/execute`));
        if (executed) acknowledged.payments.push({ quoteId: quote.id, transactionId: executed.transactionId });
      },
      async () => {
        const made = await client.sandbox.cards.authorize(card.id, { amount: 250, currency: { code: 'USD' }, merchant: { descriptor: 'LOAD CAFE' } }).catch(() => undefined);
        if (made?.transaction && !killed) acknowledged.authorizations.push(made.transaction.id);
      },
      async () => {
        const quote = answered(await attempt('POST', '/quotes', quoteBody));
        if (quote) acknowledged.pendingQuotes.push(quote.id);
      },
    ];
    const workers = Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; !killed; i += 8) await operations[i % operations.length]!(i);
    });
    // Let the load run (a second at least, until each kind of write has some answered), then kill the server where it
    // stands; answers that arrive after the kill do not count.
    const started = Date.now();
    const enough = () => acknowledged.customers.length > 10 && acknowledged.payments.length > 2 && acknowledged.authorizations.length > 2;
    while (Date.now() - started < 1_000 || (!enough() && Date.now() - started < 15_000)) await new Promise((resolve) => setTimeout(resolve, 100));
    const exited = once(server.child, 'exit');
    server.child.kill('SIGKILL');
    await exited;
    killed = true;
    await Promise.all(workers);
    expect(acknowledged.customers.length).toBeGreaterThan(10);
    expect(acknowledged.payments.length).toBeGreaterThan(2);
    expect(acknowledged.authorizations.length).toBeGreaterThan(2);

    server = await start();
    // Every answered write is there.
    for (const id of acknowledged.customers) expect((await call('GET', `/customers/${id}`)).status, id).toBe(200);
    for (const token of acknowledged.tokens) expect((await rawCaller(transport, token)('GET', '/customers?limit=1')).status).toBe(200);
    const transactions = new Map<string, { status: string }>();
    for (const { transactionId } of acknowledged.payments) transactions.set(transactionId, (await call('GET', `/transactions/${transactionId}`)).json);
    expect([...transactions.values()].map((t) => t.status)).toEqual(acknowledged.payments.map(() => 'COMPLETED'));
    const snapshot = (await call('GET', '/_sandbox/snapshot')).json;
    for (const id of acknowledged.authorizations) expect((await call('GET', `/transactions/${id}`)).json.status, id).toBe('AUTHORIZED');
    // Nothing half-applied: the books balance, and a payment's transaction and debit came together.
    expect(ledgerErrors(snapshot.collections)).toEqual([]);
    // The other platform, agents and all, is exactly as it was.
    const richAfter = (await richCall('GET', '/_sandbox/snapshot')).json;
    expect({ ...richAfter, takenAt: undefined }).toEqual({ ...richBefore, takenAt: undefined });
    expect((await transport.raw('/agents/me', { headers: { authorization: `Bearer ${agentToken}` } })).status).toBe(200);

    // Pending jobs still fire: the quotes left unexecuted expire when their time comes.
    await clientOf(busy).sandbox.clock.advance(60 * 60_000);
    for (const id of acknowledged.pendingQuotes) expect((await call('GET', `/quotes/${id}`)).json.status, id).toBe('EXPIRED');

    // Every event is delivered at least once, with its id, signed with the key the platform had before the crash.
    const events = ((await call('GET', '/_sandbox/snapshot')).json.collections.events ?? []) as { id: string; delivery?: { status: string } }[];
    for (let waited = 0; events.length > 0 && waited < 100; waited++) {
      const delivered = new Set(receiver.events().map((e) => e.id));
      if (events.every((e) => delivered.has(e.id))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivered = new Set(receiver.events().map((e) => e.id));
    expect(events.filter((e) => !delivered.has(e.id)).map((e) => e.id)).toEqual([]);
  }, 60_000);
});
