import { createHash, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { base58 } from '@scure/base';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_TTL_MS,
  challengeRefusal,
  evaluateVerify,
  OwnershipChallengeRecord,
  outstandingWalletChallenge,
  startChallenge,
  type OwnedAccount,
} from './challenges.js';
import { verifyWalletSignature } from './signatures.js';

// The §3.1 rules of ownership challenges, with real signatures from viem (EIP-191) and node:crypto (Ed25519).

const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
const NOW = new Date('2026-01-01T00:00:00.000Z');
const nonce = () => createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 32);

const evm = (status = 'PENDING_OWNERSHIP_VERIFICATION', overrides: Partial<OwnedAccount> = {}): OwnedAccount => ({
  id: 'ExternalAccount:1',
  status,
  ownershipType: 'FIRST_PARTY',
  accountInfo: { accountType: 'BASE_WALLET', address: signer.address },
  ...overrides,
});

const started = (account: OwnedAccount, method: 'WALLET_SIGNATURE' | 'LIVENESS' = 'WALLET_SIGNATURE', now = NOW) =>
  startChallenge({ id: `OwnershipChallenge:${nonce()}`, platformId: 'Platform:1', account, method, nonce: nonce(), now, livenessBaseUrl: 'http://sandbox/hosted/liveness/' });
const start = (account: OwnedAccount, method: 'WALLET_SIGNATURE' | 'LIVENESS' = 'WALLET_SIGNATURE', now = NOW) => started(account, method, now).record;

