// The serialized embedded-wallet payloads of REFERENCE §7: signed enclave bundles (OTP target bundle, export bundle),
// `encryptedOtpBundle`, the legacy `encryptedSessionSigningKey`, and the OAuth nonce.
import { base58CheckDecode, base58CheckEncode } from './base58.js';
import { bytesToHex, concatBytes, hexToBytes, sha256Hex, utf8Decode, utf8Encode } from './bytes.js';
import { WalletCryptoError } from './errors.js';
import { hpkeOpen, hpkeSeal } from './hpke.js';
import {
  type P256PrivateKeyInput,
  compressP256PublicKey,
  decompressP256PublicKey,
  importP256PrivateKey,
  isP256PrivateKeyHex,
  p256PublicKeyBytes,
  p256PublicKeyFromPrivate,
  signP256,
  verifyP256,
} from './p256.js';

/** The `version` of every signed enclave bundle. */
export const ENCLAVE_BUNDLE_VERSION = 'v1.0.0';

/** The four string fields of a signed enclave bundle (`otpEncryptionTargetBundle`, `encryptedWalletCredentials`). */
export interface EnclaveBundleFields {
  version: string;
  /** Hex of the UTF-8 JSON payload. */
  data: string;
  /** DER ECDSA P-256/SHA-256 signature (hex) over the hex-decoded `data` bytes. */
  dataSignature: string;
  /** The signer's public key, uncompressed lowercase hex. */
  enclaveQuorumPublic: string;
}

/** A verified enclave bundle: its fields plus the decoded `data` text and JSON object. */
export interface VerifiedEnclaveBundle extends EnclaveBundleFields {
  dataText: string;
  dataJson: Record<string, unknown>;
}

