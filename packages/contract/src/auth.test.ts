import { describe, expect, it } from 'vitest';
import {
  AuthCredentialCreateRequest, AuthCredentialVerifyRequest, ClientPublicKey, PasskeyAuthChallenge, PasskeyNickname, SignedRetryChallenge,
  WalletOperationProcessing, WalletStamp,
} from './auth.js';

const accountId = 'InternalAccount:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
// A real P-256 point (the sandbox's documented enclave key), in both forms: keys must be on the curve.
const uncompressed = '04f45abf4bacb86e120a64be1a884c1dece1dea7265a0bb21e1de53f9505359b4e26d383b80cb4424e5949fb3587aa9a64930543f02a4db009b62dd330e876eafd';
const compressed = '03f45abf4bacb86e120a64be1a884c1dece1dea7265a0bb21e1de53f9505359b4e';

describe('wallet auth schemas', () => {
  it('accepts compressed and uncompressed P-256 keys only', () => {
    expect(ClientPublicKey.safeParse(compressed).success).toBe(true);
    expect(ClientPublicKey.safeParse(uncompressed).success).toBe(true);
    expect(ClientPublicKey.safeParse(`05${'a'.repeat(64)}`).success).toBe(false);
    expect(ClientPublicKey.safeParse(`02${'f'.repeat(64)}`).success).toBe(false);
    expect(ClientPublicKey.safeParse(`02${'a'.repeat(63)}`).success).toBe(false);
  });

  it('creates OTP credentials with only type and accountId; PASSKEY needs the WebAuthn attestation', () => {
    expect(AuthCredentialCreateRequest.safeParse({ type: 'SMS_OTP', accountId }).success).toBe(true);
    expect(AuthCredentialCreateRequest.safeParse({ type: 'SMS_OTP', accountId, nickname: 'x' }).data).toEqual({ type: 'SMS_OTP', accountId });
    const passkey = {
      type: 'PASSKEY', accountId, challenge: 'c2FuZGJveA', nickname: "Ada's MacBook (work)",
      attestation: { credentialId: 'AQID', clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2Nm', transports: ['internal', 'hybrid'] },
    };
    expect(AuthCredentialCreateRequest.safeParse(passkey).success).toBe(true);
    const bad = AuthCredentialCreateRequest.safeParse({ ...passkey, attestation: { ...passkey.attestation, transports: ['bluetooth'] } });
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['attestation.transports.0']);
    expect(PasskeyNickname.safeParse('  My key  ').data).toBe('My key');
    expect(PasskeyNickname.safeParse('key; drop').success).toBe(false);
  });

  it('verifies each credential type with its own body', () => {
    expect(AuthCredentialVerifyRequest.safeParse({ type: 'EMAIL_OTP', encryptedOtpBundle: '{"encappedPublic":"04","ciphertext":"00"}' }).success).toBe(true);
    expect(AuthCredentialVerifyRequest.safeParse({ type: 'OAUTH', oidcToken: 'e30.e30.sig', clientPublicKey: compressed }).success).toBe(true);
    // PASSKEY verify binds the key sent on /challenge; a clientPublicKey here is not part of the request and is dropped.
    const passkey = AuthCredentialVerifyRequest.safeParse({ type: 'PASSKEY', assertion: { credentialId: 'AQID', clientDataJson: 'e30', authenticatorData: 'AA', signature: 'MEUC' }, clientPublicKey: compressed });
    expect(passkey.success && passkey.data).not.toHaveProperty('clientPublicKey');
  });

  it('describes signed-retry, passkey challenge and processing bodies', () => {
    const challenge = { payloadToSign: '{"type":"ACTIVITY_TYPE_X"}', requestId: 'Request:11111111-2222-4333-8444-555555555555', expiresAt: '2025-10-13T00:05:00Z' };
    expect(SignedRetryChallenge.safeParse(challenge).success).toBe(true);
    expect(SignedRetryChallenge.safeParse({ ...challenge, requestId: 'req_1' }).success).toBe(false);
    const method = { id: 'AuthMethod:11111111-2222-4333-8444-555555555555', accountId, type: 'PASSKEY', nickname: 'Key', createdAt: '2025-10-13T00:00:00Z', updatedAt: '2025-10-13T00:00:00Z' };
    expect(PasskeyAuthChallenge.safeParse({ ...method, ...challenge, credentialId: 'AQID', challenge: 'ab'.repeat(32) }).success).toBe(true);
    expect(PasskeyAuthChallenge.safeParse({ ...method, ...challenge, credentialId: 'AQID', challenge: 'AB'.repeat(32) }).success).toBe(false);
    expect(WalletOperationProcessing.safeParse({ status: 'PROCESSING', message: 'in flight' }).success).toBe(true);
    expect(WalletStamp.safeParse({ publicKey: compressed, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3045' }).success).toBe(true);
  });
});
