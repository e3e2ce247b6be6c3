/**
 * Pure wallet-signature verifiers for ownership proofs (SPEC §2.3, §4.1).
 *
 * Each verifier checks a signature over the exact message bytes and returns a boolean; malformed input (bad hex, base58,
 * base64, lengths, header bytes, points off the curve) is `false`, never an exception. Lengths are checked before any
 * decoding: a base58 decode takes time quadratic in its input, so an address or signature longer than any valid one is
 * refused by its length alone.
 */
import { bytesToHex, SOLANA_ADDRESS_MAX_LENGTH } from '@railyard/contract';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, base58check, base64, bech32 } from '@scure/base';
import type { SignatureFamily } from './families.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const N = secp256k1.Point.CURVE().n;
const HALF_N = N >> 1n;

const bytesToBigInt = (b: Uint8Array): bigint => {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return v;
};

const bigIntTo32 = (v: bigint): Uint8Array => {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
};

/**
 * Recovers the secp256k1 public key from (recovery id, r, s) over a 32-byte digest. High-S signatures are normalised
 * (s → n − s flips the recovery parity) so that legacy wallets that did not enforce low-S still recover the same key.
 * Returns the uncompressed point (65 bytes) or undefined.
 */
const recoverPoint = (recovery: number, rs: Uint8Array, digest: Uint8Array): Uint8Array | undefined => {
  if (recovery < 0 || recovery > 3 || rs.length !== 64 || digest.length !== 32) return undefined;
  const r = bytesToBigInt(rs.subarray(0, 32));
  let s = bytesToBigInt(rs.subarray(32));
  if (r <= 0n || r >= N || s <= 0n || s >= N) return undefined;
  let rec = recovery;
  if (s > HALF_N) {
    s = N - s;
    rec ^= 1;
  }
  try {
    const sig = concat(Uint8Array.of(rec), bigIntTo32(r), bigIntTo32(s));
    const compressed = secp256k1.recoverPublicKey(sig, digest, { prehash: false });
    return secp256k1.Point.fromBytes(compressed).toBytes(false);
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------------------------------------------------------------
// EVM: EIP-191 personal_sign

/** The EIP-191 (version 0x45) digest of a personal_sign message: keccak256("\x19Ethereum Signed Message:\n" + len + msg). */
export const eip191Digest = (message: string): Uint8Array => {
  const body = utf8(message);
  return keccak_256(concat(utf8(`\x19Ethereum Signed Message:\n${body.length}`), body));
};

const HEX_65 = /^(0x)?[0-9a-fA-F]{130}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Verifies a 65-byte hex personal_sign signature (v 27/28 or 0/1) by recovering the signer and comparing addresses. */
export const verifyEip191 = (address: string, message: string, signature: string): boolean => {
  try {
    if (typeof address !== 'string' || typeof message !== 'string' || typeof signature !== 'string') return false;
    if (!EVM_ADDRESS.test(address) || !HEX_65.test(signature)) return false;
    const hex = signature.startsWith('0x') ? signature.slice(2) : signature;
    const bytes = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
    const v = bytes[64]!;
    const recovery = v >= 27 ? v - 27 : v;
    if (recovery !== 0 && recovery !== 1) return false;
    const point = recoverPoint(recovery, bytes.subarray(0, 64), eip191Digest(message));
    if (!point) return false;
    const derived = keccak_256(point.subarray(1)).subarray(12);
    const derivedHex = bytesToHex(derived);
    return derivedHex === address.slice(2).toLowerCase();
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------------------------------
// Solana: base58 Ed25519

/** The longest base58 of 64 bytes (an Ed25519 signature). */
const SOLANA_SIGNATURE_MAX_LENGTH = 88;

/** Verifies a base58-encoded 64-byte Ed25519 signature over the UTF-8 message; the public key is the base58 address. */
export const verifySolana = (address: string, message: string, signature: string): boolean => {
  try {
    if (typeof address !== 'string' || typeof message !== 'string' || typeof signature !== 'string') return false;
    if (address.length > SOLANA_ADDRESS_MAX_LENGTH || signature.length > SOLANA_SIGNATURE_MAX_LENGTH) return false;
    const publicKey = base58.decode(address);
    const sig = base58.decode(signature);
    if (publicKey.length !== 32 || sig.length !== 64) return false;
    return ed25519.verify(sig, utf8(message), publicKey);
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------------------------------
// Bitcoin: BIP-137 and Electrum message signatures

const varint = (n: number): Uint8Array => {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
};

/** double-SHA256("\x18Bitcoin Signed Message:\n" + varint(len) + message). */
export const bitcoinMessageDigest = (message: string): Uint8Array => {
  const body = utf8(message);
  const prefix = utf8('\x18Bitcoin Signed Message:\n');
  return sha256(sha256(concat(prefix, varint(body.length), body)));
};

type BitcoinAddressKind = 'P2PKH' | 'P2SH' | 'P2WPKH';

/** Bech32 addresses are at most 90 characters; base58check of 25 bytes (P2PKH, P2SH) at most 35. */
const BECH32_ADDRESS_MAX_LENGTH = 90;
const BASE58CHECK_ADDRESS_MAX_LENGTH = 35;
/** Base64 of a 65-byte signature. */
const BITCOIN_SIGNATURE_LENGTH = 88;

/** Decodes a Bitcoin address (mainnet, testnet or regtest) into its kind and 20-byte hash; undefined if unsupported. */
const decodeBitcoinAddress = (address: string): { kind: BitcoinAddressKind; hash: Uint8Array } | undefined => {
  try {
    if (address.length > BECH32_ADDRESS_MAX_LENGTH) return undefined;
    const lower = address.toLowerCase();
    if (/^(bc|tb|bcrt)1/.test(lower)) {
      if (address !== lower && address !== address.toUpperCase()) return undefined;
      const { prefix, words } = bech32.decode(lower as `${string}1${string}`);
      if (!['bc', 'tb', 'bcrt'].includes(prefix) || words[0] !== 0) return undefined;
      const program = bech32.fromWords(words.slice(1));
      return program.length === 20 ? { kind: 'P2WPKH', hash: Uint8Array.from(program) } : undefined;
    }
    if (address.length > BASE58CHECK_ADDRESS_MAX_LENGTH) return undefined;
    const raw = base58check(sha256).decode(address);
    if (raw.length !== 21) return undefined;
    const version = raw[0]!;
    const hash = raw.slice(1);
    if (version === 0x00 || version === 0x6f) return { kind: 'P2PKH', hash };
    if (version === 0x05 || version === 0xc4) return { kind: 'P2SH', hash };
    return undefined;
  } catch {
    return undefined;
  }
};

const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes));

/** The P2SH-P2WPKH script hash of a compressed public key: hash160(0x00 0x14 <hash160(pubkey)>). */
const nestedSegwitHash = (compressedKey: Uint8Array): Uint8Array =>
  hash160(concat(Uint8Array.of(0x00, 0x14), hash160(compressedKey)));

export type BitcoinSignatureScheme = 'bip137' | 'electrum';

/**
 * Verifies a base64 65-byte Bitcoin message signature.
 *
 * `bip137` (default): the header byte names the address type — 27–30 P2PKH uncompressed, 31–34 P2PKH compressed,
 * 35–38 P2SH-P2WPKH, 39–42 P2WPKH — and the recovered key must produce that address.
 * `electrum`: header 27–34 (uncompressed/compressed) whatever the address type; the recovered key must produce the
 * address in its own type (segwit types need the compressed key).
 */
export const verifyBitcoinMessage = (
  address: string,
  message: string,
  signature: string,
  scheme: BitcoinSignatureScheme = 'bip137',
): boolean => {
  try {
    if (typeof address !== 'string' || typeof message !== 'string' || typeof signature !== 'string') return false;
    if (scheme !== 'bip137' && scheme !== 'electrum') return false;
    const target = decodeBitcoinAddress(address);
    if (!target) return false;
    if (signature.length > BITCOIN_SIGNATURE_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
    const bytes = base64.decode(signature);
    if (bytes.length !== 65) return false;
    const header = bytes[0]!;
    if (header < 27 || header > 42) return false;
    const recovery = (header - 27) & 3;
    let compressed: boolean;
    let kind: BitcoinAddressKind;
    if (scheme === 'electrum') {
      if (header > 34) return false;
      compressed = header >= 31;
      kind = target.kind;
      if (kind !== 'P2PKH' && !compressed) return false;
    } else {
      compressed = header >= 31;
      kind = header <= 34 ? 'P2PKH' : header <= 38 ? 'P2SH' : 'P2WPKH';
      if (kind !== target.kind) return false;
    }
    const point = recoverPoint(recovery, bytes.subarray(1), bitcoinMessageDigest(message));
    if (!point) return false;
    const key = compressed ? secp256k1.Point.fromBytes(point).toBytes(true) : point;
    const derived = kind === 'P2SH' ? nestedSegwitHash(key) : hash160(key);
    return equalBytes(derived, target.hash);
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------------------------------
// Dispatch by chain

/** Verifies a wallet signature for the given family; `signatureScheme` applies to Bitcoin only and is ignored otherwise. */
export const verifyWalletSignature = (input: {
  family: SignatureFamily;
  address: string;
  message: string;
  signature: string;
  signatureScheme?: string | undefined;
}): boolean => {
  switch (input.family) {
    case 'EVM':
      return verifyEip191(input.address, input.message, input.signature);
    case 'SOLANA':
      return verifySolana(input.address, input.message, input.signature);
    case 'BITCOIN': {
      const scheme = input.signatureScheme ?? 'bip137';
      if (scheme !== 'bip137' && scheme !== 'electrum') return false;
      return verifyBitcoinMessage(input.address, input.message, input.signature, scheme);
    }
    default:
      return false;
  }
};
