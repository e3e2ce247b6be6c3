import { generateKeyPairSync, sign as ed25519Sign } from 'node:crypto';
import { base58 } from '@scure/base';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError, type RailyardClient } from '@railyard/client';
import { describeOverTransports } from './support/transports.js';

// Wallet-ownership verification end to end through the typed client (SPEC §3.1, §4.1, §4.4), over every transport.
// Signatures come from libraries independent of the engine's verifiers: viem (EIP-191) and node:crypto (Ed25519).
// Bitcoin is not here: no external-account type is a Bitcoin wallet (SPEC §2.1), so the API cannot reach that verifier.

const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const UNKNOWN_ACCOUNT = 'ExternalAccount:00000000-0000-4000-8000-000000000000';
const TEN_MINUTES = 10 * 60 * 1000;

/** A Solana keypair: the base58 public key is the address; `sign` gives the base58 Ed25519 signature a wallet returns. */
const solanaWallet = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const address = base58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
  return { address, sign: async (message: string) => base58.encode(ed25519Sign(null, Buffer.from(message, 'utf8'), privateKey)) };
};

/** A customer's FIRST_PARTY self-custody Base wallet, which starts awaiting ownership verification. */
const customerBaseWallet = async (client: RailyardClient) => {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wanda Wallet' });
  return client.externalAccounts.create({
    customerId: customer.id, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'BASE_WALLET', address: owner.address },
  });
};

/** Starts a WALLET_SIGNATURE challenge on a customer's account and narrows the response to that kind. */
const signatureChallenge = async (client: RailyardClient, accountId: string) => {
  const challenge = await client.externalAccounts.challenge(accountId, { method: 'WALLET_SIGNATURE' });
  if (challenge.method !== 'WALLET_SIGNATURE') throw new Error(`expected a WALLET_SIGNATURE challenge, got ${challenge.method}`);
  return challenge;
};

