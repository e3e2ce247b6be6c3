// NIST P-256 helpers: SEC1 point compression and decompression, public keys from raw scalars, DER <-> IEEE P1363
// signatures, ECDSA P-256/SHA-256 sign and verify (high-S accepted, as every WebCrypto and OpenSSL verifier does).
// Curve arithmetic (on-curve checks, square roots, k·G on private scalars) is @noble/curves' constant-time P-256; signing,
// verifying and ECDH stay on WebCrypto, which does them natively and fast.
import { type WeierstrassPoint, weierstrass } from '@noble/curves/abstract/weierstrass.js';
import { base64UrlDecode, base64UrlEncode, type Bytes, bytesToHex, concatBytes, hexToBytes, randomBytes, subtle, toBytes, utf8Encode } from './bytes.js';
import { WalletCryptoError } from './errors.js';

/** The order of the P-256 base point. */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * noble's P-256 point arithmetic alone. `@noble/curves/nist.js` builds the same curve from the same parameters (SEC 2
 * §2.4.2) and wraps it in ECDSA, HMAC-DRBG, SHA-2 and DER, some 6 KB gzipped that a browser wallet would carry for
 * nothing (WebCrypto signs and verifies here). p256.test.ts checks these parameters against nist.js's.
 */
const P256 = /* @__PURE__ */ weierstrass({
  p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
  n: P256_ORDER,
  h: 1n,
  a: 0xffffffff00000001000000000000000000000000fffffffffffffffffffffffcn,
  b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
  Gx: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  Gy: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
});

/** A private key as WebCrypto `CryptoKey` or as the 32-byte scalar in hex. */
export type P256PrivateKeyInput = CryptoKey | string;
/** A public key as WebCrypto `CryptoKey` or as SEC1 hex (compressed `02`/`03` or uncompressed `04`). */
export type P256PublicKeyInput = CryptoKey | string;
/** Which WebCrypto algorithm a P-256 key is imported for. */
export type P256Usage = 'ECDSA' | 'ECDH';

type P256Point = WeierstrassPoint<bigint>;

function parsePoint(hex: string, what: string): P256Point {
  if (typeof hex !== 'string') throw new WalletCryptoError('MALFORMED', `${what} must be a hex string`);
  const bytes = hexToBytes(hex, what);
  const sec1 = (bytes.length === 65 && bytes[0] === 0x04) || (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03));
  if (!sec1) throw new WalletCryptoError('MALFORMED', `${what} must be a SEC1 P-256 public key: 02/03 + 64 hex or 04 + 128 hex`);
  try {
    return P256.fromBytes(bytes); // coordinates < p, on the curve (decompression by noble's square root)
  } catch (cause) {
    throw new WalletCryptoError('MALFORMED', `${what} is not a point on P-256`, { cause });
  }
}

const encodeUncompressed = (point: P256Point): Bytes => toBytes(point.toBytes(false));
const encodeCompressed = (point: P256Point): Bytes => toBytes(point.toBytes(true));

/** True when `hex` is a valid P-256 public key (compressed or uncompressed SEC1 hex, on the curve). */
export function isP256PublicKeyHex(hex: string): boolean {
  try {
    parsePoint(hex, 'public key');
    return true;
  } catch {
    return false;
  }
}

/** Compressed SEC1 form (`02`/`03` + X, 66 lowercase hex) of a compressed or uncompressed P-256 public key; throws `MALFORMED`. */
export function compressP256PublicKey(publicKeyHex: string): string {
  return bytesToHex(encodeCompressed(parsePoint(publicKeyHex, 'public key')));
}

/** Uncompressed SEC1 form (`04` + X + Y, 130 lowercase hex) of a compressed or uncompressed P-256 public key; throws `MALFORMED`. */
export function decompressP256PublicKey(publicKeyHex: string): string {
  return bytesToHex(encodeUncompressed(parsePoint(publicKeyHex, 'public key')));
}

/** Uncompressed SEC1 bytes (65) of a compressed or uncompressed P-256 public key in hex. */
export function p256PublicKeyBytes(publicKeyHex: string): Bytes {
  return encodeUncompressed(parsePoint(publicKeyHex, 'public key'));
}

/** True when the 32 big-endian bytes are a scalar 1 ≤ d < n. */
function isValidScalar(d: Uint8Array): boolean {
  try {
    return P256.Fn.isValidNot0(P256.Fn.fromBytes(d));
  } catch {
    return false;
  }
}

/** The 32 bytes of a private scalar given in hex; throws `MALFORMED` unless it is 64 hex digits with 1 ≤ d < n. */
function parseScalar(privateKeyHex: string): Bytes {
  if (typeof privateKeyHex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) {
    throw new WalletCryptoError('MALFORMED', 'private key must be a 32-byte scalar in hex (64 characters)');
  }
  const d = hexToBytes(privateKeyHex, 'private key');
  if (!isValidScalar(d)) throw new WalletCryptoError('MALFORMED', 'private key is out of range for P-256');
  return d;
}

