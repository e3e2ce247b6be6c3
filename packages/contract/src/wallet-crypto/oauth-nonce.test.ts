import { describe, expect, it } from 'vitest';
import { computeOauthNonce, oauthNonceMatches } from './bundles.js';
import { readVectors } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors: Json = readVectors('oauth-nonce.json');

describe('OAuth nonce = sha256 hex of the clientPublicKey text', () => {
  for (const c of vectors.cases as Json[]) {
    it(`case ${c.clientPublicKey.slice(0, 10)}…`, async () => {
      expect(await computeOauthNonce(c.clientPublicKey)).toBe(c.nonce);
      expect(await oauthNonceMatches(c.nonce, c.clientPublicKey)).toBe(true);
    });
  }
  for (const c of vectors.extraCases as Json[]) {
    it(`extra: ${c.note}`, async () => {
      if (c.mustReject) {
        expect(await computeOauthNonce(c.clientPublicKey)).not.toBe(c.nonce);
        expect(await oauthNonceMatches(c.nonce, c.clientPublicKey)).toBe(false);
      } else {
        expect(await computeOauthNonce(c.clientPublicKey)).toBe(c.nonce);
        expect(await oauthNonceMatches(c.nonce, c.clientPublicKey)).toBe(true);
      }
    });
  }
  it('has exactly one mustReject entry and does not normalize case or form', async () => {
    expect(vectors.extraCases.filter((c: Json) => c.mustReject)).toHaveLength(1);
    const first = vectors.cases[0];
    expect(await oauthNonceMatches(first.nonce, first.clientPublicKey.toUpperCase())).toBe(false);
    expect(await oauthNonceMatches(first.nonce.toUpperCase(), first.clientPublicKey)).toBe(false);
    expect(await oauthNonceMatches(undefined, first.clientPublicKey)).toBe(false);
  });
});
