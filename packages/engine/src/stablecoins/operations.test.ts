import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { MAX_AMOUNT } from '@railyard/contract';
import { signedRetryHeaders, type SessionKey } from '@railyard/wallet';
import { STABLECOIN_PROVISIONING_MS, STABLECOIN_REVIEW_MS, STABLECOIN_TIMINGS } from '../sandbox/magic-values.js';
import { walletSession } from '../../../../test/support/wallet-signing.js';

// Mints and burns (REFERENCE §10, §17.3, §17.4): every funding source and destination, the statuses on the engine
// clock, the refusals, and the money through the ledger (the reserve backs every token outstanding).

let engine: Engine;
let keys = 0;
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callApi(engine, method, path, body, method === 'POST' ? { 'idempotency-key': `key-${++keys}`, ...headers } : headers);
const advance = (ms: number) => engine.sandbox().advance(ms);

/** A linked provider, a PROVISIONED and ENABLED coin (6 decimals), a customer with USD and an embedded wallet, bank accounts. */
async function world() {
  await call('POST', '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'client', apiClientSecret: 'secret' });
  const coin = (await call('POST', '/stablecoins', { providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' })).body;
  advance(STABLECOIN_REVIEW_MS + STABLECOIN_PROVISIONING_MS);
  await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { serviceOperationsStatus: 'ENABLED' });
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Issuer', email: 'ada@example.com', currencies: ['USD', 'USDB', 'EUR'] })).body;
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[];
  const account = (code: string) => accounts.find((a) => a.balance.currency.code === code)!.id as string;
  const external = async (accountInfo: Json, currency = 'USD') =>
    (await call('POST', '/customers/external-accounts', { customerId: customer.id, currency, accountInfo })).body.id as string;
  const bank = (accountNumber: string) =>
    external({ accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Issuer' } });
  return {
    coin, customer, usd: account('USD'), wallet: account('USDB'), eur: account('EUR'),
    bank: await bank('1234567890'), failingBank: await bank('1234567003'),
    spark: await external({ accountType: 'SPARK_WALLET', address: 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc' }, 'USDB'),
  };
}
type World = Awaited<ReturnType<typeof world>>;
let w: World;
beforeEach(async () => {
  engine = createEngine();
  w = await world();
});

const mint = (body: Json) => call('POST', `/stablecoins/${w.coin.id}/mints`, { amount: '25000000', ...body });
const burnBody = (body: Json): Json => ({ amount: '10000000', destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: w.bank, rail: 'RTP_CREDIT' }, ...body });
const burn = (body: Json, headers: Record<string, string> = {}) => call('POST', `/stablecoins/${w.coin.id}/burns`, burnBody(body), headers);
/**
 * A burn from an embedded wallet as the wallet's signed action: the first leg (202, unless refused), then the identical
 * request stamped by `key` with the challenge's Request-Id. Answers the retry (or the refused first leg).
 */
async function signedBurn(body: Json, key: SessionKey, headers: Record<string, string> = {}) {
  const first = await burn(body, headers);
  if (first.status !== 202) return first;
  return burn(body, { ...headers, ...(await signedRetryHeaders(first.body as never, key)) });
}
const operation = async (id: string) => (await call('GET', `/stablecoin-operations/${id}`)).body;
const balanceOf = async (id: string) => (await call('GET', `/customers/internal-accounts?customerId=${w.customer.id}`)).body.data.find((a: Json) => a.id === id).balance.amount;
const ledger = () => (engine.sandbox().snapshot().collections.ledger ?? []) as Json[];
const ledgerBalance = (account: string, currency?: string) =>
  ledger().filter((e) => currency === undefined || e.currency === currency).flatMap((e) => e.postings as Json[]).filter((p) => p.account === account).reduce((s, p) => s + p.amount, 0);
const trial = () => {
  const sums: Record<string, number> = {};
  for (const e of ledger()) for (const p of e.postings) sums[e.currency] = (sums[e.currency] ?? 0) + p.amount;
  return sums;
};
const reserve = () => ledgerBalance(`stablecoin-reserve:${w.coin.id}`);
const supply = () => ledgerBalance(`stablecoin-supply:${w.coin.id}`);
const statuses = async (id: string, steps: number[]) => {
  const seen = [(await operation(id)).status];
  for (const ms of steps) {
    advance(ms);
    seen.push((await operation(id)).status);
  }
  return seen;
};

describe('mints', () => {
  it('WIRE: 201 CREATED with funding instructions and a deadline, PENDING_FUNDING until the wire arrives, then the provider mints', async () => {
    const created = await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark }, description: 'treasury top-up' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^StablecoinOperation:/), stablecoinId: w.coin.id, operationType: 'MINT', status: 'CREATED', amount: '25000000',
      provider: 'BRALE', providerEnvironment: 'SANDBOX', stablecoinProviderAccountId: w.coin.stablecoinProviderAccountId,
      source: { type: 'WIRE' }, destination: { accountId: w.spark }, description: 'treasury top-up', providerStatus: 'created',
      fundingInstructions: { rail: 'WIRE', routingNumber: '021000021', accountNumber: expect.stringMatching(/^[0-9]{12}$/), reference: expect.stringMatching(/^MINT-/) },
      expiresAt: new Date(engine.clock.now() + STABLECOIN_TIMINGS.fundingWindowMs).toISOString(),
    });
    expect(created.body.destination).not.toHaveProperty('rail');
    expect(await operation(created.body.id)).toMatchObject({ status: 'PENDING_FUNDING', providerStatus: 'awaiting_funds' });
    advance(STABLECOIN_TIMINGS.fundingWindowMs - 1);
    expect(reserve()).toBe(0);
    const funded = await call('POST', `/_sandbox/stablecoin-operations/${created.body.id}/fund`);
    expect(funded.body.status).toBe('PENDING_PROVIDER');
    expect(reserve()).toBe(2_500);
    expect(await statuses(created.body.id, [STABLECOIN_TIMINGS.providerMs, STABLECOIN_TIMINGS.mintingMs])).toEqual(['PENDING_PROVIDER', 'PROCESSING', 'COMPLETED']);
    // 25 tokens at 6 decimals are 2,500 cents: issued to the wallet outside the service, backed by the reserve.
    expect(ledgerBalance(`world:token:${w.coin.id}`)).toBe(2_500);
    expect(supply()).toBe(-2_500);
    expect(trial()).toMatchObject({ USD: 0, [`token:${w.coin.id}`]: 0 });
    // The funding deadline passed: nothing expires a completed operation.
    advance(STABLECOIN_TIMINGS.fundingWindowMs);
    expect((await operation(created.body.id)).status).toBe('COMPLETED');
  });

  it('WIRE: EXPIRED when nothing arrives before expiresAt; FAILED when another amount arrives; 409 to fund what waits for nothing', async () => {
    const late = (await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } })).body;
    const short = (await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } })).body;
    const wrong = await call('POST', `/_sandbox/stablecoin-operations/${short.id}/fund`, { amount: '24000000' });
    expect(wrong.body).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH', providerStatus: 'failed' });
    advance(STABLECOIN_TIMINGS.fundingWindowMs);
    expect(await operation(late.id)).toMatchObject({ status: 'EXPIRED', providerStatus: 'expired' });
    const again = await call('POST', `/_sandbox/stablecoin-operations/${late.id}/fund`);
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    expect((await call('POST', '/_sandbox/stablecoin-operations/StablecoinOperation:none/fund')).status).toBe(404);
    expect(reserve()).toBe(0);
  });

  it('ACH_DEBIT and SAME_DAY_ACH_DEBIT: the provider debits the bank account over the rail, then mints; a failing account fails it', async () => {
    const ach = (await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: w.bank }, destination: { accountId: w.wallet } })).body;
    const sameDay = (await mint({ fundingSource: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: w.bank }, destination: { accountId: w.wallet } })).body;
    const failing = (await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: w.failingBank }, destination: { accountId: w.wallet } })).body;
    expect(ach).toMatchObject({ source: { type: 'ACH_DEBIT', externalAccountId: w.bank } });
    expect(ach).not.toHaveProperty('fundingInstructions');
    expect(ach).not.toHaveProperty('expiresAt');
    expect((await operation(sameDay.id)).status).toBe('PENDING_PROVIDER');
    advance(STABLECOIN_TIMINGS.debitMs.SAME_DAY_ACH_DEBIT);
    expect([(await operation(sameDay.id)).status, (await operation(ach.id)).status]).toEqual(['PROCESSING', 'PENDING_PROVIDER']);
    advance(STABLECOIN_TIMINGS.debitMs.ACH_DEBIT);
    expect(await operation(failing.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    advance(STABLECOIN_TIMINGS.mintingMs);
    expect([(await operation(sameDay.id)).status, (await operation(ach.id)).status]).toEqual(['COMPLETED', 'COMPLETED']);
    // Both minted into the customer's embedded wallet; the failed debit took nothing.
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(5_000);
    expect(reserve()).toBe(5_000);
  });

  it('SERVICE_INTERNAL_ACCOUNT: the internal account pays at once through the ledger; 409 when it holds too little; 400 in another currency', async () => {
    await call('POST', `/sandbox/internal-accounts/${w.usd}/fund`, { amount: 3_000 });
    const short = await mint({ amount: '40000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'INSUFFICIENT_BALANCE', balance: 3_000, required: 4_000 } });
    const euros = await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.eur }, destination: { accountId: w.wallet } });
    expect([euros.status, euros.body.details.errors[0].field]).toEqual([400, 'fundingSource.accountId']);
    const paid = await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    expect(paid.status).toBe(201);
    expect(await balanceOf(w.usd)).toBe(500);
    expect(reserve()).toBe(2_500);
    expect(await statuses(paid.body.id, [0, STABLECOIN_TIMINGS.providerMs, STABLECOIN_TIMINGS.mintingMs])).toEqual(['PENDING_PROVIDER', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED']);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    expect(trial()).toMatchObject({ USD: 0, [`token:${w.coin.id}`]: 0 });
  });

  it('PROVIDER_INTERNAL_BALANCE: the provider converts its other balance, then mints', async () => {
    const created = (await mint({ fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: w.spark } })).body;
    expect(created.source).toEqual({ type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' });
    expect(await statuses(created.id, [STABLECOIN_TIMINGS.providerMs, STABLECOIN_TIMINGS.mintingMs])).toEqual(['PENDING_PROVIDER', 'PROCESSING', 'COMPLETED']);
    expect(reserve()).toBe(2_500);
  });

  it('refuses amounts that are no whole number of cents, zero or not digits, and every bad field at once', async () => {
    const fractional = await mint({ amount: '25000001', fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } });
    expect(fractional.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'amount' }] } });
    expect((await mint({ amount: '0', fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } })).status).toBe(400);
    const bad = await call('POST', `/stablecoins/${w.coin.id}/mints`, { amount: '1.5', fundingSource: { type: 'CHEQUE' }, destination: { accountId: 'Customer:x' }, description: 'x'.repeat(1025) });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['amount', 'description', 'destination.accountId', 'fundingSource.type']);
    expect((await call('GET', `/stablecoins/${w.coin.id}/operations`)).body.data).toEqual([]);
  });

  it('checks the destination: an embedded wallet of the service, or an ACTIVE Spark wallet outside it; 404 for unknown ones', async () => {
    const fiat = await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.usd } });
    expect([fiat.status, fiat.body.details.errors[0].field]).toEqual([400, 'destination.accountId']);
    const bank = await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.bank } });
    expect([bank.status, bank.body.details.errors[0].field]).toEqual([400, 'destination.accountId']);
    const unknown = await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: 'ExternalAccount:0b5e8d3c-4c1e-4a6b-9f3e-2f6a1d7c9e01' } });
    expect(unknown.status).toBe(404);
    const debitFromWallet = await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: w.spark }, destination: { accountId: w.wallet } });
    expect([debitFromWallet.status, debitFromWallet.body.details.errors[0].field]).toEqual([400, 'fundingSource.externalAccountId']);
  });

  it('needs the coin PROVISIONED and ENABLED (409), a usable provider link (400), the provider up (503), and a known coin (404)', async () => {
    const body = { fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } };
    await call('PUT', `/_sandbox/stablecoins/${w.coin.id}/operations-status`, { serviceOperationsStatus: 'DISABLED' });
    expect((await mint(body)).status).toBe(409);
    await call('PUT', `/_sandbox/stablecoins/${w.coin.id}/operations-status`, { serviceOperationsStatus: 'ENABLED' });
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${w.coin.stablecoinProviderAccountId}/status`, { status: 'REVOKED' });
    expect((await mint(body)).body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_REVOKED');
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${w.coin.stablecoinProviderAccountId}/status`, { status: 'INVALID' });
    expect((await mint(body)).body.code).toBe('STABLECOIN_PROVIDER_ACCOUNT_INVALID');
    await call('PUT', `/_sandbox/stablecoin-provider-accounts/${w.coin.stablecoinProviderAccountId}/status`, { status: 'ACTIVE' });
    expect((await call('PUT', '/_sandbox/stablecoin-provider', { available: false })).body).toEqual({ available: false });
    const down = await mint(body);
    expect(down.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect((await burn({ source: { type: 'PROVIDER_INTERNAL_BALANCE' } })).status).toBe(503);
    await call('PUT', '/_sandbox/stablecoin-provider', { available: true });
    expect((await call('POST', '/stablecoins/Stablecoin:0b5e8d3c-4c1e-4a6b-9f3e-2f6a1d7c9e01/mints', { amount: '1000000', ...body })).status).toBe(404);
    expect((await call('GET', `/stablecoins/${w.coin.id}/operations`)).body.data).toEqual([]);
    expect((await mint(body)).status).toBe(201);
  });

  it('needs an Idempotency-Key and replays the first operation under it', async () => {
    const body = { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } };
    const missing = await callApi(engine, 'POST', `/stablecoins/${w.coin.id}/mints`, body);
    expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    const first = await call('POST', `/stablecoins/${w.coin.id}/mints`, body, { 'idempotency-key': 'mint-1' });
    const replay = await call('POST', `/stablecoins/${w.coin.id}/mints`, body, { 'idempotency-key': 'mint-1' });
    expect(replay.body).toEqual(first.body);
    expect((await call('GET', `/stablecoins/${w.coin.id}/operations`)).body.totalCount).toBe(1);
  });
});

