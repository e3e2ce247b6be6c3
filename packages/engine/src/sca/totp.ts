/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA-1, 30-second steps, 6 digits, what authenticator
 * apps use by default. Written over @noble/hashes so the engine keeps running in browsers; the time is always the
 * engine's clock, so a virtual clock moves the codes too.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { base32nopad } from '@scure/base';

export const TOTP_STEP_MS = 30_000;
export const TOTP_DIGITS = 6;
/** Codes of this many steps either side of now are accepted: clocks drift and people type slowly. */
export const TOTP_WINDOW_STEPS = 1;

/** The RFC 4226 code of `key` for counter `counter`. */
export function hotp(key: Uint8Array, counter: number): string {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const digest = hmac(sha1, key, message);
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (((digest[offset]! & 0x7f) << 24) | (digest[offset + 1]! << 16) | (digest[offset + 2]! << 8) | digest[offset + 3]!) >>> 0;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/** The code of `key` at time `nowMs`. */
export const totpAt = (key: Uint8Array, nowMs: number): string => hotp(key, Math.floor(nowMs / TOTP_STEP_MS));

/**
 * The step whose code `code` is: the step of `nowMs` or one within {@link TOTP_WINDOW_STEPS} of it, and later than
 * `afterStep` when given (RFC 6238 §5.2: a code accepted once is not accepted again, nor any earlier one). Undefined
 * when there is none.
 */
export function verifyTotp(key: Uint8Array, code: string, nowMs: number, afterStep?: number): number | undefined {
  const now = Math.floor(nowMs / TOTP_STEP_MS);
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step++) {
    if ((afterStep === undefined || step > afterStep) && hotp(key, step) === code) return step;
  }
  return undefined;
}

/** The key bytes of a secret as the API hands it out (its UTF-8 bytes; the base32 form encodes the same bytes). */
export const totpKeyOf = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/** The base32 form of a secret, as authenticator apps take it. */
export const totpBase32Of = (secret: string): string => base32nopad.encode(totpKeyOf(secret));

/** The `otpauth://totp/` URI an authenticator app scans (Key URI format), for `account` under `issuer`. */
export function totpUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Percent-encoded (not URLSearchParams' `+` for spaces): apps read the Key URI format with URI escapes only.
  const query = Object.entries({ secret: totpBase32Of(secret), issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_MS / 1000) })
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `otpauth://totp/${label}?${query}`;
}
