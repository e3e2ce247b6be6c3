import { describe, expect, it } from 'vitest';
import { WALLET_STAMP_SCHEME } from '../auth.js';
import { base64UrlDecode, base64UrlEncode, utf8Encode } from './bytes.js';
import { decompressP256PublicKey, importP256PrivateKey, isHighS, p256PublicKeyFromPrivate } from './p256.js';
import { createWalletStamp, decodeWalletStamp, encodeWalletStamp, verifyWalletStamp } from './stamp.js';
import { readVectors } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors: Json = readVectors('stamps.json');

describe('stamps: every accept case of stamps.json', () => {
  it('has the documented scheme', () => expect(vectors.scheme).toBe(WALLET_STAMP_SCHEME));

  for (const c of vectors.cases as Json[]) {
    it(`${c.name}: decodes to the documented fields, re-encodes byte-identically, and verifies (${c.note})`, async () => {
      const decoded = decodeWalletStamp(c.stamp);
      expect(decoded).toEqual(c.decoded);
      expect(encodeWalletStamp(decoded)).toBe(c.stamp);
      expect(isHighS(decoded.signature)).toBe(c.signatureIsHighS);
      expect(await verifyWalletStamp(c.stamp, c.payload, c.publicKeyCompressedHex)).toEqual({ valid: true, stamp: c.decoded });
      // the expected session key may be held in either form
      expect((await verifyWalletStamp(c.stamp, utf8Encode(c.payload), decompressP256PublicKey(c.publicKeyCompressedHex))).valid).toBe(true);
    });

    it(`${c.name}: re-signing with privateKeyHex gives a stamp with the same key and scheme that verifies`, async () => {
      const mine = await createWalletStamp(c.payload, c.privateKeyHex);
      const decoded = decodeWalletStamp(mine);
      expect(decoded.publicKey).toBe(c.decoded.publicKey);
      expect(decoded.scheme).toBe(c.decoded.scheme);
      expect(Object.keys(JSON.parse(new TextDecoder().decode(base64UrlDecode(mine))))).toEqual(['publicKey', 'scheme', 'signature']);
      expect(mine).not.toMatch(/[=+/]/);
      expect((await verifyWalletStamp(mine, c.payload, c.publicKeyCompressedHex)).valid).toBe(true);
      const key = await importP256PrivateKey(c.privateKeyHex);
      const viaKey = await createWalletStamp(c.payload, key, p256PublicKeyFromPrivate(c.privateKeyHex));
      expect((await verifyWalletStamp(viaKey, c.payload, c.publicKeyCompressedHex)).valid).toBe(true);
      // the same stamp does not verify over a changed payload
      expect(await verifyWalletStamp(mine, c.payload + 'x', c.publicKeyCompressedHex)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
    });
  }

  it('signs the literal characters of backslash-u escapes, not the characters they denote', async () => {
    const c = vectors.cases.find((x: Json) => x.payload.includes('\\u00e9'));
    expect(c).toBeDefined();
    const unescaped = JSON.stringify(JSON.parse(c.payload));
    expect(unescaped).not.toBe(c.payload);
    expect((await verifyWalletStamp(c.stamp, unescaped, c.publicKeyCompressedHex)).valid).toBe(false);
  });
});

describe('stamps: every mustReject case of stamps.json', () => {
  const expected: Record<string, string> = {
    'signature-over-different-payload': 'SIGNATURE_INVALID',
    'malformed-base64url': 'MALFORMED',
    'wrong-scheme': 'WRONG_SCHEME',
    'public-key-does-not-match-signature': 'SIGNATURE_INVALID',
  };
  for (const r of vectors.mustReject as Json[]) {
    it(`${r.name}: rejected`, async () => {
      const result = await verifyWalletStamp(r.stamp, r.payload, r.publicKeyCompressedHex);
      expect(result.valid).toBe(false);
      if (!result.valid) expect(result.reason).toBe(expected[r.name] ?? result.reason);
    });
  }
  it('covers every mustReject entry', () => expect(vectors.mustReject.map((r: Json) => r.name).sort()).toEqual(Object.keys(expected).sort()));
});

describe('stamps: other refusals', () => {
  const c = vectors.cases[0];
  const other = vectors.cases[1];
  const forge = (fields: Record<string, unknown>) => base64UrlEncode(utf8Encode(JSON.stringify(fields)));

  it('refuses a valid stamp of another session key (key mismatch)', async () => {
    expect(await verifyWalletStamp(other.stamp, other.payload, c.publicKeyCompressedHex)).toMatchObject({ valid: false, reason: 'KEY_MISMATCH' });
  });

  it('refuses padding, standard base64, non-JSON, arrays, missing or ill-typed fields, uppercase or uncompressed keys', async () => {
    const bad = [
      c.stamp + '=',
      c.stamp.replace(/-/g, '+').replace(/_/g, '/') + '+',
      '',
      base64UrlEncode(utf8Encode('not json')),
      forge([c.decoded] as unknown as Record<string, unknown>),
      forge({ publicKey: c.decoded.publicKey, scheme: c.decoded.scheme }),
      forge({ ...c.decoded, signature: 12 }),
      forge({ ...c.decoded, publicKey: c.decoded.publicKey.toUpperCase() }),
      forge({ ...c.decoded, publicKey: decompressP256PublicKey(c.decoded.publicKey) }),
      forge({ ...c.decoded, signature: c.decoded.signature + '00' }),
      base64UrlEncode(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])),
    ];
    for (const header of bad) {
      const result = await verifyWalletStamp(header, c.payload, c.publicKeyCompressedHex);
      expect(result).toMatchObject({ valid: false, reason: 'MALFORMED' });
      expect(() => decodeWalletStamp(header)).toThrow();
    }
  });

  it('accepts extra keys and another key order when decoding (the signature is what counts) but always emits the reference order', async () => {
    const reordered = forge({ signature: c.decoded.signature, scheme: c.decoded.scheme, publicKey: c.decoded.publicKey });
    expect(decodeWalletStamp(reordered)).toEqual(c.decoded);
    expect(encodeWalletStamp(decodeWalletStamp(reordered))).toBe(c.stamp);
  });
});

describe('stamps: pluggable native verifier', () => {
  it('gives the same verdicts with a node:crypto verifier (what a Node server passes for speed)', async () => {
    const { createPublicKey, verify } = await import('node:crypto');
    const nodeVerifier = (publicKeyCompressedHex: string, data: Uint8Array, der: Uint8Array) => {
      const u = decompressP256PublicKey(publicKeyCompressedHex);
      const b64u = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
      const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(u.slice(2, 66)), y: b64u(u.slice(66)) }, format: 'jwk' });
      return verify('sha256', data, key, der);
    };
    for (const c of vectors.cases as Json[]) {
      expect((await verifyWalletStamp(c.stamp, c.payload, c.publicKeyCompressedHex.toUpperCase(), { verifier: nodeVerifier })).valid).toBe(true);
    }
    for (const r of vectors.mustReject as Json[]) {
      expect((await verifyWalletStamp(r.stamp, r.payload, r.publicKeyCompressedHex, { verifier: nodeVerifier })).valid).toBe(false);
    }
    const c = vectors.cases[0];
    const throwing = () => {
      throw new Error('boom');
    };
    expect(await verifyWalletStamp(c.stamp, c.payload, c.publicKeyCompressedHex, { verifier: throwing })).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
    expect(await verifyWalletStamp(c.stamp, c.payload, 'not a key')).toMatchObject({ valid: false, reason: 'KEY_MISMATCH' });
  });
});
