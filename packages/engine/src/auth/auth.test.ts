import { decryptExportBundle, decryptSessionSigningKey, DecryptionKey, encryptOtp, registerPasskey, assertPasskey, SessionKey, SoftwarePasskeyAuthenticator, signedRetryHeaders } from '@railyard/wallet';
import { computeOauthNonce, createWalletStamp, decodeWalletStamp, encodeWalletStamp, generateP256KeyPairHex } from '@railyard/contract';
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { LEGACY_WALLET_SIGNATURE, OTP_SYNC_FAILURE_MARKER, WALLET_OTP_CODE } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';
import { SANDBOX_ENCLAVE_PUBLIC_KEY_HEX } from './enclave.js';
import { OTP_REISSUE_INTERVAL_MS } from './credentials.js';
import { readVectors } from '../../../../test/support/vectors.js';

// Embedded-wallet authentication through the public API (SPEC §2.5, §4.2, §5; REFERENCE §6, §7), with the client side
// played by @railyard/wallet as a browser would.

let engine: Engine;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);
/** The headers of a signed retry of `challenge` (a 202 body), stamped by `key`. */
const retryHeaders = async (challenge: Json, key: SessionKey): Promise<Record<string, string>> =>
  ({ ...(await signedRetryHeaders(challenge as { payloadToSign: string; requestId: string }, key)) });

/** A customer holding USDB, so the sandbox provisions an embedded wallet with an EMAIL_OTP credential. */
async function wallet(): Promise<{ accountId: string; customerId: string; emailCredential: Json }> {
  const customer = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', phoneNumber: '+15555550123', currencies: ['USD', 'USDB'] });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  const accounts = (await call('GET', `/customers/internal-accounts?customerId=${customer.body.id}`)).body.data as Json[];
  const account = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!;
  const credentials = (await call('GET', `/auth/credentials?accountId=${account.id}`)).body.data as Json[];
  return { accountId: account.id, customerId: customer.body.id, emailCredential: credentials[0]! };
}

/** The whole EMAIL_OTP sign-in: challenge, encrypted code, signed retry with the TEK. Returns the session and its key. */
async function signIn(credentialId: string, code = WALLET_OTP_CODE): Promise<{ session: Json; key: SessionKey }> {
  const challenge = await call('POST', `/auth/credentials/${credentialId}/challenge`);
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
  const key = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: challenge.body.otpEncryptionTargetBundle, otpCode: code, tekPublicKey: key, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle };
  const first = await call('POST', `/auth/credentials/${credentialId}/verify`, body);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const retry = await call('POST', `/auth/credentials/${credentialId}/verify`, body, await retryHeaders(first.body, key));
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  return { session: retry.body, key };
}

/** Runs a signed action: first leg, then the retry stamped by `key`. Returns both answers. */
async function signed(method: string, path: string, body: unknown, key: SessionKey) {
  const first = await call(method, path, body);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const retry = await call(method, path, body, await retryHeaders(first.body, key));
  return { first, retry };
}