describe('burns', () => {
  /** Mints 25 tokens into the customer's embedded wallet, paid by their USD account. */
  async function mintIntoWallet() {
    await call('POST', `/sandbox/internal-accounts/${w.usd}/fund`, { amount: 2_500 });
    await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
  }

  it('SERVICE_INTERNAL_ACCOUNT, signed by the wallet: takes the tokens at once, pays the fiat out over the rail, with an estimated delivery', async () => {
    await mintIntoWallet();
    const created = await signedBurn({ source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: w.bank, rail: 'ACH_CREDIT' } }, await walletSession(engine, w.wallet));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      operationType: 'BURN', status: 'CREATED', amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet },
      destination: { accountId: w.bank, rail: 'ACH_CREDIT' }, estimatedDelivery: { rail: 'ACH_CREDIT', amount: '1000', currency: 'USD', timing: 'next business day' },
    });
    expect(created.body).not.toHaveProperty('fundingInstructions');
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(1_500);
    expect(await statuses(created.body.id, [0, STABLECOIN_TIMINGS.providerMs, STABLECOIN_TIMINGS.payoutMs.ACH_CREDIT - 1, 1])).toEqual(['PENDING_PROVIDER', 'PENDING_PROVIDER', 'PROCESSING', 'PROCESSING', 'COMPLETED']);
    expect(reserve()).toBe(1_500);
    expect(trial()).toMatchObject({ USD: 0, [`token:${w.coin.id}`]: 0 });
  });

  it('409 when the wallet holds fewer tokens than the burn, and 400 for a wallet that is no embedded wallet', async () => {
    await mintIntoWallet();
    const tooMuch = await burn({ amount: '30000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet } });
    expect(tooMuch.body).toMatchObject({ status: 409, details: { reason: 'INSUFFICIENT_BALANCE', balance: 2_500, required: 3_000 } });
    const fiat = await burn({ source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd } });
    expect([fiat.status, fiat.body.details.errors[0].field]).toEqual([400, 'source.accountId']);
    const toWallet = await burn({ source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: w.spark, rail: 'WIRE' } });
    expect([toWallet.status, toWallet.body.details.errors[0].field]).toEqual([400, 'destination.externalAccountId']);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
  });

  it('a bank that refuses the payout fails the burn and gives the tokens back', async () => {
    await mintIntoWallet();
    const created = (await signedBurn({ source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: w.failingBank, rail: 'RTP_CREDIT' } }, await walletSession(engine, w.wallet))).body;
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.payoutMs.RTP_CREDIT);
    expect(await operation(created.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    expect(reserve()).toBe(2_500);
  });

  it('EXTERNAL_ACCOUNT: the deposit address as funding instructions; the tokens arrive, then the payout; EXPIRED without them', async () => {
    await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } }).then(({ body }) => call('POST', `/_sandbox/stablecoin-operations/${body.id}/fund`));
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const created = (await burn({ source: { type: 'EXTERNAL_ACCOUNT' } })).body;
    expect(created).toMatchObject({
      source: { type: 'EXTERNAL_ACCOUNT' }, fundingInstructions: { network: 'SPARK', address: expect.stringMatching(/^sp1q/), valueType: 'usdx' },
      expiresAt: expect.any(String),
    });
    const unpaid = (await burn({ source: { type: 'EXTERNAL_ACCOUNT' } })).body;
    expect((await operation(created.id)).status).toBe('PENDING_FUNDING');
    expect((await call('POST', `/_sandbox/stablecoin-operations/${created.id}/fund`)).body.status).toBe('PENDING_PROVIDER');
    expect(ledgerBalance(`world:token:${w.coin.id}`)).toBe(1_500);
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.payoutMs.RTP_CREDIT);
    expect((await operation(created.id)).status).toBe('COMPLETED');
    advance(STABLECOIN_TIMINGS.fundingWindowMs);
    expect((await operation(unpaid.id)).status).toBe('EXPIRED');
    expect(reserve()).toBe(1_500);
  });

  it('EXTERNAL_ACCOUNT: 409 when more tokens would arrive than exist outside the service', async () => {
    const created = (await burn({ source: { type: 'EXTERNAL_ACCOUNT' } })).body;
    const fund = await call('POST', `/_sandbox/stablecoin-operations/${created.id}/fund`);
    expect(fund.status).toBe(409);
    expect((await operation(created.id)).status).toBe('PENDING_FUNDING');
  });

  it('PROVIDER_INTERNAL_BALANCE: spends the tokens outside the service (409 beyond them)', async () => {
    expect((await burn({ source: { type: 'PROVIDER_INTERNAL_BALANCE' } })).status).toBe(409);
    await mint({ fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: w.spark } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const created = (await burn({ source: { type: 'PROVIDER_INTERNAL_BALANCE' } })).body;
    expect(await statuses(created.id, [STABLECOIN_TIMINGS.providerMs, STABLECOIN_TIMINGS.payoutMs.RTP_CREDIT])).toEqual(['PENDING_PROVIDER', 'PROCESSING', 'COMPLETED']);
    expect(reserve()).toBe(1_500);
  });
});

