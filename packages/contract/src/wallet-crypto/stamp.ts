// The `Service-Wallet-Signature` stamp (REFERENCE §7): unpadded base64url of the compact JSON
// {"publicKey": compressed hex, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": DER hex} over the exact UTF-8 payload.
import { base64UrlDecode, base64UrlEncode, hexToBytes, utf8Decode, utf8Encode } from './bytes.js';
import { WalletCryptoError, type WalletCryptoErrorCode } from './errors.js';
import {
  type P256PrivateKeyInput,
  compressP256PublicKey,
  derToP1363,
  importP256PrivateKey,
  p256PublicKeyFromPrivate,
  signP256,
  verifyP256,
} from './p256.js';

/** The only stamp scheme the service accepts. Defined here, not beside the zod schemas, so that the wallet gets it without zod. */
export const WALLET_STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** A decoded stamp: the signer's compressed public key (lowercase hex), the scheme literal, the DER signature (lowercase hex). */
export interface DecodedWalletStamp {
  publicKey: string;
  scheme: typeof WALLET_STAMP_SCHEME;
  signature: string;
}

const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})+$/;

/** Encodes stamp fields as the header value: unpadded base64url of `{"publicKey","scheme","signature"}` in that order. */
export function encodeWalletStamp(stamp: { publicKey: string; scheme?: string; signature: string }): string {
  const json = JSON.stringify({ publicKey: stamp.publicKey, scheme: stamp.scheme ?? WALLET_STAMP_SCHEME, signature: stamp.signature });
  return base64UrlEncode(utf8Encode(json));
}

/**
 * Decodes a `Service-Wallet-Signature` header value. Throws {@link WalletCryptoError} `MALFORMED` (not strict unpadded
 * base64url, not a JSON object, publicKey not a compressed lowercase-hex key, signature not DER hex) or `WRONG_SCHEME`
 * (checked first once the JSON object is read).
 */
export function decodeWalletStamp(header: string): DecodedWalletStamp {
  const bytes = base64UrlDecode(header, 'stamp');
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(bytes, 'stamp'));
  } catch (cause) {
    if (cause instanceof WalletCryptoError) throw cause;
    throw new WalletCryptoError('MALFORMED', 'stamp is not JSON', { cause });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new WalletCryptoError('MALFORMED', 'stamp is not a JSON object');
  const { publicKey, scheme, signature } = parsed as Record<string, unknown>;
  if (scheme !== WALLET_STAMP_SCHEME) throw new WalletCryptoError('WRONG_SCHEME', `stamp scheme must be ${WALLET_STAMP_SCHEME}`);
  if (typeof publicKey !== 'string' || !COMPRESSED_KEY.test(publicKey)) {
    throw new WalletCryptoError('MALFORMED', 'stamp publicKey must be a compressed P-256 public key in lowercase hex');
  }
  if (typeof signature !== 'string' || !LOWER_HEX.test(signature)) throw new WalletCryptoError('MALFORMED', 'stamp signature must be lowercase hex');
  derToP1363(signature);
  return { publicKey, scheme: WALLET_STAMP_SCHEME, signature };
}

/** Verifies a decoded stamp's signature over the exact bytes of `payload` (a string is signed as its UTF-8 bytes). High-S accepted. */
export function verifyWalletStampSignature(stamp: DecodedWalletStamp, payload: string | Uint8Array): Promise<boolean> {
  return verifyP256(stamp.publicKey, payload, stamp.signature);
}

/** Outcome of {@link verifyWalletStamp}: the decoded stamp, or which check failed. */
export type WalletStampVerification =
  | { valid: true; stamp: DecodedWalletStamp }
  | { valid: false; reason: Extract<WalletCryptoErrorCode, 'MALFORMED' | 'WRONG_SCHEME' | 'KEY_MISMATCH' | 'SIGNATURE_INVALID'>; message: string };

/**
 * A pluggable ECDSA P-256/SHA-256 verifier: `publicKeyCompressedHex` signed `data` with the DER `signature`; must accept
 * high-S. A Node server can pass one built on `node:crypto` (cheaper than WebCrypto per call); the default is {@link verifyP256}.
 */
