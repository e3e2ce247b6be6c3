/**
 * @railyard/wallet: end-user device helpers for the embedded wallet, browser first, Node too.
 * P-256 session keys held in WebCrypto and the stamps they make, OTP encryption to a verified target bundle, decryption of
 * sealed session keys and wallet exports, passkey registration and assertion through `@simplewebauthn/browser`, a software
 * passkey authenticator for tests, and the signed-retry headers. The wire formats come from
 * `@railyard/contract/wallet-crypto`, the contract's codecs without its zod schemas, so a browser app bundles no zod.
 * @packageDocumentation
 */
import { WALLET_STAMP_SCHEME, decodeWalletStamp, encodeWalletStamp } from '@railyard/contract/wallet-crypto';

/** Header that carries the wallet stamp on a signed retry. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** Header that carries the single-use request id of a signed retry. */
export const REQUEST_ID_HEADER = 'Request-Id';
/** The only stamp scheme the service accepts. */
export const STAMP_SCHEME = WALLET_STAMP_SCHEME;

/** A decoded stamp: the session public key (compressed hex), the scheme, and the DER signature (hex). */
export interface Stamp {
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  signature: string;
}

/** Encodes a stamp as the header value: unpadded base64url of its JSON, keys in the reference order. */
export function encodeStamp(stamp: Stamp): string {
  return encodeWalletStamp(stamp);
}

/** Decodes a header value into a stamp, or throws (a `WalletCryptoError`) with what is wrong with it. */
export function decodeStamp(header: string): Stamp {
  return decodeWalletStamp(header);
}

export { SessionKey, DecryptionKey, type WalletStamper } from './keys.js';
export { encryptOtp, decryptSessionSigningKey, decryptExportBundle, type EncryptOtpInput, type ClientPrivateKey } from './bundles.js';
export {
  registerPasskey,
  assertPasskey,
  browserWebAuthn,
  passkeyWebAuthnChallenge,
  toPasskeyAttestation,
  toPasskeyAssertion,
  type WebAuthnDriver,
  type RegisterPasskeyInput,
  type AssertPasskeyInput,
  type PasskeyTransport,
  type PasskeyAttestationBody,
  type PasskeyAssertionBody,
  type PasskeyCredentialCreateBody,
  type PasskeyVerifyBody,
} from './passkeys.js';
export {
  SoftwarePasskeyAuthenticator,
  encodeCbor,
  type CborValue,
  type SoftwarePasskeyAuthenticatorOptions,
  type SoftwarePasskeyCredential,
} from './software-authenticator.js';
export { signedRetryHeaders, type SignedRetryHeaders } from './signed-retry.js';
export {
  /** The OAuth nonce for a `clientPublicKey`: lowercase hex SHA-256 of its text exactly as sent (re-exported from the contract). */
  computeOauthNonce as oauthNonce,
  WalletCryptoError,
  isWalletCryptoError,
  type WalletCryptoErrorCode,
} from '@railyard/contract/wallet-crypto';
