import { describe, expect, it } from 'vitest';
import { isPublicSuffix, originWithinRpId, rpIdCandidates, secureOrigin } from './webauthn-binding.js';

describe('WebAuthn origin and RP ID binding', () => {
  it('accepts https origins, and http only on localhost; an origin has no path', () => {
    expect(secureOrigin('https://wallet.example.com')?.hostname).toBe('wallet.example.com');
    expect(secureOrigin('http://localhost:3000')?.port).toBe('3000');
    expect(secureOrigin('http://app.localhost')).toBeDefined();
    for (const bad of ['http://wallet.example.com', 'https://wallet.example.com/login', 'ftp://x.example', 'not an origin', undefined]) {
      expect(secureOrigin(bad), String(bad)).toBeUndefined();
    }
  });

  it('offers the host and each registrable parent, never a public suffix or an IP address', () => {
    expect(rpIdCandidates(new URL('https://a.wallet.example.com'))).toEqual(['a.wallet.example.com', 'wallet.example.com', 'example.com']);
    expect(rpIdCandidates(new URL('https://wallet.example.co.uk'))).toEqual(['wallet.example.co.uk', 'example.co.uk']);
    expect(rpIdCandidates(new URL('https://alice.github.io'))).toEqual(['alice.github.io']);
    expect(rpIdCandidates(new URL('http://localhost:8080'))).toEqual(['localhost']);
    expect(rpIdCandidates(new URL('https://127.0.0.1'))).toEqual([]);
    expect(['com', 'co.uk', 'github.io', 'vercel.app'].every(isPublicSuffix)).toBe(true);
    expect(isPublicSuffix('example.com')).toBe(false);
  });

  it('tells whether an origin may use an RP ID', () => {
    expect(originWithinRpId(new URL('https://pay.example.com'), 'example.com')).toBe(true);
    expect(originWithinRpId(new URL('https://example.com'), 'example.com')).toBe(true);
    expect(originWithinRpId(new URL('https://notexample.com'), 'example.com')).toBe(false);
    expect(originWithinRpId(new URL('https://evil.test'), 'example.com')).toBe(false);
    expect(originWithinRpId(new URL('https://example.com'), 'pay.example.com')).toBe(false);
  });
});
