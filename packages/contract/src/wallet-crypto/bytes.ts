import { WalletCryptoError } from './errors.js';

/** Bytes backed by a plain ArrayBuffer, as WebCrypto's `BufferSource` wants them. */
export type Bytes = Uint8Array<ArrayBuffer>;

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The WebCrypto `SubtleCrypto` of the running platform (Node 20+, browsers, workers). */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (globalThis.crypto.subtle) is not available on this platform');
  return s;
}

/** Lowercase hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_DIGITS[byte];
  return out;
}

/** Bytes of an even-length hex string (either case); throws `MALFORMED` otherwise. */
export function hexToBytes(hex: string, what = 'value'): Bytes {
  if (typeof hex !== 'string' || !HEX.test(hex)) throw new WalletCryptoError('MALFORMED', `${what} must be an even-length hex string`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** UTF-8 bytes of a string (exactly as given: no normalization). */
export function utf8Encode(text: string): Bytes {
  return new TextEncoder().encode(text) as Bytes;
}

/** Strict UTF-8 decoding; throws `MALFORMED` on invalid UTF-8. */
export function utf8Decode(bytes: Uint8Array, what = 'value'): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new WalletCryptoError('MALFORMED', `${what} is not valid UTF-8`, { cause });
  }
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A copy of `bytes` on its own ArrayBuffer (WebCrypto input). */
export function toBytes(bytes: Uint8Array): Bytes {
  return new Uint8Array(bytes);
}

/** Constant-time-ish equality of two byte arrays. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/** Unpadded base64url of `bytes` (RFC 4648 §5). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  // Padding is only ever at the end: dropping every '=' needs no anchored pattern.
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

/** Strict decoding of unpadded base64url: only `A-Z a-z 0-9 - _`, no padding, no impossible length; throws `MALFORMED`. */
export function base64UrlDecode(text: string, what = 'value'): Bytes {
  if (typeof text !== 'string' || !B64URL.test(text) || text.length % 4 === 1) {
    throw new WalletCryptoError('MALFORMED', `${what} must be unpadded base64url`);
  }
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** SHA-256 of bytes, or of the UTF-8 bytes of a string (WebCrypto). */
export async function sha256(data: Uint8Array | string): Promise<Bytes> {
  const bytes = typeof data === 'string' ? utf8Encode(data) : toBytes(data);
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

/** Lowercase hex SHA-256 of bytes, or of the UTF-8 bytes of a string. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return bytesToHex(await sha256(data));
}

/** `count` cryptographically random bytes. */
export function randomBytes(count: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(count));
}
