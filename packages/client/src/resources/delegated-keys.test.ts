import { createEngine, DEFAULT_CREDENTIALS, type Engine } from '@railyard/engine';
import { encryptOtp, SessionKey } from '@railyard/wallet';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors.js';

// client.auth.delegatedKeys against an in-process engine: the two stamped legs in one call with a stamper, or stamp by
// stamp through signedRetry.complete; reads and revocation; the refusals as typed errors.

let engine: Engine;
let client: RailyardClient;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
  client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, maxRetries: 0 });
});

/** An approved cardholder's embedded wallet funding a card, and a session of the wallet (EMAIL_OTP sign-in). */
async function walletCard() {
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USDB'] });
  const wallet = (await client.internalAccounts.list({ customerId: customer.id })).data.find((a) => a.type === 'EMBEDDED_WALLET')!;
  const card = await client.cards.create({ cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [wallet.id] });
  const email = (await client.auth.credentials.list({ accountId: wallet.id })).data[0]!;
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
  const { publicKeyHex } = await client.sandbox.enclaveKey();
  const session = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: session, pinnedEnclaveKey: publicKeyHex });
  await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: session });
  return { walletId: wallet.id, card, session, body: { cardId: card.id, internalAccountId: wallet.id, nickname: 'Coffee card' } };
}

describe('client.auth.delegatedKeys', () => {
  it('creates an ACTIVE key in one call with a stamper (an Idempotency-Key of its own for each leg), reads and revokes it', async () => {
    const { walletId, card, session, body } = await walletCard();
    const key = await client.auth.delegatedKeys.create(body, { stamper: session, idempotencyKey: 'coffee-key' });
    expect(key).toMatchObject({ cardId: card.id, accountId: walletId, nickname: 'Coffee card', status: 'ACTIVE', publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/) });
    expect(await client.auth.delegatedKeys.retrieve(key.id)).toEqual(key);
    expect(await client.auth.delegatedKeys.list({ fundingSourceId: key.fundingSourceId })).toEqual({ data: [key] });
    const again = await client.auth.delegatedKeys.create(body, { stamper: session }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    await client.auth.delegatedKeys.revoke(key.id);
    expect((await client.auth.delegatedKeys.list({ accountId: walletId })).data.map((k) => k.status)).toEqual(['REVOKED']);
    expect(await client.auth.delegatedKeys.revoke(key.id).catch((e: unknown) => e)).toBeInstanceOf(BadRequestError);
  });

  it('without a stamper: SIGNATURE_REQUIRED, complete with a stamp → the next SIGNATURE_REQUIRED, complete again → the key', async () => {
    const { session, body } = await walletCard();
    const pending = await client.auth.delegatedKeys.create(body);
    if (pending.status !== 'SIGNATURE_REQUIRED') throw new Error('expected a challenge');
    // Stored and loaded as plain JSON, as a backend would while a browser stamps.
    const signer = await client.signedRetry.complete(JSON.parse(JSON.stringify(pending)) as typeof pending, await session.stamp(pending.challenge.payloadToSign));
    if (!('status' in signer) || signer.status !== 'SIGNATURE_REQUIRED') throw new Error('expected the policy challenge');
    expect(signer.challenge.requestId).not.toBe(pending.challenge.requestId);
    expect((await client.auth.delegatedKeys.list({ accountId: body.internalAccountId })).data.map((k) => k.status)).toEqual(['PENDING']);
    const key = await client.signedRetry.complete(signer, await session.stamp(signer.challenge.payloadToSign));
    expect(key).toMatchObject({ status: 'ACTIVE', nickname: 'Coffee card' });
  });

  it('rejects an account that does not fund the card with a NotFoundError, and a list without a filter with a BadRequestError', async () => {
    const { session, body } = await walletCard();
    const other = await walletCard();
    const refused = await client.auth.delegatedKeys.create({ ...body, internalAccountId: other.walletId }, { stamper: session }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotFoundError);
    expect(await client.auth.delegatedKeys.list({}).catch((e: unknown) => e)).toBeInstanceOf(BadRequestError);
  });
});
