/**
 * Checks on account identifiers beyond the schema patterns: formats every platform gets, and checksums only a platform
 * in strict mode gets (see {@link ACCOUNT_CHECKSUM_CHECKS} for why). Small pure functions, shared by the engine (the
 * `check` hook of the external-account bindings) and clients. Each returns true when the value is valid.
 *
 * Each check has a length cap, the longest value it could accept, compared before any other work: a base58 decode is
 * quadratic in the length (a 300 kB Solana address held a strict server for minutes), and the engine's domain checks
 * read the raw body, beside the schema, so they cannot count on its caps. Everything after the cap is linear.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { bech32m } from '@scure/base';
import { base58DecodeStrict } from './wallet-crypto/base58.js';
import type { FieldError } from './errors.js';

/**
 * IBAN length per country (ISO 13616 registry) for the countries Railyard accepts IBANs from: the SEPA area plus the
 * IBAN countries of their account types (AE, EG, IL, PK). An IBAN from any other country is rejected.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, EG: 29, ES: 24, FI: 18,
  FR: 27, GB: 22, GI: 23, GR: 27, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21,
  MC: 27, MT: 31, NL: 18, NO: 15, PK: 24, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
};

/** The longest IBAN (ISO 13616), and written in groups of four with a space between them. */
export const IBAN_MAX_LENGTH = 34;
const IBAN_PRINTED_MAX_LENGTH = IBAN_MAX_LENGTH + 8;

/** IBAN: known country, that country's length, alphanumeric BBAN, and ISO 7064 mod-97 remainder 1. Spaces are ignored. */
export function isValidIban(value: string): boolean {
  if (value.length > IBAN_PRINTED_MAX_LENGTH) return false;
  const iban = value.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return false;
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ABA routing number: 9 digits with 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const weights = [3, 7, 1];
  const sum = [...value].reduce((total, digit, i) => total + Number(digit) * weights[i % 3]!, 0);
  return sum % 10 === 0;
}

/** CLABE: 18 digits; the last is (10 − Σ (dᵢ·wᵢ mod 10) mod 10) mod 10 over the first 17 with weights 3,7,1 repeating. */
export function isValidClabe(value: string): boolean {
  if (!/^[0-9]{18}$/.test(value)) return false;
  const weights = [3, 7, 1];
  const sum = [...value.slice(0, 17)].reduce((total, digit, i) => total + ((Number(digit) * weights[i % 3]!) % 10), 0);
  return (10 - (sum % 10)) % 10 === Number(value[17]);
}

/** UK sort code: six digits, plain or as NN-NN-NN. */
export const isValidSortCode = (value: string): boolean => /^[0-9]{6}$/.test(value) || /^[0-9]{2}-[0-9]{2}-[0-9]{2}$/.test(value);

/** IFSC: four letters (bank), a zero, six alphanumerics (branch). */
export const isValidIfsc = (value: string): boolean => /^[A-Z]{4}0[A-Z0-9]{6}$/.test(value);

/** EVM address: 0x + 40 hex. All-lower or all-upper is accepted as is; mixed case must match its EIP-55 checksum. */
export function isValidEvmAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const body = value.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toEip55(body.toLowerCase()) === body;
}

/** The EIP-55 mixed-case form of a lowercase 40-hex address body. */
export function toEip55(lowerHex: string): string {
  const hash = bytesToHex(keccak_256(utf8ToBytes(lowerHex)));
  return [...lowerHex].map((char, i) => (parseInt(hash[i]!, 16) >= 8 ? char.toUpperCase() : char)).join('');
}

/**
 * Base58 (Bitcoin alphabet) to bytes; null for a character outside the alphabet or an empty string. Its time is
 * quadratic in the length: cap the length first (as {@link isValidSolanaAddress} and {@link isValidTronAddress} do).
 */
export function base58Decode(value: string): Uint8Array | null {
  if (value.length === 0) return null;
  try {
    return base58DecodeStrict(value);
  } catch {
    return null;
  }
}

/** The longest base58 of 32 bytes: a Solana address has 32 to 44 characters. */
export const SOLANA_ADDRESS_MAX_LENGTH = 44;
/** Base58check of 25 bytes starting 0x41: a Tron address always has 34 characters. */
export const TRON_ADDRESS_MAX_LENGTH = 34;

/** Solana address: base58 that decodes to exactly 32 bytes. */
export const isValidSolanaAddress = (value: string): boolean =>
  value.length <= SOLANA_ADDRESS_MAX_LENGTH && base58Decode(value)?.length === 32;

/** Tron address: base58check of 0x41 + 20 bytes (so it starts with T), checksum = first 4 bytes of double SHA-256. */
export function isValidTronAddress(value: string): boolean {
  if (value.length > TRON_ADDRESS_MAX_LENGTH || !value.startsWith('T')) return false;
  const bytes = base58Decode(value);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const checksum = sha256(sha256(bytes.slice(0, 21))).slice(0, 4);
  return checksum.every((byte, i) => byte === bytes[21 + i]);
}

const BECH32_CHARS = '[02-9ac-hj-np-z]';

