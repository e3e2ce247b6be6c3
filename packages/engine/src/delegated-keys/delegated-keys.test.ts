import { p256 } from '@noble/curves/nist.js';
import { bytesToHex } from '@railyard/contract';
import { SessionKey, signedRetryHeaders } from '@railyard/wallet';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { delegatedKeyLegs, walletSession } from '../../../../test/support/wallet-signing.js';

// Delegated keys: the three-leg creation, reads, revocation, and what an ACTIVE key does: card pulls from the wallet.

let engine: Engine;
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});

/** An approved cardholder with a USD account and an embedded wallet, a card funded by the wallet, and a session of it. */
async function walletCard(fundedBy: 'wallet' | 'wallet and usd' = 'wallet') {
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USD', 'USDB'] })).body;
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[];
  const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id as string;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id as string;
  const card = (await call('POST', '/cards', { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: fundedBy === 'wallet' ? [wallet] : [wallet, usd] })).body;
  expect(card.id).toMatch(/^Card:/);
  return { customer, wallet, usd, card, key: await walletSession(engine, wallet), body: { cardId: card.id, internalAccountId: wallet, nickname: 'Coffee card' } };
}

const headersFor = async (challenge: Json, key: SessionKey) => ({ ...(await signedRetryHeaders(challenge as never, key)) });

/**
 * Whether any 64-hex-digit string in `text` is the P-256 private key of one of `publicKeys` (compressed hex): the
 * search for a private key kept anywhere in a state.
 */
function holdsPrivateKeyOf(text: string, publicKeys: readonly string[]): boolean {
  for (const [candidate] of text.matchAll(/[0-9a-f]{64}/gi)) {
    let derived: string;
    try {
      derived = bytesToHex(p256.getPublicKey(Uint8Array.from(candidate.match(/../g)!.map((h) => parseInt(h, 16))), true));
    } catch {
      continue;
    }
    if (publicKeys.includes(derived)) return true;
  }
  return false;
}

