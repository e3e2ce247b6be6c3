import {
  compressP256PublicKey,
  createWalletStamp,
  exportP256PublicKey,
  importP256PrivateKey,
  p256PublicKeyFromPrivate,
  signP256,
} from '@railyard/contract/wallet-crypto';

/** Anything that can stamp a `payloadToSign`: returns the `Service-Wallet-Signature` header value. */
export interface WalletStamper {
  /** Signs the exact UTF-8 bytes of `payload` and returns the stamp (unpadded base64url JSON). */
  stamp(payload: string): Promise<string>;
}

/**
 * A P-256 session signing key held in WebCrypto, with a non-extractable private key: the browser (or Node) can sign with it
 * but no script can read it. Use {@link SessionKey.generate} for a fresh key (the recommended client-held-key model: send
 * {@link SessionKey.publicKeyCompressedHex} as `clientPublicKey`, or use it as the EMAIL_OTP TEK), or
 * {@link SessionKey.fromPrivateKeyHex} for a key you were given as a 32-byte scalar (a TEK made elsewhere, or the session key
 * decrypted from `encryptedSessionSigningKey`). {@link SessionKey.keyPair} can be stored in IndexedDB (CryptoKeys are
 * structured-cloneable) and restored with {@link SessionKey.fromKeyPair}.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { SessionKey, decodeStamp } from '@railyard/wallet';
 *
 * const session = await SessionKey.generate(); // the private key never leaves WebCrypto
 * const stamp = decodeStamp(await session.stamp('{"operation":"to sign"}'));
 * assert.equal(stamp.publicKey, session.publicKeyCompressedHex);
 * ```
 */
export class SessionKey implements WalletStamper {
  /** The non-extractable ECDSA P-256 private key (`sign`). */
  readonly privateKey: CryptoKey;
  /** The public key, uncompressed SEC1 hex (`04` + X + Y, 130 characters). */
  readonly publicKeyUncompressedHex: string;
  /** The public key, compressed SEC1 hex (`02`/`03` + X, 66 characters): the form stamps carry. */
  readonly publicKeyCompressedHex: string;
  readonly #publicKey: CryptoKey | undefined;

  private constructor(privateKey: CryptoKey, publicKeyUncompressedHex: string, publicKey?: CryptoKey) {
    this.privateKey = privateKey;
    this.publicKeyUncompressedHex = publicKeyUncompressedHex;
    this.publicKeyCompressedHex = compressP256PublicKey(publicKeyUncompressedHex);
    this.#publicKey = publicKey;
  }

  /** Generates a fresh key pair with a non-extractable private key (WebCrypto `generateKey`). */
  static async generate(): Promise<SessionKey> {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    return new SessionKey(pair.privateKey, await exportP256PublicKey(pair.publicKey), pair.publicKey);
  }

  /** Imports a 32-byte P-256 private scalar (64 hex characters) as a non-extractable signing key. */
  static async fromPrivateKeyHex(privateKeyHex: string): Promise<SessionKey> {
    const publicKeyHex = p256PublicKeyFromPrivate(privateKeyHex);
    return new SessionKey(await importP256PrivateKey(privateKeyHex, 'ECDSA', { publicKeyHex }), publicKeyHex);
  }

  /** Wraps an existing ECDSA P-256 WebCrypto key pair (for example one restored from IndexedDB). */
  static async fromKeyPair(pair: CryptoKeyPair): Promise<SessionKey> {
    return new SessionKey(pair.privateKey, await exportP256PublicKey(pair.publicKey), pair.publicKey);
  }

  /** The WebCrypto key pair, for storage (IndexedDB keeps non-extractable keys non-extractable). Absent for imported scalars. */
  get keyPair(): CryptoKeyPair | undefined {
    return this.#publicKey ? { privateKey: this.privateKey, publicKey: this.#publicKey } : undefined;
  }

  /** ECDSA P-256/SHA-256 signature (lowercase DER hex) over bytes, or over the exact UTF-8 bytes of a string. */
  sign(data: Uint8Array | string): Promise<string> {
    return signP256(this.privateKey, data);
  }

  /** The `Service-Wallet-Signature` header value for `payload`: signs its exact UTF-8 bytes, never a re-serialization. */
  stamp(payload: string): Promise<string> {
    return createWalletStamp(payload, this.privateKey, this.publicKeyCompressedHex);
  }
}

/**
 * A P-256 ECDH key pair that receives HPKE-sealed secrets: the legacy `encryptedSessionSigningKey` (send
 * {@link DecryptionKey.publicKeyUncompressedHex} as `clientPublicKey`) and wallet export bundles (a fresh one per export).
 * The private key is non-extractable.
 */
export class DecryptionKey {
  /** The non-extractable ECDH P-256 private key (`deriveBits`). */
  readonly privateKey: CryptoKey;
  /** The public key, uncompressed SEC1 hex: the `clientPublicKey` of the legacy and export flows. */
  readonly publicKeyUncompressedHex: string;
  /** The public key, compressed SEC1 hex. */
  readonly publicKeyCompressedHex: string;

  private constructor(privateKey: CryptoKey, publicKeyUncompressedHex: string) {
    this.privateKey = privateKey;
    this.publicKeyUncompressedHex = publicKeyUncompressedHex;
    this.publicKeyCompressedHex = compressP256PublicKey(publicKeyUncompressedHex);
  }

  /** Generates a fresh ECDH key pair with a non-extractable private key. */
  static async generate(): Promise<DecryptionKey> {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as CryptoKeyPair;
    return new DecryptionKey(pair.privateKey, await exportP256PublicKey(pair.publicKey));
  }

  /** Imports a 32-byte P-256 private scalar (64 hex characters) as a non-extractable ECDH key. */
  static async fromPrivateKeyHex(privateKeyHex: string): Promise<DecryptionKey> {
    const publicKeyHex = p256PublicKeyFromPrivate(privateKeyHex);
    return new DecryptionKey(await importP256PrivateKey(privateKeyHex, 'ECDH', { publicKeyHex }), publicKeyHex);
  }
}
