import { expect, it } from 'vitest';
import { APIError, AuthenticationError, BadRequestError, ConflictError, NotFoundError, SignatureRequiredError, type RailyardClient, type StablecoinOperation } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';
import { signInWithEmailCode } from './support/wallet-session.js';

// Stablecoin issuance through the typed client, over every transport (SPEC §3.7; REFERENCE §10, §17): the link and its
// statuses, registration and each issuance outcome, enablement, each mint funding source and burn source to
// completion, the waits that expire or fail, and each error code. A burn from an embedded wallet is the wallet's signed
// action, paid out to its owner's bank account only (issue 32).

const SPARK_ADDRESS = 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc';
const DAY = 24 * 3_600_000;

/** A fresh platform with a linked provider account. */
async function platform(scope: TransportScope) {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'stablecoins' });
  const client = scope.transport.clientFor(created);
  const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'scenario-client', apiClientSecret: 'secret' });
  return { client, link };
}

/** A coin registered, provisioned and enabled; a customer with USD, an embedded wallet, a bank account and a Spark wallet. */
async function issuer(client: RailyardClient) {
  const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' });
  await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
  await client.stablecoins.requestEnablement(coin.id);
  await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED');
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Issuer', email: 'ada@example.com', currencies: ['USD', 'USDB'] });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const wallet = accounts.find((a) => a.balance.currency.code === 'USDB')!.id;
  const bank = async (accountNumber: string) => (await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Issuer' } },
  })).id;
  const spark = (await client.externalAccounts.create({ customerId: customer.id, currency: 'USDB', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_ADDRESS } })).id;
  return { coin, customer, usd, wallet, spark, bank: await bank('1234567890'), failingBank: await bank('1234567004') };
}


/** The tokens an internal account holds, in cents, from the platform's ledger. */
async function tokensIn(client: RailyardClient, accountId: string): Promise<number> {
  const ledger = ((await client.sandbox.snapshot()).collections.ledger ?? []) as { postings: { account: string; amount: number }[] }[];
  return ledger.flatMap((e) => e.postings).filter((p) => p.account === `tokens:${accountId}`).reduce((sum, p) => sum + p.amount, 0);
}

const settle = (client: RailyardClient, operation: StablecoinOperation) => client.stablecoinOperations.waitFor(operation.id, { advanceClock: 3_600_000, timeout: 2 * DAY });