describe('embedded wallets and email codes', () => {
  it('a USDB customer gets an embedded wallet with an EMAIL_OTP credential; signing in opens a session keyed by the TEK', async () => {
    const { accountId, emailCredential } = await wallet();
    expect(emailCredential).toMatchObject({ type: 'EMAIL_OTP', nickname: 'wally@example.com', accountId });
    const { session, key } = await signIn(emailCredential.id);
    expect(session).toMatchObject({ accountId, type: 'EMAIL_OTP', nickname: 'wally@example.com' });
    expect(session.id).toMatch(/^Session:/);
    expect(session.encryptedSessionSigningKey).toBeUndefined();
    const sessions = (await call('GET', `/auth/sessions?accountId=${accountId}`)).body.data;
    expect(sessions.map((s: Json) => s.id)).toEqual([session.id]);
    expect(JSON.stringify(sessions)).not.toContain(key.publicKeyCompressedHex);
  });

  it('the target bundle is signed by the documented enclave key, served on the control plane', async () => {
    const { emailCredential } = await wallet();
    const challenge = (await call('POST', `/auth/credentials/${emailCredential.id}/challenge`)).body;
    expect(JSON.parse(challenge.otpEncryptionTargetBundle)).toMatchObject({ version: 'v1.0.0', enclaveQuorumPublic: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
    expect((await call('GET', '/_sandbox/enclave-key')).body).toEqual({ publicKeyHex: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
  });

  it('a code expires after embeddedWalletConfig.expirationSeconds (300 by default)', async () => {
    const { emailCredential } = await wallet();
    const challenge = (await call('POST', `/auth/credentials/${emailCredential.id}/challenge`)).body;
    const key = await SessionKey.generate();
    const encryptedOtpBundle = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: key, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
    engine.sandbox().advance(300_000);
    expect(await call('POST', `/auth/credentials/${emailCredential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('a signed retry sent with the first leg’s Idempotency-Key reaches the operation (challenges are not replayed)', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const idempotency = { 'Idempotency-Key': 'privacy-1' };
    const first = await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, idempotency);
    expect(first.status).toBe(202);
    const retry = await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, { ...idempotency, ...(await retryHeaders(first.body, key)) });
    expect(retry).toMatchObject({ status: 200, body: { privateEnabled: true } });
    const [announced] = engine.sandbox().events({ type: 'INTERNAL_ACCOUNT.STATUS_UPDATED' }).data;
    expect(announced?.data).toMatchObject({ id: accountId, privateEnabled: true });
  });

  it('a wrong code is 401 with reason "Invalid OTP code"; re-issues are rate limited with Retry-After', async () => {
    const { emailCredential } = await wallet();
    const challenge = (await call('POST', `/auth/credentials/${emailCredential.id}/challenge`)).body;
    const key = await SessionKey.generate();
    const wrong = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle, otpCode: '123456', tekPublicKey: key, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
    expect(await call('POST', `/auth/credentials/${emailCredential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: wrong }))
      .toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', details: { reason: 'Invalid OTP code' } } });
    const again = await call('POST', `/auth/credentials/${emailCredential.id}/challenge`);
    expect(again).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    // A re-issue limit lifts in seconds: no x-should-retry advice, so clients may wait Retry-After and try again.
    expect(again.headers.get('x-should-retry')).toBeNull();
    expect(again.headers.get('retry-after')).toBe(String(OTP_REISSUE_INTERVAL_MS / 1000));
    engine.sandbox().advance(OTP_REISSUE_INTERVAL_MS);
    expect((await call('POST', `/auth/credentials/${emailCredential.id}/challenge`)).status).toBe(200);
  });

  it('concurrent challenges of one credential issue one code: one 200, the others 429, and the bundle sent is the live one', async () => {
    const { emailCredential } = await wallet();
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/auth/credentials/${emailCredential.id}/challenge`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429, 429]);
    const issued = answers.find((a) => a.status === 200)!.body;
    const key = await SessionKey.generate();
    const encryptedOtpBundle = await encryptOtp({ targetBundle: issued.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: key, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
    expect((await call('POST', `/auth/credentials/${emailCredential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle })).status).toBe(202);
  });
});

describe('the signed-retry attack matrix: nothing is accepted', () => {
  async function setup() {
    const w = await wallet();
    const { session, key } = await signIn(w.emailCredential.id);
    engine.sandbox().advance(OTP_REISSUE_INTERVAL_MS);
    return { ...w, session, key };
  }
  const privacy = (accountId: string) => [`/internal-accounts/${accountId}`, { privateEnabled: true }] as const;

  it('each 401 code of SPEC §5 item 4 is reachable, and the legit retry then succeeds', async () => {
    const { accountId, key } = await setup();
    const [path, body] = privacy(accountId);
    const first = (await call('PATCH', path, body)).body;
    const headers = await retryHeaders(first, key);
    expect((await call('PATCH', path, body, { 'request-id': first.requestId })).body.code).toBe('WALLET_SIGNATURE_MISSING');
    expect((await call('PATCH', path, body, { 'service-wallet-signature': headers['Service-Wallet-Signature']! })).body.code).toBe('REQUEST_ID_MISSING');
    expect((await call('PATCH', path, body, { ...headers, 'Service-Wallet-Signature': 'not-a-stamp!' })).body.code).toBe('WALLET_SIGNATURE_MALFORMED');
    expect((await call('PATCH', path, { privateEnabled: false }, headers)).body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    const foreign = await SessionKey.generate();
    expect((await call('PATCH', path, body, await retryHeaders(first, foreign))).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const wrongPayload = encodeWalletStamp(decodeWalletStamp(await key.stamp('another payload')));
    expect((await call('PATCH', path, body, { ...headers, 'Service-Wallet-Signature': wrongPayload })).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const ok = await call('PATCH', path, body, headers);
    expect(ok).toMatchObject({ status: 200, body: { id: accountId, privateEnabled: true } });
    expect(await call('PATCH', path, body, headers)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('an expired challenge, a revoked session and a session of another account are refused', async () => {
    const a = await setup();
    const b = await setup();
    const [path, body] = privacy(a.accountId);
    const expired = (await call('PATCH', path, body)).body;
    engine.sandbox().advance(5 * 60_000);
    expect((await call('PATCH', path, body, await retryHeaders(expired, a.key))).status).toBe(401);

    const other = (await call('PATCH', path, body)).body;
    expect((await call('PATCH', path, body, await retryHeaders(other, b.key))).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const crossAccount = (await call('PATCH', ...privacy(b.accountId))).body;
    expect((await call('PATCH', path, body, await retryHeaders(crossAccount, a.key))).status).toBe(401);

    // Sessions last 15 minutes: sign in again, then revoke the session with itself.
    const fresh = await signIn(a.emailCredential.id);
    const revoked = await signed('DELETE', `/auth/sessions/${fresh.session.id}`, undefined, fresh.key);
    expect(revoked.retry.status).toBe(204);
    const afterRevoke = (await call('PATCH', path, body)).body;
    expect((await call('PATCH', path, body, await retryHeaders(afterRevoke, fresh.key))).body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('the legacy literal signature is still accepted (it skips ECDSA, not the checks around it)', async () => {
    const { accountId } = await setup();
    const [path, body] = privacy(accountId);
    const first = (await call('PATCH', path, body)).body;
    const ok = await call('PATCH', path, body, { 'Service-Wallet-Signature': LEGACY_WALLET_SIGNATURE, 'Request-Id': first.requestId });
    expect(ok.body.privateEnabled).toBe(true);
  });
});

describe('credentials', () => {
  it('adds SMS_OTP once (400 on a second), and removes a credential only when signed by another credential’s session', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const added = await signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId }, key);
    expect(added.first.body.type).toBe('SMS_OTP');
    expect(added.retry).toMatchObject({ status: 201, body: { type: 'SMS_OTP', nickname: '+15555550123' } });
    expect((await call('POST', '/auth/credentials', { type: 'SMS_OTP', accountId })).body.code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    expect((await call('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId })).body.code).toBe('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');

    const selfSigned = await signed('DELETE', `/auth/credentials/${emailCredential.id}`, undefined, key);
    expect(selfSigned.retry.body.code).toBe('WALLET_SIGNATURE_INVALID');
    const sms = added.retry.body;
    const challenge = (await call('POST', `/auth/credentials/${sms.id}/challenge`)).body;
    const smsKey = await SessionKey.generate();
    const bundle = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: smsKey, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX });
    const smsBody = { type: 'SMS_OTP', encryptedOtpBundle: bundle };
    const leg = (await call('POST', `/auth/credentials/${sms.id}/verify`, smsBody)).body;
    expect((await call('POST', `/auth/credentials/${sms.id}/verify`, smsBody, await retryHeaders(leg, smsKey))).status).toBe(200);
    expect((await signed('DELETE', `/auth/credentials/${emailCredential.id}`, undefined, smsKey)).retry.status).toBe(204);
    expect((await call('DELETE', `/auth/credentials/${sms.id}`)).status).toBe(400);
    expect((await call('GET', `/auth/credentials?accountId=${accountId}`)).body.data.map((c: Json) => c.type)).toEqual(['SMS_OTP']);
  });

  it('OAUTH: the nonce of every reference vector is accepted for its clientPublicKey, and the decoded-bytes hash refused', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const vectors = readVectors('oauth-nonce.json') as Json;
    const now = Math.floor(engine.clock.now() / 1000);
    const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const token = (nonce: string) => `${encode({ alg: 'RS256' })}.${encode({ iss: 'https://appleid.apple.com', aud: 'app', sub: 'a-1', iat: now, exp: now + 600, nonce })}.sig`;
    const oauth = (await signed('POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken: token('x') }, key)).retry.body;
    const all = [...vectors.cases, ...vectors.extraCases] as Json[];
    for (const c of all) {
      const answer = await call('POST', `/auth/credentials/${oauth.id}/verify`, { type: 'OAUTH', oidcToken: token(c.nonce), clientPublicKey: c.clientPublicKey });
      expect(answer.status, c.note ?? c.clientPublicKey).toBe(c.mustReject ? 401 : 200);
    }
    expect(all.filter((c) => c.mustReject)).toHaveLength(1);
  });

  it('OAUTH: registered from an OIDC token, verified with every claim rule and the nonce of the clientPublicKey', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const client = await generateP256KeyPairHex();
    const now = Math.floor(engine.clock.now() / 1000);
    const token = async (claims: Record<string, unknown>) => {
      const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const nonce = await computeOauthNonce(client.publicKeyCompressedHex);
      return `${encode({ alg: 'RS256' })}.${encode({ iss: 'https://accounts.google.com', aud: ['app'], sub: 'g-123', email: 'wally@gmail.com', iat: now, exp: now + 600, nonce, ...claims })}.sig`;
    };
    const oauth = (await signed('POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken: await token({}) }, key)).retry.body;
    expect(oauth).toMatchObject({ type: 'OAUTH', nickname: 'wally@gmail.com' });
    const verify = async (oidcToken: string) => call('POST', `/auth/credentials/${oauth.id}/verify`, { type: 'OAUTH', oidcToken, clientPublicKey: client.publicKeyCompressedHex });
    // SPEC §2.5/§4.2: an OAUTH session carries encryptedSessionSigningKey, sealed to the clientPublicKey, compressed or not.
    const session = (await verify(await token({}))).body;
    expect(session).toMatchObject({ type: 'OAUTH', accountId, encryptedSessionSigningKey: expect.any(String) });
    const sealed = await SessionKey.fromPrivateKeyHex(await decryptSessionSigningKey(session.encryptedSessionSigningKey, await DecryptionKey.fromPrivateKeyHex(client.privateKeyHex)));
    const first = (await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true })).body;
    expect((await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, await retryHeaders(first, sealed))).status).toBe(200);
    expect((await verify(await token({ iat: now - 66 }))).status).toBe(401);
    expect((await verify(await token({ iat: now - 64 }))).status).toBe(200);
    expect((await verify(await token({ exp: now - 1 }))).status).toBe(401);
    expect((await verify(await token({ nonce: 'f'.repeat(64) }))).status).toBe(401);
    expect((await verify(await token({ sub: 'someone-else' }))).status).toBe(401);
    expect((await verify(await token({ iss: 'https://evil.example' }))).body.code).toBe('INVALID_INPUT');
    expect((await verify(await token({ aud: 'another-app' }))).status).toBe(401);
    expect((await verify(await token({ iat: now + 6 }))).status).toBe(401);
    expect((await call('POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken: await token({ sub: 'g-456', iat: now - 120 }) })).status).toBe(401);
    expect((await call('POST', `/auth/credentials/${oauth.id}/verify`, { type: 'OAUTH', oidcToken: 'not.a.jwt!', clientPublicKey: client.publicKeyCompressedHex })).status).toBe(400);
  });

  it('OAUTH: a credential removed while its verify is under way opens no session (its sessions end with it)', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const client = await generateP256KeyPairHex();
    const now = Math.floor(engine.clock.now() / 1000);
    const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const token = async () => `${encode({ alg: 'RS256' })}.${encode({
      iss: 'https://accounts.google.com', aud: 'app', sub: 'g-123', email: 'wally@gmail.com', iat: now, exp: now + 600, nonce: await computeOauthNonce(client.publicKeyCompressedHex),
    })}.sig`;
    const oauth = (await signed('POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken: await token() }, key)).retry.body;
    const removal = await call('DELETE', `/auth/credentials/${oauth.id}`);
    const removalHeaders = await retryHeaders(removal.body, key);
    const verifyBody = { type: 'OAUTH', oidcToken: await token(), clientPublicKey: client.publicKeyCompressedHex };
    // The verify starts first; the removal lands while it checks the token and seals the session key (so the verify
    // finds no credential, 404), or after (and ends the session it opened).
    const [verified, removed] = await Promise.all([
      call('POST', `/auth/credentials/${oauth.id}/verify`, verifyBody),
      call('DELETE', `/auth/credentials/${oauth.id}`, undefined, removalHeaders),
    ]);
    expect(removed.status).toBe(204);
    expect([200, 404]).toContain(verified.status);
    expect((await call('GET', `/auth/sessions?accountId=${accountId}`)).body.data.map((s: Json) => s.type)).toEqual(['EMAIL_OTP']);
  });

  it('PASSKEY: registration and sign-in checked by WebAuthn; the legacy uncompressed key gets a sealed session key', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example' });
    const registration = await registerPasskey(
      { accountId, nickname: 'Laptop', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: 'wallet.example', name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: authenticator },
    );
    const passkey = (await signed('POST', '/auth/credentials', registration, key)).retry;
    expect(passkey).toMatchObject({ status: 201, body: { type: 'PASSKEY', nickname: 'Laptop', credentialId: registration.attestation.credentialId } });
    expect((await call('POST', '/auth/credentials', registration)).body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');

    const legacyClient = await DecryptionKey.generate();
    const challenge = (await call('POST', `/auth/credentials/${passkey.body.id}/challenge`, { clientPublicKey: legacyClient.publicKeyUncompressedHex })).body;
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    const assertion = await assertPasskey({ challenge: challenge.challenge, credentialId: passkey.body.credentialId, rpId: 'wallet.example' }, { webauthn: authenticator });
    expect((await call('POST', `/auth/credentials/${passkey.body.id}/verify`, assertion)).body.code).toBe('REQUEST_ID_MISSING');
    const session = await call('POST', `/auth/credentials/${passkey.body.id}/verify`, assertion, { 'Request-Id': challenge.requestId });
    expect(session).toMatchObject({ status: 200, body: { type: 'PASSKEY', accountId } });
    expect(session.body.encryptedSessionSigningKey).toEqual(expect.any(String));
    expect((await call('POST', `/auth/credentials/${passkey.body.id}/verify`, assertion, { 'Request-Id': challenge.requestId })).status).toBe(401);
    // The legacy literal assertion signature is still accepted (REFERENCE §13): it skips WebAuthn, not the challenge.
    const compressed = await SessionKey.generate();
    const again = (await call('POST', `/auth/credentials/${passkey.body.id}/challenge`, { clientPublicKey: compressed.publicKeyCompressedHex })).body;
    const literal = { ...assertion, assertion: { ...assertion.assertion, signature: 'sandbox-valid-passkey-signature' } };
    expect((await call('POST', `/auth/credentials/${passkey.body.id}/verify`, literal, { 'Request-Id': again.requestId })).status).toBe(200);
    // The sealed key opens with the client's key and signs for the account.
    const sessionKey = await SessionKey.fromPrivateKeyHex(await decryptSessionSigningKey(session.body.encryptedSessionSigningKey, legacyClient));
    const first = (await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true })).body;
    expect((await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, await retryHeaders(first, sessionKey))).status).toBe(200);
  });

  it('PASSKEY: a challenge whose credential is removed while it is made answers 404, never 500', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example' });
    const registration = await registerPasskey(
      { accountId, nickname: 'Phone', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: 'wallet.example', name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: authenticator },
    );
    const passkey = (await signed('POST', '/auth/credentials', registration, key)).retry.body;
    const removalHeaders = await retryHeaders((await call('DELETE', `/auth/credentials/${passkey.id}`)).body, key);
    const clientKey = await SessionKey.generate();
    // Both start at once; the removal may land while the challenge hashes (it wrote the credential it read before).
    const [challenged, removed] = await Promise.all([
      call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: clientKey.publicKeyCompressedHex }),
      call('DELETE', `/auth/credentials/${passkey.id}`, undefined, removalHeaders),
    ]);
    expect(removed.status).toBe(204);
    expect([200, 404]).toContain(challenged.status);
    expect((await call('POST', `/auth/credentials/${passkey.id}/challenge`, { clientPublicKey: clientKey.publicKeyCompressedHex })).status).toBe(404);
  });
});

describe('PASSKEY: bound to its origin and RP ID as WebAuthn binds it', () => {
  /** A wallet signed in by email code, and a passkey registered on it by `authenticator` for `rpId`. */
  async function register(authenticator: SoftwarePasskeyAuthenticator, rpId: string) {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const registration = await registerPasskey(
      { accountId, nickname: 'Phone', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: rpId, name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: authenticator },
    );
    const first = await call('POST', '/auth/credentials', registration);
    const retry = first.status === 202 ? await call('POST', '/auth/credentials', registration, await retryHeaders(first.body, key)) : first;
    return { accountId, registration, first, retry };
  }
  async function assertion(authenticator: SoftwarePasskeyAuthenticator, credential: Json, rpId: string) {
    const challenge = (await call('POST', `/auth/credentials/${credential.id}/challenge`, { clientPublicKey: (await SessionKey.generate()).publicKeyCompressedHex })).body;
    const signedAssertion = await assertPasskey({ challenge: challenge.challenge, credentialId: credential.credentialId, rpId }, { webauthn: authenticator });
    return { signedAssertion, requestId: challenge.requestId as string };
  }
  const verify = (credential: Json, body: unknown, requestId: string) => call('POST', `/auth/credentials/${credential.id}/verify`, body, { 'Request-Id': requestId });
  const withClientData = (body: Json, edit: (clientData: Json) => Json) => {
    const clientData = JSON.parse(Buffer.from(body.assertion.clientDataJson, 'base64url').toString('utf8')) as Json;
    return { ...body, assertion: { ...body.assertion, clientDataJson: Buffer.from(JSON.stringify(edit(clientData))).toString('base64url') } };
  };

  it('takes an RP ID that is a registrable parent of the origin (wallet.example.com using example.com), and signs in from any origin within it', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example.com' });
    const { retry } = await register(authenticator, 'example.com');
    expect(retry).toMatchObject({ status: 201, body: { type: 'PASSKEY' } });
    const { signedAssertion, requestId } = await assertion(authenticator, retry.body, 'example.com');
    expect((await verify(retry.body, signedAssertion, requestId)).status).toBe(200);
  });

  it('refuses an RP ID outside the origin, a public suffix as RP ID, and an origin that is not a secure context', async () => {
    const foreign = await register(new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example.com' }), 'other.example');
    expect(foreign.retry.status).toBe(400);
    const refusal = foreign.retry.body;
    expect(refusal.details.errors[0]).toMatchObject({ field: 'attestation', message: expect.stringContaining('must be wallet.example.com or example.com') });

    const publicSuffix = await register(new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example.co.uk' }), 'co.uk');
    expect(publicSuffix.retry.body.details.errors[0].message).toContain('must be wallet.example.co.uk or example.co.uk');

    const plainHttp = await register(new SoftwarePasskeyAuthenticator({ origin: 'http://wallet.example.com' }), 'wallet.example.com');
    expect(plainHttp.retry.body.details.errors[0]).toMatchObject({ field: 'attestation.clientDataJson', message: expect.stringContaining('https') });

    const local = await register(new SoftwarePasskeyAuthenticator({ origin: 'http://localhost:3000' }), 'localhost');
    expect(local.retry.status).toBe(201); // http is a secure context on localhost
  });

  it('refuses an assertion from a foreign origin, and one whose RP ID is not the one the passkey was registered with', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example.com' });
    const { retry } = await register(authenticator, 'example.com');

    const fromElsewhere = await assertion(authenticator, retry.body, 'example.com');
    const foreign = await verify(retry.body, withClientData(fromElsewhere.signedAssertion, (c) => ({ ...c, origin: 'https://evil.test' })), fromElsewhere.requestId);
    expect(foreign).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(foreign.body.message).toContain('https://evil.test, which may not use this passkey: it is registered for the RP ID example.com');

    const other = await assertion(authenticator, retry.body, 'example.com');
    const authenticatorData = Buffer.from(other.signedAssertion.assertion.authenticatorData, 'base64url');
    createHash('sha256').update('wallet.example.com').digest().copy(authenticatorData, 0); // rpIdHash of another RP ID
    const mismatched = { ...other.signedAssertion, assertion: { ...other.signedAssertion.assertion, authenticatorData: authenticatorData.toString('base64url') } };
    const refused = await verify(retry.body, mismatched, other.requestId);
    expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(refused.body.message).toMatch(/RP ID/);
  });
});

describe('sessions and wallet actions', () => {
  it('refresh opens a new session for the same credential; export seals the mnemonic to a fresh key, never stored', async () => {
    const { accountId, emailCredential } = await wallet();
    const { session, key } = await signIn(emailCredential.id);
    const next = await SessionKey.generate();
    const refreshed = await signed('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: next.publicKeyCompressedHex }, key);
    expect(refreshed.retry).toMatchObject({ status: 201, body: { accountId, type: 'EMAIL_OTP' } });
    expect((await call('GET', `/auth/sessions?accountId=${accountId}`)).body.data).toHaveLength(2);

    const exportKey = await DecryptionKey.generate();
    const exported = await signed('POST', `/internal-accounts/${accountId}/export`, { clientPublicKey: exportKey.publicKeyUncompressedHex }, next);
    expect(exported.retry.status).toBe(200);
    const mnemonic = await decryptExportBundle(exported.retry.body.encryptedWalletCredentials, exportKey, SANDBOX_ENCLAVE_PUBLIC_KEY_HEX);
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain(mnemonic);
  });

  it('a stamp made with the contract codec for an active session is the same as the wallet’s', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const first = (await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true })).body;
    const keyPair = key.keyPair!;
    const stamp = await createWalletStamp(first.payloadToSign, keyPair.privateKey, key.publicKeyCompressedHex);
    expect((await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, { 'Service-Wallet-Signature': stamp, 'Request-Id': first.requestId })).status).toBe(200);
  });
});

describe('payments from an embedded wallet', () => {
  it('execute needs the stamp of the quote’s payloadToSign by an active session of the wallet', async () => {
    const { accountId, customerId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    await call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: 5_000_000 });
    const usd = (await call('GET', `/customers/internal-accounts?customerId=${customerId}&currency=USD`)).body.data[0].id;
    const quote = (await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'ACCOUNT', accountId: usd }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000_000,
    })).body;
    const signing = quote.paymentInstructions[0].accountOrWalletInfo;
    expect(signing.accountType).toBe('EMBEDDED_WALLET');
    expect(JSON.parse(signing.payloadToSign)).toMatchObject({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION', generateAppProofs: true, parameters: { quoteId: quote.id, amount: '1000000' } });
    const execute = (headers?: Record<string, string>) => call('POST', `/quotes/${quote.id}/execute`, undefined, headers);
    expect((await execute()).body.code).toBe('WALLET_SIGNATURE_MISSING');
    expect((await execute({ 'Service-Wallet-Signature': 'x' })).body.code).toBe('WALLET_SIGNATURE_MALFORMED');
    const stranger = await SessionKey.generate();
    expect((await execute({ 'Service-Wallet-Signature': await stranger.stamp(signing.payloadToSign) })).body.code).toBe('WALLET_SIGNATURE_INVALID');
    expect((await execute({ 'Service-Wallet-Signature': await key.stamp('something else') })).body.code).toBe('WALLET_SIGNATURE_INVALID');
    const paid = await execute({ 'Service-Wallet-Signature': await key.stamp(signing.payloadToSign) });
    expect(paid).toMatchObject({ status: 200, body: { status: 'PROCESSING' } });
    expect((await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'ACCOUNT', accountId: usd }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1, immediatelyExecute: true,
    })).body.details.errors[0].field).toBe('immediatelyExecute');
  });
});

