import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { AuthCredentialCreateRequest, AuthCredentialVerifyRequest, base64UrlDecode, base64UrlEncode, randomBytes } from '@railyard/contract';
import { SoftwarePasskeyAuthenticator, assertPasskey, encodeCbor, passkeyWebAuthnChallenge, registerPasskey, toPasskeyAssertion, toPasskeyAttestation } from './index.js';

const origin = 'https://wallet.example.test';
const rpID = 'wallet.example.test';
const accountId = 'InternalAccount:019a0000-0000-7000-8000-000000000001';
const clientData = (b64u: string) => JSON.parse(new TextDecoder().decode(base64UrlDecode(b64u)));

/** Registers a passkey through the wallet's mapping and verifies it with @simplewebauthn/server. */
async function register(authenticator: SoftwarePasskeyAuthenticator) {
  const challenge = base64UrlEncode(randomBytes(32));
  const body = await registerPasskey(
    { accountId, nickname: "Ada's phone", challenge, rp: { id: rpID, name: 'Wallet' }, user: { id: base64UrlEncode(randomBytes(16)), name: 'ada@example.test' } },
    { webauthn: authenticator },
  );
  const verified = await verifyRegistrationResponse({
    response: {
      id: body.attestation.credentialId,
      rawId: body.attestation.credentialId,
      type: 'public-key',
      response: { clientDataJSON: body.attestation.clientDataJson, attestationObject: body.attestation.attestationObject, transports: body.attestation.transports ?? [] },
      clientExtensionResults: {},
    },
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  });
  return { body, challenge, verified };
}

describe('software passkey authenticator + registerPasskey', () => {
  it('makes an ES256 "none" attestation that @simplewebauthn/server verifies, mapped to the SPEC §2.5 field names', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const { body, challenge, verified } = await register(authenticator);
    expect(verified.verified).toBe(true);
    const info = verified.registrationInfo!;
    expect(info.fmt).toBe('none');
    expect(info.credential.id).toBe(body.attestation.credentialId);
    expect(info.credential.counter).toBe(0);
    expect(info.userVerified).toBe(true);
    expect(info.credentialDeviceType).toBe('singleDevice');
    expect(Buffer.from(info.credential.publicKey)).toEqual(Buffer.from(authenticator.credentials[0]!.publicKeyCose));
    expect(body).toMatchObject({ type: 'PASSKEY', accountId, nickname: "Ada's phone", challenge, attestation: { transports: ['internal'] } });
    expect(Object.keys(body.attestation).sort()).toEqual(['attestationObject', 'clientDataJson', 'credentialId', 'transports']);
    expect(clientData(body.attestation.clientDataJson)).toEqual({ type: 'webauthn.create', challenge, origin, crossOrigin: false });
    expect(AuthCredentialCreateRequest.safeParse(body).success).toBe(true);
  });

  it('refuses to re-create an excluded credential and non-ES256 requests', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const { body } = await register(authenticator);
    const input = { accountId, nickname: 'again', challenge: 'AAAA', rp: { id: rpID, name: 'Wallet' }, user: { id: 'AAAA', name: 'ada' }, excludeCredentialIds: [body.attestation.credentialId] };
    await expect(registerPasskey(input, { webauthn: authenticator })).rejects.toMatchObject({ name: 'InvalidStateError' });
    await expect(
      authenticator.startRegistration({ optionsJSON: { rp: { name: 'x' }, user: { id: 'AAAA', name: 'a', displayName: 'a' }, challenge: 'AAAA', pubKeyCredParams: [{ type: 'public-key', alg: -257 }] } }),
    ).rejects.toMatchObject({ name: 'NotSupportedError' });
  });

  it('reports flags as configured (UV off, backed up)', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin, userVerified: false, backedUp: true });
    const challenge = base64UrlEncode(randomBytes(32));
    const body = await registerPasskey({ accountId, nickname: 'synced', challenge, rp: { id: rpID, name: 'Wallet' }, user: { id: 'AAAA', name: 'ada' } }, { webauthn: authenticator });
    const response = { id: body.attestation.credentialId, rawId: body.attestation.credentialId, type: 'public-key' as const, response: { clientDataJSON: body.attestation.clientDataJson, attestationObject: body.attestation.attestationObject }, clientExtensionResults: {} };
    await expect(verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true })).rejects.toThrow(/verif/i);
    const lax = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
    expect(lax.registrationInfo).toMatchObject({ userVerified: false, credentialDeviceType: 'multiDevice', credentialBackedUp: true });
  });
});