describeOverTransports('stablecoins', (scope) => {
  it('links (refused credentials 002, several accounts 003), registers through each issuance outcome, and lists', async () => {
    const { client, link } = await platform(scope);
    await expect(client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'x-002', apiClientSecret: 's' }))
      .rejects.toMatchObject({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID' });
    await expect(client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'x-003', apiClientSecret: 's' }))
      .rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const second = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'x-003', apiClientSecret: 's', providerAccountId: 'acct-2' });
    await expect(client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'x-004', apiClientSecret: 's', providerAccountId: 'acct-2' })).rejects.toBeInstanceOf(ConflictError);
    await expect(client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' }))
      .rejects.toMatchObject({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED' });
    const register = (token: string) => client.stablecoins.register({ providerTokenIdentifier: token, networkTokenIdentifier: `btkn1${token}`, network: 'SPARK', stablecoinProviderAccountId: link.id });
    const [good, rejected, failed] = [await register('usdx'), await register('tok-002'), await register('tok-003')];
    expect(good).toMatchObject({ issuanceStatus: 'PENDING_REVIEW', serviceOperationsStatus: 'NOT_ENABLED', stablecoinProviderAccountId: link.id, decimals: 6 });
    expect((await client.stablecoins.waitFor(good.id, { advanceClock: 60_000 })).issuanceStatus).toBe('PROVISIONED');
    expect((await client.stablecoins.retrieve(rejected.id)).issuanceStatus).toBe('REJECTED');
    expect((await client.stablecoins.retrieve(failed.id)).issuanceStatus).toBe('FAILED');
    await expect(register('usdx')).rejects.toBeInstanceOf(ConflictError);
    const provisioned: string[] = [];
    for await (const coin of client.stablecoins.list({ issuanceStatus: 'PROVISIONED', limit: 1 })) provisioned.push(coin.id);
    expect(provisioned).toEqual([good.id]);
    const links = (await client.stablecoinProviderAccounts.list()).data.map((a) => a.id);
    expect(links).toEqual([second.id, link.id]);
    await expect(client.stablecoinProviderAccounts.retrieve('StablecoinProviderAccount:none')).rejects.toMatchObject({ status: 404, code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND' });
  });

  it('enablement: NOT_ENABLED → PENDING_APPROVAL (twice), 409 from the operator states; mints need ENABLED', async () => {
    const { client } = await platform(scope);
    const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK' });
    await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
    expect((await client.stablecoins.requestEnablement(coin.id)).serviceOperationsStatus).toBe('PENDING_APPROVAL');
    expect((await client.stablecoins.requestEnablement(coin.id)).serviceOperationsStatus).toBe('PENDING_APPROVAL');
    const mint = () => client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: 'ExternalAccount:x' } });
    await expect(mint()).rejects.toBeInstanceOf(ConflictError);
    for (const status of ['ENABLING', 'ENABLED', 'DISABLED'] as const) {
      await client.sandbox.stablecoins.setOperationsStatus(coin.id, status);
      await expect(client.stablecoins.requestEnablement(coin.id)).rejects.toMatchObject({ status: 409, code: 'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE' });
    }
    expect((await client.stablecoins.retrieve(coin.id))).toMatchObject({ serviceOperationsStatus: 'DISABLED', currency: 'USDX' });
  });

  it('mints from each funding source to completion, and burns each source back to a bank account; the reserve follows', async () => {
    const { client } = await platform(scope);
    const { coin, customer, usd, wallet, spark, bank } = await issuer(client);
    await client.sandbox.fundInternalAccount(usd, 5_000);
    const fromAccount = await client.stablecoins.mint(coin.id, { amount: '20000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd }, destination: { accountId: wallet } });
    expect((await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount).toBe(3_000);
    const wire = await client.stablecoins.mint(coin.id, { amount: '10000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark } });
    expect(wire).toMatchObject({ status: 'CREATED', fundingInstructions: { rail: 'WIRE' }, expiresAt: expect.any(String) });
    expect((await client.stablecoinOperations.waitFor(wire.id, { advanceClock: true, until: (o) => o.status === 'PENDING_FUNDING' })).status).toBe('PENDING_FUNDING');
    await client.sandbox.stablecoins.fundOperation(wire.id);
    const ach = await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'ACH_DEBIT', externalAccountId: bank }, destination: { accountId: wallet } });
    const sameDay = await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: bank }, destination: { accountId: wallet } });
    const provider = await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'usdc', cryptoNetwork: 'SOLANA' }, destination: { accountId: spark } });
    for (const operation of [fromAccount, wire, ach, sameDay, provider]) expect((await settle(client, operation)).status).toBe('COMPLETED');

    const burnTo = (rail: 'WIRE' | 'ACH_CREDIT' | 'SAME_DAY_ACH_CREDIT' | 'RTP_CREDIT') => ({ type: 'EXTERNAL_ACCOUNT' as const, externalAccountId: bank, rail });
    const fromWallet = await client.stablecoins.burn(coin.id, { amount: '30000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: burnTo('ACH_CREDIT') }, { stamper: await signInWithEmailCode(client, wallet) });
    const fromProvider = await client.stablecoins.burn(coin.id, { amount: '5000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: burnTo('RTP_CREDIT') });
    const fromOutside = await client.stablecoins.burn(coin.id, { amount: '10000000', source: { type: 'EXTERNAL_ACCOUNT' }, destination: burnTo('SAME_DAY_ACH_CREDIT') });
    expect(fromOutside.fundingInstructions).toMatchObject({ network: 'SPARK', valueType: 'usdx' });
    await client.stablecoinOperations.waitFor(fromOutside.id, { advanceClock: true, until: (o) => o.status === 'PENDING_FUNDING' });
    await client.sandbox.stablecoins.fundOperation(fromOutside.id);
    for (const operation of [fromWallet, fromProvider, fromOutside]) expect((await settle(client, operation)).status).toBe('COMPLETED');

    // Everything minted came back: 450 dollars in, 450 out, the reserve empty.
    const snapshot = await client.sandbox.snapshot();
    const reserve = (snapshot.collections.ledger as { postings: { account: string; amount: number }[] }[])
      .flatMap((entry) => entry.postings).filter((p) => p.account === `stablecoin-reserve:${coin.id}`);
    expect(reserve.filter((p) => p.amount > 0).reduce((s, p) => s + p.amount, 0)).toBe(4_500);
    expect(reserve.reduce((s, p) => s + p.amount, 0)).toBe(0);
    const types: string[] = [];
    for await (const operation of client.stablecoins.listOperations(coin.id, { operationType: 'BURN' })) types.push(operation.operationType);
    expect(types).toEqual(['BURN', 'BURN', 'BURN']);
  });

  it('fails and expires: a failing debit, a refused payout (tokens returned), a wire that never comes, another amount', async () => {
    const { client } = await platform(scope);
    const { coin, usd, wallet, spark, failingBank } = await issuer(client);
    const debit = await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'ACH_DEBIT', externalAccountId: failingBank }, destination: { accountId: wallet } });
    expect(await settle(client, debit)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    await client.sandbox.fundInternalAccount(usd, 1_000);
    await settle(client, await client.stablecoins.mint(coin.id, { amount: '10000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd }, destination: { accountId: wallet } }));
    const session = await signInWithEmailCode(client, wallet);
    const refused = await client.stablecoins.burn(coin.id, { amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: failingBank, rail: 'WIRE' } }, { stamper: session });
    expect(await settle(client, refused)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    // The tokens went back to the wallet: they can be burnt again (by a new session: hours passed, the first one expired).
    const later = client.stablecoins.burn(coin.id, { amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: failingBank, rail: 'RTP_CREDIT' } }, { stamper: session });
    await expect(later).rejects.toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
    await expect(client.stablecoins.burn(coin.id, { amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: failingBank, rail: 'RTP_CREDIT' } }, { stamper: await signInWithEmailCode(client, wallet) }))
      .resolves.toMatchObject({ status: 'CREATED' });

    const never = await client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark } });
    const mismatched = await client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark } });
    await client.stablecoinOperations.waitFor(mismatched.id, { advanceClock: true, until: (o) => o.status === 'PENDING_FUNDING' });
    expect(await client.sandbox.stablecoins.fundOperation(mismatched.id, { amount: '2000000' })).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH' });
    expect((await settle(client, never)).status).toBe('EXPIRED');
    await expect(client.sandbox.stablecoins.fundOperation(never.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("a burn from a customer's wallet: refused on platform credentials alone (nothing moves), to another customer's bank (400), and run by the wallet's signature", async () => {
    const { client } = await platform(scope);
    const { coin, customer, usd, wallet, bank } = await issuer(client);
    await client.sandbox.fundInternalAccount(usd, 2_500);
    await settle(client, await client.stablecoins.mint(coin.id, { amount: '25000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd }, destination: { accountId: wallet } }));
    const bob = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Bob Other', email: 'bob@example.com', currencies: ['USD', 'USDB'] });
    const bobBank = (await client.externalAccounts.create({
      customerId: bob.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bob Other' } },
    })).id;
    const body = (externalAccountId: string) => ({
      amount: '10000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT' as const, accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT' as const, externalAccountId, rail: 'RTP_CREDIT' as const },
    });
    const holdings = async () => {
      const { signedRequests: _challenges, ...rest } = (await client.sandbox.snapshot()).collections;
      return rest;
    };

    // Platform credentials alone: the wallet's challenge, and nothing moves.
    const before = await holdings();
    const unsigned = await client.stablecoins.burn(coin.id, body(bank), { idempotencyKey: 'wallet-burn' }).catch((e: unknown) => e);
    expect(unsigned).toBeInstanceOf(SignatureRequiredError);
    const pending = (unsigned as SignatureRequiredError).pending as unknown as Parameters<RailyardClient['stablecoins']['completeBurn']>[0];
    expect(Object.keys(pending.challenge).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(await holdings()).toEqual(before);
    expect(await tokensIn(client, wallet)).toBe(2_500);

    // Another customer's session may not sign it; another customer's bank account is no destination, signed or not.
    const bobWallet = (await client.internalAccounts.list({ customerId: bob.id, currency: 'USDB' })).data[0]!.id;
    const foreign = await client.stablecoins.completeBurn(pending, await signInWithEmailCode(client, bobWallet)).catch((e: unknown) => e);
    expect([(foreign as AuthenticationError).status, (foreign as AuthenticationError).code]).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
    const session = await signInWithEmailCode(client, wallet);
    const elsewhere = await client.stablecoins.burn(coin.id, body(bobBank), { stamper: session }).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(BadRequestError);
    expect((elsewhere as BadRequestError).details).toMatchObject({
      errors: [{ field: 'destination.externalAccountId', message: expect.stringContaining(`must be a bank account of customer ${customer.id}`) }],
    });
    expect(await tokensIn(client, wallet)).toBe(2_500);
    expect((await client.stablecoins.listOperations(coin.id, { operationType: 'BURN' })).data).toEqual([]);

    // The wallet's own session signs: the burn takes its tokens, and the fiat reaches its owner's bank account.
    const signed = await client.stablecoins.completeBurn(pending, session, { idempotencyKey: 'wallet-burn' });
    expect(signed).toMatchObject({ operationType: 'BURN', status: 'CREATED', source: { accountId: wallet }, destination: { accountId: bank } });
    expect(await tokensIn(client, wallet)).toBe(1_500);
    expect(await settle(client, signed)).toMatchObject({ status: 'COMPLETED', destination: { accountId: bank } });
    // Under the same key the burn replays; it is not made twice.
    const replay = await client.stablecoins.burn(coin.id, body(bank), { idempotencyKey: 'wallet-burn' });
    expect(replay.id).toBe(signed.id);
    expect((await client.stablecoins.listOperations(coin.id, { operationType: 'BURN' })).data.map((o) => o.id)).toEqual([signed.id]);
    expect(await tokensIn(client, wallet)).toBe(1_500);
  });

  it('each refusal: amounts, destinations, balances, link statuses, provider down (503), unknown ids, the Idempotency-Key', async () => {
    const { client, link } = await platform(scope);
    const { coin, usd, wallet, spark } = await issuer(client);
    const mint = (body: Partial<Parameters<RailyardClient['stablecoins']['mint']>[1]>) =>
      client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark }, ...body });
    const fractional = await mint({ amount: '1000001' }).catch((e: unknown) => e);
    expect(fractional).toBeInstanceOf(BadRequestError);
    expect((fractional as BadRequestError).details).toMatchObject({ errors: [{ field: 'amount' }] });
    await expect(mint({ destination: { accountId: usd } })).rejects.toMatchObject({ status: 400, details: { errors: [{ field: 'destination.accountId' }] } });
    await expect(mint({ fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd } })).rejects.toMatchObject({ status: 409, details: { reason: 'INSUFFICIENT_BALANCE' } });
    await expect(client.stablecoins.burn(coin.id, { amount: '1000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: wallet }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: spark, rail: 'WIRE' } }))
      .rejects.toMatchObject({ status: 400, details: { errors: [{ field: 'destination.externalAccountId' }] } });
    await expect(mint({ destination: { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001' } })).rejects.toBeInstanceOf(NotFoundError);

    await client.sandbox.stablecoins.setProviderAccountStatus(link.id, 'INVALID');
    await expect(mint({})).rejects.toMatchObject({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID' });
    await client.sandbox.stablecoins.setProviderAccountStatus(link.id, 'REVOKED');
    await expect(mint({})).rejects.toMatchObject({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED' });
    await client.sandbox.stablecoins.setProviderAccountStatus(link.id, 'ACTIVE');
    await client.sandbox.stablecoins.setProviderAvailability(false);
    const down = await mint({}).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(APIError);
    expect(down).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    await client.sandbox.stablecoins.setProviderAvailability(true);
    await expect(client.stablecoins.retrieve('Stablecoin:none')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.stablecoinOperations.retrieve('StablecoinOperation:none')).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.stablecoins.listOperations(coin.id)).data).toEqual([]);

    // A replay under one key answers the first operation, and creates nothing more.
    const first = await mint({ description: 'once' });
    const replay = await client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark }, description: 'once' }, { idempotencyKey: first.id });
    const again = await client.stablecoins.mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark }, description: 'once' }, { idempotencyKey: first.id });
    expect(again).toEqual(replay);
    expect((await client.stablecoins.listOperations(coin.id)).totalCount).toBe(2);
  });
});
