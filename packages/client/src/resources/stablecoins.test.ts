import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { APIError, BadRequestError, ConflictError, StablecoinWaitTimeoutError } from '../core/errors.js';
import { fakeFetch } from '../test-support.js';

// client.stablecoins, client.stablecoinProviderAccounts, client.stablecoinOperations and client.sandbox.stablecoins
// against an in-process engine: the calls, the keys they send, pagination and the waits.

async function setup() {
  const engine = createEngine();
  const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sandbox: true, sleep: async () => undefined });
  const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'client-1', apiClientSecret: 'secret' });
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Issuer', email: 'ada@example.com', currencies: ['USD', 'USDB'] });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const wallet = accounts.find((a) => a.balance.currency.code === 'USDB')!.id;
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Issuer' } },
  });
  return { engine, client, link, usd, wallet, bank: bank.id };
}

describe('client.stablecoins', () => {
  it('links, registers, waits for provisioning, enables through the sandbox operator, mints and burns', async () => {
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
    });
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
