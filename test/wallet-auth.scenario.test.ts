import { expect, it } from 'vitest';
import { AuthenticationError, type AuthMethod, type RailyardClient } from '@railyard/client';
import {
  DecryptionKey, SessionKey, SoftwarePasskeyAuthenticator, assertPasskey, decryptExportBundle, encryptOtp, oauthNonce, registerPasskey,
} from '@railyard/wallet';
import { describeOverTransports } from './support/transports.js';

// Embedded-wallet authentication through the typed client (SPEC §2.5, §4.2, §5 items 3–4), with @railyard/wallet as the
// device, over every transport: EMAIL_OTP sign-in, a credential added by a signed retry, refresh, export, revoke; a
// passkey registered and used to sign in with the software authenticator; a stamp made elsewhere; OAUTH.

/** A USDB customer (so an embedded wallet with an EMAIL_OTP credential) and the pinned sandbox enclave key. */
async function wallet(client: RailyardClient) {
  const { publicKeyHex: enclaveKey } = await client.sandbox.enclaveKey();
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', phoneNumber: '+15555550123', currencies: ['USD', 'USDB'],
  });
  const account = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USDB' })).data[0]!;
  expect(account.type).toBe('EMBEDDED_WALLET');
  const [email] = (await client.auth.credentials.list({ accountId: account.id })).data;
  return { accountId: account.id, email: email!, enclaveKey };
}

/** OTP sign-in: challenge, code sealed to the target bundle the pinned enclave key signs, verify stamped by the TEK. */
async function signIn(client: RailyardClient, credential: AuthMethod, enclaveKey: string) {
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(credential.id);
  const tek = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey: enclaveKey });
  const session = await client.auth.credentials.verify(credential.id, { type: credential.type as 'EMAIL_OTP' | 'SMS_OTP', encryptedOtpBundle }, { stamper: tek });
  return { session, key: tek };
}