// Issue 32: a burn whose source is the customer's embedded wallet took its tokens on platform credentials alone, and
// paid the fiat to any bank account (another customer's). Now the wallet signs it, and its owner's bank is paid.
describe("burns from an embedded wallet: the wallet's signed action, paid out to its owner", () => {
  const fromWallet = { source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: '' } };
  /** 25 tokens in the customer's wallet; a second customer (Bob) with a wallet and a bank account; a platform bank account. */
  async function holders() {
    fromWallet.source.accountId = w.wallet;
    await call('POST', `/sandbox/internal-accounts/${w.usd}/fund`, { amount: 2_500 });
    await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const bob = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Bob Other', email: 'bob@example.com', currencies: ['USD', 'USDB'] })).body;
    const bobWallet = ((await call('GET', `/customers/internal-accounts?customerId=${bob.id}`)).body.data as Json[]).find((a) => a.type === 'EMBEDDED_WALLET')!.id as string;
    const usdBank = { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021' };
    const bobBank = (await call('POST', '/customers/external-accounts', { customerId: bob.id, currency: 'USD', accountInfo: { ...usdBank, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bob Other' } } })).body.id as string;
    const platformBank = (await call('POST', '/platform/external-accounts', { currency: 'USD', accountInfo: { ...usdBank, beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Platform Inc' } } })).body.id as string;
    return { bob, bobWallet, bobBank, platformBank };
  }
  /** Everything the platform holds but its pending signed-retry challenges: what a refused burn must leave as it was. */
  const holdings = () => {
    const { signedRequests: _challenges, ...rest } = engine.sandbox().snapshot().collections;
    return rest;
  };
  const burnsOf = async () => ((await call('GET', `/stablecoins/${w.coin.id}/operations?operationType=BURN`)).body.data as Json[]);

  it('on platform credentials alone: a 202 challenge and nothing moves; the signed retry under the same Idempotency-Key burns (201)', async () => {
    await holders();
    const before = holdings();
    const first = await burn(fromWallet, { 'idempotency-key': 'burn-1' });
    expect(first.status).toBe(202);
    // REFERENCE §21: outside /auth/* the challenge carries no `type`.
    expect(Object.keys(first.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(first.body.expiresAt).toBe(new Date(engine.clock.now() + 5 * 60_000).toISOString());
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION',
      parameters: { operation: 'STABLECOIN_BURN', stablecoinId: w.coin.id, accountId: w.wallet, amount: '10000000', destination: w.bank, rail: 'RTP_CREDIT' },
    });
    expect(holdings()).toEqual(before);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    expect(await burnsOf()).toEqual([]);
    // The sandbox's legacy literal still needs an active session of the wallet, and it has none yet.
    const literal = await burn(fromWallet, { 'service-wallet-signature': 'sandbox-valid-signature', 'request-id': first.body.requestId });
    expect([literal.status, literal.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
    // The 202 is not replayed under the key: the same request again gets a challenge of its own.
    const again = await burn(fromWallet, { 'idempotency-key': 'burn-1' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.requestId).not.toBe(first.body.requestId);
    expect(holdings()).toEqual(before);

    const session = await walletSession(engine, w.wallet);
    const signed = await burn(fromWallet, { 'idempotency-key': 'burn-1', ...(await signedRetryHeaders(again.body as never, session)) });
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({ operationType: 'BURN', status: 'CREATED', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet }, destination: { accountId: w.bank } });
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(1_500);
    // Now the key replays the burn, with or without the signature headers; nothing is burnt twice.
    const replay = await burn(fromWallet, { 'idempotency-key': 'burn-1' });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([201, 'true', signed.body]);
    expect((await burnsOf()).map((o) => o.id)).toEqual([signed.body.id]);
    // The fiat reaches the owner's bank account.
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.payoutMs.RTP_CREDIT);
    expect(await operation(signed.body.id)).toMatchObject({ status: 'COMPLETED', destination: { accountId: w.bank } });
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(1_500);
    expect(reserve()).toBe(1_500);
    expect(trial()).toMatchObject({ USD: 0, [`token:${w.coin.id}`]: 0 });
  });

  it('the retry needs a stamp of an active session of that very wallet: every other retry is a 401 and nothing moves', async () => {
    const { bobWallet } = await holders();
    const ada = await walletSession(engine, w.wallet);
    const bob = await walletSession(engine, bobWallet);
    const challenge = (await burn(fromWallet)).body;
    const headers = { ...(await signedRetryHeaders(challenge as never, ada)) };
    // A challenge of Bob's wallet (its privacy change), stamped by Bob: not a challenge of Ada's wallet.
    const bobChallenge = (await call('PATCH', `/internal-accounts/${bobWallet}`, { privateEnabled: true })).body;
    const before = holdings();
    const refusals: [Record<string, string>, string][] = [
      [{ 'Request-Id': challenge.requestId }, 'WALLET_SIGNATURE_MISSING'],
      [{ 'Service-Wallet-Signature': headers['Service-Wallet-Signature'] }, 'REQUEST_ID_MISSING'],
      [{ ...headers, 'Service-Wallet-Signature': 'not-a-stamp' }, 'WALLET_SIGNATURE_MALFORMED'],
      [{ ...(await signedRetryHeaders(challenge as never, bob)) }, 'WALLET_SIGNATURE_INVALID'],
      [{ ...(await signedRetryHeaders(bobChallenge as never, bob)) }, 'UNAUTHORIZED'],
      [{ ...headers, 'Request-Id': 'Request:7d0c9c52-3f1e-4b7a-9f5e-2a6b8c1d0e3f' }, 'UNAUTHORIZED'],
    ];
    for (const [signature, code] of refusals) {
      const refused = await burn(fromWallet, signature);
      expect([refused.status, refused.body.code], code).toEqual([401, code]);
    }
    const otherAmount = await burn({ ...fromWallet, amount: '20000000' }, headers);
    expect([otherAmount.status, otherAmount.body.code]).toEqual([401, 'WALLET_SIGNATURE_BODY_MISMATCH']);
    expect(holdings()).toEqual(before);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    // Ada's own stamp burns, once: the Request-Id is single use.
    expect((await burn(fromWallet, headers)).status).toBe(201);
    const reused = await burn(fromWallet, headers);
    expect([reused.status, reused.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(1_500);
  });

  it("pays a wallet's fiat only to its owner's bank account: another customer's or the platform's is 400, signed or not", async () => {
    const { bobBank, platformBank } = await holders();
    const to = (externalAccountId: string) => ({ ...fromWallet, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId, rail: 'RTP_CREDIT' } });
    const before = engine.sandbox().snapshot().collections;
    for (const [bank, owner] of [[bobBank, 'customer'], [platformBank, 'the platform']] as const) {
      const refused = await burn(to(bank));
      expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(refused.body.details.errors).toEqual([{
        field: 'destination.externalAccountId',
        message: expect.stringMatching(new RegExp(`^must be a bank account of customer ${w.customer.id}, who holds ${w.wallet}: .* belongs to ${owner}`)),
      }]);
    }
    // Refused before any challenge: not even a pending signed request was made.
    expect(engine.sandbox().snapshot().collections).toEqual(before);
    // A stamp does not make another's bank account a destination.
    const session = await walletSession(engine, w.wallet);
    const challenge = (await burn(to(w.bank))).body;
    const stamped = await burn(to(bobBank), { ...(await signedRetryHeaders(challenge as never, session)) });
    expect([stamped.status, stamped.body.details.errors[0].field]).toEqual([400, 'destination.externalAccountId']);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    expect(await burnsOf()).toEqual([]);

    // Tokens from outside the service or held by the provider are the platform's: its bank accounts or its customers'.
    await mint({ fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: w.spark } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const provider = await burn({ source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bobBank, rail: 'RTP_CREDIT' } });
    const outside = await burn({ source: { type: 'EXTERNAL_ACCOUNT' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: platformBank, rail: 'RTP_CREDIT' } });
    expect([provider.status, outside.status]).toEqual([201, 201]);
  });

  it("a platform wallet's tokens pay out to a bank account of the platform only", async () => {
    const { platformBank } = await holders();
    // The API opens no embedded wallet for the platform; a restored snapshot may hold one.
    const snapshot = engine.sandbox().snapshot();
    const walletRecord = (snapshot.collections.internalAccounts as Json[]).find((a) => a.id === w.wallet)!;
    const { customerId: _owner, ...unowned } = walletRecord;
    const platformWallet = { ...unowned, id: 'InternalAccount:5f0e2a7c-1b3d-4c9e-8a6f-0d2b4e6c8a1f' };
    const restored = await call('POST', '/_sandbox/restore', { ...snapshot, collections: { ...snapshot.collections, internalAccounts: [...(snapshot.collections.internalAccounts as Json[]), platformWallet] } });
    expect(restored.status).toBe(204);
    await mint({ fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: platformWallet.id } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const fromPlatformWallet = (externalAccountId: string) => burn({ source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: platformWallet.id }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId, rail: 'WIRE' } });
    const toCustomer = await fromPlatformWallet(w.bank);
    expect([toCustomer.status, toCustomer.body.details.errors[0].message]).toEqual([400, expect.stringMatching(/^must be a bank account of the platform, who holds InternalAccount:5f0e/)]);
    // The platform's bank account is a destination; the burn is still the wallet's to sign.
    expect((await fromPlatformWallet(platformBank)).status).toBe(202);
    expect(ledgerBalance(`tokens:${platformWallet.id}`)).toBe(2_500);
  });

  it('a mint takes no fiat from an embedded wallet: 400 on fundingSource.accountId, and nothing moves', async () => {
    await call('POST', `/sandbox/internal-accounts/${w.wallet}/fund`, { amount: 50_000_000 });
    const before = engine.sandbox().snapshot().collections;
    const refused = await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet }, destination: { accountId: w.spark } });
    expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'fundingSource.accountId', message: expect.stringContaining('embedded wallet') }] } });
    expect(engine.sandbox().snapshot().collections).toEqual(before);
  });
});

describe('what an operation under way meets', () => {
  it('a bank account deleted before its debit or payout fails the operation; a burn gives the tokens back', async () => {
    const debit = (await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: w.bank }, destination: { accountId: w.wallet } })).body;
    await call('POST', `/sandbox/internal-accounts/${w.usd}/fund`, { amount: 2_500 });
    await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const payout = (await signedBurn({ source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.wallet } }, await walletSession(engine, w.wallet))).body;
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(1_500);
    expect((await call('DELETE', `/customers/external-accounts/${w.bank}`)).status).toBe(204);
    advance(STABLECOIN_TIMINGS.debitMs.ACH_DEBIT);
    expect(await operation(debit.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    expect(await operation(payout.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
    expect(reserve()).toBe(2_500);
  });

  it('an operation past expiresAt is EXPIRED when read, even when its expiry job was lost (a snapshot restored without it)', async () => {
    const wire = (await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.wallet } })).body;
    const snapshot = engine.sandbox().snapshot();
    const jobs = (snapshot.collections.jobs ?? []) as Json[];
    expect((await call('POST', '/_sandbox/restore', { ...snapshot, collections: { ...snapshot.collections, jobs: jobs.filter((job) => job.kind !== 'stablecoins.expire') } })).status).toBe(204);
    advance(STABLECOIN_TIMINGS.fundingWindowMs);
    const funded = await call('POST', `/_sandbox/stablecoin-operations/${wire.id}/fund`);
    expect(funded.status).toBe(409);
    expect(await operation(wire.id)).toMatchObject({ status: 'EXPIRED' });
    // Its reservation went with it: the wallet can take the whole range again.
    expect((engine.sandbox().snapshot().collections.stablecoinPositions as Json[]).find((p) => p.holder === w.wallet)).toMatchObject({ cents: 0, reserved: 0 });
  });

  it('refuses a mint that would take a holder past the largest amount the service counts (400 AMOUNT_OUT_OF_RANGE)', async () => {
    const most = `${MAX_AMOUNT}0000`;
    const first = await mint({ amount: most, fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: w.wallet } });
    expect(first.status).toBe(201);
    const more = await mint({ amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: w.wallet } });
    expect(more.body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE', details: { errors: [{ field: 'amount' }] } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(MAX_AMOUNT);
    expect((await call('POST', '/_sandbox/restore', engine.sandbox().snapshot())).status).toBe(204);
  });

  it('refuses to restore a snapshot whose tokens or reserve disagree with the ledger', async () => {
    await call('POST', `/sandbox/internal-accounts/${w.usd}/fund`, { amount: 2_500 });
    await mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: w.usd }, destination: { accountId: w.wallet } });
    advance(STABLECOIN_TIMINGS.providerMs + STABLECOIN_TIMINGS.mintingMs);
    const snapshot = engine.sandbox().snapshot();
    const edited = (name: string, change: (record: Json) => Json) =>
      ({ ...snapshot, collections: { ...snapshot.collections, [name]: (snapshot.collections[name] as Json[]).map(change) } });
    const richer = await call('POST', '/_sandbox/restore', edited('stablecoinPositions', (p) => ({ ...p, cents: p.cents + 1_000_000 })));
    expect(richer.status).toBe(400);
    expect(richer.body.details.errors.map((e: Json) => e.field)).toEqual(expect.arrayContaining(['collections.stablecoinPositions.0.cents', 'collections.stablecoins']));
    const cheaper = await call('POST', '/_sandbox/restore', edited('stablecoinOperationState', (state) => ({ ...state, cents: 1 })));
    expect(cheaper.status).toBe(400);
    const badAmount = await call('POST', '/_sandbox/restore', edited('stablecoinOperations', (o) => ({ ...o, amount: '1.5' })));
    expect(badAmount.status).toBe(400);
    expect(ledgerBalance(`tokens:${w.wallet}`)).toBe(2_500);
  });
});