/** Uncompressed SEC1 bytes (65) of d·G, by noble's constant-time multiplication (d is a user's private key). */
const publicKeyOfScalar = (d: Bytes): Bytes => toBytes(P256.BASE.multiply(P256.Fn.fromBytes(d)).toBytes(false));

/** Uncompressed public key (130 lowercase hex) of a 32-byte private scalar given in hex; throws `MALFORMED`. */
export function p256PublicKeyFromPrivate(privateKeyHex: string): string {
  return bytesToHex(publicKeyOfScalar(parseScalar(privateKeyHex)));
}

/** True when `privateKeyHex` is a valid P-256 private scalar (64 hex, 1 ≤ d < n). */
export function isP256PrivateKeyHex(privateKeyHex: string): boolean {
  try {
    parseScalar(privateKeyHex);
    return true;
  } catch {
    return false;
  }
}

const algorithm = (usage: P256Usage) => ({ name: usage, namedCurve: 'P-256' }) as EcKeyImportParams;

/** Imports a P-256 public key (compressed or uncompressed hex) into WebCrypto: ECDSA for `verify`, or ECDH (no usages). */
export async function importP256PublicKey(publicKeyHex: string, usage: P256Usage = 'ECDSA'): Promise<CryptoKey> {
  return subtle().importKey('raw', p256PublicKeyBytes(publicKeyHex), algorithm(usage), true, usage === 'ECDSA' ? ['verify'] : []);
}

/**
 * Imports a raw 32-byte private scalar (hex) into WebCrypto as a private key (JWK with `d`, `x`, `y`; the public point is
 * derived here, or taken from `publicKeyHex` when the caller already knows it). ECDSA keys get `sign`; ECDH keys get
 * `deriveBits`. Non-extractable unless `extractable` is true.
 */
export async function importP256PrivateKey(
  privateKeyHex: string,
  usage: P256Usage = 'ECDSA',
  options: { extractable?: boolean; publicKeyHex?: string } = {},
): Promise<CryptoKey> {
  const d = parseScalar(privateKeyHex);
  const point = options.publicKeyHex ? p256PublicKeyBytes(options.publicKeyHex) : publicKeyOfScalar(d);
  const jwk: JsonWebKey = {
    kty: 'EC',
    crv: 'P-256',
    d: base64UrlEncode(d),
    x: base64UrlEncode(point.subarray(1, 33)),
    y: base64UrlEncode(point.subarray(33)),
    ext: options.extractable ?? false,
  };
  return subtle().importKey('jwk', jwk, algorithm(usage), options.extractable ?? false, usage === 'ECDSA' ? ['sign'] : ['deriveBits']);
}


/**
 * Exports the public key of a WebCrypto P-256 key as SEC1 hex (lowercase). Works for any public key and for extractable
 * private keys (through JWK); a non-extractable private key has no readable public part, so keep its pair's `publicKey`.
 */
export async function exportP256PublicKey(key: CryptoKey, form: 'compressed' | 'uncompressed' = 'uncompressed'): Promise<string> {
  let raw: Bytes;
  if (key.type === 'public') {
    raw = new Uint8Array(await subtle().exportKey('raw', key));
  } else {
    if (!key.extractable) throw new WalletCryptoError('MALFORMED', 'a non-extractable private key does not reveal its public key: pass the public key too');
    const jwk = await subtle().exportKey('jwk', key);
    raw = concatBytes(Uint8Array.of(4), base64UrlDecode(jwk.x!), base64UrlDecode(jwk.y!));
  }
  const hex = bytesToHex(raw);
  return form === 'compressed' ? compressP256PublicKey(hex) : hex;
}

/** Exports the 32-byte private scalar (hex) of an extractable WebCrypto P-256 private key. */
export async function exportP256PrivateKey(key: CryptoKey): Promise<string> {
  const jwk = await subtle().exportKey('jwk', key);
  if (!jwk.d) throw new WalletCryptoError('MALFORMED', 'not a private key');
  return bytesToHex(base64UrlDecode(jwk.d));
}

/** A P-256 key pair in hex: 32-byte scalar, and the public key in both SEC1 forms. */
export interface P256KeyPairHex {
  privateKeyHex: string;
  publicKeyUncompressedHex: string;
  publicKeyCompressedHex: string;
}

