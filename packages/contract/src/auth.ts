import { z } from 'zod';
import { Timestamp, resourceId } from './common.js';
import { InternalAccountId } from './accounts.js';

// Embedded-wallet authentication (SPEC §2.5, §4.2; REFERENCE §6, §7). Schemas only; the endpoints come later.

/** Header carrying the wallet stamp of a signed retry. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** Header carrying the single-use `requestId` of a signed retry. */
export const REQUEST_ID_HEADER = 'Request-Id';
/** The only stamp scheme (REFERENCE §7). */
export const WALLET_STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** Lifetime of a signed-retry challenge (SPEC §8: typically 5 minutes). */
export const SIGNED_RETRY_TTL_MS = 5 * 60 * 1000;
/** Default session lifetime (REFERENCE §6). */
export const SESSION_TTL_MS = 15 * 60 * 1000;

/** Credential kinds. */
export const AuthMethodType = z.enum(['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP']).meta({ id: 'AuthMethodType' });
export type AuthMethodType = z.infer<typeof AuthMethodType>;

const hex = (what: string) => z.string().regex(/^[0-9a-fA-F]+$/, { message: `must be ${what} in hex` });
const base64url = (what: string) => z.string().min(1).regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: `must be ${what} in base64url` });

/** A P-256 public key in hex: compressed (`02`/`03` + X, recommended) or uncompressed (`04` + X + Y, legacy). */
export const ClientPublicKey = z
  .string()
  .regex(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, { message: 'must be a P-256 public key in hex (compressed 66 or uncompressed 130 characters)' })
  .meta({ id: 'ClientPublicKey' });
/** An uncompressed P-256 public key in hex, as wallet export requires. */
export const UncompressedPublicKey = z
  .string()
  .regex(/^04[0-9a-fA-F]{128}$/, { message: 'must be an uncompressed P-256 public key in hex (04 + 128 characters)' });

/** Passkey labels: 1–100 letters, digits, spaces and `. _ - ' ( )`, trimmed (REFERENCE §6). */
export const PasskeyNickname = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\p{L}\p{N} ._\-'()]+$/u, { message: "may contain only letters, digits, spaces and . _ - ' ( )" });

export const RequestId = resourceId('Request').meta({ id: 'RequestId' });

// ---------------------------------------------------------------------------------------------------------------------
// Resources

/** A credential of an internal account (embedded wallet). */
export const AuthMethod = z
  .object({
    id: resourceId('AuthMethod'),
    accountId: InternalAccountId,
    type: AuthMethodType,
    /** Email, E.164 phone, OIDC email claim or passkey label. */
    nickname: z.string(),
    /** PASSKEY only: the WebAuthn rawId, base64url. */
    credentialId: z.string().optional(),
    /** On OTP responses that start or reissue a code: the serialized enclave target bundle. */
    otpEncryptionTargetBundle: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'AuthMethod' });
export type AuthMethod = z.infer<typeof AuthMethod>;

/** A verified credential's session. `encryptedSessionSigningKey` appears only in the legacy (uncompressed key) flow. */
export const AuthSession = z
  .object({
    id: resourceId('Session'),
    accountId: InternalAccountId,
    type: AuthMethodType,
    nickname: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    expiresAt: Timestamp,
    encryptedSessionSigningKey: z.string().optional(),
  })
  .meta({ id: 'AuthSession' });
export type AuthSession = z.infer<typeof AuthSession>;

/** 202 of a signed-action first leg: stamp `payloadToSign` byte for byte and retry with it and `requestId`. */
export const SignedRetryChallenge = z
  .object({
    /** Present on `/auth/*` endpoints only. */
    type: AuthMethodType.optional(),
    payloadToSign: z.string(),
    requestId: RequestId,
    expiresAt: Timestamp,
  })
  .meta({ id: 'SignedRetryChallenge' });
export type SignedRetryChallenge = z.infer<typeof SignedRetryChallenge>;

/** 200 of a PASSKEY `/challenge`: the credential plus the WebAuthn challenge (lowercase hex, used as UTF-8 text). */
export const PasskeyAuthChallenge = AuthMethod.extend({
  credentialId: z.string(),
  challenge: z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be 64 lowercase hex characters' }),
  requestId: RequestId,
  expiresAt: Timestamp,
}).meta({ id: 'PasskeyAuthChallenge' });
export type PasskeyAuthChallenge = z.infer<typeof PasskeyAuthChallenge>;

/** 200 of a signed retry that was accepted but has not settled: re-send the identical request with backoff. */
export const WalletOperationProcessing = z
  .object({ status: z.literal('PROCESSING'), message: z.string() })
  .meta({ id: 'WalletOperationProcessing' });
export type WalletOperationProcessing = z.infer<typeof WalletOperationProcessing>;

/** 200 of a wallet export: HPKE-sealed mnemonic, never stored by the service. */
export const WalletExport = z
  .object({ id: InternalAccountId, encryptedWalletCredentials: z.string() })
  .meta({ id: 'WalletExport' });
export type WalletExport = z.infer<typeof WalletExport>;

// ---------------------------------------------------------------------------------------------------------------------
// WebAuthn payloads (SPEC §2.5): binary fields travel base64url; the field is `clientDataJson`.

export const WebAuthnTransport = z.enum(['usb', 'nfc', 'ble', 'internal', 'hybrid']);

