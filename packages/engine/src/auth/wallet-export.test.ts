import { createHash } from 'node:crypto';
import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { decryptExportBundle, DecryptionKey, encryptOtp, SessionKey, signedRetryHeaders } from '@railyard/wallet';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { WALLET_OTP_CODE } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';
import { SANDBOX_ENCLAVE_PUBLIC_KEY_HEX } from './enclave.js';
import { WALLET_SECRETS } from './wallet-actions.js';

// The wallet's mnemonic: 128 random bits drawn at its first export, kept sealed under the engine's secret key, the same
// words at every export, in no snapshot; drawn anew when a restored state's sealed entropy does not open.

const engines: Engine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.close();
});
const newEngine = (secretKey?: string): Engine => {
  const engine = createEngine({ platform: { regulated: true }, ...(secretKey === undefined ? {} : { secretKey }) });
  engines.push(engine);
  return engine;
};

/** A USDB customer's embedded wallet, signed in by EMAIL_OTP: its account id and a session key. */
async function signedInWallet(engine: Engine): Promise<{ accountId: string; key: SessionKey }> {
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);
  const customer = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USD', 'USDB'] });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.body.id}`)).body.data as Json[];
  const accountId = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id as string;
  return { accountId, key: await signIn(engine, accountId) };
}

async function signIn(engine: Engine, accountId: string): Promise<SessionKey> {
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);
  const [credential] = (await call('GET', `/auth/credentials?accountId=${accountId}`)).body.data as Json[];
  const challenge = await call('POST', `/auth/credentials/${credential!.id}/challenge`);
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
  const key = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: challenge.body.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: key, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle };
  const first = await call('POST', `/auth/credentials/${credential!.id}/verify`, body);
  const retry = await call('POST', `/auth/credentials/${credential!.id}/verify`, body, { ...(await signedRetryHeaders(first.body as { payloadToSign: string; requestId: string }, key)) });
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  return key;
}

/** The wallet's mnemonic, exported (both legs) and opened with a fresh export key as a device would. */
async function exportMnemonic(engine: Engine, accountId: string, key: SessionKey): Promise<string> {
  const exportKey = await DecryptionKey.generate();
  const body = { clientPublicKey: exportKey.publicKeyUncompressedHex };
  const path = `/internal-accounts/${accountId}/export`;
  const first = await callApi(engine, 'POST', path, body);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const retry = await callApi(engine, 'POST', path, body, { ...(await signedRetryHeaders(first.body as { payloadToSign: string; requestId: string }, key)) });
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  return decryptExportBundle(retry.body.encryptedWalletCredentials, exportKey, SANDBOX_ENCLAVE_PUBLIC_KEY_HEX);
}

/** The words the sandbox used to derive from the account id (before they were drawn at random). */
const derivedFromId = (accountId: string) =>
  entropyToMnemonic(createHash('sha256').update(`railyard sandbox wallet ${accountId}`).digest().subarray(0, 16), wordlist);

const snapshotText = async (engine: Engine) => JSON.stringify((await callApi(engine, 'GET', '/_sandbox/snapshot')).body);

describe('the wallet mnemonic', () => {
  it('is random: the same words at every export, other words for another wallet, not derived from the account id', async () => {
    const engine = newEngine();
    const { accountId, key } = await signedInWallet(engine);
    const words = await exportMnemonic(engine, accountId, key);
    expect(words.split(' ')).toHaveLength(12);
    expect(await exportMnemonic(engine, accountId, key)).toBe(words);
    expect(words).not.toBe(derivedFromId(accountId));
    const other = await signedInWallet(engine);
    const otherWords = await exportMnemonic(engine, other.accountId, other.key);
    expect(otherWords).not.toBe(words);
    expect(otherWords).not.toBe(derivedFromId(other.accountId));
  });

  it('is in no snapshot: the state keeps its entropy sealed', async () => {
    const engine = newEngine();
    const { accountId, key } = await signedInWallet(engine);
    const words = await exportMnemonic(engine, accountId, key);
    const snapshot = await snapshotText(engine);
    expect(snapshot).not.toContain(words);
    const entropy = Buffer.from(mnemonicToEntropy(words, wordlist)).toString('hex');
    expect(snapshot).not.toContain(entropy);
    expect(JSON.parse(snapshot).collections[WALLET_SECRETS]).toEqual([{ id: accountId, sealed: expect.stringMatching(/^sealed:v1:[0-9a-f]{8}:/) }]);
  });

  it('restored under the same secretKey, the wallet exports the same words; under another key, new ones (200), kept from then on', async () => {
    const secretKey = 'a wallet engine secret, at least 32 bytes long';
    const engine = newEngine(secretKey);
    const { accountId, key } = await signedInWallet(engine);
    const words = await exportMnemonic(engine, accountId, key);
    const snapshot = (await callApi(engine, 'GET', '/_sandbox/snapshot')).body;

    const sameKey = newEngine(secretKey);
    expect((await callApi(sameKey, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    expect(await exportMnemonic(sameKey, accountId, await signIn(sameKey, accountId))).toBe(words);

    const otherKey = newEngine();
    expect((await callApi(otherKey, 'POST', '/_sandbox/restore', snapshot)).status).toBe(204);
    const session = await signIn(otherKey, accountId);
    const drawn = await exportMnemonic(otherKey, accountId, session);
    expect(drawn.split(' ')).toHaveLength(12);
    expect(drawn).not.toBe(words);
    expect(await exportMnemonic(otherKey, accountId, session)).toBe(drawn);
  });

  it('a snapshot taken before wallets kept their entropy restores, and the next export draws it', async () => {
    const engine = newEngine();
    const { accountId, key } = await signedInWallet(engine);
    const words = await exportMnemonic(engine, accountId, key);
    const old = (await callApi(engine, 'GET', '/_sandbox/snapshot')).body;
    delete old.collections[WALLET_SECRETS];
    expect((await callApi(engine, 'POST', '/_sandbox/restore', old)).status).toBe(204);
    const drawn = await exportMnemonic(engine, accountId, key);
    expect(drawn).not.toBe(words);
    expect(await exportMnemonic(engine, accountId, key)).toBe(drawn);
  });
});