/** Generates a fresh P-256 key pair (WebCrypto randomness) and returns it in hex. For servers, tests and tooling. */
export async function generateP256KeyPairHex(): Promise<P256KeyPairHex> {
  const pair = (await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const publicKeyUncompressedHex = await exportP256PublicKey(pair.publicKey);
  return {
    privateKeyHex: await exportP256PrivateKey(pair.privateKey),
    publicKeyUncompressedHex,
    publicKeyCompressedHex: compressP256PublicKey(publicKeyUncompressedHex),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Signatures

/** Converts a DER ECDSA signature (bytes or hex) to IEEE P1363 `r ‖ s` (64 bytes); throws `MALFORMED` on any non-DER input. */
export function derToP1363(der: Uint8Array | string): Bytes {
  const bytes = typeof der === 'string' ? hexToBytes(der, 'signature') : der;
  const fail = (why: string) => new WalletCryptoError('MALFORMED', `signature is not a DER ECDSA signature: ${why}`);
  if (bytes.length < 8 || bytes.length > 72 || bytes[0] !== 0x30) throw fail('bad SEQUENCE');
  if (bytes[1] !== bytes.length - 2) throw fail('bad SEQUENCE length');
  let offset = 2;
  const readInteger = (): Bytes => {
    if (bytes[offset] !== 0x02) throw fail('expected INTEGER');
    const length = bytes[offset + 1]!;
    const start = offset + 2;
    if (length === 0 || length > 33 || start + length > bytes.length) throw fail('bad INTEGER length');
    const value = bytes.subarray(start, start + length);
    if (value[0]! & 0x80) throw fail('negative INTEGER');
    if (length > 1 && value[0] === 0 && !(value[1]! & 0x80)) throw fail('non-minimal INTEGER');
    offset = start + length;
    const trimmed = value[0] === 0 ? value.subarray(1) : value;
    if (trimmed.length > 32) throw fail('INTEGER too large');
    const out = new Uint8Array(32);
    out.set(trimmed, 32 - trimmed.length);
    return out;
  };
  const r = readInteger();
  const s = readInteger();
  if (offset !== bytes.length) throw fail('trailing bytes');
  return concatBytes(r, s);
}

/** Converts an IEEE P1363 `r ‖ s` signature (64 bytes) to minimal DER bytes. */
export function p1363ToDer(signature: Uint8Array): Bytes {
  if (signature.length !== 64) throw new WalletCryptoError('MALFORMED', 'a P1363 P-256 signature is 64 bytes');
  const integer = (half: Uint8Array) => {
    let start = 0;
    while (start < half.length - 1 && half[start] === 0) start++;
    const value = half.subarray(start);
    const body = value[0]! & 0x80 ? concatBytes(Uint8Array.of(0), value) : toBytes(value);
    return concatBytes(Uint8Array.of(0x02, body.length), body);
  };
  const body = concatBytes(integer(signature.subarray(0, 32)), integer(signature.subarray(32)));
  return concatBytes(Uint8Array.of(0x30, body.length), body);
}

/** True when the DER signature's `s` is above n/2 (a "high-S" signature, which every verifier here accepts). */
export function isHighS(derSignature: Uint8Array | string): boolean {
  const s = BigInt('0x' + bytesToHex(derToP1363(derSignature).subarray(32)));
  return s > P256_ORDER / 2n;
}

const message = (data: Uint8Array | string): Bytes => (typeof data === 'string' ? utf8Encode(data) : toBytes(data));

/**
 * ECDSA P-256 / SHA-256 signature over `data` (bytes, or the UTF-8 bytes of a string exactly as given), as lowercase DER hex.
 * `privateKey` is an ECDSA `CryptoKey` with `sign`, or a 32-byte scalar in hex. The signature is not normalized to low-S.
 */
export async function signP256(privateKey: P256PrivateKeyInput, data: Uint8Array | string): Promise<string> {
  const key = typeof privateKey === 'string' ? await importP256PrivateKey(privateKey, 'ECDSA') : privateKey;
  const raw = new Uint8Array(await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, key, message(data)));
  return bytesToHex(p1363ToDer(raw));
}

const publicKeyCache = new Map<string, Promise<CryptoKey>>();
const PUBLIC_KEY_CACHE_SIZE = 1024;

/** An ECDSA verify key for SEC1 hex, cached (public keys only) so a hot verifier imports each session key once. */
function cachedVerifyKey(publicKeyHex: string): Promise<CryptoKey> {
  const id = publicKeyHex.toLowerCase();
  let key = publicKeyCache.get(id);
  if (key) {
    publicKeyCache.delete(id);
    publicKeyCache.set(id, key);
    return key;
  }
  key = importP256PublicKey(id, 'ECDSA');
  key.catch(() => publicKeyCache.delete(id));
  publicKeyCache.set(id, key);
  if (publicKeyCache.size > PUBLIC_KEY_CACHE_SIZE) publicKeyCache.delete(publicKeyCache.keys().next().value!);
  return key;
}

/**
 * Verifies a DER ECDSA P-256 / SHA-256 signature (bytes or hex) over `data` (bytes, or the UTF-8 bytes of a string).
 * High-S signatures are accepted. Returns false for any malformed key or signature; never throws.
 */
export async function verifyP256(publicKey: P256PublicKeyInput, data: Uint8Array | string, derSignature: Uint8Array | string): Promise<boolean> {
  try {
    const signature = derToP1363(derSignature);
    const key = typeof publicKey === 'string' ? await cachedVerifyKey(publicKey) : publicKey;
    return await subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, message(data));
  } catch {
    return false;
  }
}

/** A random valid P-256 scalar in hex (rejection sampling). */
export function randomP256PrivateKeyHex(): string {
  for (;;) {
    const candidate = randomBytes(32);
    if (isValidScalar(candidate)) return bytesToHex(candidate);
  }
}
