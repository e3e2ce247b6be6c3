import { createEngine, DEFAULT_CREDENTIALS, type Engine } from '@railyard/engine';
import {
  DecryptionKey, SessionKey, SoftwarePasskeyAuthenticator, assertPasskey, decryptExportBundle, decryptSessionSigningKey, encryptOtp,
  oauthNonce, registerPasskey,
} from '@railyard/wallet';
import { generateP256KeyPairHex } from '@railyard/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { AuthenticationError, BadRequestError, RateLimitError, SignatureRequiredError, WalletOperationTimeoutError } from '../core/errors.js';
import type { WalletStamper } from '../core/signed-retry.js';
import type { AuthMethod } from './auth.js';

// client.auth and the wallet operations of client.internalAccounts against an in-process engine, with @railyard/wallet
// playing the device: EMAIL_OTP sign-in, signed operations in one call and in two steps, the 401 codes a client meets,
// passkeys with the software authenticator, OAUTH, refresh, export, privacy, revoke.

let engine: Engine;
let client: RailyardClient;
let enclaveKey: string;
beforeEach(async () => {
  engine = createEngine({ platform: { regulated: true } });
  client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, maxRetries: 0 });
  ({ publicKeyHex: enclaveKey } = await client.sandbox.enclaveKey());
});

/** A USDB customer: the sandbox provisions an embedded wallet with an EMAIL_OTP credential. */
async function wallet() {
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', phoneNumber: '+15555550123', currencies: ['USD', 'USDB'],
  });
  const account = (await client.internalAccounts.list({ customerId: customer.id })).data.find((a) => a.type === 'EMBEDDED_WALLET')!;
  const { data } = await client.auth.credentials.list({ accountId: account.id });
  return { customer, accountId: account.id, email: data[0]! };
}

/** EMAIL_OTP / SMS_OTP sign-in: challenge, the code encrypted to the pinned enclave key, verify stamped by the TEK. */
async function signIn(credential: AuthMethod) {
  const challenge = await client.auth.credentials.challenge(credential.id);
  const tek = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey: enclaveKey });
  const type = credential.type as 'EMAIL_OTP' | 'SMS_OTP';
  const session = await client.auth.credentials.verify(credential.id, { type, encryptedOtpBundle }, { stamper: tek });
  return { session, key: tek };
}

