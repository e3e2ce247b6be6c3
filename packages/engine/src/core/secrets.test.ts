import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { createSealer, hashLegacyToken, isTokenHash, MIN_SECRET_KEY_BYTES, randomDigits, tokenHash } from './secrets.js';

// The engine's sealer (authenticated encryption of small secrets at rest) and the hashes that stand for bearer tokens.

const KEY = 'k'.repeat(MIN_SECRET_KEY_BYTES);

describe('the sealer', () => {
  it('seals to a versioned string naming the key, opens what it sealed, and never seals the same way twice', () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal('4000001234560042', 'card:1');
    expect(sealed).toMatch(new RegExp(`^sealed:v1:${sealer.keyId}:[A-Za-z0-9_-]+$`));
    expect(sealer.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(sealed).not.toContain('4000001234560042');
    expect(sealer.open(sealed, 'card:1')).toBe('4000001234560042');
    expect(sealer.seal('4000001234560042', 'card:1')).not.toBe(sealed);
    expect(sealer.open(sealer.seal('', 'x'), 'x')).toBe('');
    expect(sealer.open(sealer.seal('ünïcødé ✓', 'x'), 'x')).toBe('ünïcødé ✓');
  });

  it('the same key (text or bytes) opens across sealers; another key, another context or a changed byte does not', () => {
    const sealer = createSealer(KEY);
    const sealed = sealer.seal('secret', 'wallet:1');
    expect(createSealer(KEY).open(sealed, 'wallet:1')).toBe('secret');
    expect(createSealer(new TextEncoder().encode(KEY)).open(sealed, 'wallet:1')).toBe('secret');
    const other = createSealer('o'.repeat(MIN_SECRET_KEY_BYTES));
    expect(other.keyId).not.toBe(sealer.keyId);
    expect(other.open(sealed, 'wallet:1')).toBeUndefined();
    // The key id is checked first, but a forged one does not help: the tag is bound to the key.
    expect(other.open(sealed.replace(sealer.keyId, other.keyId), 'wallet:1')).toBeUndefined();
    expect(sealer.open(sealed, 'wallet:2')).toBeUndefined();
    const body = sealed.slice(sealed.lastIndexOf(':') + 1);
    const flipped = `${body.slice(0, 10)}${body[10] === 'A' ? 'B' : 'A'}${body.slice(11)}`;
    expect(sealer.open(sealed.replace(body, flipped), 'wallet:1')).toBeUndefined();
    for (const junk of ['', 'secret', 'sealed:v1:', `sealed:v1:${sealer.keyId}:`, `sealed:v1:${sealer.keyId}:!!!`, `sealed:v1:${sealer.keyId}:AAAA`, `sealed:v2:${sealer.keyId}:${body}`]) {
      expect(sealer.open(junk, 'wallet:1'), junk).toBeUndefined();
    }
  });

  it('without a key, each sealer has a random one of its own', () => {
    const a = createSealer();
    const b = createSealer();
    expect(a.keyId).not.toBe(b.keyId);
    expect(b.open(a.seal('secret', 'c'), 'c')).toBeUndefined();
    expect(a.open(a.seal('secret', 'c'), 'c')).toBe('secret');
  });

  it('refuses a key of fewer than 32 bytes, also through createEngine', () => {
    expect(() => createSealer('short')).toThrow(TypeError);
    expect(() => createSealer(new Uint8Array(31))).toThrow(/at least 32 bytes/);
    expect(() => createEngine({ secretKey: 'k'.repeat(31) })).toThrow(TypeError);
    expect(() => createEngine({ secretKey: KEY }).close()).not.toThrow();
    // 32 bytes of UTF-8 is enough, whatever the number of characters.
    expect(() => createSealer('é'.repeat(16))).not.toThrow();
  });
});

describe('token hashes', () => {
  it('are the lowercase hex SHA-256 of the token', () => {
    expect(tokenHash('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(isTokenHash(tokenHash('abc'))).toBe(true);
    expect(isTokenHash('AZZbSpd2f0r4FhYdwFm9dwV34vV3ZiWa')).toBe(false);
  });

  it('a record of an older snapshot gets its token replaced by the hash; a hashed one is left as it is', () => {
    const hashed = hashLegacyToken({ id: 'token-of-a-link', other: 1 });
    expect(hashed).toEqual({ id: tokenHash('token-of-a-link'), other: 1 });
    expect(hashLegacyToken(hashed)).toBe(hashed);
    expect(hashLegacyToken({ id: 'r', secret: 't' }, 'secret', 'secretHash')).toEqual({ id: 'r', secretHash: tokenHash('t') });
    expect(hashLegacyToken({ id: 'r', secret: 't', secretHash: 'h' }, 'secret', 'secretHash')).toEqual({ id: 'r', secretHash: 'h' });
    for (const other of [null, 'text', 3, [1], { id: 7 }]) expect(hashLegacyToken(other)).toBe(other);
  });
});

describe('random digits', () => {
  it('are decimal digits, as many as asked, and spread over all ten', () => {
    expect(randomDigits(0)).toBe('');
    expect(randomDigits(5)).toMatch(/^\d{5}$/);
    const many = randomDigits(10_000);
    expect(many).toMatch(/^\d{10000}$/);
    for (let d = 0; d < 10; d++) {
      const count = many.split(String(d)).length - 1;
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });
});