describe('who may start a challenge (409 otherwise)', () => {
  it('only FIRST_PARTY self-custody wallets in PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED', () => {
    expect(challengeRefusal(evm(), 'WALLET_SIGNATURE')).toBeUndefined();
    expect(challengeRefusal(evm('UNVERIFIED'), 'LIVENESS')).toBeUndefined();
    for (const status of ['ACTIVE', 'PENDING', 'UNDER_REVIEW', 'INACTIVE']) {
      expect(challengeRefusal(evm(status), 'WALLET_SIGNATURE')).toMatch(status);
    }
    expect(challengeRefusal(evm(undefined, { ownershipType: 'THIRD_PARTY' }), 'WALLET_SIGNATURE')).toMatch('FIRST_PARTY');
    expect(challengeRefusal(evm(undefined, { ownershipType: undefined }), 'LIVENESS')).toMatch('FIRST_PARTY');
    expect(challengeRefusal(evm(undefined, { accountInfo: { accountType: 'EUR_ACCOUNT' } }), 'LIVENESS')).toMatch('self-custody');
    expect(challengeRefusal(evm(undefined, { accountInfo: { accountType: 'TRON_WALLET', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' } }), 'LIVENESS')).toBeUndefined();
    expect(challengeRefusal(evm(undefined, { accountInfo: { accountType: 'TRON_WALLET', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' } }), 'WALLET_SIGNATURE')).toMatch('LIVENESS');
  });
});

describe('challenge contents', () => {
  it('WALLET_SIGNATURE carries the address, a nonce and the expiry 10 minutes on', () => {
    const { record, response } = started(evm());
    expect(() => OwnershipChallengeRecord.parse(record)).not.toThrow();
    expect(record.expiresAt).toBe(new Date(NOW.getTime() + CHALLENGE_TTL_MS).toISOString());
    expect(record.messageToSign).toContain(signer.address);
    expect(record.messageToSign).toContain(record.nonce);
    expect(record.messageToSign).toContain(record.expiresAt);
    expect(response).toEqual({ method: 'WALLET_SIGNATURE', messageToSign: record.messageToSign, expiresAt: record.expiresAt });
    expect(start(evm()).messageToSign).not.toBe(record.messageToSign);
  });

  it('LIVENESS carries a verification link and an expiry; the record keeps only the hash of its token', () => {
    const { record, response: body } = started(evm(), 'LIVENESS');
    expect(body.method).toBe('LIVENESS');
    expect(body).toMatchObject({ verificationLink: expect.stringMatching(/^http:\/\/sandbox\/hosted\/liveness\/OwnershipChallenge/), expiresAt: record.expiresAt });
    const token = body.method === 'LIVENESS' ? body.token : '';
    expect(body).toMatchObject({ verificationLink: expect.stringContaining(`?token=${token}`) });
    expect(() => OwnershipChallengeRecord.parse(record)).not.toThrow();
    expect(record.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(record)).not.toContain(token);
    expect(record).not.toHaveProperty('verificationLink');
    expect(record).not.toHaveProperty('nonce');
  });

  it('a LIVENESS record of an older snapshot is restored with its token hashed and without its link', () => {
    const { record } = started(evm(), 'LIVENESS');
    const { tokenHash: _hash, ...rest } = record;
    const legacy = { ...rest, nonce: 'a'.repeat(32), verificationLink: `http://sandbox/hosted/liveness/x?token=${'a'.repeat(32)}` };
    const restored = OwnershipChallengeRecord.parse(legacy);
    expect(restored).toEqual({ ...rest, tokenHash: createHash('sha256').update('a'.repeat(32)).digest('hex') });
    // A WALLET_SIGNATURE record keeps its nonce: only a signature over the message verifies.
    const wallet = start(evm());
    expect(OwnershipChallengeRecord.parse(wallet)).toEqual(wallet);
  });
});

describe('verify (SPEC §3.1 rows)', () => {
  it('PENDING_OWNERSHIP_VERIFICATION + valid signature before expiry → ACTIVE', async () => {
    const account = evm();
    const challenge = start(account);
    const signature = await signer.signMessage({ message: challenge.messageToSign! });
    expect(evaluateVerify({ account, challenge, signature, now: new Date(NOW.getTime() + CHALLENGE_TTL_MS - 1), verify: verifyWalletSignature })).toBe('ACTIVE');
  });

  it('invalid signature → INVALID (400, UNVERIFIED); another signer or another message is invalid', async () => {
    const account = evm();
    const challenge = start(account);
    expect(evaluateVerify({ account, challenge, signature: await stranger.signMessage({ message: challenge.messageToSign! }), now: NOW, verify: verifyWalletSignature })).toBe('INVALID');
    expect(evaluateVerify({ account, challenge, signature: await signer.signMessage({ message: challenge.messageToSign! + ' ' }), now: NOW, verify: verifyWalletSignature })).toBe('INVALID');
    expect(evaluateVerify({ account, challenge, signature: 'garbage', now: NOW, verify: verifyWalletSignature })).toBe('INVALID');
  });

  it('expired challenge → EXPIRED even with a valid signature', async () => {
    const account = evm();
    const challenge = start(account);
    const signature = await signer.signMessage({ message: challenge.messageToSign! });
    expect(evaluateVerify({ account, challenge, signature, now: new Date(NOW.getTime() + CHALLENGE_TTL_MS), verify: verifyWalletSignature })).toBe('EXPIRED');
  });

  it('UNVERIFIED + new challenge + valid signature → ACTIVE', async () => {
    const account = evm('UNVERIFIED');
    const challenge = start(account);
    const signature = await signer.signMessage({ message: challenge.messageToSign! });
    expect(evaluateVerify({ account, challenge, signature, now: NOW, verify: verifyWalletSignature })).toBe('ACTIVE');
  });

  it('no outstanding WALLET_SIGNATURE challenge → NO_CHALLENGE (409)', async () => {
    const account = evm();
    const consumed = { ...start(account), state: 'CONSUMED' as const };
    const liveness = start(account, 'LIVENESS');
    const signature = await signer.signMessage({ message: consumed.messageToSign! });
    expect(evaluateVerify({ account, challenge: undefined, signature, now: NOW, verify: verifyWalletSignature })).toBe('NO_CHALLENGE');
    expect(evaluateVerify({ account, challenge: consumed, signature, now: NOW, verify: verifyWalletSignature })).toBe('NO_CHALLENGE');
    expect(evaluateVerify({ account, challenge: liveness, signature, now: NOW, verify: verifyWalletSignature })).toBe('NO_CHALLENGE');
    expect(outstandingWalletChallenge([consumed, liveness], account.id)).toBeUndefined();
  });

  it('the latest outstanding challenge is the one verified', () => {
    const account = evm();
    const first = start(account, 'WALLET_SIGNATURE', NOW);
    const second = start(account, 'WALLET_SIGNATURE', new Date(NOW.getTime() + 1000));
    expect(outstandingWalletChallenge([first, second], account.id)?.id).toBe(second.id);
    expect(outstandingWalletChallenge([first, second], 'ExternalAccount:other')).toBeUndefined();
  });

  it('Solana wallets verify base58 Ed25519 signatures over the exact message', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const address = base58.encode(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
    const account = evm(undefined, { accountInfo: { accountType: 'SOLANA_WALLET', address } });
    const challenge = start(account);
    const signature = base58.encode(nodeSign(null, Buffer.from(challenge.messageToSign!, 'utf8'), privateKey));
    expect(evaluateVerify({ account, challenge, signature, now: NOW, verify: verifyWalletSignature })).toBe('ACTIVE');
    expect(evaluateVerify({ account, challenge, signature: base58.encode(new Uint8Array(64)), now: NOW, verify: verifyWalletSignature })).toBe('INVALID');
  });
});
