import { expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, ConflictError, NotFoundError, type RailyardClient } from '@railyard/client';
import { encryptOtp, SessionKey } from '@railyard/wallet';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Delegated keys through the typed client and @railyard/wallet, over every transport: the three legs, the refusals,
// list/retrieve/revoke, and what an ACTIVE key does: card purchases funded from the embedded wallet.

/** A client for a fresh regulated platform (its customers are APPROVED at creation). */
async function platform(scope: TransportScope): Promise<RailyardClient> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'delegated keys', regulated: true });
  return scope.transport.clientFor(created);
}

/** A cardholder with an embedded wallet holding 50 USDB and a USD account, a card funded by the wallet, and a wallet session. */
async function walletCardholder(client: RailyardClient) {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USD', 'USDB'] });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  await client.sandbox.fundInternalAccount(wallet, 50_000_000);
  const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [wallet] });
  const email = (await client.auth.credentials.list({ accountId: wallet })).data[0]!;
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
  const { publicKeyHex } = await client.sandbox.enclaveKey();
  const session = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: session, pinnedEnclaveKey: publicKeyHex });
  await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: session });
  const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'USDB' })).data[0]!.balance.amount;
  return { customer, wallet, usd, card, session, balance };
}

const purchase = { amount: 1_250, currency: { code: 'USD' }, merchant: { descriptor: 'BLUE BOTTLE COFFEE', mcc: '5814' } };

describeOverTransports('delegated keys', (scope) => {
  it('a wallet funds card purchases only with an ACTIVE delegated key: declined before, pulled from the wallet with it, declined again once revoked', async () => {
    const client = await platform(scope);
    const { wallet, card, session, balance } = await walletCardholder(client);
    const before = await client.sandbox.cards.authorize(card.id, purchase);
    expect(before.simulation).toMatchObject({ outcome: 'DECLINED', declineReason: 'NO_ACTIVE_DELEGATED_KEY' });

    const key = await client.auth.delegatedKeys.create({ cardId: card.id, internalAccountId: wallet, nickname: 'Coffee card' }, { stamper: session });
    expect(key).toMatchObject({ cardId: card.id, accountId: wallet, nickname: 'Coffee card', status: 'ACTIVE' });
    expect(key.id).toMatch(/^DelegatedKey:/);
    expect(key.fundingSourceId).toMatch(/^CardFundingSource:/);
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);

    const approved = await client.sandbox.cards.authorize(card.id, purchase);
    expect(approved.transaction).toMatchObject({ status: 'AUTHORIZED', accountId: wallet, pullSummary: { totalAmount: 12_500_000 } });
    // 12.50 USD pulled as 12.500000 USDB.
    expect(await balance()).toBe(37_500_000);

    await client.auth.delegatedKeys.revoke(key.id);
    expect((await client.auth.delegatedKeys.retrieve(key.id)).status).toBe('REVOKED');
    expect((await client.sandbox.cards.authorize(card.id, purchase)).simulation).toMatchObject({ outcome: 'DECLINED', declineReason: 'NO_ACTIVE_DELEGATED_KEY' });
    expect(await balance()).toBe(37_500_000);
  });

  it('stamp by stamp: 202, 202 (PENDING, listed), 201 ACTIVE; one ACTIVE key per funding source; a flow left after leg 2 blocks nothing', async () => {
    const client = await platform(scope);
    const { wallet, card, session } = await walletCardholder(client);
    const body = { cardId: card.id, internalAccountId: wallet, nickname: 'Stamp by stamp' };
    const keyPair = await client.auth.delegatedKeys.create(body);
    if (keyPair.status !== 'SIGNATURE_REQUIRED') throw new Error('expected the first challenge');
    expect(Object.keys(keyPair.challenge).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    const policy = await client.signedRetry.complete(keyPair, await session.stamp(keyPair.challenge.payloadToSign));
    if (!('status' in policy) || policy.status !== 'SIGNATURE_REQUIRED') throw new Error('expected the policy challenge');
    expect((await client.auth.delegatedKeys.list({ accountId: wallet })).data.map((k) => k.status)).toEqual(['PENDING']);
    const active = await client.signedRetry.complete(policy, await session.stamp(policy.challenge.payloadToSign));
    if ('challenge' in active) throw new Error('expected the key');
    expect(active).toMatchObject({ status: 'ACTIVE', nickname: 'Stamp by stamp' });
    expect(await client.auth.delegatedKeys.create({ ...body, nickname: 'Second' }).catch((e: unknown) => e)).toBeInstanceOf(ConflictError);
    await client.auth.delegatedKeys.revoke(active.id);

    // Left after its second leg: the key stays PENDING, cannot be revoked, and blocks nothing.
    const left = await client.auth.delegatedKeys.create({ ...body, nickname: 'Left PENDING' });
    if (left.status !== 'SIGNATURE_REQUIRED') throw new Error('expected the first challenge');
    expect(await client.signedRetry.complete(left, await session.stamp(left.challenge.payloadToSign))).toMatchObject({ status: 'SIGNATURE_REQUIRED' });
    const third = await client.auth.delegatedKeys.create({ ...body, nickname: 'Third' }, { stamper: session });
    expect(third).toMatchObject({ status: 'ACTIVE', fundingSourceId: active.fundingSourceId });
    const listed = (await client.auth.delegatedKeys.list({ fundingSourceId: third.fundingSourceId })).data;
    expect(listed.map((k) => [k.nickname, k.status])).toEqual([['Stamp by stamp', 'REVOKED'], ['Left PENDING', 'PENDING'], ['Third', 'ACTIVE']]);
    expect(await client.auth.delegatedKeys.revoke(listed[1]!.id).catch((e: unknown) => e)).toBeInstanceOf(BadRequestError);
  });

  it('refuses: 404 card, account not a wallet, wallet not funding the card; 401 a stamp of another key; 400 a list without a filter', async () => {
    const client = await platform(scope);
    const { wallet, usd, card, session } = await walletCardholder(client);
    const other = await walletCardholder(client);
    const create = (body: { cardId: string; internalAccountId: string }, stamper = session) =>
      client.auth.delegatedKeys.create({ ...body, nickname: 'x' }, { stamper }).catch((e: unknown) => e);
    expect(await create({ cardId: 'Card:00000000-0000-4000-8000-000000000000', internalAccountId: wallet })).toBeInstanceOf(NotFoundError);
    expect(await create({ cardId: card.id, internalAccountId: usd })).toBeInstanceOf(NotFoundError);
    expect(await create({ cardId: card.id, internalAccountId: other.wallet })).toBeInstanceOf(NotFoundError);
    const foreign = await create({ cardId: card.id, internalAccountId: wallet }, other.session);
    expect(foreign).toBeInstanceOf(AuthenticationError);
    expect((foreign as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
    expect(await client.auth.delegatedKeys.list({}).catch((e: unknown) => e)).toBeInstanceOf(BadRequestError);
    expect(await client.auth.delegatedKeys.retrieve('DelegatedKey:00000000-0000-4000-8000-000000000000').catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    expect((await client.auth.delegatedKeys.list({ accountId: wallet })).data).toEqual([]);
  });
});
