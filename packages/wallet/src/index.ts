/**
 * @railyard/wallet: end-user device helpers for the embedded-wallet signed-retry flow (SPEC §4.2, §5).
 * This first release carries the wire names and the stamp encoding; key management, OTP bundles and passkeys follow.
 * @packageDocumentation
 */

/** Header that carries the wallet stamp on a signed retry. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** Header that carries the single-use request id of a signed retry. */
export const REQUEST_ID_HEADER = 'Request-Id';
/** The only stamp scheme the service accepts (REFERENCE §7). */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** A decoded stamp: the session public key (compressed hex), the scheme, and the DER signature (hex). */
export interface Stamp {
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  signature: string;
}

/** Encodes a stamp as the header value: unpadded base64url of its JSON, keys in the reference order. */
export function encodeStamp(stamp: Stamp): string {
  const json = JSON.stringify({ publicKey: stamp.publicKey, scheme: stamp.scheme, signature: stamp.signature });
  return base64url(new TextEncoder().encode(json));
}

/** Decodes a header value into a stamp, or throws with what is wrong with it. */
export function decodeStamp(header: string): Stamp {
  if (!/^[A-Za-z0-9_-]+$/.test(header)) throw new Error('a stamp is unpadded base64url');
  const padded = header.replace(/-/g, '+').replace(/_/g, '/');
  const text = new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
  const parsed = JSON.parse(text) as Partial<Stamp>;
  if (parsed.scheme !== STAMP_SCHEME) throw new Error(`stamp scheme must be ${STAMP_SCHEME}`);
  if (typeof parsed.publicKey !== 'string' || !/^0[23][0-9a-f]{64}$/.test(parsed.publicKey)) throw new Error('stamp publicKey must be a compressed P-256 key in lowercase hex');
  if (typeof parsed.signature !== 'string' || !/^30[0-9a-f]+$/.test(parsed.signature)) throw new Error('stamp signature must be a DER signature in lowercase hex');
  return { publicKey: parsed.publicKey, scheme: STAMP_SCHEME, signature: parsed.signature };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
