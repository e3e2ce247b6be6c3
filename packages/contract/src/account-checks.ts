/**
 * Checks on account identifiers that go beyond the schema patterns (issue 4 item 2): checksums and formats.
 * Small pure functions, shared by the engine (the `check` hook of the external-account bindings) and clients.
 * Each returns true when the value is valid.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { FieldError } from './errors.js';

/**
 * IBAN length per country (ISO 13616 registry) for the countries Railyard accepts IBANs from: the SEPA area plus the
 * IBAN countries of REFERENCE §3 (AE, EG, IL, PK). An IBAN from any other country is rejected.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, EG: 29, ES: 24, FI: 18,
  FR: 27, GB: 22, GI: 23, GR: 27, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21,
  MC: 27, MT: 31, NL: 18, NO: 15, PK: 24, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
};

/** IBAN: known country, that country's length, alphanumeric BBAN, and ISO 7064 mod-97 remainder 1. Spaces are ignored. */
export function isValidIban(value: string): boolean {
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

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) to bytes; null for a character outside the alphabet or an empty string. */
export function base58Decode(value: string): Uint8Array | null {
  if (value.length === 0) return null;
  let number = 0n;
  for (const char of value) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return null;
    number = number * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (number > 0n) {
    bytes.unshift(Number(number % 256n));
    number /= 256n;
  }
  let leadingZeros = 0;
  while (value[leadingZeros] === '1') leadingZeros++;
  return Uint8Array.from([...new Array<number>(leadingZeros).fill(0), ...bytes]);
}

/** Solana address: base58 that decodes to exactly 32 bytes. */
export const isValidSolanaAddress = (value: string): boolean => base58Decode(value)?.length === 32;

/** Tron address: base58check of 0x41 + 20 bytes (so it starts with T), checksum = first 4 bytes of double SHA-256. */
export function isValidTronAddress(value: string): boolean {
  if (!value.startsWith('T')) return false;
  const bytes = base58Decode(value);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const checksum = sha256(sha256(bytes.slice(0, 21))).slice(0, 4);
  return checksum.every((byte, i) => byte === bytes[21 + i]);
}

const BECH32_CHARS = '[02-9ac-hj-np-z]';

/**
 * Spark address, by format: a bech32m string with a Spark prefix (`sp` mainnet, `spt` testnet, `sprt` regtest,
 * `sps` signet, `spl` local), separator `1`, and a data part of the bech32 alphabet, all lowercase or all uppercase.
 * Railyard checks the format only, not the bech32m checksum.
 */
export function isValidSparkAddress(value: string): boolean {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return false;
  return new RegExp(`^(sp|spt|sprt|sps|spl)1${BECH32_CHARS}{20,}$`).test(value.toLowerCase());
}

/** BOLT11 invoice, by format: `lnbc` (mainnet) or `lntb` (testnet), then amount/separator/data in the bech32 alphabet. */
export function isValidBolt11Invoice(value: string): boolean {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return false;
  return new RegExp(`^ln(bc|tb)[0-9]*[munp]?1${BECH32_CHARS}{20,}$`).test(value.toLowerCase());
}

/** Lightning address (LUD-16): user@domain with a dotted domain. */
export const isValidLightningAddress = (value: string): boolean =>
  /^[a-z0-9\-_.+]+@([a-z0-9-]+\.)+[a-z0-9-]{2,}$/i.test(value) && value.length <= 320;

type Check = { readonly test: (value: string) => boolean; readonly message: string };
const IBAN: Check = { test: isValidIban, message: 'must be a valid IBAN (country length and mod-97 checksum)' };
const ABA: Check = { test: isValidAbaRoutingNumber, message: 'must be a valid ABA routing number (checksum)' };
const CLABE: Check = { test: isValidClabe, message: 'must be a valid CLABE (check digit)' };
const SORT_CODE: Check = { test: isValidSortCode, message: 'must be a UK sort code of six digits' };
const IFSC: Check = { test: isValidIfsc, message: 'must be an IFSC code (4 letters, 0, 6 alphanumerics)' };
const EVM: Check = { test: isValidEvmAddress, message: 'must be 0x followed by 40 hex digits, EIP-55 checksummed if mixed case' };
const SOLANA: Check = { test: isValidSolanaAddress, message: 'must be a base58 Solana address of 32 bytes' };
const TRON: Check = { test: isValidTronAddress, message: 'must be a base58check Tron address starting with T' };
const SPARK: Check = { test: isValidSparkAddress, message: 'must be a Spark address (sp1…)' };
const BOLT11: Check = { test: isValidBolt11Invoice, message: 'must be a BOLT11 invoice starting with lnbc or lntb' };
const LIGHTNING_ADDRESS: Check = { test: isValidLightningAddress, message: 'must be a lightning address such as name@domain.com' };

/** Which accountInfo fields get which check, per accountType (types not listed have only their schema patterns). */
export const ACCOUNT_FIELD_CHECKS: Readonly<Record<string, Readonly<Record<string, Check>>>> = {
  AED_ACCOUNT: { iban: IBAN },
  DKK_ACCOUNT: { iban: IBAN },
  EGP_ACCOUNT: { iban: IBAN },
  EUR_ACCOUNT: { iban: IBAN },
  ILS_ACCOUNT: { iban: IBAN },
  PKR_ACCOUNT: { iban: IBAN },
  SWIFT_ACCOUNT: { iban: IBAN },
  GBP_ACCOUNT: { sortCode: SORT_CODE },
  INR_ACCOUNT: { ifsc: IFSC },
  MXN_ACCOUNT: { clabeNumber: CLABE },
  USD_ACCOUNT: { routingNumber: ABA, intermediaryRoutingNumber: ABA },
  BASE_WALLET: { address: EVM },
  ETHEREUM_WALLET: { address: EVM },
  POLYGON_WALLET: { address: EVM },
  PLASMA_WALLET: { address: EVM },
  SOLANA_WALLET: { address: SOLANA },
  SPARK_WALLET: { address: SPARK },
  TRON_WALLET: { address: TRON },
  LIGHTNING: { invoice: BOLT11, lightningAddress: LIGHTNING_ADDRESS },
  LIGHTNING_ACCOUNT: { invoice: BOLT11, lightningAddress: LIGHTNING_ADDRESS },
};

/**
 * Every invalid field of an accountInfo at once, as field errors (`accountInfo.<field>`). Fields that are absent or
 * not strings are left to the schema.
 */
export function checkAccountInfo(accountType: string, accountInfo: Readonly<Record<string, unknown>>, prefix = 'accountInfo'): FieldError[] {
  const checks = ACCOUNT_FIELD_CHECKS[accountType] ?? {};
  const errors: FieldError[] = [];
  for (const [field, check] of Object.entries(checks)) {
    const value = accountInfo[field];
    if (typeof value === 'string' && !check.test(value)) errors.push({ field: `${prefix}.${field}`, message: check.message });
  }
  return errors;
}