/**
 * The human-readable prefixes of Spark addresses, every network: `spark` (mainnet), `sparkt` (testnet), `sparkrt`
 * (regtest), `sparks` (signet), `sparkl` (local), and the legacy `sp`, `spt`, `sprt`, `sps`, `spl` that older wallets
 * still show. Both forms encode the same key.
 */
export const SPARK_ADDRESS_PREFIXES = ['spark', 'sparkt', 'sparkrt', 'sparks', 'sparkl', 'sp', 'spt', 'sprt', 'sps', 'spl'] as const;

/** Spark addresses carry a key and optional data: far longer than bech32's 90-character limit for segwit. */
export const SPARK_ADDRESS_MAX_LENGTH = 1024;

/** The prefix and data part of a Spark address, or undefined when it is not one by form. */
function sparkParts(value: string): { hrp: string; data: string } | undefined {
  if (value.length > SPARK_ADDRESS_MAX_LENGTH || (value !== value.toLowerCase() && value !== value.toUpperCase())) return undefined;
  const lower = value.toLowerCase();
  // The separator is the last '1': the data part's alphabet has none.
  const separator = lower.lastIndexOf('1');
  const hrp = lower.slice(0, separator);
  const data = lower.slice(separator + 1);
  if (!(SPARK_ADDRESS_PREFIXES as readonly string[]).includes(hrp) || !new RegExp(`^${BECH32_CHARS}{6,}$`).test(data)) return undefined;
  return { hrp, data };
}

/**
 * Spark address, by form: a Spark prefix of any network (current or legacy), the separator `1`, and a data part in the
 * bech32 alphabet, all lowercase or all uppercase. The checksum is left to {@link isValidSparkChecksum}.
 */
export const isValidSparkAddress = (value: string): boolean => sparkParts(value) !== undefined;

/** A Spark address whose bech32m checksum (BIP-350) holds: a typo in any character is caught. */
export function isValidSparkChecksum(value: string): boolean {
  return sparkParts(value) !== undefined && bech32m.decodeUnsafe(value.toLowerCase(), SPARK_ADDRESS_MAX_LENGTH) !== undefined;
}

/**
 * The longest Lightning invoice or offer taken: BOLT11 sets no limit (it lifts bech32's 90 characters), and an invoice
 * is shown as a QR code, which holds about 4,300 of its characters.
 */
export const LIGHTNING_INVOICE_MAX_LENGTH = 8192;
/** A lightning address: 64 characters for the user, `@`, 255 for the host. */
export const LIGHTNING_ADDRESS_MAX_LENGTH = 320;
/** An EVM address: `0x` and 40 hex digits. */
export const EVM_ADDRESS_LENGTH = 42;

/** BOLT11 invoice, by form: `ln` and a network/amount part (any network), separator `1`, data in the bech32 alphabet. */
export function isValidBolt11Invoice(value: string): boolean {
  if (value.length > LIGHTNING_INVOICE_MAX_LENGTH) return false;
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return false;
  return new RegExp(`^ln[a-z0-9]*1${BECH32_CHARS}{6,}$`).test(value.toLowerCase());
}

/** Lightning address (LUD-16): a user name, `@`, and the host of its service. */
export const isValidLightningAddress = (value: string): boolean =>
  value.length <= LIGHTNING_ADDRESS_MAX_LENGTH && /^[^@\s]+@[^@\s]+$/.test(value);

