import { describe, expect, it } from 'vitest';
import { compressP256PublicKey, verifyWalletStamp } from '@railyard/contract';
import { DecryptionKey, SessionKey, decodeStamp, oauthNonce, signedRetryHeaders, STAMP_SCHEME } from './index.js';
import { readVectors, type VectorFile } from '../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors = (name: VectorFile): Json => readVectors<Json>(name);

const stamps = vectors('stamps.json');

describe('SessionKey', () => {
  it('generates a non-extractable P-256 key whose stamps verify', async () => {
    const key = await SessionKey.generate();
    expect(key.privateKey.extractable).toBe(false);
    expect(key.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    expect(key.publicKeyCompressedHex).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(key.publicKeyUncompressedHex).toMatch(/^04[0-9a-f]{128}$/);
    expect(compressP256PublicKey(key.publicKeyUncompressedHex)).toBe(key.publicKeyCompressedHex);
    await expect(crypto.subtle.exportKey('jwk', key.privateKey)).rejects.toThrow();
    expect(key.keyPair?.privateKey).toBe(key.privateKey);
    const stamp = await key.stamp('{"a":1}');
    expect(decodeStamp(stamp)).toMatchObject({ publicKey: key.publicKeyCompressedHex, scheme: STAMP_SCHEME });
    expect((await verifyWalletStamp(stamp, '{"a":1}', key.publicKeyCompressedHex)).valid).toBe(true);
    expect((await verifyWalletStamp(stamp, '{"a": 1}', key.publicKeyCompressedHex)).valid).toBe(false);
    const restored = await SessionKey.fromKeyPair(key.keyPair!);
    expect(restored.publicKeyCompressedHex).toBe(key.publicKeyCompressedHex);
  });

  for (const c of stamps.cases as Json[]) {
    it(`${c.name}: re-signs the payload with privateKeyHex; the stamp decodes to the same key and scheme and verifies`, async () => {
      const key = await SessionKey.fromPrivateKeyHex(c.privateKeyHex);
      expect(key.privateKey.extractable).toBe(false);
      expect(key.publicKeyCompressedHex).toBe(c.publicKeyCompressedHex);
      const stamp = await key.stamp(c.payload);
      const decoded = decodeStamp(stamp);
      expect(decoded.publicKey).toBe(c.decoded.publicKey);
      expect(decoded.scheme).toBe(c.decoded.scheme);
      expect((await verifyWalletStamp(stamp, c.payload, c.publicKeyCompressedHex)).valid).toBe(true);
      // and the reference client's own stamp for it is accepted by the same verifier
      expect((await verifyWalletStamp(c.stamp, c.payload, key.publicKeyCompressedHex)).valid).toBe(true);
    });
  }

  it('refuses every mustReject stamp of stamps.json', async () => {
    for (const r of stamps.mustReject as Json[]) expect((await verifyWalletStamp(r.stamp, r.payload, r.publicKeyCompressedHex)).valid).toBe(false);
    expect(() => decodeStamp(stamps.mustReject.find((r: Json) => r.name === 'malformed-base64url').stamp)).toThrow(/base64url/);
    expect(() => decodeStamp(stamps.mustReject.find((r: Json) => r.name === 'wrong-scheme').stamp)).toThrow(/scheme/);
  });
});

describe('DecryptionKey', () => {
  it('generates a non-extractable ECDH key with both public forms', async () => {
    const key = await DecryptionKey.generate();
    expect(key.privateKey.extractable).toBe(false);
    expect(key.privateKey.algorithm).toMatchObject({ name: 'ECDH', namedCurve: 'P-256' });
    expect(compressP256PublicKey(key.publicKeyUncompressedHex)).toBe(key.publicKeyCompressedHex);
  });
});

describe('signedRetryHeaders', () => {
  it('stamps payloadToSign byte for byte and carries the request id', async () => {
    const key = await SessionKey.generate();
    const challenge = { type: 'EMAIL_OTP', payloadToSign: stamps.cases[5].payload, requestId: 'Request:6f1c2b1e-1111-4e3b-9a55-0c0ffee00000', expiresAt: '2026-01-01T00:05:00Z' };
    const headers = await signedRetryHeaders(challenge, key);
    expect(Object.keys(headers)).toEqual(['Service-Wallet-Signature', 'Request-Id']);
    expect(headers['Request-Id']).toBe(challenge.requestId);
    expect((await verifyWalletStamp(headers['Service-Wallet-Signature'], challenge.payloadToSign, key.publicKeyCompressedHex)).valid).toBe(true);
    // any stamper works
    const fixed = await signedRetryHeaders(challenge, { stamp: async () => 'x' });
    expect(fixed['Service-Wallet-Signature']).toBe('x');
    await expect(signedRetryHeaders({} as never, key)).rejects.toThrow(/payloadToSign/);
  });
});

describe('oauthNonce (oauth-nonce.json)', () => {
  const v = vectors('oauth-nonce.json');
  it('computes every case and extra case, and not the mustReject nonce', async () => {
    for (const c of v.cases) expect(await oauthNonce(c.clientPublicKey)).toBe(c.nonce);
    for (const c of v.extraCases) {
      if (c.mustReject) expect(await oauthNonce(c.clientPublicKey)).not.toBe(c.nonce);
      else expect(await oauthNonce(c.clientPublicKey)).toBe(c.nonce);
    }
  });
  it('the nonce of a generated session key is the hash of the text sent', async () => {
    const key = await SessionKey.generate();
    const text = new TextEncoder().encode(key.publicKeyCompressedHex);
    const expected = Buffer.from(await crypto.subtle.digest('SHA-256', text)).toString('hex');
    expect(await oauthNonce(key.publicKeyCompressedHex)).toBe(expected);
  });
});
