import { base58 } from '@scure/base';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyBitcoinMessage, verifySolana } from './signatures.js';

// A base58 decode takes time quadratic in its input: the verifiers compare lengths first, so an address or signature
// longer than any valid one is refused without being decoded. Counted, not timed (the figures are in
// test/reliability/bounded-cost.test.ts).

const decodes = vi.hoisted(() => ({ base58: 0, base58check: 0 }));
vi.mock('@scure/base', async (importOriginal) => {
  const original = await importOriginal<typeof import('@scure/base')>();
  return {
    ...original,
    base58: { ...original.base58, decode: (text: string) => (decodes.base58++, original.base58.decode(text)) },
    base58check: (hash: Parameters<typeof original.base58check>[0]) => {
      const coder = original.base58check(hash);
      return { ...coder, decode: (text: string) => (decodes.base58check++, coder.decode(text)) };
    },
  };
});

beforeEach(() => {
  decodes.base58 = 0;
  decodes.base58check = 0;
});

const SOLANA_ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const HUGE = 'z'.repeat(1_000_000);

describe('wallet signatures longer than any valid one are not decoded', () => {
  it('Solana: a 1 MB signature or address is false at once', () => {
    expect(verifySolana(SOLANA_ADDRESS, 'message', HUGE)).toBe(false);
    expect(verifySolana(HUGE, 'message', 'z'.repeat(88))).toBe(false);
    expect(decodes.base58).toBe(0);
    // Within the caps, both are decoded (and this signature does not verify).
    expect(verifySolana(SOLANA_ADDRESS, 'message', base58.encode(new Uint8Array(64)))).toBe(false);
    expect(decodes.base58).toBe(2);
  });

  it('Bitcoin: a 1 MB base58 address or base64 signature is false at once', () => {
    expect(verifyBitcoinMessage(`1${HUGE}`, 'message', 'A'.repeat(88))).toBe(false);
    expect(decodes.base58check).toBe(0);
    expect(verifyBitcoinMessage('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'message', `${'A'.repeat(1_000_000)}=`)).toBe(false);
    expect(decodes.base58check).toBe(1);
  });
});