/** Registration result of `navigator.credentials.create`. */
export const PasskeyAttestation = z
  .strictObject({
    credentialId: base64url('the credential rawId'),
    clientDataJson: base64url('clientDataJSON'),
    attestationObject: base64url('the attestation object'),
    transports: z.array(WebAuthnTransport).optional(),
  })
  .meta({ id: 'PasskeyAttestation' });

/** Assertion of `navigator.credentials.get` (credential verify and SCA). */
export const PasskeyAssertion = z
  .strictObject({
    credentialId: base64url('the credential rawId'),
    clientDataJson: base64url('clientDataJSON'),
    authenticatorData: base64url('authenticatorData'),
    signature: z.string().min(1),
    userHandle: z.string().optional(),
  })
  .meta({ id: 'PasskeyAssertion' });
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

// ---------------------------------------------------------------------------------------------------------------------
// Requests

const accountId = { accountId: InternalAccountId };
/** A JWT-shaped OIDC id token (three dot-separated base64url parts). */
const OidcToken = z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, { message: 'must be a JWT' });

/** `POST /auth/credentials`: OTP types need only `type` and `accountId`. */
export const AuthCredentialCreateRequest = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('EMAIL_OTP'), ...accountId }),
    z.strictObject({ type: z.literal('SMS_OTP'), ...accountId }),
    z.strictObject({ type: z.literal('OAUTH'), ...accountId, oidcToken: OidcToken }),
    z.strictObject({
      type: z.literal('PASSKEY'),
      ...accountId,
      /** The registration challenge issued by the integrator's backend, base64url, single use. */
      challenge: base64url('the registration challenge'),
      attestation: PasskeyAttestation,
      nickname: PasskeyNickname,
    }),
  ])
  .meta({ id: 'AuthCredentialCreateRequest' });
export type AuthCredentialCreateRequest = z.input<typeof AuthCredentialCreateRequest>;

/** `POST /auth/credentials/{id}/challenge`: no body for OTP; PASSKEY binds `clientPublicKey` into the session payload. */
export const AuthCredentialChallengeRequest = z
  .strictObject({ clientPublicKey: ClientPublicKey.optional() })
  .meta({ id: 'AuthCredentialChallengeRequest' });
export type AuthCredentialChallengeRequest = z.input<typeof AuthCredentialChallengeRequest>;

/** `POST /auth/credentials/{id}/verify`, by credential type. */
export const AuthCredentialVerifyRequest = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('EMAIL_OTP'), encryptedOtpBundle: z.string().min(1) }),
    z.strictObject({ type: z.literal('SMS_OTP'), encryptedOtpBundle: z.string().min(1) }),
    z.strictObject({ type: z.literal('OAUTH'), oidcToken: OidcToken, clientPublicKey: ClientPublicKey }),
    z.strictObject({ type: z.literal('PASSKEY'), assertion: PasskeyAssertion }),
  ])
  .meta({ id: 'AuthCredentialVerifyRequest' });
export type AuthCredentialVerifyRequest = z.input<typeof AuthCredentialVerifyRequest>;

/** `POST /auth/sessions/{id}/refresh`: the same key on both legs. */
export const AuthSessionRefreshRequest = z.strictObject({ clientPublicKey: ClientPublicKey }).meta({ id: 'AuthSessionRefreshRequest' });

/** `POST /internal-accounts/{id}/export`: a fresh uncompressed key per export, on both legs. */
export const WalletExportRequest = z.strictObject({ clientPublicKey: UncompressedPublicKey }).meta({ id: 'WalletExportRequest' });

/** `GET /auth/credentials` and `GET /auth/sessions` query: `accountId` is required. */
export const AuthAccountQuery = z.object({ accountId: z.string() });

// ---------------------------------------------------------------------------------------------------------------------
// Serialized payloads inside strings (REFERENCE §7)

/** The `Service-Wallet-Signature` stamp before base64url encoding; keys in this order. */
export const WalletStamp = z.object({
  publicKey: z.string().regex(/^0[23][0-9a-f]{64}$/, { message: 'must be a compressed P-256 public key in lowercase hex' }),
  scheme: z.literal(WALLET_STAMP_SCHEME),
  signature: hex('a DER ECDSA signature'),
});
export type WalletStamp = z.infer<typeof WalletStamp>;

/** A signed enclave bundle (`otpEncryptionTargetBundle`, `encryptedWalletCredentials`) once JSON-parsed. */
export const SignedEnclaveBundle = z.object({
  version: z.literal('v1.0.0'),
  data: hex('the bundle data'),
  dataSignature: z.string(),
  enclaveQuorumPublic: z.string(),
});
export type SignedEnclaveBundle = z.infer<typeof SignedEnclaveBundle>;

/** `encryptedOtpBundle` once JSON-parsed: HPKE encapsulated key and ciphertext‖tag. */
export const EncryptedOtpBundle = z.object({
  encappedPublic: z.string().regex(/^04[0-9a-fA-F]{128}$/),
  ciphertext: hex('the ciphertext'),
});
export type EncryptedOtpBundle = z.infer<typeof EncryptedOtpBundle>;

/** The OTP plaintext sealed in `encryptedOtpBundle` (snake_case keys). */
export const OtpPlaintext = z.object({ otp_code: z.string().min(1), public_key: ClientPublicKey });
export type OtpPlaintext = z.infer<typeof OtpPlaintext>;