describe('reading operations', () => {
  it("lists a coin's operations newest first, filters by type, pages, and gets one; 404 for unknown ones", async () => {
    const first = (await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } })).body;
    const second = (await burn({ source: { type: 'EXTERNAL_ACCOUNT' } })).body;
    const third = (await mint({ fundingSource: { type: 'WIRE' }, destination: { accountId: w.spark } })).body;
    const list = (await call('GET', `/stablecoins/${w.coin.id}/operations`)).body;
    expect(list).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(list.data.map((o: Json) => o.id)).toEqual([third.id, second.id, first.id]);
    const mints = (await call('GET', `/stablecoins/${w.coin.id}/operations?operationType=MINT&limit=1`)).body;
    expect(mints).toMatchObject({ data: [{ id: third.id }], hasMore: true, totalCount: 2 });
    const next = (await call('GET', `/stablecoins/${w.coin.id}/operations?operationType=MINT&limit=1&cursor=${mints.nextCursor}`)).body;
    expect(next.data.map((o: Json) => o.id)).toEqual([first.id]);
    expect((await call('GET', `/stablecoins/${w.coin.id}/operations?operationType=SWAP`)).status).toBe(400);
    expect((await call('GET', '/stablecoins/Stablecoin:none/operations')).status).toBe(404);
    expect((await call('GET', '/stablecoin-operations/StablecoinOperation:none')).status).toBe(404);
  });
});
