import { describe, expect, it } from 'vitest';
import { decodeStamp, encodeStamp, STAMP_SCHEME } from './index.js';
import { readVectors } from '../../../test/support/vectors.js';

const vectors = readVectors<{ cases: { stamp: string; payload: string; publicKeyCompressedHex: string; decoded: Record<string, string> }[] }>('stamps.json');

describe('stamp encoding', () => {
  it('decodes every reference stamp to its documented fields', () => {
    expect(vectors.cases.length).toBeGreaterThan(0);
    for (const c of vectors.cases) {
      const stamp = decodeStamp(c.stamp);
      expect(stamp.scheme).toBe(STAMP_SCHEME);
      expect(stamp.publicKey).toBe(c.publicKeyCompressedHex);
      expect(stamp.publicKey).toBe(c.decoded.publicKey);
      expect(stamp.signature).toBe(c.decoded.signature);
    }
  });

  it('re-encodes a decoded stamp to the same header value', () => {
    for (const c of vectors.cases) expect(encodeStamp(decodeStamp(c.stamp))).toBe(c.stamp);
  });

  it('refuses a padded or non-base64url header and a wrong scheme', () => {
    expect(() => decodeStamp('abc=')).toThrow(/base64url/);
    const wrongScheme = btoa(JSON.stringify({ publicKey: '02' + 'a'.repeat(64), scheme: 'OTHER', signature: '3044' })).replace(/=+$/, '');
    expect(() => decodeStamp(wrongScheme.replace(/\+/g, '-').replace(/\//g, '_'))).toThrow(/scheme/);
  });
});