describe('creating a delegated key', () => {
  it('takes three legs with the same body: 202 (the key pair is made), 202 (PENDING), then 201 ACTIVE', async () => {
    const { wallet, card, key, body } = await walletCard();
    const [first, second, third] = await delegatedKeyLegs(engine, body, key);
    expect(first!.status).toBe(202);
    // A delegated-key challenge carries no `type`.
    expect(Object.keys(first!.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    const keyPair = JSON.parse(first!.body.payloadToSign);
    expect(keyPair).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_API_KEYS', parameters: { cardId: card.id, nickname: 'Coffee card', publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/) } });

    expect(second!.status).toBe(202);
    expect(second!.body.requestId).not.toBe(first!.body.requestId);
    const policy = JSON.parse(second!.body.payloadToSign);
    expect(policy).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_POLICY', parameters: { publicKey: keyPair.parameters.publicKey, fundingSourceId: keyPair.parameters.fundingSourceId } });

    expect(third!.status).toBe(201);
    const created = third!.body;
    expect(created).toEqual({
      id: policy.parameters.delegatedKeyId, cardId: card.id, fundingSourceId: keyPair.parameters.fundingSourceId, accountId: wallet,
      publicKey: keyPair.parameters.publicKey, nickname: 'Coffee card', status: 'ACTIVE', createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(created.id).toMatch(/^DelegatedKey:[0-9a-f-]{36}$/);
    expect(created.fundingSourceId).toMatch(/^CardFundingSource:[0-9a-f-]{36}$/);
    expect((await call('GET', `/auth/delegated-keys/${created.id}`)).body).toEqual(created);
    expect((await call('GET', `/auth/delegated-keys?accountId=${wallet}`)).body).toEqual({ data: [created] });
    expect((await call('GET', `/auth/delegated-keys?fundingSourceId=${created.fundingSourceId}&accountId=${wallet}`)).body).toEqual({ data: [created] });
    // The private half is kept nowhere: not in the state (a snapshot), not in an answer.
    const state = JSON.stringify(engine.sandbox().snapshot());
    expect(state).not.toContain('privateKeyHex');
    expect(holdsPrivateKeyOf(state, [created.publicKey])).toBe(false);
    expect(holdsPrivateKeyOf(JSON.stringify([first, second, third]), [created.publicKey])).toBe(false);
  });

  it('no private key in the state at any leg: the draft of leg 1 and the PENDING key of leg 2 keep the public key only', async () => {
    const { key, body } = await walletCard();
    const first = (await call('POST', '/auth/delegated-keys', body)).body;
    const publicKey = JSON.parse(first.payloadToSign).parameters.publicKey as string;
    const afterFirst = JSON.stringify(engine.sandbox().snapshot());
    expect(afterFirst).toContain(publicKey);
    expect(afterFirst).not.toContain('privateKeyHex');
    expect(holdsPrivateKeyOf(afterFirst, [publicKey])).toBe(false);
    await call('POST', '/auth/delegated-keys', body, await headersFor(first, key));
    const afterSecond = JSON.stringify(engine.sandbox().snapshot());
    expect(afterSecond).not.toContain('privateKeyHex');
    expect(holdsPrivateKeyOf(afterSecond, [publicKey])).toBe(false);
  });

  it('a snapshot taken when private keys were kept still restores: the privateKeyHex fields are left out', async () => {
    const { key, body } = await walletCard();
    const first = (await call('POST', '/auth/delegated-keys', body)).body;
    const second = (await call('POST', '/auth/delegated-keys', body, await headersFor(first, key))).body;
    const old = structuredClone(engine.sandbox().snapshot()) as Json;
    const privateKeyHex = 'ab'.repeat(32);
    old.collections.delegatedKeys = old.collections.delegatedKeys.map((k: Json) => ({ ...k, privateKeyHex }));
    // A draft of another flow, as leg 1 used to keep it.
    const [pending] = old.collections.delegatedKeys as Json[];
    old.collections.delegatedKeyDrafts = [{
      id: 'draft-request', cardId: pending!.cardId, fundingSourceId: pending!.fundingSourceId, accountId: pending!.accountId, nickname: 'old draft',
      publicKey: pending!.publicKey, privateKeyHex, expiresAt: new Date(engine.clock.now() + 60_000).toISOString(),
    }];
    const restored = createEngine({ platform: { regulated: true } });
    restored.sandbox().restore(old);
    expect(JSON.stringify(restored.sandbox().snapshot())).not.toContain(privateKeyHex);
    expect(restored.sandbox().snapshot().collections.delegatedKeyDrafts).toHaveLength(1);
    const third = await callApi(restored, 'POST', '/auth/delegated-keys', body, await headersFor(second, key));
    expect(third.status).toBe(201);
    restored.close();
  });

  it('the funding source id is stable for the card and wallet: a second key after revoking the first names the same one', async () => {
    const { key, body } = await walletCard();
    const first = (await delegatedKeyLegs(engine, body, key)).at(-1)!.body;
    expect((await call('DELETE', `/auth/delegated-keys/${first.id}`)).status).toBe(204);
    const second = (await delegatedKeyLegs(engine, { ...body, nickname: 'Second' }, key)).at(-1)!.body;
    expect(second).toMatchObject({ status: 'ACTIVE', fundingSourceId: first.fundingSourceId });
    expect(second.id).not.toBe(first.id);
    expect(second.publicKey).not.toBe(first.publicKey);
  });

  it('refuses a bad body listing every field, an unknown card, an account that is no wallet or does not fund the card (404)', async () => {
    const { usd, card, body } = await walletCard();
    const bad = await call('POST', '/auth/delegated-keys', { cardId: 42, nickname: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['cardId', 'internalAccountId', 'nickname']);
    expect((await call('POST', '/auth/delegated-keys', { ...body, nickname: 'x'.repeat(257) })).status).toBe(400);
    const unknownCard = await call('POST', '/auth/delegated-keys', { ...body, cardId: 'Card:00000000-0000-4000-8000-000000000000' });
    expect([unknownCard.status, unknownCard.body.code]).toEqual([404, 'REFERENCE_NOT_FOUND']);
    const notWallet = await call('POST', '/auth/delegated-keys', { ...body, internalAccountId: usd });
    expect([notWallet.status, notWallet.body.message]).toEqual([404, `Embedded wallet ${usd} was not found`]);
    const other = await walletCard();
    const notBound = await call('POST', '/auth/delegated-keys', { ...body, internalAccountId: other.wallet });
    expect([notBound.status, notBound.body.message]).toEqual([404, `Funding source ${other.wallet} of card ${card.id} was not found`]);
    expect((await call('GET', `/auth/delegated-keys?accountId=${body.internalAccountId}`)).body).toEqual({ data: [] });
  });

  it('refuses signatures as every signed retry does (401), and a used challenge', async () => {
    const { key, body } = await walletCard();
    const first = (await call('POST', '/auth/delegated-keys', body)).body;
    const signed = await headersFor(first, key);
    const refusal = async (headers: Record<string, string>, sent: Json = body) => {
      const answer = await call('POST', '/auth/delegated-keys', sent, headers);
      return [answer.status, answer.body.code];
    };
    expect(await refusal({ 'Request-Id': first.requestId })).toEqual([401, 'WALLET_SIGNATURE_MISSING']);
    expect(await refusal({ 'Service-Wallet-Signature': signed['Service-Wallet-Signature'] })).toEqual([401, 'REQUEST_ID_MISSING']);
    expect(await refusal({ ...signed, 'Service-Wallet-Signature': 'not a stamp' })).toEqual([401, 'WALLET_SIGNATURE_MALFORMED']);
    expect(await refusal({ ...signed, 'Request-Id': 'Request:00000000-0000-4000-8000-000000000000' })).toEqual([401, 'UNAUTHORIZED']);
    expect(await refusal(signed, { ...body, nickname: 'Another' })).toEqual([401, 'WALLET_SIGNATURE_BODY_MISMATCH']);
    expect(await refusal(await headersFor(first, await SessionKey.generate()))).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
    // None of these used the challenge: the right stamp still passes, once.
    const second = await call('POST', '/auth/delegated-keys', body, signed);
    expect(second.status).toBe(202);
    expect(await refusal(signed)).toEqual([401, 'UNAUTHORIZED']);
    const third = await call('POST', '/auth/delegated-keys', body, await headersFor(second.body, key));
    expect(third.status).toBe(201);
    expect(await refusal(await headersFor(second.body, key))).toEqual([409, 'CONFLICT']);
  });

  it('a refused request records nothing, not even the funding source binding', async () => {
    const { key, body } = await walletCard();
    const before = engine.sandbox().snapshot().collections;
    const refused = await call('POST', '/auth/delegated-keys', body, { 'Service-Wallet-Signature': await key.stamp('x'), 'Request-Id': 'Request:00000000-0000-4000-8000-000000000000' });
    expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(engine.sandbox().snapshot().collections).toEqual(before);
    expect(before.cardFundingSources ?? []).toEqual([]);
  });

  it('a flow left after leg 2 stays PENDING and blocks nothing; an ACTIVE key blocks a new one (409) until revoked', async () => {
    const { wallet, key, body } = await walletCard();
    const first = (await call('POST', '/auth/delegated-keys', body)).body;
    const second = await call('POST', '/auth/delegated-keys', body, await headersFor(first, key));
    expect(second.status).toBe(202);
    const pending = (await call('GET', `/auth/delegated-keys?accountId=${wallet}`)).body.data as Json[];
    expect(pending.map((k) => k.status)).toEqual(['PENDING']);
    const done = (await delegatedKeyLegs(engine, body, key)).at(-1)!;
    expect(done.body.status).toBe('ACTIVE');
    const conflict = await call('POST', '/auth/delegated-keys', body);
    expect([conflict.status, conflict.body.code]).toEqual([409, 'CONFLICT']);
    // The abandoned flow's policy challenge cannot make a second ACTIVE key either.
    const late = await call('POST', '/auth/delegated-keys', body, await headersFor(second.body, key));
    expect(late.status).toBe(409);
    const statuses = async () => ((await call('GET', `/auth/delegated-keys?accountId=${wallet}`)).body.data as Json[]).map((k) => k.status);
    expect(await statuses()).toEqual(['PENDING', 'ACTIVE']);
    const pendingKey = pending[0]!.id as string;
    const revokePending = await call('DELETE', `/auth/delegated-keys/${pendingKey}`);
    expect([revokePending.status, revokePending.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect((await call('DELETE', `/auth/delegated-keys/${done.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/auth/delegated-keys/${done.body.id}`)).status).toBe(400);
    expect(await statuses()).toEqual(['PENDING', 'REVOKED']);
    expect((await call('POST', '/auth/delegated-keys', body)).status).toBe(202);
  });
});

describe('reading and revoking', () => {
  it('lists by wallet and/or funding source (one at least: else 400), gets (404 unknown), revokes (404 unknown)', async () => {
    const noFilter = await call('GET', '/auth/delegated-keys');
    expect(noFilter.status).toBe(400);
    expect(noFilter.body.details.errors.map((e: Json) => e.field)).toEqual(['accountId', 'fundingSourceId']);
    expect((await call('GET', '/auth/delegated-keys?fundingSourceId=CardFundingSource:none')).body).toEqual({ data: [] });
    const unknown = 'DelegatedKey:00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/auth/delegated-keys/${unknown}`)).status).toBe(404);
    expect((await call('DELETE', `/auth/delegated-keys/${unknown}`)).status).toBe(404);
    const { wallet, key, body } = await walletCard();
    const active = (await delegatedKeyLegs(engine, body, key)).at(-1)!.body;
    expect((await call('GET', `/auth/delegated-keys?accountId=${wallet}&fundingSourceId=CardFundingSource:other`)).body).toEqual({ data: [] });
    expect((await call('DELETE', `/auth/delegated-keys/${active.id}`)).status).toBe(204);
    const revoked = (await call('GET', `/auth/delegated-keys/${active.id}`)).body;
    expect(revoked).toMatchObject({ status: 'REVOKED', publicKey: active.publicKey });
    expect((engine.sandbox().snapshot().collections.delegatedKeys as Json[])[0]).not.toHaveProperty('privateKeyHex');
  });

  it('keys, drafts and bindings survive a snapshot and restore: a flow started before finishes after', async () => {
    const { key, body } = await walletCard();
    const first = (await call('POST', '/auth/delegated-keys', body)).body;
    const second = (await call('POST', '/auth/delegated-keys', body, await headersFor(first, key))).body;
    const snapshot = engine.sandbox().snapshot();
    const restored = createEngine({ platform: { regulated: true } });
    restored.sandbox().restore(snapshot);
    const third = await callApi(restored, 'POST', '/auth/delegated-keys', body, await headersFor(second, key));
    expect(third.status).toBe(201);
    expect(third.body.publicKey).toBe(JSON.parse(first.payloadToSign).parameters.publicKey);
    restored.close();
  });
});

describe('what an ACTIVE key does: card pulls from the wallet', () => {
  const USD = { code: 'USD' };
  const merchant = { descriptor: 'BLUE BOTTLE COFFEE', mcc: '5814', country: 'US' };
  const simulate = async (cardId: string, kind: string, sent: Json) => {
    const answer = await call('POST', `/sandbox/cards/${cardId}/simulate/${kind}`, sent);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    return (await call('GET', `/_sandbox/cards/simulations/${answer.body.issuerTransactionToken}`)).body;
  };
  const balanceOf = async (accountId: string) => (await call('GET', '/customers/internal-accounts?limit=100')).body.data.find((a: Json) => a.id === accountId).balance.amount;

  it('declines a purchase only the wallet could fund until an ACTIVE key exists, then pulls from it; a revoked key funds nothing', async () => {
    const { wallet, card, key, body } = await walletCard();
    await call('POST', `/sandbox/internal-accounts/${wallet}/fund`, { amount: 50_000_000 });
    expect(await simulate(card.id, 'authorization', { amount: 1_000, currency: USD, merchant })).toMatchObject({ outcome: 'DECLINED', declineReason: 'NO_ACTIVE_DELEGATED_KEY' });
    const active = (await delegatedKeyLegs(engine, body, key)).at(-1)!.body;
    const approved = await simulate(card.id, 'authorization', { amount: 1_000, currency: USD, merchant });
    expect(approved.outcome).toBe('APPROVED');
    expect(await balanceOf(wallet)).toBe(40_000_000);
    await call('DELETE', `/auth/delegated-keys/${active.id}`);
    expect(await simulate(card.id, 'authorization', { amount: 1_000, currency: USD, merchant })).toMatchObject({ outcome: 'DECLINED', declineReason: 'NO_ACTIVE_DELEGATED_KEY' });
    // A later pull of the approved purchase (cleared above what was authorized) needs the key too: it fails, the
    // program fronts the difference, and the transaction is EXCEPTION.
    await simulate(card.id, 'clearing', { cardTransactionId: approved.cardTransactionId, amount: 1_500 });
    expect((await call('GET', `/transactions/${approved.cardTransactionId}`)).body).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 1_500 } });
    expect(await balanceOf(wallet)).toBe(40_000_000);
  });

  it('another funding source still pays while the wallet has no key; a wallet without enough is INSUFFICIENT_FUNDS as ever', async () => {
    const { wallet, usd, card } = await walletCard('wallet and usd');
    await call('POST', `/sandbox/internal-accounts/${wallet}/fund`, { amount: 50_000_000 });
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 2_000 });
    const paid = await simulate(card.id, 'authorization', { amount: 1_000, currency: USD, merchant });
    expect((await call('GET', `/transactions/${paid.cardTransactionId}`)).body.accountId).toBe(usd);
    expect(await simulate(card.id, 'authorization', { amount: 90_000, currency: USD, merchant })).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
  });
});
