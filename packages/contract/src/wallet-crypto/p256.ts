// NIST P-256 helpers on WebCrypto and BigInt: SEC1 point compression, raw-scalar import, DER <-> IEEE P1363 signatures,
// ECDSA P-256/SHA-256 sign and verify (high-S accepted, as every WebCrypto and OpenSSL verifier does).
import { base64UrlDecode, base64UrlEncode, type Bytes, bytesToHex, concatBytes, hexToBytes, randomBytes, subtle, toBytes, utf8Encode } from './bytes.js';
import { WalletCryptoError } from './errors.js';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
/** The order of the P-256 base point. */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;
const SQRT_EXP = (P + 1n) / 4n; // p ≡ 3 (mod 4)

/** A private key as WebCrypto `CryptoKey` or as the 32-byte scalar in hex. */
export type P256PrivateKeyInput = CryptoKey | string;
/** A public key as WebCrypto `CryptoKey` or as SEC1 hex (compressed `02`/`03` or uncompressed `04`). */
export type P256PublicKeyInput = CryptoKey | string;
/** Which WebCrypto algorithm a P-256 key is imported for. */
export type P256Usage = 'ECDSA' | 'ECDH';

const mod = (a: bigint, m = P) => {
  const r = a % m;
  return r >= 0n ? r : r + m;
};

function modPow(base: bigint, exponent: bigint, m = P): bigint {
  let result = 1n;
  let b = mod(base, m);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

const bytesToBigInt = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt('0x' + bytesToHex(bytes)));
const bigIntTo32 = (n: bigint): Bytes => hexToBytes(n.toString(16).padStart(64, '0'));
const curveRhs = (x: bigint) => mod(x * x * x - 3n * x + B);

/** A point in affine coordinates (x, y), both reduced mod p. */
interface Affine {
  x: bigint;
  y: bigint;
}

function parsePoint(hex: string, what: string): Affine {
  if (typeof hex !== 'string') throw new WalletCryptoError('MALFORMED', `${what} must be a hex string`);
  const bytes = hexToBytes(hex, what);
  if (bytes.length === 65 && bytes[0] === 0x04) {
    const x = bytesToBigInt(bytes.subarray(1, 33));
    const y = bytesToBigInt(bytes.subarray(33));
    if (x >= P || y >= P || mod(y * y) !== curveRhs(x)) throw new WalletCryptoError('MALFORMED', `${what} is not a point on P-256`);
    return { x, y };
  }
  if (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03)) {
    const x = bytesToBigInt(bytes.subarray(1));
    if (x >= P) throw new WalletCryptoError('MALFORMED', `${what} is not a point on P-256`);
    const rhs = curveRhs(x);
    let y = modPow(rhs, SQRT_EXP);
    if ((y * y) % P !== rhs) throw new WalletCryptoError('MALFORMED', `${what} is not a point on P-256`);
    if ((y & 1n) !== BigInt(bytes[0]! & 1)) y = P - y;
    return { x, y };
  }
  throw new WalletCryptoError('MALFORMED', `${what} must be a SEC1 P-256 public key: 02/03 + 64 hex or 04 + 128 hex`);
}

const encodeUncompressed = ({ x, y }: Affine): Bytes => concatBytes(Uint8Array.of(4), bigIntTo32(x), bigIntTo32(y));
const encodeCompressed = ({ x, y }: Affine): Bytes => concatBytes(Uint8Array.of(y & 1n ? 3 : 2), bigIntTo32(x));

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

// Jacobian coordinates (X, Y, Z) with x = X/Z², y = Y/Z³; Z = 0 is the point at infinity. a = -3.
type Jacobian = [bigint, bigint, bigint];

function jDouble([X, Y, Z]: Jacobian): Jacobian {
  if (Z === 0n || Y === 0n) return [0n, 1n, 0n];
  const delta = (Z * Z) % P;
  const gamma = (Y * Y) % P;
  const beta = (X * gamma) % P;
  const alpha = mod(3n * (X - delta) * (X + delta));
  const X3 = mod(alpha * alpha - 8n * beta);
  const Z3 = mod((Y + Z) * (Y + Z) - gamma - delta);
  const Y3 = mod(alpha * (4n * beta - X3) - 8n * gamma * gamma);
  return [X3, Y3, Z3];
}

function jAdd(p: Jacobian, q: Jacobian): Jacobian {
  const [X1, Y1, Z1] = p;
  const [X2, Y2, Z2] = q;
  if (Z1 === 0n) return q;
  if (Z2 === 0n) return p;
  const Z1Z1 = (Z1 * Z1) % P;
  const Z2Z2 = (Z2 * Z2) % P;
  const U1 = (X1 * Z2Z2) % P;
  const U2 = (X2 * Z1Z1) % P;
  const S1 = (((Y1 * Z2) % P) * Z2Z2) % P;
  const S2 = (((Y2 * Z1) % P) * Z1Z1) % P;
  const H = mod(U2 - U1);
  const R = mod(S2 - S1);
  if (H === 0n) return R === 0n ? jDouble(p) : [0n, 1n, 0n];
  const HH = (H * H) % P;
  const HHH = (H * HH) % P;
  const V = (U1 * HH) % P;
  const X3 = mod(R * R - HHH - 2n * V);
  const Y3 = mod(R * (V - X3) - S1 * HHH);
  const Z3 = (((Z1 * Z2) % P) * H) % P;
  return [X3, Y3, Z3];
}

/** k·G by double-and-add (key derivation only: not constant time, never used on a secret in a hot path of a server). */
function multiplyBase(k: bigint): Affine {
  let result: Jacobian = [0n, 1n, 0n];
  let addend: Jacobian = [GX, GY, 1n];
  let e = k;
  while (e > 0n) {
    if (e & 1n) result = jAdd(result, addend);
    addend = jDouble(addend);
    e >>= 1n;
  }
  const [X, Y, Z] = result;
  if (Z === 0n) throw new WalletCryptoError('MALFORMED', 'private key is zero modulo the group order');
  const zInv = modPow(Z, P - 2n);
  const zInv2 = (zInv * zInv) % P;
  return { x: (X * zInv2) % P, y: (((Y * zInv2) % P) * zInv) % P };
}

function parseScalar(privateKeyHex: string): bigint {
  if (typeof privateKeyHex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) {
    throw new WalletCryptoError('MALFORMED', 'private key must be a 32-byte scalar in hex (64 characters)');
  }
  const d = BigInt('0x' + privateKeyHex);
  if (d === 0n || d >= P256_ORDER) throw new WalletCryptoError('MALFORMED', 'private key is out of range for P-256');
  return d;
}

/** Uncompressed public key (130 lowercase hex) of a 32-byte private scalar given in hex; throws `MALFORMED`. */
export function p256PublicKeyFromPrivate(privateKeyHex: string): string {
  return bytesToHex(encodeUncompressed(multiplyBase(parseScalar(privateKeyHex))));
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
  const point = options.publicKeyHex ? parsePoint(options.publicKeyHex, 'public key') : multiplyBase(d);
  const jwk: JsonWebKey = {
    kty: 'EC',
    crv: 'P-256',
    d: base64UrlEncode(bigIntTo32(d)),
    x: base64UrlEncode(bigIntTo32(point.x)),
    y: base64UrlEncode(bigIntTo32(point.y)),
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
  const s = bytesToBigInt(derToP1363(derSignature).subarray(32));
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
    const d = bytesToBigInt(candidate);
    if (d > 0n && d < P256_ORDER) return bytesToHex(candidate);
  }
}