/** EVM address by form: 0x and 40 hex digits, in any case (the EIP-55 checksum of mixed case is a strict check). */
export const isEvmAddress = (value: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(value);

/**
 * One check of a field: `test` runs only on a value of at most `maxLength` characters (the longest it could accept); a
 * longer value fails with `constraint.maxLength` without reaching it.
 */
type Check = { readonly test: (value: string) => boolean; readonly message: string; readonly maxLength: number };
const IBAN: Check = { test: isValidIban, message: 'must be a valid IBAN (country length and mod-97 checksum)', maxLength: IBAN_PRINTED_MAX_LENGTH };
const ABA: Check = { test: isValidAbaRoutingNumber, message: 'must be a valid ABA routing number (checksum)', maxLength: 9 };
const CLABE: Check = { test: isValidClabe, message: 'must be a valid CLABE (check digit)', maxLength: 18 };
const SORT_CODE: Check = { test: isValidSortCode, message: 'must be a UK sort code of six digits', maxLength: 8 };
const IFSC: Check = { test: isValidIfsc, message: 'must be an IFSC code (4 letters, 0, 6 alphanumerics)', maxLength: 11 };
const EVM: Check = { test: isEvmAddress, message: 'must be 0x followed by 40 hex digits', maxLength: EVM_ADDRESS_LENGTH };
const EIP55: Check = { test: isValidEvmAddress, message: 'must match its EIP-55 checksum when written in mixed case', maxLength: EVM_ADDRESS_LENGTH };
const SOLANA: Check = { test: isValidSolanaAddress, message: 'must be a base58 Solana address of 32 bytes', maxLength: SOLANA_ADDRESS_MAX_LENGTH };
const TRON: Check = { test: isValidTronAddress, message: 'must be a base58check Tron address starting with T', maxLength: TRON_ADDRESS_MAX_LENGTH };
const SPARK: Check = {
  test: isValidSparkAddress,
  message: `must be a Spark address: ${SPARK_ADDRESS_PREFIXES.map((p) => `${p}1…`).join(', ')}`,
  maxLength: SPARK_ADDRESS_MAX_LENGTH,
};
const SPARK_CHECKSUM: Check = {
  test: isValidSparkChecksum, message: 'must carry a valid bech32m checksum (a character is mistyped)', maxLength: SPARK_ADDRESS_MAX_LENGTH,
};
const BOLT11: Check = {
  test: isValidBolt11Invoice, message: 'must be a BOLT11 invoice such as lnbc…, lntb… or lnbcrt…', maxLength: LIGHTNING_INVOICE_MAX_LENGTH,
};
const LIGHTNING_ADDRESS: Check = {
  test: isValidLightningAddress, message: 'must be a lightning address such as name@domain.com', maxLength: LIGHTNING_ADDRESS_MAX_LENGTH,
};

/** The error of `check` on `value`, or undefined when it passes; a value over the check's cap is refused by its length. */
function failureOf(field: string, check: Check, value: string): FieldError | undefined {
  if (value.length > check.maxLength) {
    return { field: `accountInfo.${field}`, message: `${check.message}: at most ${check.maxLength} characters`, constraint: { maxLength: check.maxLength } };
  }
  return check.test(value) ? undefined : { field: `accountInfo.${field}`, message: check.message };
}

type FieldChecks = Readonly<Record<string, Readonly<Record<string, Check>>>>;

/**
 * Checks of the form of an identifier, per accountType: what every platform gets. They accept every value the
 * reference's documentation shows (the patterns are in the account-type schemas, which check them).
 */
export const ACCOUNT_FORMAT_CHECKS: FieldChecks = {
  GBP_ACCOUNT: { sortCode: SORT_CODE },
  INR_ACCOUNT: { ifsc: IFSC },
  BASE_WALLET: { address: EVM },
  ETHEREUM_WALLET: { address: EVM },
  POLYGON_WALLET: { address: EVM },
  PLASMA_WALLET: { address: EVM },
  SPARK_WALLET: { address: SPARK },
  LIGHTNING: { invoice: BOLT11, lightningAddress: LIGHTNING_ADDRESS },
  LIGHTNING_ACCOUNT: { invoice: BOLT11, lightningAddress: LIGHTNING_ADDRESS },
};

/**
 * Checksums, per accountType: only for a platform in strict mode. The reference's own examples fail several of them
 * (routing number 123456789, CLABE 123456789012345678, a mixed-case EVM address, a Spark address), and its wallets and
 * The sandbox's magic suffixes (an address ending in 002) need values no checksum would pass, so a lenient platform
 * accepts them all.
 */
export const ACCOUNT_CHECKSUM_CHECKS: FieldChecks = {
  AED_ACCOUNT: { iban: IBAN },
  DKK_ACCOUNT: { iban: IBAN },
  EGP_ACCOUNT: { iban: IBAN },
  EUR_ACCOUNT: { iban: IBAN },
  ILS_ACCOUNT: { iban: IBAN },
  PKR_ACCOUNT: { iban: IBAN },
  SWIFT_ACCOUNT: { iban: IBAN },
  MXN_ACCOUNT: { clabeNumber: CLABE },
  USD_ACCOUNT: { routingNumber: ABA, intermediaryRoutingNumber: ABA },
  BASE_WALLET: { address: EIP55 },
  ETHEREUM_WALLET: { address: EIP55 },
  POLYGON_WALLET: { address: EIP55 },
  PLASMA_WALLET: { address: EIP55 },
  SOLANA_WALLET: { address: SOLANA },
  SPARK_WALLET: { address: SPARK_CHECKSUM },
  TRON_WALLET: { address: TRON },
};

/**
 * Every invalid field of an accountInfo at once, as field errors (`accountInfo.<field>`): the format checks, and the
 * checksums too when `strict`. A field fails at most once (the first check it fails); one longer than a check's cap
 * fails by its length (`constraint.maxLength`) before the check looks at it. Fields that are absent or not strings are
 * left to the schema.
 */
export function checkAccountInfo(
  accountType: string,
  accountInfo: Readonly<Record<string, unknown>>,
  options: { strict?: boolean } = {},
): FieldError[] {
  const tables = options.strict ? [ACCOUNT_FORMAT_CHECKS, ACCOUNT_CHECKSUM_CHECKS] : [ACCOUNT_FORMAT_CHECKS];
  const errors = new Map<string, FieldError>();
  for (const table of tables) {
    for (const [field, check] of Object.entries(table[accountType] ?? {})) {
      const value = accountInfo[field];
      if (typeof value !== 'string' || errors.has(field)) continue;
      const failure = failureOf(field, check, value);
      if (failure) errors.set(field, failure);
    }
  }
  return [...errors.values()];
}