/** The statuses EXTERNAL_ACCOUNT.STATUS_UPDATED announced for one account, oldest first. */
const announcedStatuses = async (client: RailyardClient, accountId: string) => {
  const page = await client.sandbox.events.list({ type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', limit: 100 });
  const mine = page.data.map((event) => event.data as { id: string; status: string }).filter((account) => account.id === accountId);
  return mine.map((account) => account.status).reverse();
};

const rejection = <T>(promise: Promise<T>) => promise.then(() => undefined, (error: unknown) => error);

describeOverTransports('wallet ownership', (scope) => {
  it('challenge → viem signature over messageToSign → verify makes the account ACTIVE and announces it', async () => {
    const wallet = await customerBaseWallet(scope.client);
    expect(wallet.status).toBe('PENDING_OWNERSHIP_VERIFICATION');

    const now = Date.parse((await scope.client.sandbox.clock.get()).now);
    const challenge = await signatureChallenge(scope.client, wallet.id);
    expect(Date.parse(challenge.expiresAt) - now).toBe(TEN_MINUTES);
    expect(challenge.messageToSign.split('\n')).toEqual([
      'Railyard wallet ownership verification',
      `Account: ${wallet.id}`,
      `Address: ${owner.address}`,
      expect.stringMatching(/^Nonce: [0-9a-f]{32}$/),
      `Expires: ${challenge.expiresAt}`,
    ]);

    const verified = await scope.client.externalAccounts.verify(wallet.id, { signature: await owner.signMessage({ message: challenge.messageToSign }) });
    expect(verified).toMatchObject({ id: wallet.id, status: 'ACTIVE', customerId: wallet.customerId });
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
    expect(await announcedStatuses(scope.client, wallet.id)).toEqual(['ACTIVE']);
  });

  it('proveOwnership on a platform Solana wallet signs the exact message with the given signer', async () => {
    const solana = solanaWallet();
    const wallet = await scope.client.platformExternalAccounts.create({
      currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'SOLANA_WALLET', address: solana.address },
    });
    const signed: string[] = [];
    const verified = await scope.client.platformExternalAccounts.proveOwnership(wallet.id, (message) => {
      signed.push(message);
      return solana.sign(message);
    });
    expect(verified).toMatchObject({ id: wallet.id, status: 'ACTIVE' });
    expect(signed).toHaveLength(1);
    expect(signed[0]).toContain(`Address: ${solana.address}`);
    expect((await scope.client.platformExternalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
  });

  it('a signature by another key is 400 and leaves the account UNVERIFIED; a new challenge signed by the owner succeeds', async () => {
    const wallet = await customerBaseWallet(scope.client);
    const { messageToSign } = await signatureChallenge(scope.client, wallet.id);
    const error = await rejection(scope.client.externalAccounts.verify(wallet.id, { signature: await stranger.signMessage({ message: messageToSign }) }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT', serverMessage: expect.stringContaining('does not verify') });
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');

    // The failed attempt consumed the challenge: retrying the same message is refused until a new challenge starts.
    const retry = await rejection(scope.client.externalAccounts.verify(wallet.id, { signature: await owner.signMessage({ message: messageToSign }) }));
    expect(retry).toBeInstanceOf(ConflictError);

    const verified = await scope.client.externalAccounts.proveOwnership(wallet.id, (message) => owner.signMessage({ message }));
    expect(verified.status).toBe('ACTIVE');
    expect(await announcedStatuses(scope.client, wallet.id)).toEqual(['UNVERIFIED', 'ACTIVE']);
  });

  it('verify without an outstanding challenge is 409; challenging a THIRD_PARTY wallet is 409; unknown accounts are 404', async () => {
    const wallet = await customerBaseWallet(scope.client);
    const error = await rejection(scope.client.externalAccounts.verify(wallet.id, { signature: await owner.signMessage({ message: 'anything' }) }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', serverMessage: expect.stringContaining('no outstanding WALLET_SIGNATURE challenge') });
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');

    const thirdParty = await scope.client.platformExternalAccounts.create({
      currency: 'USDC', ownershipType: 'THIRD_PARTY', accountInfo: { accountType: 'BASE_WALLET', address: stranger.address },
    });
    expect(thirdParty.status).toBe('ACTIVE');
    expect(await rejection(scope.client.platformExternalAccounts.challenge(thirdParty.id, { method: 'WALLET_SIGNATURE' }))).toMatchObject({
      status: 409, code: 'CONFLICT', serverMessage: expect.stringContaining('FIRST_PARTY'),
    });

    const unknownAccountCalls: (() => Promise<unknown>)[] = [
      () => scope.client.externalAccounts.challenge(UNKNOWN_ACCOUNT, { method: 'WALLET_SIGNATURE' }),
      () => scope.client.externalAccounts.verify(UNKNOWN_ACCOUNT, { signature: '0x00' }),
      () => scope.client.platformExternalAccounts.verify(UNKNOWN_ACCOUNT, { signature: '0x00' }),
    ];
    for (const call of unknownAccountCalls) {
      const notFound = await rejection(call());
      expect(notFound).toBeInstanceOf(NotFoundError);
      expect(notFound).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND', serverMessage: expect.stringContaining(UNKNOWN_ACCOUNT) });
    }
  });

  it('a signature submitted once the virtual clock reaches expiresAt is 400 and the account UNVERIFIED', async () => {
    const wallet = await customerBaseWallet(scope.client);
    const challenge = await signatureChallenge(scope.client, wallet.id);
    const signature = await owner.signMessage({ message: challenge.messageToSign });

    const clock = await scope.client.sandbox.clock.advance(TEN_MINUTES);
    expect(clock).toMatchObject({ mode: 'virtual', now: challenge.expiresAt });
    const error = await rejection(scope.client.externalAccounts.verify(wallet.id, { signature }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', serverMessage: expect.stringContaining(`the challenge expired at ${challenge.expiresAt}`) });
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('UNVERIFIED');
    expect(await announcedStatuses(scope.client, wallet.id)).toEqual(['UNVERIFIED']);
  });

  it('a LIVENESS challenge completes 30 s later on the virtual clock: ACTIVE, announced by STATUS_UPDATED', async () => {
    const wallet = await customerBaseWallet(scope.client);
    const challenge = await scope.client.externalAccounts.challenge(wallet.id, { method: 'LIVENESS' });
    if (challenge.method !== 'LIVENESS') throw new Error(`expected a LIVENESS challenge, got ${challenge.method}`);
    expect(challenge.token).toMatch(/^[0-9a-f]{32}$/);
    expect(challenge.verificationLink).toMatch(new RegExp(`/hosted/liveness/[^/?]+\\?token=${challenge.token}$`));

    await scope.client.sandbox.clock.advance(29_999);
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    await scope.client.sandbox.clock.advance(1);
    expect((await scope.client.externalAccounts.retrieve(wallet.id)).status).toBe('ACTIVE');
    expect(await announcedStatuses(scope.client, wallet.id)).toEqual(['ACTIVE']);
  });
});