describe('software passkey authenticator + assertPasskey', () => {
  it('signs the UTF-8 bytes of the hex challenge; @simplewebauthn/server verifies with a growing counter', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const { verified } = await register(authenticator);
    const credential = verified.registrationInfo!.credential;
    let counter = credential.counter;
    for (let i = 0; i < 3; i++) {
      const hexChallenge = Buffer.from(randomBytes(32)).toString('hex'); // what POST /auth/credentials/{id}/challenge returns
      const body = await assertPasskey({ challenge: hexChallenge, credentialId: credential.id, rpId: rpID }, { webauthn: authenticator });
      expect(AuthCredentialVerifyRequest.safeParse(body).success).toBe(true);
      expect(Object.keys(body.assertion).sort()).toEqual(['authenticatorData', 'clientDataJson', 'credentialId', 'signature', 'userHandle']);
      const cd = clientData(body.assertion.clientDataJson);
      expect(cd).toMatchObject({ type: 'webauthn.get', origin });
      expect(new TextDecoder().decode(base64UrlDecode(cd.challenge))).toBe(hexChallenge); // not hex-decoded
      expect(cd.challenge).toBe(passkeyWebAuthnChallenge(hexChallenge));
      const result = await verifyAuthenticationResponse({
        response: {
          id: body.assertion.credentialId,
          rawId: body.assertion.credentialId,
          type: 'public-key',
          response: { clientDataJSON: body.assertion.clientDataJson, authenticatorData: body.assertion.authenticatorData, signature: body.assertion.signature, userHandle: body.assertion.userHandle },
          clientExtensionResults: {},
        },
        expectedChallenge: passkeyWebAuthnChallenge(hexChallenge),
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { ...credential, counter },
        requireUserVerification: true,
      });
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.newCounter).toBe(counter + 1);
      expect(result.authenticationInfo.userVerified).toBe(true);
      counter = result.authenticationInfo.newCounter;
    }
  });

  it('produces assertions a server must refuse: no user presence, a replayed counter, a tampered signature, another challenge', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const { verified } = await register(authenticator);
    const credential = verified.registrationInfo!.credential;
    const hexChallenge = 'ab'.repeat(32);
    const verify = (raw: Awaited<ReturnType<typeof authenticator.startAuthentication>>, counter: number, expectedChallenge = passkeyWebAuthnChallenge(hexChallenge)) =>
      verifyAuthenticationResponse({ response: raw, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, credential: { ...credential, counter } });
    const optionsJSON = { challenge: passkeyWebAuthnChallenge(hexChallenge), rpId: rpID, allowCredentials: [{ id: credential.id, type: 'public-key' as const }] };

    const good = await authenticator.startAuthentication({ optionsJSON });
    expect((await verify(good, 0)).verified).toBe(true);
    await expect(verify(good, 1)).rejects.toThrow(/counter/i); // replay: counter not greater than stored
    const sig = base64UrlDecode(good.response.signature);
    sig[sig.length - 1]! ^= 1;
    expect((await verify({ ...good, response: { ...good.response, signature: base64UrlEncode(sig) } }, 0).catch(() => ({ verified: false }))).verified).toBe(false);
    await expect(verify(good, 0, passkeyWebAuthnChallenge('cd'.repeat(32)))).rejects.toThrow(/challenge/i);

    authenticator.setUserState({ userPresent: false });
    const absent = await authenticator.startAuthentication({ optionsJSON });
    await expect(verify(absent, 10)).rejects.toThrow(/present/i);
  });

  it('refuses a credential it does not hold; maps userHandle only when present', async () => {
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    await expect(assertPasskey({ challenge: 'ab'.repeat(32), credentialId: 'AAAA', rpId: rpID }, { webauthn: authenticator })).rejects.toMatchObject({ name: 'NotAllowedError' });
    const mapped = toPasskeyAssertion({ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' }, clientExtensionResults: {} });
    expect(mapped).toEqual({ credentialId: 'x', clientDataJson: 'a', authenticatorData: 'b', signature: 'c' });
    const attestation = toPasskeyAttestation({ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'a', attestationObject: 'b', transports: ['smart-card', 'usb', 'hybrid'] }, clientExtensionResults: {} });
    expect(attestation).toEqual({ credentialId: 'x', clientDataJson: 'a', attestationObject: 'b', transports: ['usb', 'hybrid'] });
  });
});

describe('CBOR encoder', () => {
  it('encodes the RFC 8949 Appendix A examples it supports', () => {
    const hex = (v: Parameters<typeof encodeCbor>[0]) => Buffer.from(encodeCbor(v)).toString('hex');
    expect(hex(0)).toBe('00');
    expect(hex(23)).toBe('17');
    expect(hex(24)).toBe('1818');
    expect(hex(1000)).toBe('1903e8');
    expect(hex(1000000)).toBe('1a000f4240');
    expect(hex(-1)).toBe('20');
    expect(hex(-100)).toBe('3863');
    expect(hex(-1000)).toBe('3903e7');
    expect(hex('IETF')).toBe('6449455446');
    expect(hex('ü')).toBe('62c3bc');
    expect(hex(new Uint8Array([1, 2, 3, 4]))).toBe('4401020304');
    expect(hex([1, [2, 3], [4, 5]])).toBe('8301820203820405');
    expect(hex(new Map<number | string, number | number[]>([[1, 2], [3, 4]]))).toBe('a201020304');
    expect(hex(new Map<string, number | number[]>([['a', 1], ['b', [2, 3]]]))).toBe('a26161016162820203');
  });
});