/** The enclave signing key: a P-256 private key (`CryptoKey` with `sign`, or scalar hex) and, for a `CryptoKey`, its public key. */
export interface EnclaveSigner {
  privateKey: P256PrivateKeyInput;
  /** Public key (either SEC1 form); derived when `privateKey` is hex and this is absent. */
  publicKeyHex?: string;
}

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new WalletCryptoError('MALFORMED', `${what} is not JSON`, { cause });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new WalletCryptoError('MALFORMED', `${what} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

function requireString(object: Record<string, unknown>, key: string, what: string): string {
  const value = object[key];
  if (typeof value !== 'string') throw new WalletCryptoError('MALFORMED', `${what}.${key} must be a string`);
  return value;
}

/** Parses a signed enclave bundle JSON string into its fields (no signature check); throws `MALFORMED`. */
export function parseEnclaveBundle(bundle: string): EnclaveBundleFields {
  if (typeof bundle !== 'string') throw new WalletCryptoError('MALFORMED', 'bundle must be a JSON string');
  const object = parseJsonObject(bundle, 'bundle');
  return {
    version: requireString(object, 'version', 'bundle'),
    data: requireString(object, 'data', 'bundle'),
    dataSignature: requireString(object, 'dataSignature', 'bundle'),
    enclaveQuorumPublic: requireString(object, 'enclaveQuorumPublic', 'bundle'),
  };
}

async function signerParts(signer: EnclaveSigner): Promise<{ key: P256PrivateKeyInput; publicKeyHex: string }> {
  if (signer.publicKeyHex) return { key: signer.privateKey, publicKeyHex: decompressP256PublicKey(signer.publicKeyHex) };
  if (typeof signer.privateKey !== 'string') throw new WalletCryptoError('MALFORMED', 'an enclave signer given as a CryptoKey needs publicKeyHex');
  const publicKeyHex = p256PublicKeyFromPrivate(signer.privateKey);
  return { key: await importP256PrivateKey(signer.privateKey, 'ECDSA', { publicKeyHex }), publicKeyHex };
}

/**
 * Signs a JSON payload into an enclave bundle string `{"version","data","dataSignature","enclaveQuorumPublic"}`:
 * `data` is the hex of the UTF-8 text (a string is used verbatim, an object is `JSON.stringify`-ed), `dataSignature` the DER
 * hex ECDSA P-256/SHA-256 signature over those bytes, `enclaveQuorumPublic` the signer key uncompressed.
 */
export async function createEnclaveBundle(payload: string | Record<string, unknown>, signer: EnclaveSigner): Promise<string> {
  const { key, publicKeyHex } = await signerParts(signer);
  const dataBytes = utf8Encode(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const dataSignature = await signP256(key, dataBytes);
  return JSON.stringify({ version: ENCLAVE_BUNDLE_VERSION, data: bytesToHex(dataBytes), dataSignature, enclaveQuorumPublic: publicKeyHex });
}

/**
 * Verifies a signed enclave bundle against the pinned enclave signing key: version `v1.0.0`, `enclaveQuorumPublic` equal to
 * `pinnedEnclaveKeyHex` character for character (else `UNTRUSTED_SIGNER`), the signature over the data bytes (else
 * `SIGNATURE_INVALID`, high-S accepted), and `data` the hex of a UTF-8 JSON object (else `MALFORMED`).
 */
export async function verifyEnclaveBundle(bundle: string, pinnedEnclaveKeyHex: string): Promise<VerifiedEnclaveBundle> {
  const fields = parseEnclaveBundle(bundle);
  if (fields.version !== ENCLAVE_BUNDLE_VERSION) throw new WalletCryptoError('MALFORMED', `unsupported bundle version ${JSON.stringify(fields.version)}`);
  if (fields.enclaveQuorumPublic !== pinnedEnclaveKeyHex) {
    throw new WalletCryptoError('UNTRUSTED_SIGNER', 'bundle enclaveQuorumPublic is not the pinned enclave signing key');
  }
  const dataBytes = hexToBytes(fields.data, 'bundle data');
  if (!(await verifyP256(fields.enclaveQuorumPublic, dataBytes, fields.dataSignature))) {
    throw new WalletCryptoError('SIGNATURE_INVALID', 'bundle dataSignature does not verify under enclaveQuorumPublic');
  }
  const dataText = utf8Decode(dataBytes, 'bundle data');
  return { ...fields, dataText, dataJson: parseJsonObject(dataText, 'bundle data') };
}

// ---------------------------------------------------------------------------------------------------------------------
// OTP target bundle and encryptedOtpBundle

/** Input of {@link createOtpTargetBundle}. */
export interface OtpTargetBundleInput {
  /** The enclave's HPKE public key for this OTP issuance (either SEC1 form; written uncompressed). */
  targetPublicKeyHex: string;
  /** The enclave signing key. */
  signer: EnclaveSigner;
  /** Written into `data` (default empty string), as the reference does. */
  organizationId?: string;
  /** Written into `data` (default empty string), as the reference does. */
  userId?: string;
}

/** Mints an `otpEncryptionTargetBundle`: data `{"targetPublic","organizationId","userId"}`, signed by the enclave key. */
export function createOtpTargetBundle(input: OtpTargetBundleInput): Promise<string> {
  const targetPublic = decompressP256PublicKey(input.targetPublicKeyHex);
  return createEnclaveBundle({ targetPublic, organizationId: input.organizationId ?? '', userId: input.userId ?? '' }, input.signer);
}

/** A verified OTP target bundle: the HPKE target key (uncompressed lowercase hex) and the whole verified bundle. */
export interface VerifiedOtpTargetBundle {
  targetPublicKeyHex: string;
  bundle: VerifiedEnclaveBundle;
}

/**
 * Verifies an `otpEncryptionTargetBundle` against the pinned enclave signing key (see {@link verifyEnclaveBundle}) and
 * returns its `targetPublic` (uncompressed); throws `MALFORMED` when `targetPublic` is missing or not a P-256 key.
 */
export async function verifyOtpTargetBundle(bundle: string, pinnedEnclaveKeyHex: string): Promise<VerifiedOtpTargetBundle> {
  const verified = await verifyEnclaveBundle(bundle, pinnedEnclaveKeyHex);
  const target = verified.dataJson.targetPublic;
  if (typeof target !== 'string') throw new WalletCryptoError('MALFORMED', 'bundle data has no targetPublic');
  return { targetPublicKeyHex: decompressP256PublicKey(target), bundle: verified };
}

/** Input of {@link sealEncryptedOtpBundle}. */
export interface EncryptedOtpBundleInput {
  /** The bundle's `targetPublic` (verify the target bundle first: {@link verifyOtpTargetBundle}). */
  targetPublicKeyHex: string;
  /** The code the user received. */
  otpCode: string;
  /** The client's TEK public key, sent as given (the reference tooling sends the uncompressed form; compressed works too). */
  publicKeyHex: string;
}

/**
 * Builds `encryptedOtpBundle`: HPKE-seals the UTF-8 JSON `{"otp_code","public_key"}` to `targetPublicKeyHex` and returns
 * the JSON string `{"encappedPublic": uncompressed hex, "ciphertext": hex ct‖tag}`.
 */
export async function sealEncryptedOtpBundle(input: EncryptedOtpBundleInput): Promise<string> {
  if (typeof input.otpCode !== 'string' || input.otpCode.length === 0) throw new WalletCryptoError('MALFORMED', 'otpCode must be a non-empty string');
  p256PublicKeyBytes(input.publicKeyHex);
  const plaintext = JSON.stringify({ otp_code: input.otpCode, public_key: input.publicKeyHex });
  const sealed = await hpkeSeal(input.targetPublicKeyHex, plaintext);
  return JSON.stringify({ encappedPublic: sealed.encappedPublicHex, ciphertext: sealed.ciphertextHex });
}

/** An opened `encryptedOtpBundle`. */
export interface OpenedOtpBundle {
  /** The exact decrypted text. */
  plaintext: string;
  otpCode: string;
  /** `public_key` exactly as the client sent it (compressed or uncompressed). */
  publicKey: string;
  /** The same key, compressed lowercase hex (the session key form used in stamps). */
  publicKeyCompressedHex: string;
}

/**
 * Opens an `encryptedOtpBundle` with the target private key (ECDH `CryptoKey` or scalar hex; pass `targetPublicKeyHex` to
 * skip deriving it). Throws `MALFORMED` for a bad bundle or plaintext, `DECRYPTION_FAILED` when HPKE authentication fails.
 */
export async function openEncryptedOtpBundle(
  encryptedOtpBundle: string,
  targetPrivateKey: P256PrivateKeyInput,
  options: { targetPublicKeyHex?: string } = {},
): Promise<OpenedOtpBundle> {
  if (typeof encryptedOtpBundle !== 'string') throw new WalletCryptoError('MALFORMED', 'encryptedOtpBundle must be a JSON string');
  const object = parseJsonObject(encryptedOtpBundle, 'encryptedOtpBundle');
  const encappedPublic = requireString(object, 'encappedPublic', 'encryptedOtpBundle');
  const ciphertext = requireString(object, 'ciphertext', 'encryptedOtpBundle');
  const bytes = await hpkeOpen(targetPrivateKey, encappedPublic, ciphertext, options.targetPublicKeyHex ? { recipientPublicKeyHex: options.targetPublicKeyHex } : {});
  const plaintext = utf8Decode(bytes, 'OTP plaintext');
  const body = parseJsonObject(plaintext, 'OTP plaintext');
  const otpCode = requireString(body, 'otp_code', 'OTP plaintext');
  const publicKey = requireString(body, 'public_key', 'OTP plaintext');
  return { plaintext, otpCode, publicKey, publicKeyCompressedHex: compressP256PublicKey(publicKey) };
}

// ---------------------------------------------------------------------------------------------------------------------
// encryptedSessionSigningKey (legacy flow)

/**
 * Seals a session private key (32-byte scalar hex) to the client's public key (either form): HPKE with the reference info
 * and AAD, then base58check of `compressed enc (33 B) ‖ ct‖tag`.
 */
export async function sealSessionSigningKey(clientPublicKeyHex: string, sessionPrivateKeyHex: string): Promise<string> {
  if (!isP256PrivateKeyHex(sessionPrivateKeyHex)) throw new WalletCryptoError('MALFORMED', 'session private key must be a 32-byte P-256 scalar in hex');
  const sealed = await hpkeSeal(clientPublicKeyHex, hexToBytes(sessionPrivateKeyHex));
  return base58CheckEncode(concatBytes(hexToBytes(compressP256PublicKey(sealed.encappedPublicHex)), hexToBytes(sealed.ciphertextHex)));
}

/**
 * Opens an `encryptedSessionSigningKey` with the client private key (ECDH `CryptoKey` or scalar hex) and returns the
 * session private key as 64 lowercase hex. Throws `CHECKSUM` (base58check), `MALFORMED` or `DECRYPTION_FAILED`.
 */
export async function openSessionSigningKey(
  encryptedSessionSigningKey: string,
  clientPrivateKey: P256PrivateKeyInput,
  options: { clientPublicKeyHex?: string } = {},
): Promise<string> {
  const bytes = await base58CheckDecode(encryptedSessionSigningKey);
  if (bytes.length < 33 + 16) throw new WalletCryptoError('MALFORMED', 'encryptedSessionSigningKey is too short');
  const encHex = bytesToHex(bytes.subarray(0, 33));
  const plaintext = await hpkeOpen(clientPrivateKey, encHex, bytes.subarray(33), options.clientPublicKeyHex ? { recipientPublicKeyHex: options.clientPublicKeyHex } : {});
  const keyHex = bytesToHex(plaintext);
  if (!isP256PrivateKeyHex(keyHex)) throw new WalletCryptoError('MALFORMED', 'decrypted session key is not a 32-byte P-256 scalar');
  return keyHex;
}

// ---------------------------------------------------------------------------------------------------------------------
// Export bundle (encryptedWalletCredentials)

/** Input of {@link sealExportBundle}. */
export interface ExportBundleInput {
  /** The client's fresh export key (uncompressed in requests; either form accepted here). */
  clientPublicKeyHex: string;
  /** The BIP-39 mnemonic to seal. */
  mnemonic: string;
  /** Written into `data`; a client may check it. */
  organizationId: string;
  /** The enclave signing key (the same key that signs OTP target bundles). */
  signer: EnclaveSigner;
}

/**
 * Builds `encryptedWalletCredentials`: HPKE-seals the mnemonic to the client key, then signs the data
 * `{"encappedPublic","ciphertext","organizationId"}` into an enclave bundle.
 */
export async function sealExportBundle(input: ExportBundleInput): Promise<string> {
  const sealed = await hpkeSeal(input.clientPublicKeyHex, input.mnemonic);
  return createEnclaveBundle({ encappedPublic: sealed.encappedPublicHex, ciphertext: sealed.ciphertextHex, organizationId: input.organizationId }, input.signer);
}

/** Options of {@link openExportBundle}. */
export interface OpenExportBundleOptions {
  /** The enclave signing key the client trusts (uncompressed hex, compared character for character). */
  pinnedEnclaveKeyHex: string;
  /** When given, `data.organizationId` must equal it (else `MALFORMED`). */
  organizationId?: string;
  /** The client public key, to skip deriving it (or required with a non-extractable `CryptoKey`). */
  clientPublicKeyHex?: string;
}

/** An opened export bundle. */
export interface OpenedExportBundle {
  mnemonic: string;
  organizationId: string;
}

/**
 * Verifies an `encryptedWalletCredentials` bundle against the pinned enclave key, then opens its HPKE payload with the
 * client private key and returns the mnemonic. Throws `UNTRUSTED_SIGNER`, `SIGNATURE_INVALID`, `MALFORMED` or `DECRYPTION_FAILED`.
 */
export async function openExportBundle(bundle: string, clientPrivateKey: P256PrivateKeyInput, options: OpenExportBundleOptions): Promise<OpenedExportBundle> {
  const verified = await verifyEnclaveBundle(bundle, options.pinnedEnclaveKeyHex);
  const encappedPublic = requireString(verified.dataJson, 'encappedPublic', 'export data');
  const ciphertext = requireString(verified.dataJson, 'ciphertext', 'export data');
  const organizationId = typeof verified.dataJson.organizationId === 'string' ? verified.dataJson.organizationId : '';
  if (options.organizationId !== undefined && options.organizationId !== organizationId) {
    throw new WalletCryptoError('MALFORMED', 'export bundle organizationId does not match');
  }
  const plaintext = await hpkeOpen(clientPrivateKey, encappedPublic, ciphertext, options.clientPublicKeyHex ? { recipientPublicKeyHex: options.clientPublicKeyHex } : {});
  return { mnemonic: utf8Decode(plaintext, 'mnemonic'), organizationId };
}

// ---------------------------------------------------------------------------------------------------------------------
// OAuth nonce

/** The OAuth nonce bound to a `clientPublicKey`: lowercase hex SHA-256 of its UTF-8 text exactly as sent (never normalized). */
export function computeOauthNonce(clientPublicKey: string): Promise<string> {
  return sha256Hex(clientPublicKey);
}

/** True when `nonce` is exactly {@link computeOauthNonce} of `clientPublicKey`. */
export async function oauthNonceMatches(nonce: unknown, clientPublicKey: string): Promise<boolean> {
  return typeof nonce === 'string' && nonce === (await computeOauthNonce(clientPublicKey));
}
