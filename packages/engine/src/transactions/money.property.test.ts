import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { signedRetryHeaders, type SessionKey } from '@railyard/wallet';
import { recordFigures, scaled } from '../../../../test/support/figures.js';
import { walletSession } from '../../../../test/support/wallet-signing.js';

// The ledger under random money movement (DESIGN §5): whatever sequence of funding, quotes, executions, failures,
// refunds, returns, cancellations, transfers in and out, real-time fundings (exact or wrong amounts), UMA payments out
// (settling, held for review, failing) and in (taken, approved, rejected, timed out), card authorizations, credits,
// clearings (expiring, partial, above the authorization), returns, reversals and advices with delayed, failing and
// declined funding, card freezes, stablecoin mints (every funding source) and burns (every token source and rail,
// funded or not, with wrong amounts), and clock moves runs (with platform fees on), no internal account goes negative,
// each balance equals its postings, the money in flight is exactly what the payments under way hold, a stablecoin's
// reserve is exactly its tokens outstanding plus the fiat its operations hold, and the service's fee account never goes
// below zero. (Every entry balancing is enforced by the ledger itself; checked here too.) Thirty
// days after the last step nothing is left under way: every payment has settled, failed or expired, and no money is
// in flight.

/** Destinations by the outcome their account number triggers (SPEC §4.6). */
const USD_SUFFIXES = ['001', '002', '003', '004', '005'];
const GBP_SUFFIXES = ['001', '002', '003', '004', '005', '006', '007'];

/** Sandbox UMA receivers by outcome (SPEC §4.6): settles, held a day for compliance review, fails and is refunded. */
const UMA_RECEIVERS = ['$success.usd', '$pending.long.usd', '$fail.compliance.usd'].map((name) => `${name}@uma.sandbox.railyard.dev`);
/** Senders of incoming UMA payments: an ordinary one, and one whose refunds fail. */
const UMA_SENDERS = ['$alice@wallet.example', '$fail.compliance.usd@uma.sandbox.railyard.dev'];

/** Card network events that start a card transaction, and the merchants whose suffixes delay, fail or decline funding. */
const CARD_AUTHORIZATIONS = ['authorization', 'financial_authorization', 'credit_authorization', 'financial_credit_authorization'] as const;
const CARD_DESCRIPTORS = ['SHOP', 'SLOW 005', 'FLAKY 006', 'BROKE 002'] as const;
/**
 * Events on the latest card transaction, in this order, any subset of them: `share` scales its authorized amount for
 * each (0 expires it, above 1 pulls more).
 */
const CARD_FOLLOW_UPS = ['authorization_advice', 'clearing', 'return', 'return_reversal'] as const;

