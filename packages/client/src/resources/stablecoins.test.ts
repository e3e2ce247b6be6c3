import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { APIError, AuthenticationError, BadRequestError, ConflictError, RailyardError, SignatureRequiredError, StablecoinWaitTimeoutError } from '../core/errors.js';
import { fakeFetch } from '../test-support.js';
import type { StablecoinBurnSignatureRequired } from './stablecoins.js';
import { signInWithEmailCode } from '../../../../test/support/wallet-session.js';

// client.stablecoins, client.stablecoinProviderAccounts, client.stablecoinOperations and client.sandbox.stablecoins
// against an in-process engine: the calls, the keys they send, pagination and the waits.

async function setup() {
  const engine = createEngine();
  /** Every request the client sends: method, path, Idempotency-Key and whether it carries a stamp. */
  const sent: { method: string; path: string; key: string | null; stamped: boolean }[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key'), stamped: request.headers.has('service-wallet-signature') });
    return engine.fetch(request);
  };
  const client = createClient({ fetch, ...DEFAULT_CREDENTIALS, sandbox: true, sleep: async () => undefined });
  const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'client-1', apiClientSecret: 'secret' });
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Issuer', email: 'ada@example.com', currencies: ['USD', 'USDB'] });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const wallet = accounts.find((a) => a.balance.currency.code === 'USDB')!.id;
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Issuer' } },
  });
  return { engine, client, link, usd, wallet, bank: bank.id, sent };
}


/** A PROVISIONED, ENABLED coin and 25 tokens minted into the wallet, paid from the USD account. */
async function coinInWallet(client: RailyardClient, usd: string, wallet: string) {
  const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' });
  await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
  await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED');
  await client.sandbox.fundInternalAccount(usd, 2_500);
  const mint = await client.stablecoins.mint(coin.id, { amount: '25000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd }, destination: { accountId: wallet } });
  await client.stablecoinOperations.waitFor(mint.id, { advanceClock: true });
  return coin;
}

describe('client.stablecoins', () => {
  it('links, registers, waits for provisioning, enables through the sandbox operator, mints and burns (signed by the wallet)', async () => {
    const { client, link, usd, wallet, bank } = await setup();
    expect(link).toMatchObject({ status: 'ACTIVE', provider: 'BRALE' });
    expect((await client.stablecoinProviderAccounts.retrieve(link.id)).id).toBe(link.id);
    const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' });
    expect(coin.issuanceStatus).toBe('PENDING_REVIEW');
    expect((await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 })).issuanceStatus).toBe('PROVISIONED');
    expect((await client.stablecoins.requestEnablement(coin.id)).serviceOperationsStatus).toBe('PENDING_APPROVAL');
    expect((await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED')).currency).toBe('USDX');

    await client.sandbox.fundInternalAccount(usd, 2_500);
    const mint = await client.stablecoins.mint(coin.id, { amount: '25000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd }, destination: { accountId: wallet } });
    expect((await client.stablecoinOperations.waitFor(mint.id, { advanceClock: true })).status).toBe('COMPLETED');
    const burn = await client.stablecoins.burn(coin.id, {
      amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'WIRE' },
    }, { stamper: await signInWithEmailCode(client, wallet) });
    expect(burn.estimatedDelivery).toMatchObject({ amount: '1000', currency: 'USD', rail: 'WIRE' });
    expect((await client.stablecoinOperations.waitFor(burn.id, { advanceClock: 600_000, timeout: 2 * 3_600_000 })).status).toBe('COMPLETED');

    const seen: string[] = [];
    for await (const operation of client.stablecoins.listOperations(coin.id, { limit: 1 })) seen.push(operation.id);
    expect(seen).toEqual([burn.id, mint.id]);
    expect((await client.stablecoins.list({ serviceOperationsStatus: 'ENABLED' })).data.map((c) => c.id)).toEqual([coin.id]);
  });

  it('maps refusals to typed errors: selection required, not requestable, provider down', async () => {
    const { client } = await setup();
    await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'client-2', apiClientSecret: 'secret' });
    const several = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' }).catch((e: unknown) => e);
    expect(several).toBeInstanceOf(BadRequestError);
    expect((several as BadRequestError).code).toBe('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED');
    const link = (await client.stablecoinProviderAccounts.list({ status: 'ACTIVE' })).data[0]!;
    const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK', stablecoinProviderAccountId: link.id });
    await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLING');
    const notRequestable = await client.stablecoins.requestEnablement(coin.id).catch((e: unknown) => e);
    expect(notRequestable).toBeInstanceOf(ConflictError);
    expect((notRequestable as ConflictError).code).toBe('STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE');
    await client.sandbox.stablecoins.setProviderAvailability(false);
    const down = await client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: 'InternalAccount:x' } }, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(APIError);
    expect(down).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it('waits for a wire the sandbox delivers, and times out on an operation that waits for ever', async () => {
    const { client, wallet } = await setup();
    const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' });
    await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
    await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED');
    const wire = await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } });
    expect(wire.fundingInstructions).toMatchObject({ rail: 'WIRE' });
    const waiting = await client.stablecoinOperations.waitFor(wire.id, { advanceClock: true, until: (o) => o.status === 'PENDING_FUNDING' });
    expect(waiting.status).toBe('PENDING_FUNDING');
    const timedOut = await client.stablecoinOperations.waitFor(wire.id, { advanceClock: true, timeout: 60_000 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(StablecoinWaitTimeoutError);
    expect((timedOut as StablecoinWaitTimeoutError).resource.status).toBe('PENDING_FUNDING');
    expect((await client.sandbox.stablecoins.fundOperation(wire.id)).status).toBe('PENDING_PROVIDER');
    expect((await client.stablecoinOperations.waitFor(wire.id, { advanceClock: true })).status).toBe('COMPLETED');
  });
});

