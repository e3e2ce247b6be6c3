import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bech32m } from '@scure/base';
import { base58DecodeStrict } from './wallet-crypto/base58.js';
import {
  checkAccountInfo, isValidSolanaAddress, isValidSparkChecksum, isValidTronAddress, SOLANA_ADDRESS_MAX_LENGTH, SPARK_ADDRESS_MAX_LENGTH,
  TRON_ADDRESS_MAX_LENGTH,
} from './account-checks.js';

// Length caps before the expensive work: a base58 decode is quadratic in its input (a 300 kB Solana address held a
// strict server for minutes). These count the decoder's calls rather than time them: an over-long value must not reach
// it at all. Speed figures live in `pnpm bench` and `pnpm test:stress` (test/reliability/bounded-cost.test.ts).

vi.mock('./wallet-crypto/base58.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./wallet-crypto/base58.js')>();
  return { ...original, base58DecodeStrict: vi.fn(original.base58DecodeStrict) };
});
vi.mock('@scure/base', async (importOriginal) => {
  const original = await importOriginal<typeof import('@scure/base')>();
  return { ...original, bech32m: { ...original.bech32m, decodeUnsafe: vi.fn(original.bech32m.decodeUnsafe) } };
});

const decode = vi.mocked(base58DecodeStrict);
const bech32Decode = vi.mocked(bech32m.decodeUnsafe);
beforeEach(() => {
  decode.mockClear();
  bech32Decode.mockClear();
});

const HUGE = 300_000;
const strict = { strict: true };

describe('a 300 kB identifier is refused by its length, before any decoding', () => {
  it('SOLANA_WALLET: maxLength 44, and base58 is not decoded', () => {
    const errors = checkAccountInfo('SOLANA_WALLET', { address: 'z'.repeat(HUGE) }, strict);
    expect(errors).toEqual([{ field: 'accountInfo.address', message: expect.stringContaining('at most 44 characters'), constraint: { maxLength: SOLANA_ADDRESS_MAX_LENGTH } }]);
    expect(isValidSolanaAddress('z'.repeat(HUGE))).toBe(false);
    expect(decode).not.toHaveBeenCalled();
  });

  it('TRON_WALLET: maxLength 34, and base58check is not decoded', () => {
    const errors = checkAccountInfo('TRON_WALLET', { address: `T${'z'.repeat(HUGE)}` }, strict);
    expect(errors).toEqual([{ field: 'accountInfo.address', message: expect.any(String), constraint: { maxLength: TRON_ADDRESS_MAX_LENGTH } }]);
    expect(isValidTronAddress(`T${'z'.repeat(HUGE)}`)).toBe(false);
    expect(decode).not.toHaveBeenCalled();
  });

  it('SPARK_WALLET: maxLength 1024 on the form and on the checksum, and bech32m is not decoded', () => {
    const address = `spark1${'q'.repeat(HUGE)}`;
    for (const options of [{}, strict]) {
      expect(checkAccountInfo('SPARK_WALLET', { address }, options)).toEqual([
        { field: 'accountInfo.address', message: expect.any(String), constraint: { maxLength: SPARK_ADDRESS_MAX_LENGTH } },
      ]);
    }
    expect(isValidSparkChecksum(address)).toBe(false);
    expect(bech32Decode).not.toHaveBeenCalled();
  });

  it('every other checked field: IBANs, routing numbers, CLABEs, EVM addresses, Lightning', () => {
    const cases: [string, string, string][] = [
      ['EUR_ACCOUNT', 'iban', `DE89${'0'.repeat(HUGE)}`], ['SWIFT_ACCOUNT', 'iban', `GB82 ${'1'.repeat(HUGE)}`],
      ['USD_ACCOUNT', 'routingNumber', '0'.repeat(HUGE)], ['MXN_ACCOUNT', 'clabeNumber', '0'.repeat(HUGE)],
      ['GBP_ACCOUNT', 'sortCode', '0'.repeat(HUGE)], ['INR_ACCOUNT', 'ifsc', 'A'.repeat(HUGE)],
      ['ETHEREUM_WALLET', 'address', `0x${'a'.repeat(HUGE)}`], ['LIGHTNING', 'invoice', `lnbc1${'q'.repeat(HUGE)}`],
      ['LIGHTNING', 'lightningAddress', `${'a'.repeat(HUGE)}@getalby.com`],
    ];
    for (const [accountType, field, value] of cases) {
      const [error, ...more] = checkAccountInfo(accountType, { [field]: value }, strict);
      expect(more, accountType).toEqual([]);
      expect(error, accountType).toMatchObject({ field: `accountInfo.${field}`, constraint: { maxLength: expect.any(Number) } });
      expect(error!.constraint!.maxLength!, accountType).toBeLessThan(10_000);
    }
  });
});

describe('the caps are the longest values the checks accept: never stricter than before', () => {
  it('a 44-character Solana address and one of 32 ones (32 zero bytes) are decoded and pass', () => {
    expect(checkAccountInfo('SOLANA_WALLET', { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }, strict)).toEqual([]);
    expect(checkAccountInfo('SOLANA_WALLET', { address: '1'.repeat(32) }, strict)).toEqual([]);
    expect(decode).toHaveBeenCalledTimes(2);
  });
  it('no base58 of 45 characters is 32 bytes, and no Tron address is longer than 34', () => {
    // The smallest 45-character base58 values (a leading zero byte, then the least 44-character number) are 33 bytes.
    expect(base58DecodeStrict(`12${'1'.repeat(43)}`).length).toBeGreaterThan(32);
    expect(checkAccountInfo('TRON_WALLET', { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, strict)).toEqual([]);
    expect('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').toHaveLength(TRON_ADDRESS_MAX_LENGTH);
  });
  it('an IBAN printed in groups of four still passes', () => {
    expect(checkAccountInfo('SWIFT_ACCOUNT', { iban: 'MT84 MALT 0110 0001 2345 MTLC AST0 01S' }, strict)).toEqual([]);
  });
});