/** Where a mint's fiat and a burn's tokens come from, and the rails a burn pays out over. */
const MINT_SOURCES = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'SERVICE_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
const BURN_SOURCES = ['EXTERNAL_ACCOUNT', 'SERVICE_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
const REDEMPTION_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
/** Token units per cent at the sandbox's 6 decimals. */
const UNITS_PER_CENT = 10_000n;

const step = fc.oneof(
  fc.record({ kind: fc.constant('fund' as const), who: fc.nat(2), amount: fc.integer({ min: 1, max: 200_000 }) }),
  fc.record({ kind: fc.constant('pay' as const), who: fc.nat(2), to: fc.nat(2), amount: fc.integer({ min: 1, max: 150_000 }), execute: fc.boolean() }),
  fc.record({ kind: fc.constant('payout' as const), who: fc.nat(2), suffix: fc.constantFrom(...USD_SUFFIXES), amount: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({ kind: fc.constant('fx' as const), who: fc.nat(2), suffix: fc.constantFrom(...GBP_SUFFIXES), amount: fc.integer({ min: 100, max: 150_000 }) }),
  fc.record({ kind: fc.constant('executeLast' as const) }),
  fc.record({ kind: fc.constant('cancelLast' as const) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 30_000, 60_000, 6 * 60_000, 3_600_000) }),
  fc.record({ kind: fc.constant('transferIn' as const), who: fc.nat(2), suffix: fc.constantFrom(...USD_SUFFIXES), amount: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({ kind: fc.constant('transferOut' as const), who: fc.nat(2), suffix: fc.constantFrom(...USD_SUFFIXES), amount: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({ kind: fc.constant('realtime' as const), who: fc.nat(2), to: fc.nat(2), amount: fc.integer({ min: 1, max: 150_000 }), exact: fc.boolean() }),
  fc.record({ kind: fc.constant('umaPay' as const), who: fc.nat(2), receiver: fc.constantFrom(...UMA_RECEIVERS), amount: fc.integer({ min: 1, max: 150_000 }) }),
  fc.record({ kind: fc.constant('umaReceive' as const), to: fc.nat(2), sender: fc.constantFrom(...UMA_SENDERS), amount: fc.integer({ min: 1, max: 150_000 }), decide: fc.constantFrom('approve', 'reject', 'wait') }),
  fc.record({
    kind: fc.constant('cardEvent' as const), who: fc.nat(2), event: fc.constantFrom(...CARD_AUTHORIZATIONS), amount: fc.integer({ min: 1, max: 30_000 }),
    descriptor: fc.constantFrom(...CARD_DESCRIPTORS),
  }),
  fc.record({ kind: fc.constant('cardFollowUp' as const), events: fc.subarray([...CARD_FOLLOW_UPS], { minLength: 1 }), share: fc.constantFrom(0, 0.3, 1, 1.4) }),
  fc.record({ kind: fc.constant('cardState' as const), who: fc.nat(2), state: fc.constantFrom('FROZEN', 'ACTIVE') }),
  // Weighted up: a burn from held tokens needs a mint that completed before it.
  { weight: 2, arbitrary: fc.record({
    kind: fc.constant('mint' as const), who: fc.nat(2), source: fc.constantFrom(...MINT_SOURCES), suffix: fc.constantFrom(...USD_SUFFIXES),
    toWallet: fc.boolean(), amount: fc.integer({ min: 1, max: 100_000 }), thenAdvance: fc.constantFrom(0, 2 * 60_000, 25 * 3_600_000),
  }) },
  { weight: 3, arbitrary: fc.record({
    kind: fc.constant('burn' as const), who: fc.nat(2), source: fc.constantFrom(...BURN_SOURCES), rail: fc.constantFrom(...REDEMPTION_RAILS),
    suffix: fc.constantFrom(...USD_SUFFIXES), amount: fc.integer({ min: 1, max: 100_000 }), share: fc.constantFrom(0.3, 1, 1.5),
  }) },
  fc.record({ kind: fc.constant('fundStablecoinOperation' as const), exact: fc.boolean() }),
);

/** Where a payment may rest: done one way or the other (a card transaction: SETTLED, or EXCEPTION). */
const SETTLED = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED', 'SETTLED', 'EXCEPTION']);

describe('money under random operations', () => {
  it('keeps every currency at zero and no balance below zero, and leaves nothing pending after 30 days', async ({ task }) => {
    const totals = { runs: 0, steps: 0, transactions: 0, 'pending after 30 days': 0, 'negative balances': 0 };
    /** Steps that moved money (a 2xx), by kind: the figures show every kind of movement took place, not only refusals. */
    const accepted = new Map<string, number>();
    const count = (kind: string, status: number) => {
      if (status < 300) accepted.set(kind, (accepted.get(kind) ?? 0) + 1);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40, size: 'medium' }), async (steps) => {
        // The platform's receiver neither approves nor rejects incoming UMA payments: the API does, or the timeout.
        const engine = createEngine({ platform: { regulated: true }, webhooks: { fetch: async () => new Response(null, { status: 202 }) } });
        const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
        await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/webhooks' });
        // Platform fees on cross-currency payments, so fees, returns and refunds all move money too.
        await call('PATCH', '/config', { feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 150, fixedFee: { amount: 30, currency: 'USD' } }] });
        // A stablecoin, provisioned and enabled, to mint and burn.
        const keyed = (path: string, body: unknown, headers: Record<string, string> = {}) => callApi(engine, 'POST', path, body, { 'idempotency-key': `k-${++keys}`, ...headers });
        /** A session of each wallet, signed in again once the clock has moved past its 15 minutes. */
        const sessions = new Map<string, { key: SessionKey; at: number }>();
        const sessionOf = async (wallet: string) => {
          const kept = sessions.get(wallet);
          if (kept && engine.clock.now() - kept.at < 10 * 60_000) return kept.key;
          const key = await walletSession(engine, wallet);
          sessions.set(wallet, { key, at: engine.clock.now() });
          return key;
        };
        let keys = 0;
        await keyed('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'property', apiClientSecret: 'secret' });
        const coin = (await keyed('/stablecoins', { providerTokenIdentifier: 'usdp', networkTokenIdentifier: 'btkn1usdp', network: 'SPARK' })).body.id as string;
        engine.sandbox().advance(6 * 60_000);
        await call('PUT', `/_sandbox/stablecoins/${coin}/operations-status`, { serviceOperationsStatus: 'ENABLED' });
        /** Wire mints and burns from outside wallets, newest last: what the sandbox may deliver funds to. */
        const awaitingFunds: { id: string; amount: string }[] = [];
        /** Tokens a holder has now (the burn steps ask for a share of them, so burns from held tokens happen). */
        const tokensOf = (holder: string) => ((engine.sandbox().snapshot().collections.stablecoinPositions ?? []) as Json[]).find((p) => p.holder === holder)?.cents ?? 0;
        const people: { id: string; usd: string; mxn: string; wallet: string; spark: string; bank: Record<string, string>; fx: Record<string, string>; card: string }[] = [];
        for (let i = 0; i < 3; i++) {
          const created = (await call('POST', '/customers', {
            customerType: 'INDIVIDUAL', fullName: `Prop Erty${i}x`, birthDate: '1990-01-01', nationality: 'US', email: `prop${i}@example.com`, currencies: ['USD', 'MXN', 'USDB'],
          })).body;
          const accounts = (await call('GET', `/customers/internal-accounts?customerId=${created.id}`)).body.data as Json[];
          const account = async (currency: string, accountInfo: Record<string, unknown>) =>
            (await call('POST', '/customers/external-accounts', { customerId: created.id, currency, accountInfo })).body.id as string;
          const bank: Record<string, string> = {};
          for (const s of USD_SUFFIXES) bank[s] = await account('USD', { accountType: 'USD_ACCOUNT', accountNumber: `7${i}0000${s}`, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'P E' } });
          const fx: Record<string, string> = {};
          for (const s of GBP_SUFFIXES) fx[s] = await account('GBP', { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: `8${i}000${s}`, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'P E' } });
          const usdAccount = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
          const spark = await account('USDB', { accountType: 'SPARK_WALLET', address: 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc' });
          const card = (await call('POST', '/cards', { cardholderId: created.id, form: 'VIRTUAL', fundingSources: [usdAccount] })).body.id as string;
          // Some money to start with, so that card purchases are approved as often as declined.
          await call('POST', `/sandbox/internal-accounts/${usdAccount}/fund`, { amount: 50_000 });
          people.push({
            id: created.id, bank, fx, usd: usdAccount, mxn: accounts.find((a) => a.balance.currency.code === 'MXN')!.id, card, spark,
            wallet: accounts.find((a) => a.balance.currency.code === 'USDB')!.id,
          });
        }
        let lastCardTransaction: { card: string; id: string; authorized: number } | undefined;
        let lastQuote: string | undefined;
        let lastTransaction: string | undefined;
        const quote = async (source: string | Json, destination: string | Json, amount: number, immediatelyExecute: boolean, extra: Json = {}) => {
          const created = await call('POST', '/quotes', {
            source: typeof source === 'string' ? { sourceType: 'ACCOUNT', accountId: source } : source,
            destination: typeof destination === 'string' ? { destinationType: 'ACCOUNT', accountId: destination } : destination,
            lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute, ...extra,
          });
          expect(created.status).toBeLessThan(500);
          if (created.status === 201) [lastQuote, lastTransaction] = [created.body.id, created.body.transactionId];
          return created;
        };
        const expectAnswered = async (kind: string, answer: Promise<{ status: number }>) => {
          const { status } = await answer;
          expect(status).toBeLessThan(500);
          count(kind, status);
        };
        totals.runs++;
        totals.steps += steps.length;
        for (const s of steps) {
          if (s.kind === 'fund') await call('POST', `/sandbox/internal-accounts/${people[s.who]!.usd}/fund`, { amount: s.amount });
          else if (s.kind === 'pay') await quote(people[s.who]!.usd, s.to === s.who ? people[s.to]!.mxn : people[s.to]!.usd, s.amount, s.execute);
          else if (s.kind === 'payout') await quote(people[s.who]!.usd, people[s.who]!.bank[s.suffix]!, s.amount, true);
          else if (s.kind === 'fx') await quote(people[s.who]!.usd, people[s.who]!.fx[s.suffix]!, s.amount, true);
          else if (s.kind === 'executeLast' && lastQuote) expect((await call('POST', `/quotes/${lastQuote}/execute`)).status).toBeLessThan(500);
          else if (s.kind === 'cancelLast' && lastTransaction) expect((await call('POST', `/transactions/${lastTransaction}/cancel`)).status).toBeLessThan(500);
          else if (s.kind === 'advance') engine.sandbox().advance(s.ms);
          else if (s.kind === 'transferIn') {
            await expectAnswered('transfer in', call('POST', '/transfer-in', { source: { accountId: people[s.who]!.bank[s.suffix] }, destination: { accountId: people[s.who]!.usd }, amount: s.amount }));
          } else if (s.kind === 'transferOut') {
            await expectAnswered('transfer out', call('POST', '/transfer-out', { source: { accountId: people[s.who]!.usd }, destination: { accountId: people[s.who]!.bank[s.suffix] }, amount: s.amount }));
          } else if (s.kind === 'realtime') {
            const funded = await quote({ sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: people[s.who]!.id }, people[s.to]!.usd, s.amount, false);
            if (funded.status === 201) {
              const paid = funded.body.totalSendingAmount as number;
              await expectAnswered(s.exact ? 'real-time funding' : 'real-time funding, wrong amount', call('POST', '/sandbox/send', { quoteId: funded.body.id, currencyCode: 'USD', ...(s.exact ? {} : { currencyAmount: paid + 1 }) }));
            }
          } else if (s.kind === 'umaPay') {
            const lookup = await call('GET', `/receiver/uma/${encodeURIComponent(s.receiver)}?customerId=${encodeURIComponent(people[s.who]!.id)}`);
            expect(lookup.status).toBeLessThan(500);
            if (lookup.status === 200) count(`UMA to ${s.receiver.split('@')[0]}`, (await quote(people[s.who]!.usd, { destinationType: 'UMA_ADDRESS', umaAddress: s.receiver, currency: 'USD' }, s.amount, true, { lookupId: lookup.body.lookupId })).status);
          } else if (s.kind === 'umaReceive') {
            const received = await call('POST', '/sandbox/uma/receive', { senderUmaAddress: s.sender, customerId: people[s.to]!.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: s.amount });
            expect(received.status).toBeLessThan(500);
            await engine.webhooks.settled();
            count('UMA received', received.status);
            if (received.status < 300 && s.decide !== 'wait') await expectAnswered(`UMA received, ${s.decide === 'approve' ? 'approved' : 'rejected'}`, call('POST', `/transactions/${received.body.id}/${s.decide}`, {}));
          } else if (s.kind === 'cardEvent') {
            const card = people[s.who]!.card;
            const token = (await call('POST', `/sandbox/cards/${card}/simulate/${s.event}`, { amount: s.amount, currency: { code: 'USD' }, merchant: { descriptor: s.descriptor } })).body.issuerTransactionToken;
            const result = (await call('GET', `/_sandbox/cards/simulations/${token}`)).body;
            count(`card ${s.event} ${result.outcome}`, 200);
            if (result.cardTransactionId) lastCardTransaction = { card, id: result.cardTransactionId, authorized: s.amount };
          } else if (s.kind === 'cardFollowUp' && lastCardTransaction) {
            const { card, id, authorized } = lastCardTransaction;
            for (const event of s.events) {
              const body = event === 'return_reversal' ? { cardTransactionId: id } : { cardTransactionId: id, amount: Math.round(authorized * s.share) };
              const answer = await call('POST', `/sandbox/cards/${card}/simulate/${event}`, body);
              // A follow-up the transaction is in no state for is a 400 that changes nothing.
              expect([202, 400]).toContain(answer.status);
              count(`card ${event}`, answer.status);
            }
          } else if (s.kind === 'cardState') {
            await expectAnswered('card state', call('PATCH', `/cards/${people[s.who]!.card}`, { state: s.state }));
          } else if (s.kind === 'mint') {
            const person = people[s.who]!;
            const fundingSource = {
              WIRE: { type: 'WIRE' }, ACH_DEBIT: { type: 'ACH_DEBIT', externalAccountId: person.bank[s.suffix] },
              SAME_DAY_ACH_DEBIT: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: person.bank[s.suffix] },
              SERVICE_INTERNAL_ACCOUNT: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: person.usd },
              PROVIDER_INTERNAL_BALANCE: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' },
            }[s.source];
            const amount = String(BigInt(s.amount) * UNITS_PER_CENT);
            const minted = await keyed(`/stablecoins/${coin}/mints`, { amount, fundingSource, destination: { accountId: s.toWallet ? person.wallet : person.spark } });
            expect(minted.status).toBeLessThan(500);
            count(`stablecoin mint ${s.source}`, minted.status);
            if (minted.status === 201 && s.source === 'WIRE') awaitingFunds.push({ id: minted.body.id, amount });
            // Often enough, time passes: the mint completes, and later burns find tokens to take.
            engine.sandbox().advance(s.thenAdvance);
          } else if (s.kind === 'burn') {
            const person = people[s.who]!;
            // A wallet's tokens are burnt by the wallet's signature and paid out to its owner's bank account.
            const owner = s.source === 'SERVICE_INTERNAL_ACCOUNT' && tokensOf(person.wallet) === 0 ? people.find((p) => tokensOf(p.wallet) > 0) ?? person : person;
            const held = s.source === 'SERVICE_INTERNAL_ACCOUNT' ? tokensOf(owner.wallet) : s.source === 'PROVIDER_INTERNAL_BALANCE' ? tokensOf('world') : 0;
            const source = s.source === 'SERVICE_INTERNAL_ACCOUNT' ? { type: s.source, accountId: owner.wallet } : { type: s.source };
            const amount = String(BigInt(held > 0 ? Math.max(1, Math.round(held * s.share)) : s.amount) * UNITS_PER_CENT);
            const body = { amount, source, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: owner.bank[s.suffix], rail: s.rail } };
            let burnt = await keyed(`/stablecoins/${coin}/burns`, body);
            if (burnt.status === 202) {
              const headers = await signedRetryHeaders(burnt.body as never, await sessionOf(owner.wallet));
              burnt = await keyed(`/stablecoins/${coin}/burns`, body, { ...headers });
            }
            expect(burnt.status).toBeLessThan(500);
            count(`stablecoin burn ${s.source}`, burnt.status);
            if (burnt.status === 201 && s.source === 'EXTERNAL_ACCOUNT') awaitingFunds.push({ id: burnt.body.id, amount });
          } else if (s.kind === 'fundStablecoinOperation' && awaitingFunds.length > 0) {
            const { id, amount } = awaitingFunds.pop()!;
            await expectAnswered(s.exact ? 'stablecoin funds arrive' : 'stablecoin funds arrive, wrong amount',
              call('POST', `/_sandbox/stablecoin-operations/${id}/fund`, s.exact ? {} : { amount: `${amount}0` }));
          }

          const ledger = (engine.sandbox().snapshot().collections.ledger ?? []) as Json[];
          const sums: Record<string, number> = {};
          const byAccount: Record<string, number> = {};
          for (const entry of ledger) {
            for (const p of entry.postings) {
              sums[entry.currency] = (sums[entry.currency] ?? 0) + p.amount;
              byAccount[p.account] = (byAccount[p.account] ?? 0) + p.amount;
            }
          }
          for (const [currency, sum] of Object.entries(sums)) expect(sum, currency).toBe(0);
          const internal = [
            ...(await call('GET', '/customers/internal-accounts?limit=100')).body.data,
            ...(await call('GET', '/platform/internal-accounts')).body.data,
          ] as Json[];
          for (const account of internal) {
            if (account.balance.amount < 0) totals['negative balances']++;
            expect(account.balance.amount).toBeGreaterThanOrEqual(0);
            expect(account.balance.amount).toBe(byAccount[account.id] ?? 0);
          }
          // Money in flight is exactly what the payments under way hold.
          const settlements = (engine.sandbox().snapshot().collections.settlements ?? []) as Json[];
          const held: Record<string, number> = {};
          for (const record of settlements) held[record.currency] = (held[record.currency] ?? 0) + record.held;
          // The card program holds what it pulled and has not settled or released, less what it fronted.
          const cardHeld: Record<string, number> = {};
          for (const activity of (engine.sandbox().snapshot().collections.cardActivity ?? []) as Json[]) {
            cardHeld[activity.fundingCurrency] = (cardHeld[activity.fundingCurrency] ?? 0) + activity.held - activity.fronted;
          }
          for (const [account, amount] of Object.entries(byAccount)) {
            if (account.startsWith('in-flight:')) expect(amount, account).toBe(held[account.slice('in-flight:'.length)] ?? 0);
            if (account.startsWith('card-network:')) expect(amount, account).toBe(cardHeld[account.slice('card-network:'.length)] ?? 0);
            if (account.startsWith('fees:')) expect(amount, account).toBeGreaterThanOrEqual(0);
          }
          // The coin's reserve backs exactly its tokens outstanding and the fiat its operations hold; no holder is short.
          const collections = engine.sandbox().snapshot().collections;
          const fiatHeld = ((collections.stablecoinOperationState ?? []) as Json[]).reduce((sum, state) => sum + state.fiatHeld, 0);
          expect(byAccount[`stablecoin-reserve:${coin}`] ?? 0).toBe(-(byAccount[`stablecoin-supply:${coin}`] ?? 0) + fiatHeld);
          for (const position of (collections.stablecoinPositions ?? []) as Json[]) {
            expect(position.cents).toBeGreaterThanOrEqual(0);
            expect(byAccount[position.holder === 'world' ? `world:token:${coin}` : `tokens:${position.holder}`] ?? 0).toBe(position.cents);
          }
        }
        engine.sandbox().advance(30 * 24 * 3_600_000);
        const transactions = (await call('GET', '/transactions?limit=100')).body.data as Json[];
        const pending = transactions.filter((t) => !SETTLED.has(t.status));
        totals.transactions += transactions.length;
        totals['pending after 30 days'] += pending.length;
        expect(pending.map((t) => `${t.id} ${t.status}`)).toEqual([]);
        const inFlight = ((engine.sandbox().snapshot().collections.settlements ?? []) as Json[]).filter((record) => record.held !== 0);
        expect(inFlight).toEqual([]);
        // Every card authorization has settled or expired: nothing is held for one any more, and no pull still waits.
        const cardOpen = ((engine.sandbox().snapshot().collections.cardActivity ?? []) as Json[]).filter((a) => a.held !== 0 || a.pendingPull !== undefined);
        expect(cardOpen).toEqual([]);
        // Money the program fronted and never recovered is an EXCEPTION, and only that.
        const fronted = ((engine.sandbox().snapshot().collections.cardActivity ?? []) as Json[]).filter((a) => a.fronted > 0);
        for (const activity of fronted) expect((await call('GET', `/transactions/${activity.id}`)).body.status).toBe('EXCEPTION');
        // Every mint and burn has completed, failed or expired, and holds no fiat.
        const stablecoinOpen = ((await call('GET', `/stablecoins/${coin}/operations?limit=100`)).body.data as Json[]).filter((o) => !SETTLED.has(o.status));
        expect(stablecoinOpen.map((o) => `${o.id} ${o.status}`)).toEqual([]);
        expect(((engine.sandbox().snapshot().collections.stablecoinOperationState ?? []) as Json[]).filter((state) => state.fiatHeld !== 0)).toEqual([]);
        engine.close();
      }),
      { numRuns: scaled(150, 5000), seed: Number(process.env.FC_SEED ?? 20261124) },
    );
    recordFigures(task, { ...totals, 'moved money': [...accepted].map(([kind, n]) => `${kind} ${n}`).join(', ') });
    // Each kind of movement this test adds ran at least once (a step that is always refused proves nothing).
    expect([...accepted.keys()].sort()).toEqual(expect.arrayContaining([
      'UMA received', 'UMA received, approved', 'UMA received, rejected', 'UMA to $fail.compliance.usd', 'UMA to $pending.long.usd', 'UMA to $success.usd',
      'real-time funding', 'real-time funding, wrong amount', 'transfer in', 'transfer out',
      'card authorization APPROVED', 'card authorization DECLINED', 'card financial_authorization APPROVED', 'card credit_authorization APPROVED',
      'card financial_credit_authorization APPROVED', 'card clearing', 'card return', 'card return_reversal', 'card authorization_advice',
      ...MINT_SOURCES.map((source) => `stablecoin mint ${source}`), ...BURN_SOURCES.map((source) => `stablecoin burn ${source}`),
      'stablecoin funds arrive', 'stablecoin funds arrive, wrong amount',
    ]));
  }, scaled(120_000, 3_600_000));
});