describe('burns from an embedded wallet: the wallet signs', () => {
  const burnBody = (wallet: string, bank: string) => ({
    amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT' as const, accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT' as const, externalAccountId: bank, rail: 'RTP_CREDIT' as const },
  });
  const tokensIn = async (client: RailyardClient, wallet: string) => {
    const ledger = ((await client.sandbox.snapshot()).collections.ledger ?? []) as { postings: { account: string; amount: number }[] }[];
    return ledger.flatMap((e) => e.postings).filter((p) => p.account === `tokens:${wallet}`).reduce((sum, p) => sum + p.amount, 0);
  };

  it('with a stamper: one call, the first leg under the caller\'s key and the signed retry under key:signed', async () => {
    const { client, usd, wallet, bank, sent } = await setup();
    const coin = await coinInWallet(client, usd, wallet);
    const session = await signInWithEmailCode(client, wallet);
    sent.length = 0;
    const burn = await client.stablecoins.burn(coin.id, burnBody(wallet, bank), { stamper: session, idempotencyKey: 'burn-7' });
    expect(burn).toMatchObject({ operationType: 'BURN', status: 'CREATED', source: { accountId: wallet }, destination: { accountId: bank } });
    expect(sent.map((r) => [r.method, r.path.endsWith('/burns'), r.key, r.stamped])).toEqual([['POST', true, 'burn-7', false], ['POST', true, 'burn-7:signed', true]]);
    expect(await tokensIn(client, wallet)).toBe(1_500);
    // The whole call again under the same key: the first leg gets a fresh challenge (a 202 is never replayed) and the
    // signed retry's key replays the burn already made.
    const again = await client.stablecoins.burn(coin.id, burnBody(wallet, bank), { stamper: session, idempotencyKey: 'burn-7' });
    expect(again.id).toBe(burn.id);
    expect(await tokensIn(client, wallet)).toBe(1_500);
    expect((await client.stablecoinOperations.waitFor(burn.id, { advanceClock: true })).status).toBe('COMPLETED');
  });

  it('without a stamper: SignatureRequiredError and nothing taken; completeBurn with a stamp made elsewhere burns', async () => {
    const { client, usd, wallet, bank } = await setup();
    const coin = await coinInWallet(client, usd, wallet);
    const refused = await client.stablecoins.burn(coin.id, burnBody(wallet, bank)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SignatureRequiredError);
    expect((refused as Error).message).toContain('client.stablecoins.completeBurn');
    const pending = (refused as SignatureRequiredError).pending as unknown as StablecoinBurnSignatureRequired;
    expect(pending).toMatchObject({ status: 'SIGNATURE_REQUIRED', request: { operationId: 'createStablecoinBurn', method: 'POST', body: burnBody(wallet, bank) } });
    expect(Object.keys(pending.challenge).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(await tokensIn(client, wallet)).toBe(2_500);
    expect((await client.stablecoins.listOperations(coin.id, { operationType: 'BURN' })).data).toEqual([]);

    // Another wallet's session may not sign it.
    const other = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Bob Other', email: 'bob@example.com', currencies: ['USDB'] });
    const otherWallet = (await client.internalAccounts.list({ customerId: other.id })).data[0]!.id;
    const stranger = await signInWithEmailCode(client, otherWallet);
    const foreign = await client.stablecoins.completeBurn(pending, stranger).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(AuthenticationError);
    expect((foreign as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
    expect(await tokensIn(client, wallet)).toBe(2_500);

    // Kept as plain JSON while the browser stamps; then finished with the stamp string.
    const session = await signInWithEmailCode(client, wallet);
    const stored = JSON.parse(JSON.stringify(pending)) as StablecoinBurnSignatureRequired;
    const burn = await client.stablecoins.completeBurn(stored, await session.stamp(stored.challenge.payloadToSign));
    expect(burn).toMatchObject({ operationType: 'BURN', source: { accountId: wallet } });
    expect(await tokensIn(client, wallet)).toBe(1_500);
    const reused = await client.stablecoins.completeBurn(stored, session).catch((e: unknown) => e);
    expect([(reused as AuthenticationError).status, (reused as AuthenticationError).code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('re-sends a signed retry that answers PROCESSING; refuses a pending burn edited to reach another URL', async () => {
    const { client, usd, wallet, bank, sent } = await setup();
    const coin = await coinInWallet(client, usd, wallet);
    const session = await signInWithEmailCode(client, wallet);
    await client.sandbox.setWalletProcessing(2);
    sent.length = 0;
    const burn = await client.stablecoins.burn(coin.id, burnBody(wallet, bank), { stamper: session });
    expect(burn.status).toBe('CREATED');
    expect(sent.map((r) => r.stamped)).toEqual([false, true, true, true]);
    expect(await tokensIn(client, wallet)).toBe(1_500);

    const refused = await client.stablecoins.burn(coin.id, burnBody(wallet, bank)).catch((e: unknown) => e);
    const pending = (refused as SignatureRequiredError).pending as unknown as StablecoinBurnSignatureRequired;
    const elsewhere = { ...pending, request: { ...pending.request, path: `/stablecoins/${coin.id}/../../auth/sessions` } };
    await expect(client.stablecoins.completeBurn(elsewhere, session)).rejects.toBeInstanceOf(RailyardError);
    await expect(client.stablecoins.completeBurn({ ...pending, request: { ...pending.request, path: '/customers' } }, session)).rejects.toThrow(/is not POST \/stablecoins\/\{stablecoinId\}\/burns/);
  });

  it("refuses another customer's bank account as the destination: a BadRequestError on destination.externalAccountId", async () => {
    const { client, usd, wallet } = await setup();
    const coin = await coinInWallet(client, usd, wallet);
    const other = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Bob Other', email: 'bob@example.com', currencies: ['USD'] });
    const theirs = await client.externalAccounts.create({
      customerId: other.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bob Other' } },
    });
    const refused = await client.stablecoins.burn(coin.id, burnBody(wallet, theirs.id), { stamper: await signInWithEmailCode(client, wallet) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).code).toBe('INVALID_INPUT');
    expect(await tokensIn(client, wallet)).toBe(2_500);
  });
});

describe('idempotency keys on creates', () => {
  it('sends one on link, register, mint and burn even when the caller asks for none, and keeps the caller\'s own', async () => {
    const { fetch, requests } = fakeFetch([{ status: 201, body: {} }]);
    const client = createClient({ fetch, ...DEFAULT_CREDENTIALS, sandbox: true });
    await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'a', apiClientSecret: 'b' }, { idempotencyKey: null });
    await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' }, { idempotencyKey: 'mine' });
    await client.stablecoins.mint('Stablecoin:1', { amount: '1', fundingSource: { type: 'WIRE' }, destination: { accountId: 'InternalAccount:1' } });
    await client.stablecoins.burn('Stablecoin:1', { amount: '1', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: 'ExternalAccount:1', rail: 'WIRE' } });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^railyard-/);
    expect(keys[1]).toBe('mine');
    expect(new Set(keys).size).toBe(4);
  });
});