describeOverTransports('wallet auth', (scope) => {
  it('EMAIL_OTP sign-in, an SMS_OTP credential added by the session, refresh, export, revoke', async () => {
    const { client } = scope;
    const { accountId, email, enclaveKey } = await wallet(client);
    expect(email).toMatchObject({ type: 'EMAIL_OTP', nickname: 'wally@example.com' });
    const { session, key } = await signIn(client, email, enclaveKey);
    expect(session).toMatchObject({ accountId, type: 'EMAIL_OTP' });

    const sms = await client.auth.credentials.create({ type: 'SMS_OTP', accountId }, { stamper: key });
    expect(sms).toMatchObject({ type: 'SMS_OTP', nickname: '+15555550123', accountId });
    const smsSession = await signIn(client, sms, enclaveKey);
    expect(smsSession.session.type).toBe('SMS_OTP');

    const next = await SessionKey.generate();
    const refreshed = await client.auth.sessions.refresh(session.id, { clientPublicKey: next.publicKeyCompressedHex }, { stamper: key });
    expect(refreshed).toMatchObject({ accountId, type: 'EMAIL_OTP' });

    const exportKey = await DecryptionKey.generate();
    const exported = await client.internalAccounts.export(accountId, { clientPublicKey: exportKey.publicKeyUncompressedHex }, { stamper: next });
    const mnemonic = await decryptExportBundle(exported.encryptedWalletCredentials, exportKey, enclaveKey);
    expect(mnemonic.split(' ')).toHaveLength(12);
    // The service keeps nothing: a second export shows the same words, sealed to another key.
    const exportKey2 = await DecryptionKey.generate();
    const again = await client.internalAccounts.export(accountId, { clientPublicKey: exportKey2.publicKeyUncompressedHex }, { stamper: next });
    expect(again.encryptedWalletCredentials).not.toBe(exported.encryptedWalletCredentials);
    expect(await decryptExportBundle(again.encryptedWalletCredentials, exportKey2, enclaveKey)).toBe(mnemonic);

    const sessions = async () => (await client.auth.sessions.list({ accountId })).data.map((s) => s.id).sort();
    expect(await sessions()).toEqual([session.id, smsSession.session.id, refreshed.id].sort());
    await client.auth.sessions.revoke(refreshed.id, { stamper: next });
    await client.auth.sessions.revoke(session.id, { stamper: key });
    expect(await sessions()).toEqual([smsSession.session.id]);
    const revoked = await client.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: next }).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(AuthenticationError);
    expect((revoked as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
  });

  it('a passkey registered by a signed retry signs in with the software authenticator; its session key signs', async () => {
    const { client } = scope;
    const { accountId, email, enclaveKey } = await wallet(client);
    const { key } = await signIn(client, email, enclaveKey);
    const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example' });
    const registration = await registerPasskey(
      { accountId, nickname: 'Laptop', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: 'wallet.example', name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: authenticator },
    );
    const passkey = await client.auth.credentials.create(registration, { stamper: key });
    expect(passkey).toMatchObject({ type: 'PASSKEY', nickname: 'Laptop', credentialId: registration.attestation.credentialId });

    const sessionKey = await SessionKey.generate();
    const challenge = await client.auth.credentials.challenge(passkey.id, { clientPublicKey: sessionKey.publicKeyCompressedHex });
    const assertion = await assertPasskey({ challenge: challenge.challenge, credentialId: challenge.credentialId, rpId: 'wallet.example' }, { webauthn: authenticator });
    const session = await client.auth.credentials.verify(passkey.id, assertion, { requestId: challenge.requestId });
    expect(session).toMatchObject({ type: 'PASSKEY', accountId, nickname: 'Laptop' });
    expect(await client.internalAccounts.update(accountId, { privateEnabled: true }, { stamper: sessionKey })).toMatchObject({ privateEnabled: true });
    // The challenge is single use.
    const replay = await client.auth.credentials.verify(passkey.id, assertion, { requestId: challenge.requestId }).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(AuthenticationError);
  });

  it('a stamp made elsewhere finishes the operation; a changed body is refused with WALLET_SIGNATURE_BODY_MISMATCH', async () => {
    const { client } = scope;
    const { accountId, email, enclaveKey } = await wallet(client);
    const { key } = await signIn(client, email, enclaveKey);
    const pending = await client.internalAccounts.update(accountId, { privateEnabled: true });
    if (pending.status !== 'SIGNATURE_REQUIRED') throw new Error(`expected SIGNATURE_REQUIRED, got ${pending.status}`);
    const stamp = await key.stamp(pending.challenge.payloadToSign); // e.g. in the browser holding the key
    const changed = await client.signedRetry.complete({ ...pending, request: { ...pending.request, body: { privateEnabled: false } } }, stamp).catch((e: unknown) => e);
    expect((changed as AuthenticationError).code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect(await client.signedRetry.complete(JSON.parse(JSON.stringify(pending)) as typeof pending, stamp)).toMatchObject({ id: accountId, privateEnabled: true });
  });

  it('PROCESSING answers are re-sent, identical, until the operation settles', async () => {
    const { accountId, email, enclaveKey } = await wallet(scope.client);
    const sleeps: number[] = [];
    const client = scope.client.withOptions({ sleep: async (ms) => void sleeps.push(ms) });
    const { key } = await signIn(client, email, enclaveKey);
    await client.sandbox.setWalletProcessing(2);
    const exportKey = await DecryptionKey.generate();
    const exported = await client.internalAccounts.export(accountId, { clientPublicKey: exportKey.publicKeyUncompressedHex }, { stamper: key });
    expect((await decryptExportBundle(exported.encryptedWalletCredentials, exportKey, enclaveKey)).split(' ')).toHaveLength(12);
    expect(sleeps).toHaveLength(2);
  });

  it('OAUTH: a credential from an OIDC token, then a session from a fresh token whose nonce hashes the clientPublicKey', async () => {
    const { client } = scope;
    const { accountId, email, enclaveKey } = await wallet(client);
    const { key } = await signIn(client, email, enclaveKey);
    const sessionKey = await SessionKey.generate();
    const now = Math.floor(Date.parse((await client.sandbox.clock.get()).now) / 1000);
    const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const token = async () => `${encode({ alg: 'RS256' })}.${encode({
      iss: 'https://accounts.google.com', aud: 'app', sub: 'g-1', email: 'wally@gmail.com', iat: now, exp: now + 600,
      nonce: await oauthNonce(sessionKey.publicKeyCompressedHex),
    })}.sig`;
    const oauth = await client.auth.credentials.create({ type: 'OAUTH', accountId, oidcToken: await token() }, { stamper: key });
    const session = await client.auth.credentials.verify(oauth.id, { type: 'OAUTH', oidcToken: await token(), clientPublicKey: sessionKey.publicKeyCompressedHex });
    expect(session).toMatchObject({ type: 'OAUTH', accountId, nickname: 'wally@gmail.com' });
  });
});