describe('a customer email tied to EMAIL_OTP credentials', () => {
  it('changing it is signed by the wallet, and the credential follows; other changes need no signature', async () => {
    const { customerId, emailCredential, accountId } = await wallet();
    const { key } = await signIn(emailCredential.id);
    expect((await call('PATCH', `/customers/${customerId}`, { customerType: 'INDIVIDUAL', nationality: 'GB' })).status).toBe(200);
    const change = { customerType: 'INDIVIDUAL', email: 'wally.new@example.com' };
    const { first, retry } = await signed('PATCH', `/customers/${customerId}`, change, key);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', parameters: { email: 'wally.new@example.com', credentialIds: [emailCredential.id] } });
    expect(retry).toMatchObject({ status: 200, body: { email: 'wally.new@example.com' } });
    expect((await call('GET', `/auth/credentials?accountId=${accountId}`)).body.data[0].nickname).toBe('wally.new@example.com');
  });

  it('409 EMAIL_OTP_EMAIL_ALREADY_EXISTS for another wallet’s address; 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when the set moves between legs', async () => {
    const a = await wallet();
    const other = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Olga Other', email: 'olga@example.com', currencies: ['USDB'] });
    expect(other.status).toBe(201);
    expect((await call('PATCH', `/customers/${a.customerId}`, { customerType: 'INDIVIDUAL', email: 'olga@example.com' })).body.code).toBe('EMAIL_OTP_EMAIL_ALREADY_EXISTS');

    const { key } = await signIn(a.emailCredential.id);
    const change = { customerType: 'INDIVIDUAL', email: 'moved@example.com' };
    const first = (await call('PATCH', `/customers/${a.customerId}`, change)).body;
    const sms = (await signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId: a.accountId }, key)).retry.body;
    expect(sms.type).toBe('SMS_OTP');
    // Remove the tied EMAIL_OTP credential with a session of the SMS one: the set the challenge named is gone.
    const challenge = (await call('POST', `/auth/credentials/${sms.id}/challenge`)).body;
    const smsKey = await SessionKey.generate();
    const smsBody = { type: 'SMS_OTP', encryptedOtpBundle: await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: smsKey, pinnedEnclaveKey: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX }) };
    const leg = (await call('POST', `/auth/credentials/${sms.id}/verify`, smsBody)).body;
    await call('POST', `/auth/credentials/${sms.id}/verify`, smsBody, await retryHeaders(leg, smsKey));
    await signed('DELETE', `/auth/credentials/${a.emailCredential.id}`, undefined, smsKey);
    const retry = await call('PATCH', `/customers/${a.customerId}`, change, await retryHeaders(first, smsKey));
    expect(retry).toMatchObject({ status: 409, body: { code: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' } });
    expect((await call('GET', `/customers/${a.customerId}`)).body.email).toBe('wally@example.com');
  });

  it('424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED when the credentials cannot follow (the sandbox marker): nothing changes', async () => {
    const { customerId, emailCredential, accountId } = await wallet();
    const { key } = await signIn(emailCredential.id);
    const change = { customerType: 'INDIVIDUAL', email: `wally${OTP_SYNC_FAILURE_MARKER}@example.com` };
    const { first, retry } = await signed('PATCH', `/customers/${customerId}`, change, key);
    expect(first.status).toBe(202);
    expect(retry).toMatchObject({ status: 424, body: { code: 'EMAIL_OTP_CREDENTIAL_SYNC_FAILED' } });
    expect((await call('GET', `/customers/${customerId}`)).body.email).toBe('wally@example.com');
    expect((await call('GET', `/auth/credentials?accountId=${accountId}`)).body.data[0].nickname).toBe('wally@example.com');
  });

  it('two wallets changing to one address at once: one change lands, the other is 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS', async () => {
    /** A wallet customer with its own address, signed in, and the first leg of its change to `same@example.com`. */
    const pendingChange = async (email: string) => {
      const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email, currencies: ['USDB'] })).body;
      const account = ((await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data as Json[]).find((a) => a.type === 'EMBEDDED_WALLET')!;
      const credential = (await call('GET', `/auth/credentials?accountId=${account.id}`)).body.data[0];
      const { key } = await signIn(credential.id);
      const first = await call('PATCH', `/customers/${customer.id}`, { customerType: 'INDIVIDUAL', email: 'same@example.com' });
      return { customerId: customer.id, accountId: account.id as string, headers: await retryHeaders(first.body, key) };
    };
    const wallets = [await pendingChange('one@example.com'), await pendingChange('two@example.com')];
    const answers = await Promise.all(wallets.map((w) => call('PATCH', `/customers/${w.customerId}`, { customerType: 'INDIVIDUAL', email: 'same@example.com' }, w.headers)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('EMAIL_OTP_EMAIL_ALREADY_EXISTS');
    const nicknames = await Promise.all(wallets.map(async (w) => (await call('GET', `/auth/credentials?accountId=${w.accountId}`)).body.data[0].nickname));
    expect(nicknames.filter((n) => n === 'same@example.com')).toHaveLength(1);
  });
});