export type P256SignatureVerifier = (publicKeyCompressedHex: string, data: Uint8Array, derSignature: Uint8Array) => boolean | Promise<boolean>;

/** Options of {@link verifyWalletStamp}. */
export interface VerifyWalletStampOptions {
  /** Signature check to use instead of WebCrypto (see {@link P256SignatureVerifier}). */
  verifier?: P256SignatureVerifier;
}

/** Compressed lowercase form of a trusted key without a square root (the parity of Y is read from the uncompressed form). */
function expectedCompressed(publicKeyHex: string): string | null {
  if (typeof publicKeyHex !== 'string') return null;
  const key = publicKeyHex.toLowerCase();
  if (COMPRESSED_KEY.test(key)) return key;
  if (/^04[0-9a-f]{128}$/.test(key)) return (parseInt(key[129]!, 16) & 1 ? '03' : '02') + key.slice(2, 66);
  return null;
}

/**
 * Checks a `Service-Wallet-Signature` header against an expected session public key (compressed or uncompressed hex) and the
 * exact payload (a string is checked as its UTF-8 bytes): decodes it, requires the scheme literal and the same key, and
 * verifies the ECDSA P-256/SHA-256 DER signature (high-S accepted). Never throws; `reason` maps to the 401 codes
 * (MALFORMED/WRONG_SCHEME → WALLET_SIGNATURE_MALFORMED, KEY_MISMATCH/SIGNATURE_INVALID → WALLET_SIGNATURE_INVALID).
 */
export async function verifyWalletStamp(
  header: string,
  payload: string | Uint8Array,
  expectedPublicKeyHex: string,
  options: VerifyWalletStampOptions = {},
): Promise<WalletStampVerification> {
  let stamp: DecodedWalletStamp;
  try {
    stamp = decodeWalletStamp(header);
  } catch (error) {
    const reason = error instanceof WalletCryptoError && error.code === 'WRONG_SCHEME' ? 'WRONG_SCHEME' : 'MALFORMED';
    return { valid: false, reason, message: error instanceof Error ? error.message : String(error) };
  }
  if (stamp.publicKey !== expectedCompressed(expectedPublicKeyHex)) {
    return { valid: false, reason: 'KEY_MISMATCH', message: 'stamp publicKey is not the expected session key' };
  }
  let ok: boolean;
  if (options.verifier) {
    const data = typeof payload === 'string' ? utf8Encode(payload) : payload;
    try {
      ok = await options.verifier(stamp.publicKey, data, hexToBytes(stamp.signature));
    } catch {
      ok = false;
    }
  } else {
    ok = await verifyWalletStampSignature(stamp, payload);
  }
  if (!ok) return { valid: false, reason: 'SIGNATURE_INVALID', message: 'stamp signature does not verify over the payload' };
  return { valid: true, stamp };
}

/**
 * Stamps `payload` (its exact UTF-8 bytes, or the given bytes) with a P-256 private key and returns the header value.
 * With a `CryptoKey` (ECDSA, `sign`) pass its public key (hex, either form); with a hex scalar it is derived.
 */
export async function createWalletStamp(payload: string | Uint8Array, privateKey: P256PrivateKeyInput, publicKeyHex?: string): Promise<string> {
  let key = privateKey;
  let publicKey: string;
  if (publicKeyHex) publicKey = compressP256PublicKey(publicKeyHex);
  else if (typeof privateKey === 'string') {
    const uncompressed = p256PublicKeyFromPrivate(privateKey);
    key = await importP256PrivateKey(privateKey, 'ECDSA', { publicKeyHex: uncompressed });
    publicKey = compressP256PublicKey(uncompressed);
  } else throw new WalletCryptoError('MALFORMED', 'createWalletStamp needs the public key when signing with a CryptoKey');
  const signature = await signP256(key, payload);
  return encodeWalletStamp({ publicKey, scheme: WALLET_STAMP_SCHEME, signature });
}
