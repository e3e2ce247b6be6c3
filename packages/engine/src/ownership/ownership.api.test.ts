import { createHash, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { base58 } from '@scure/base';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';

// SPEC §3.1 rows through the public API, with real signatures from viem (EIP-191) and node:crypto (Ed25519).

type Json = Record<string, any>;
let engine: Engine;
const as = { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' };
const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

beforeEach(() => {
  engine = createEngine();
});

const call = async (method: string, path: string, body?: unknown) => {
  const response = await engine.fetch(apiRequest(method, path, body, {}, as));
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
};

const wallet = async (accountInfo: Json, ownershipType = 'FIRST_PARTY', currency = 'USDC') => {
  const created = await call('POST', '/platform/external-accounts', { currency, ownershipType, accountInfo });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
};
const evmWallet = () => wallet({ accountType: 'BASE_WALLET', address: signer.address });
const statusEvents = async (id: string) => {
  const events = (await call('GET', '/_sandbox/events?type=EXTERNAL_ACCOUNT.STATUS_UPDATED&limit=100')).body;
  return ((events.data ?? []) as Json[]).filter((e) => e.data?.id === id).map((e) => e.data.status).reverse();
};

describe('ownership verification over the API', () => {
  it('PENDING_OWNERSHIP_VERIFICATION + valid EIP-191 signature → 200 ACTIVE and STATUS_UPDATED', async () => {
    const account = await evmWallet();
    expect(account.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const challenge = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(challenge.status).toBe(201);
    expect(challenge.body.messageToSign).toContain(signer.address);
    expect(Date.parse(challenge.body.expiresAt) - engine.clock.now()).toBe(10 * 60 * 1000);
    const signature = await signer.signMessage({ message: challenge.body.messageToSign });
    const verified = await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature });
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe('ACTIVE');
    expect((await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature })).status).toBe(409);
    expect(await statusEvents(account.id)).toContain('ACTIVE');
  });

  it('invalid signature → 400 and UNVERIFIED; new challenge then valid → ACTIVE', async () => {
    const account = await evmWallet();
    // A platform account is not reachable under /customers/.
    expect((await call('POST', `/customers/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(404);
    const first = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    const bad = await stranger.signMessage({ message: first.body.messageToSign });
    expect((await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature: bad })).status).toBe(400);
    const second = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(second.status).toBe(201);
    const good = await signer.signMessage({ message: second.body.messageToSign });
    const verified = await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature: good });
    expect(verified.body.status).toBe('ACTIVE');
    expect(await statusEvents(account.id)).toEqual(['UNVERIFIED', 'ACTIVE']);
  });

  it('expired challenge → 400 and UNVERIFIED', async () => {
    const account = await evmWallet();
    const challenge = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    const signature = await signer.signMessage({ message: challenge.body.messageToSign });
    engine.sandbox(as.clientId).advance(10 * 60 * 1000);
    expect((await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature })).status).toBe(400);
    expect(await statusEvents(account.id)).toEqual(['UNVERIFIED']);
  });

  it('Solana base58 Ed25519 signature → ACTIVE', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const address = base58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
    const account = await wallet({ accountType: 'SOLANA_WALLET', address });
    const challenge = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    const signature = base58.encode(nodeSign(null, Buffer.from(challenge.body.messageToSign, 'utf8'), privateKey));
    expect((await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature })).body.status).toBe('ACTIVE');
  });

  it('409 without a challenge or for accounts that cannot be challenged; 404 for unknown accounts', async () => {
    const account = await evmWallet();
    expect((await call('POST', `/platform/external-accounts/${account.id}/verify`, { signature: '0x00' })).status).toBe(409);
    const thirdParty = await wallet({ accountType: 'BASE_WALLET', address: stranger.address }, 'THIRD_PARTY');
    expect((await call('POST', `/platform/external-accounts/${thirdParty.id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(409);
    const unknown = 'ExternalAccount:00000000-0000-4000-8000-000000000000';
    expect((await call('POST', `/platform/external-accounts/${unknown}/challenge`, { method: 'LIVENESS' })).status).toBe(404);
    expect((await call('POST', `/platform/external-accounts/${unknown}/verify`, { signature: '0x00' })).status).toBe(404);
  });

  it('LIVENESS completes through the clock with STATUS_UPDATED', async () => {
    const account = await evmWallet();
    const challenge = await call('POST', `/platform/external-accounts/${account.id}/challenge`, { method: 'LIVENESS' });
    expect(challenge.status).toBe(201);
    expect(challenge.body.verificationLink).toEqual(expect.any(String));
    // The token and the link that carries it are in the answer only; the state keeps the token's hash.
    const state = JSON.stringify(engine.sandbox(as.clientId).snapshot());
    expect(state).not.toContain(challenge.body.token);
    expect(state).not.toContain(challenge.body.verificationLink);
    const [stored] = engine.sandbox(as.clientId).snapshot().collections.ownershipChallenges as Json[];
    expect(stored).toMatchObject({ method: 'LIVENESS', tokenHash: createHash('sha256').update(challenge.body.token).digest('hex') });
    // A copy restores (checked in full), and the check still completes on the clock.
    engine.sandbox(as.clientId).restore(JSON.parse(state));
    engine.sandbox(as.clientId).advance(30_000);
    expect(await statusEvents(account.id)).toEqual(['ACTIVE']);
  });
});
