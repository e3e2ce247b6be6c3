import {
  WalletCryptoError,
  exportP256PublicKey,
  openExportBundle,
  openSessionSigningKey,
  parseEnclaveBundle,
  sealEncryptedOtpBundle,
  verifyOtpTargetBundle,
} from '@railyard/contract/wallet-crypto';
import { DecryptionKey, SessionKey } from './keys.js';

/** Input of {@link encryptOtp}. */
export interface EncryptOtpInput {
  /** `otpEncryptionTargetBundle` from the OTP challenge response (a JSON string). */
  targetBundle: string;
  /** The code the user typed. */
  otpCode: string;
  /**
   * The TEK public key to bind (it becomes the session signing key): hex (sent as given; the reference tooling sends the
   * uncompressed `04` form, compressed works too) or a {@link SessionKey} (its uncompressed form is sent).
   */
  tekPublicKey: string | SessionKey;
  /**
   * The enclave signing key you trust, uncompressed hex. It must equal the bundle's `enclaveQuorumPublic` character for
   * character. For the sandbox, pin the documented key (`GET /_sandbox/enclave-key`).
   */
  pinnedEnclaveKey: string;
}

/**
 * Encrypts an OTP code to an `otpEncryptionTargetBundle` and returns the `encryptedOtpBundle` string for
 * `POST /auth/credentials/{id}/verify`. Refuses, with a {@link WalletCryptoError}, a bundle whose `enclaveQuorumPublic`
 * is not the pinned key (`UNTRUSTED_SIGNER`), whose signature does not verify (`SIGNATURE_INVALID`), or that is malformed.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { createClient } from '@railyard/client';
 * import { createEngine } from '@railyard/engine';
 * import { encryptOtp, SessionKey } from '@railyard/wallet';
 *
 * const engine = createEngine();
 * const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
 * // A customer with a USDB currency gets an embedded wallet, with an EMAIL_OTP credential for their email.
 * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USDB'] });
 * const wallet = (await client.internalAccounts.list({ customerId: customer.id })).data.find((account) => account.type === 'EMBEDDED_WALLET')!;
 * const email = (await client.auth.credentials.list({ accountId: wallet.id })).data[0]!;
 *
 * const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
 * const { publicKeyHex: pinnedEnclaveKey } = await client.sandbox.enclaveKey(); // pin it in the app
 * const tek = await SessionKey.generate(); // becomes the session key
 * const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey });
 * const session = await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: tek });
 * assert.equal(session.accountId, wallet.id);
 * ```
 */
export async function encryptOtp(input: EncryptOtpInput): Promise<string> {
  if (typeof input.pinnedEnclaveKey !== 'string' || input.pinnedEnclaveKey.length === 0) {
    throw new WalletCryptoError('UNTRUSTED_SIGNER', 'encryptOtp needs pinnedEnclaveKey: the enclave signing public key you trust (uncompressed hex)');
  }
  let targetPublicKeyHex: string;
  try {
    ({ targetPublicKeyHex } = await verifyOtpTargetBundle(input.targetBundle, input.pinnedEnclaveKey));
  } catch (error) {
    if (error instanceof WalletCryptoError && error.code === 'UNTRUSTED_SIGNER') {
      const signer = safeSigner(input.targetBundle);
      throw new WalletCryptoError(
        'UNTRUSTED_SIGNER',
        `refusing the OTP target bundle: it is signed by enclave key ${signer}, which is not the pinned key ${input.pinnedEnclaveKey} ` +
          '(they must match character for character; for the sandbox pin the key served at GET /_sandbox/enclave-key)',
      );
    }
    if (error instanceof WalletCryptoError && error.code === 'SIGNATURE_INVALID') {
      throw new WalletCryptoError('SIGNATURE_INVALID', 'refusing the OTP target bundle: its dataSignature does not verify under the pinned enclave key');
    }
    throw error;
  }
  const publicKeyHex = typeof input.tekPublicKey === 'string' ? input.tekPublicKey : input.tekPublicKey.publicKeyUncompressedHex;
  return sealEncryptedOtpBundle({ targetPublicKeyHex, otpCode: input.otpCode, publicKeyHex });
}

function safeSigner(bundle: string): string {
  try {
    return JSON.stringify(parseEnclaveBundle(bundle).enclaveQuorumPublic);
  } catch {
    return '(unreadable)';
  }
}

/**
 * The client's private key for decryption: a {@link DecryptionKey}, a 32-byte scalar in hex, or an ECDH `CryptoKey`
 * (extractable, or paired with its public key as `{ privateKey, publicKeyUncompressedHex }`).
 */
export type ClientPrivateKey = DecryptionKey | string | CryptoKey | { privateKey: CryptoKey; publicKeyUncompressedHex: string };

async function resolve(key: ClientPrivateKey): Promise<{ privateKey: CryptoKey | string; publicKeyHex?: string }> {
  if (typeof key === 'string') return { privateKey: key };
  if (key instanceof DecryptionKey || 'publicKeyUncompressedHex' in key) return { privateKey: key.privateKey, publicKeyHex: key.publicKeyUncompressedHex };
  return { privateKey: key, publicKeyHex: await exportP256PublicKey(key) };
}

/**
 * Decrypts `encryptedSessionSigningKey` (legacy flow: base58check of compressed enc ‖ HPKE ciphertext) with the key whose
 * uncompressed public key was sent as `clientPublicKey`; returns the 32-byte session private key as lowercase hex (pass
 * it to {@link SessionKey.fromPrivateKeyHex}). Throws a {@link WalletCryptoError}: `CHECKSUM`, `DECRYPTION_FAILED`, `MALFORMED`.
 */
export async function decryptSessionSigningKey(bundle: string, clientPrivateKey: ClientPrivateKey): Promise<string> {
  const { privateKey, publicKeyHex } = await resolve(clientPrivateKey);
  return openSessionSigningKey(bundle, privateKey, publicKeyHex ? { clientPublicKeyHex: publicKeyHex } : {});
}

/**
 * Verifies an export bundle (`encryptedWalletCredentials`) against the pinned enclave key, then decrypts it with the export
 * key and returns the BIP-39 mnemonic. Pass `organizationId` to also require the bundle's organization. Throws a
 * {@link WalletCryptoError}: `UNTRUSTED_SIGNER`, `SIGNATURE_INVALID`, `DECRYPTION_FAILED`, `MALFORMED`.
 */
export async function decryptExportBundle(
  bundle: string,
  clientPrivateKey: ClientPrivateKey,
  pinnedEnclaveKey: string,
  options: { organizationId?: string } = {},
): Promise<string> {
  const { privateKey, publicKeyHex } = await resolve(clientPrivateKey);
  const opened = await openExportBundle(bundle, privateKey, {
    pinnedEnclaveKeyHex: pinnedEnclaveKey,
    ...(options.organizationId !== undefined ? { organizationId: options.organizationId } : {}),
    ...(publicKeyHex ? { clientPublicKeyHex: publicKeyHex } : {}),
  });
  return opened.mnemonic;
}
