/**
 * Secrets at rest: the engine's sealer, and the hashes that stand for bearer tokens in stored state.
 *
 * A record is plain JSON and goes into every snapshot (`GET /_sandbox/snapshot`), so a secret the engine must show
 * again later (a card's number and CVV, a wallet's mnemonic) is kept sealed: XChaCha20-Poly1305 (@noble/ciphers,
 * synchronous and browser-safe) under the engine's secret key, a random 24-byte nonce per seal, and the record it
 * belongs to as associated data, so a sealed value moved to another record does not open. A bearer token the engine
 * only has to recognise (a reveal or KYC link token) is kept as its SHA-256 ({@link tokenHash}): the stored state holds
 * nothing that opens a page.
 *
 * Sealed values read `sealed:v1:<keyId>:<base64url(nonce ‖ ciphertext ‖ tag)>`. `keyId` is a short hash of the key:
 * a value sealed under another engine's key (a snapshot restored elsewhere) is told apart without trying it.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlnopad } from '@scure/base';
import { bytesToHex } from '@railyard/contract';

/** The fewest bytes a secret key may have (as UTF-8 when given as text). */
export const MIN_SECRET_KEY_BYTES = 32;

const PREFIX = 'sealed:v1:';
const NONCE_BYTES = 24;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Seals and opens small secrets under one key. */
export interface Sealer {
  /** A short hash of the key (8 hex digits), written into every sealed value. */
  readonly keyId: string;
  /**
   * `plaintext` sealed, as a `sealed:v1:…` string. `context` names what it belongs to (`card:<id>`); opening needs the
   * same context.
   */
  seal(plaintext: string, context: string): string;
  /**
   * What {@link seal} sealed, or undefined when `sealed` was not sealed under this key for this context (another
   * engine's key, another record, a damaged or hand-edited value). Never throws.
   */
  open(sealed: string, context: string): string | undefined;
}

/**
 * A sealer under `secretKey` (text of at least {@link MIN_SECRET_KEY_BYTES} bytes, or as many bytes), or under a random
 * key when none is given. The AEAD key is derived from it with HKDF-SHA256, on first use.
 */
export function createSealer(secretKey?: string | Uint8Array): Sealer {
  const material = keyMaterial(secretKey);
  let derived: { key: Uint8Array; keyId: string } | undefined;
  const keys = () => {
    if (!derived) {
      const key = hkdf(sha256, material, encoder.encode('railyard sealer'), encoder.encode('xchacha20poly1305 v1'), 32);
      derived = { key, keyId: bytesToHex(sha256(concat(encoder.encode('railyard sealer key id\0'), key))).slice(0, 8) };
    }
    return derived;
  };
  return {
    get keyId() {
      return keys().keyId;
    },
    seal(plaintext, context) {
      const { key, keyId } = keys();
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      const sealed = xchacha20poly1305(key, nonce, associatedData(keyId, context)).encrypt(encoder.encode(plaintext));
      return `${PREFIX}${keyId}:${base64urlnopad.encode(concat(nonce, sealed))}`;
    },
    open(sealed, context) {
      const { key, keyId } = keys();
      if (typeof sealed !== 'string' || !sealed.startsWith(`${PREFIX}${keyId}:`)) return undefined;
      try {
        const bytes = base64urlnopad.decode(sealed.slice(PREFIX.length + keyId.length + 1));
        if (bytes.length < NONCE_BYTES + 16) return undefined;
        const opened = xchacha20poly1305(key, bytes.subarray(0, NONCE_BYTES), associatedData(keyId, context)).decrypt(bytes.subarray(NONCE_BYTES));
        return decoder.decode(opened);
      } catch {
        return undefined;
      }
    },
  };
}

function keyMaterial(secretKey: string | Uint8Array | undefined): Uint8Array {
  if (secretKey === undefined) return crypto.getRandomValues(new Uint8Array(32));
  const bytes = typeof secretKey === 'string' ? encoder.encode(secretKey) : secretKey;
  if (!(bytes instanceof Uint8Array) || bytes.length < MIN_SECRET_KEY_BYTES) {
    throw new TypeError(`secretKey must be at least ${MIN_SECRET_KEY_BYTES} bytes of random data (for example 32 random bytes, base64: \`openssl rand -base64 32\`)`);
  }
  return Uint8Array.from(bytes);
}

const associatedData = (keyId: string, context: string): Uint8Array => encoder.encode(`${PREFIX}${keyId}:${context}`);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The lowercase hex SHA-256 of a bearer token: what stored state keeps in its place. */
export const tokenHash = (token: string): string => bytesToHex(sha256(encoder.encode(token)));

/** Whether `value` is a {@link tokenHash} (64 lowercase hex digits), not a token as handed out. */
export const isTokenHash = (value: string): boolean => /^[0-9a-f]{64}$/.test(value);

/**
 * Random decimal digits, unbiased (bytes of 250 and above are drawn again), from the platform's CSPRNG.
 */
export function randomDigits(count: number): string {
  let digits = '';
  while (digits.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count))) {
      if (byte < 250 && digits.length < count) digits += String(byte % 10);
    }
  }
  return digits;
}

/**
 * For a snapshot record kept before its token was hashed (restore): a copy whose `field` holds the token's hash
 * instead of the token, so the token still opens what it opened and the restored state no longer holds it. Anything
 * else is returned as it is, for the schema to judge.
 */
export function hashLegacyToken(input: unknown, field = 'id', into = field): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  const value = record[field];
  if (typeof value !== 'string' || (field === into && isTokenHash(value))) return input;
  const { [field]: _token, ...rest } = record;
  return { ...rest, [into]: field !== into && typeof record[into] === 'string' ? record[into] : tokenHash(value) };
}