describe('accepted but not settled (SPEC §4.2 rule 4)', () => {
  it('with wallet-processing set, retries answer 200 PROCESSING until the identical request is re-sent enough times', async () => {
    const { accountId, emailCredential } = await wallet();
    const { key } = await signIn(emailCredential.id);
    expect((await call('PUT', '/_sandbox/wallet-processing', { retries: 2 })).body).toEqual({ retries: 2 });
    const first = (await call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true })).body;
    const headers = await retryHeaders(first, key);
    const resend = () => call('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, headers);
    expect((await resend()).body).toMatchObject({ status: 'PROCESSING' });
    expect((await resend()).body).toMatchObject({ status: 'PROCESSING' });
    expect((await resend()).body).toMatchObject({ id: accountId, privateEnabled: true });
    expect((await resend()).status).toBe(401);
  });
});

describe('client public keys off the curve', () => {
  it('are refused with a field error before any challenge is issued', async () => {
    const { accountId, emailCredential } = await wallet();
    const { session } = await signIn(emailCredential.id);
    const compressed = `02${'f'.repeat(64)}`;
    const uncompressed = `04${'f'.repeat(128)}`;
    const exported = await call('POST', `/internal-accounts/${accountId}/export`, { clientPublicKey: uncompressed });
    expect(exported).toMatchObject({ status: 400, body: { details: { errors: [{ field: 'clientPublicKey', message: 'is not a point on the P-256 curve' }] } } });
    expect((await call('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: compressed })).status).toBe(400);
    expect((await call('POST', `/auth/credentials/${emailCredential.id}/challenge`, { clientPublicKey: compressed })).status).toBe(400);
  });
});