describe('client.auth against an in-process engine', () => {
  it('EMAIL_OTP sign-in in one verify call; the session is keyed by the TEK and listed without key material', async () => {
    const { accountId, email } = await wallet();
    expect(email).toMatchObject({ type: 'EMAIL_OTP', nickname: 'wally@example.com', accountId });
    const { session, key } = await signIn(email);
    expect(session).toMatchObject({ accountId, type: 'EMAIL_OTP', nickname: 'wally@example.com' });
    expect(session.encryptedSessionSigningKey).toBeUndefined();
    const sessions = await client.auth.sessions.list({ accountId });
    expect(sessions.data.map((s) => s.id)).toEqual([session.id]);
    expect(JSON.stringify(sessions)).not.toContain(key.publicKeyCompressedHex);
  });

  it('a wrong code is a 401 with its reason; the verify without a stamper stops at SIGNATURE_REQUIRED', async () => {
    const { email } = await wallet();
    const challenge = await client.auth.credentials.challenge(email.id);
    const tek = await SessionKey.generate();
    const wrong = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle!, otpCode: '123456', tekPublicKey: tek, pinnedEnclaveKey: enclaveKey });
    const error = await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle: wrong }, { stamper: tek }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).details).toMatchObject({ reason: 'Invalid OTP code' });
    // Another code within 30 s is rate limited (RateLimitError with Retry-After; maxRetries 0 here, so no waiting).
    const again = await client.auth.credentials.challenge(email.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(RateLimitError);
    expect((again as RateLimitError).headers.get('retry-after')).toBe('30');

    const right = await encryptOtp({ targetBundle: challenge.otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey: enclaveKey });
    const pending = await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle: right });
    expect(pending).toMatchObject({ status: 'SIGNATURE_REQUIRED', challenge: { type: 'EMAIL_OTP', requestId: expect.stringMatching(/^Request:/) } });
    if (pending.status !== 'SIGNATURE_REQUIRED') throw new Error('unreachable');
    // Only the TEK in the bundle may sign this one.
    const foreign = await client.signedRetry.complete(pending, await SessionKey.generate()).catch((e: unknown) => e);
    expect((foreign as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('signed operations in two steps: a stamp made elsewhere, single use; a changed body is refused', async () => {
    const { accountId, email } = await wallet();
    const { key } = await signIn(email);
    const pending = await client.auth.credentials.create({ type: 'SMS_OTP', accountId });
    if (pending.status !== 'SIGNATURE_REQUIRED') throw new Error(`expected a challenge, got ${pending.status}`);
    expect(pending.challenge.type).toBe('SMS_OTP');

    // The browser holds the key: it stamps payloadToSign and hands back only the header value.
    const stamp = await key.stamp(pending.challenge.payloadToSign);
    const sms = await client.signedRetry.complete(JSON.parse(JSON.stringify(pending)) as typeof pending, stamp);
    expect(sms).toMatchObject({ type: 'SMS_OTP', nickname: '+15555550123', accountId });

    const privacy = await client.internalAccounts.update(accountId, { privateEnabled: true });
    if (privacy.status !== 'SIGNATURE_REQUIRED') throw new Error('expected a challenge');
    const code = async (promise: Promise<unknown>) => ((await promise.catch((e: unknown) => e)) as AuthenticationError).code;
    expect(await code(client.signedRetry.complete(privacy, 'not-a-stamp!'))).toBe('WALLET_SIGNATURE_MALFORMED');
    const privacyStamp = await key.stamp(privacy.challenge.payloadToSign);
    const tampered = { ...privacy, request: { ...privacy.request, body: { privateEnabled: false } } };
    expect(await code(client.signedRetry.complete(tampered, privacyStamp))).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    // Refused retries do not use the request id up: the identical request still goes through.
    expect(await client.signedRetry.complete(privacy, privacyStamp)).toMatchObject({ id: accountId, privateEnabled: true });
    // A request id signs one request: sending it again is a 401 UNAUTHORIZED (start the operation again).
    const replayed = await client.signedRetry.complete(privacy, privacyStamp).catch((e: unknown) => e);
    expect(replayed).toBeInstanceOf(AuthenticationError);
    expect((replayed as AuthenticationError).code).toBe('UNAUTHORIZED');
  });

  it('adds SMS_OTP once, removes a credential only when signed by another credential’s session, never the last one', async () => {
    const { accountId, email } = await wallet();
    const { key } = await signIn(email);
    const sms = await client.auth.credentials.create({ type: 'SMS_OTP', accountId }, { stamper: key });
    const twice = await client.auth.credentials.create({ type: 'SMS_OTP', accountId }, { stamper: key }).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(BadRequestError);
    expect((twice as BadRequestError).code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');

    const own = await client.auth.credentials.delete(email.id, { stamper: key }).catch((e: unknown) => e);
    expect((own as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
    const { key: smsKey } = await signIn(sms);
    await expect(client.auth.credentials.delete(email.id, { stamper: smsKey })).resolves.toBeUndefined();
    const last = await client.auth.credentials.delete(sms.id, { stamper: smsKey }).catch((e: unknown) => e);
    expect(last).toBeInstanceOf(BadRequestError);
    expect((await client.auth.credentials.list({ accountId })).data.map((c) => c.type)).toEqual(['SMS_OTP']);
  });

  it('refresh, export (decrypted with the pinned enclave key), privacy, and revoke', async () => {
    const { accountId, email } = await wallet();
    const { session, key } = await signIn(email);
    const next = await SessionKey.generate();
    const refreshed = await client.auth.sessions.refresh(session.id, { clientPublicKey: next.publicKeyCompressedHex }, { stamper: key });
    expect(refreshed).toMatchObject({ accountId, type: 'EMAIL_OTP' });
    expect(refreshed.id).not.toBe(session.id);

    const exportKey = await DecryptionKey.generate();
    const exported = await client.internalAccounts.export(accountId, { clientPublicKey: exportKey.publicKeyUncompressedHex }, { stamper: next });
    expect(exported.id).toBe(accountId);
    const mnemonic = await decryptExportBundle(exported.encryptedWalletCredentials, exportKey, enclaveKey);
    expect(mnemonic.split(' ')).toHaveLength(12);

    const updated = await client.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: next });
    expect(updated).toMatchObject({ id: accountId, privateEnabled: true });

    // A session may sign its own revocation; it then signs nothing more.
    await expect(client.auth.sessions.revoke(refreshed.id, { stamper: next })).resolves.toBeUndefined();
    expect((await client.auth.sessions.list({ accountId })).data.map((s) => s.id)).toEqual([session.id]);
    const revoked = await client.internalAccounts.update(accountId, { privateEnabled: false }, { stamper: next }).catch((e: unknown) => e);
    expect((revoked as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('PASSKEY: registration signed by a session, sign-in with the challenge’s requestId; legacy keys get a sealed session key', async () => {
    const { accountId, email } = await wallet();
    const { key } = await signIn(email);
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example' });
    const registration = await registerPasskey(
      { accountId, nickname: 'Laptop', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: 'wallet.example', name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: authenticator },
    );
    const passkey = await client.auth.credentials.create(registration, { stamper: key });
    expect(passkey).toMatchObject({ type: 'PASSKEY', nickname: 'Laptop', credentialId: registration.attestation.credentialId });

    // A compressed clientPublicKey (what the reference's clients send): its private key signs for the session, and so
    // does the key sealed to it in encryptedSessionSigningKey, which SPEC §2.5 gives every PASSKEY and OAUTH session.
    const sessionKey = await SessionKey.generate();
    const challenge = await client.auth.credentials.challenge(passkey.id, { clientPublicKey: sessionKey.publicKeyCompressedHex });
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    const assertion = await assertPasskey({ challenge: challenge.challenge, credentialId: challenge.credentialId, rpId: 'wallet.example' }, { webauthn: authenticator });
    const session = await client.auth.credentials.verify(passkey.id, assertion, { requestId: challenge.requestId });
    expect(session).toMatchObject({ type: 'PASSKEY', accountId, encryptedSessionSigningKey: expect.any(String) });
    await expect(client.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: sessionKey })).resolves.toMatchObject({ privateEnabled: true });

    // A client that opens the sealed key (it holds its key as hex, so it can decrypt as well as sign) signs with it too.
    const pair = await generateP256KeyPairHex();
    const sealedTo = await client.auth.credentials.challenge(passkey.id, { clientPublicKey: pair.publicKeyCompressedHex });
    const sealedAssertion = await assertPasskey({ challenge: sealedTo.challenge, credentialId: sealedTo.credentialId, rpId: 'wallet.example' }, { webauthn: authenticator });
    const sealedSession = await client.auth.credentials.verify(passkey.id, sealedAssertion, { requestId: sealedTo.requestId });
    const opened: WalletStamper = await SessionKey.fromPrivateKeyHex(
      await decryptSessionSigningKey(sealedSession.encryptedSessionSigningKey!, await DecryptionKey.fromPrivateKeyHex(pair.privateKeyHex)),
    );
    await expect(client.internalAccounts.update(accountId, { privateEnabled: false }, { stamper: opened })).resolves.toMatchObject({ privateEnabled: false });
    await expect(client.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: await SessionKey.fromPrivateKeyHex(pair.privateKeyHex) })).resolves.toMatchObject({ privateEnabled: true });

    // Legacy model: an uncompressed key; the service seals a session key to it.
    const receiver = await DecryptionKey.generate();
    const legacy = await client.auth.credentials.challenge(passkey.id, { clientPublicKey: receiver.publicKeyUncompressedHex });
    const legacyAssertion = await assertPasskey({ challenge: legacy.challenge, credentialId: legacy.credentialId, rpId: 'wallet.example' }, { webauthn: authenticator });
    const legacySession = await client.auth.credentials.verify(passkey.id, legacyAssertion, { requestId: legacy.requestId });
    const sealed: WalletStamper = await SessionKey.fromPrivateKeyHex(await decryptSessionSigningKey(legacySession.encryptedSessionSigningKey!, receiver));
    await expect(client.internalAccounts.update(accountId, { privateEnabled: false }, { stamper: sealed })).resolves.toMatchObject({ privateEnabled: false });
  });

  it('a busy service answers 200 PROCESSING: the runner re-sends the identical request with backoff until it settles', async () => {
    const sleeps: number[] = [];
    const patient = client.withOptions({ sleep: async (ms) => void sleeps.push(ms), random: () => 0 });
    const { accountId, email } = await wallet();
    const { session, key } = await signIn(email);
    await expect(patient.sandbox.setWalletProcessing(2)).resolves.toEqual({ retries: 2 });
    const next = await SessionKey.generate();
    const refreshed = await patient.auth.sessions.refresh(session.id, { clientPublicKey: next.publicKeyCompressedHex }, { stamper: key });
    expect(refreshed).toMatchObject({ accountId, type: 'EMAIL_OTP' });
    expect(sleeps).toEqual([500, 1_000]);

    // Out of budget: the error carries what complete() needs to go on.
    await patient.sandbox.setWalletProcessing(3);
    const error = await patient.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: next, processingTimeout: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletOperationTimeoutError);
    const timeout = error as WalletOperationTimeoutError;
    expect(timeout.serverMessage).toContain('not settled');
    await expect(patient.signedRetry.complete(timeout.pending!, timeout.stamp!)).resolves.toMatchObject({ id: accountId, privateEnabled: true });
  });

  it('a payment from the wallet: execute carries the stamp of the quote’s payloadToSign (no 202, no Request-Id)', async () => {
    const { customer, accountId, email } = await wallet();
    const { key } = await signIn(email);
    await client.sandbox.fundInternalAccount(accountId, 5_000_000);
    const bank = await client.externalAccounts.create({
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Wally Wallet' } },
    });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000_000,
    });
    const info = quote.paymentInstructions?.map((i) => i.accountOrWalletInfo).find((a) => a.accountType === 'EMBEDDED_WALLET');
    expect(info?.accountType === 'EMBEDDED_WALLET' && info.payloadToSign).toEqual(expect.any(String));
    const unsigned = await client.quotes.execute(quote.id).catch((e: unknown) => e);
    expect((unsigned as AuthenticationError).code).toBe('WALLET_SIGNATURE_MISSING');
    const payloadToSign = info?.accountType === 'EMBEDDED_WALLET' ? info.payloadToSign : '';
    const executed = await client.quotes.execute(quote.id, undefined, { headers: { 'Service-Wallet-Signature': await key.stamp(payloadToSign) } });
    expect(executed.id).toBe(quote.id);
  });

  it('OAUTH: registered with a token, verified with a fresh token whose nonce hashes the clientPublicKey', async () => {
    const { accountId, email } = await wallet();
    const { key } = await signIn(email);
    const sessionKey = await SessionKey.generate();
    const now = Math.floor(engine.clock.now() / 1000);
    const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const token = async () => `${encode({ alg: 'RS256' })}.${encode({
      iss: 'https://accounts.google.com', aud: 'app', sub: 'g-1', email: 'wally@gmail.com', iat: now, exp: now + 600,
      nonce: await oauthNonce(sessionKey.publicKeyCompressedHex),
    })}.sig`;
    const oauth = await client.auth.credentials.create({ type: 'OAUTH', accountId, oidcToken: await token() }, { stamper: key });
    expect(oauth).toMatchObject({ type: 'OAUTH', nickname: 'wally@gmail.com' });
    const session = await client.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: await token(), clientPublicKey: sessionKey.publicKeyCompressedHex });
    expect(session).toMatchObject({ type: 'OAUTH', accountId });
  });

  it('customers.updateSigned changes an email tied to the wallet credentials in one call', async () => {
    const { customer, accountId, email } = await wallet();
    const { key } = await signIn(email);
    const updated = await client.customers.updateSigned(customer.id, { customerType: 'INDIVIDUAL', email: 'wally.2@example.com' }, { stamper: key });
    expect(updated.email).toBe('wally.2@example.com');
    expect((await client.auth.credentials.list({ accountId })).data[0]!.nickname).toBe('wally.2@example.com');
  });

  it('customers.update of a wallet-tied email rejects with SignatureRequiredError, finished with signedRetry.complete', async () => {
    const { customer, email } = await wallet();
    const { key } = await signIn(email);
    const error = await client.customers.update(customer.id, { customerType: 'INDIVIDUAL', email: 'wally.3@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureRequiredError);
    const pending = (error as SignatureRequiredError).pending;
    expect(pending.request).toMatchObject({ operationId: 'updateCustomer', method: 'PATCH' });
    const done = await client.signedRetry.complete(pending, key);
    expect(done).toMatchObject({ email: 'wally.3@example.com' });
  });
});
