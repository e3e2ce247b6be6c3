import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, utf8Encode } from './bytes.js';
import { isWalletCryptoError } from './errors.js';
import { HPKE_INFO, HPKE_INFO_HEX, hkdfExpand, hkdfExtract, hpkeOpen, hpkeReferenceAad, hpkeSeal } from './hpke.js';
import { generateP256KeyPairHex, importP256PrivateKey } from './p256.js';
import { readVectors, type VectorFile } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors = (name: VectorFile): Json => readVectors<Json>(name);

// RFC 5869 Appendix A.1 (HKDF-SHA256, test case 1).
const RFC5869 = {
  ikm: '0b'.repeat(22),
  salt: '000102030405060708090a0b0c',
  info: 'f0f1f2f3f4f5f6f7f8f9',
  prk: '077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5',
  okm: '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
};

// RFC 9180 Appendix A.3.1: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, mode_base, sequence number 0.
// (The RFC has no vector for the AES-256-GCM variant; this one pins the KEM and the key schedule, which are shared.)
const RFC9180_A31 = {
  info: '4f6465206f6e2061204772656369616e2055726e',
  skEm: '4995788ef4b9d6132b249ce59a77281493eb39af373d236a1fe415cb0c2d7beb',
  pkEm: '04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4',
  skRm: 'f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2',
  pkRm: '04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0',
  pt: '4265617574792069732074727574682c20747275746820626561757479',
  aad: '436f756e742d30',
  ct: '5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434',
};

describe('HKDF on HMAC-SHA256', () => {
  it('matches RFC 5869 test case 1', async () => {
    const prk = await hkdfExtract(hexToBytes(RFC5869.salt), hexToBytes(RFC5869.ikm));
    expect(bytesToHex(prk)).toBe(RFC5869.prk);
    expect(bytesToHex(await hkdfExpand(prk, hexToBytes(RFC5869.info), 42))).toBe(RFC5869.okm);
  });
});

describe('HPKE (RFC 9180 base mode, single shot)', () => {
  it('reproduces the RFC 9180 A.3.1 known answer (enc and ciphertext) and opens it', async () => {
    const v = RFC9180_A31;
    const sealed = await hpkeSeal(v.pkRm, hexToBytes(v.pt), { info: hexToBytes(v.info), aad: hexToBytes(v.aad), aead: 'AES-128-GCM', ephemeralPrivateKeyHex: v.skEm });
    expect(sealed.encappedPublicHex).toBe(v.pkEm);
    expect(sealed.ciphertextHex).toBe(v.ct);
    const opened = await hpkeOpen(v.skRm, v.pkEm, v.ct, { info: hexToBytes(v.info), aad: hexToBytes(v.aad), aead: 'AES-128-GCM' });
    expect(bytesToHex(opened)).toBe(v.pt);
  });

  it('uses the reference info string', () => {
    expect(new TextDecoder().decode(HPKE_INFO)).toMatch(/_hpke$/);
    expect(bytesToHex(HPKE_INFO)).toBe(HPKE_INFO_HEX);
    expect(vectors('otp-bundles.json').hpkeInfoHex).toBe(HPKE_INFO_HEX);
    expect(vectors('session-key-bundles.json').hpkeInfoHex).toBe(HPKE_INFO_HEX);
  });

  it('opens every reference OTP bundle with explicit info and AAD = enc ‖ target public key', async () => {
    const otp = vectors('otp-bundles.json');
    for (const c of otp.cases) {
      const { encappedPublic, ciphertext } = JSON.parse(c.encryptedOtpBundle);
      const aad = hpkeReferenceAad(encappedPublic, c.targetPublicKeyUncompressedHex);
      const pt = await hpkeOpen(c.targetPrivateKeyHex, encappedPublic, ciphertext, { info: hexToBytes(otp.hpkeInfoHex), aad });
      expect(new TextDecoder().decode(pt)).toBe(c.expectedPlaintext);
    }
  });

  it('round-trips with AES-256-GCM to compressed and uncompressed recipients, hex or CryptoKey', async () => {
    const pair = await generateP256KeyPairHex();
    for (const recipient of [pair.publicKeyCompressedHex, pair.publicKeyUncompressedHex]) {
      const sealed = await hpkeSeal(recipient, 'hello, enclave');
      expect(sealed.encappedPublicHex).toMatch(/^04[0-9a-f]{128}$/);
      expect(sealed.ciphertextHex.length).toBe(2 * (14 + 16));
      expect(new TextDecoder().decode(await hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, sealed.ciphertextHex))).toBe('hello, enclave');
      const key = await importP256PrivateKey(pair.privateKeyHex, 'ECDH');
      const opened = await hpkeOpen(key, sealed.encappedPublicHex, hexToBytes(sealed.ciphertextHex), { recipientPublicKeyHex: recipient });
      expect(new TextDecoder().decode(opened)).toBe('hello, enclave');
    }
  });

  it('fails authentication on a wrong key, info, AAD, suite or a flipped bit', async () => {
    const pair = await generateP256KeyPairHex();
    const other = await generateP256KeyPairHex();
    const sealed = await hpkeSeal(pair.publicKeyUncompressedHex, utf8Encode('secret'));
    const flipped = sealed.ciphertextHex.slice(0, -1) + (sealed.ciphertextHex.endsWith('0') ? '1' : '0');
    const attempts = [
      () => hpkeOpen(other.privateKeyHex, sealed.encappedPublicHex, sealed.ciphertextHex),
      () => hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, flipped),
      () => hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, sealed.ciphertextHex, { info: utf8Encode('other') }),
      () => hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, sealed.ciphertextHex, { aad: new Uint8Array(130) }),
      () => hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, sealed.ciphertextHex, { aead: 'AES-128-GCM' }),
      () => hpkeOpen(pair.privateKeyHex, other.publicKeyUncompressedHex, sealed.ciphertextHex),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(() => null, (e: unknown) => e);
      expect(isWalletCryptoError(error, 'DECRYPTION_FAILED')).toBe(true);
    }
    await expect(hpkeOpen(pair.privateKeyHex, sealed.encappedPublicHex, 'abcd')).rejects.toMatchObject({ code: 'MALFORMED' });
    await expect(hpkeOpen(pair.privateKeyHex, '04' + '00'.repeat(64), sealed.ciphertextHex)).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});
