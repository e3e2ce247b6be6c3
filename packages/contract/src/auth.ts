import { z } from 'zod';
import { IdParam, MAX_LENGTH, Timestamp, cappedString, resourceId } from './common.js';
import { InternalAccount, InternalAccountId, InternalAccountUpdateRequest } from './accounts.js';
import { defineEndpoint } from './endpoint.js';
import { isP256PublicKeyHex } from './wallet-crypto/p256.js';
import { WALLET_STAMP_SCHEME } from './wallet-crypto/stamp.js';
import { AuthMethodType, RequestId, SignedRetryChallenge, signedLegs, WalletOperationProcessing } from './signed-retry.js';

export {
  AuthMethodType, REQUEST_ID_HEADER, RequestId, SIGNED_RETRY_TTL_MS, SignedRetryChallenge, WALLET_SIGNATURE_HEADER, WalletOperationProcessing,
} from './signed-retry.js';

// Embedded-wallet authentication (SPEC §2.5, §4.2; REFERENCE §6, §7): schemas and endpoints.

// The stamp scheme lives with the zod-free stamp codec (the wallet imports it from there); re-exported here as before.
export { WALLET_STAMP_SCHEME };

/** Default session lifetime. */
export const SESSION_TTL_MS = 15 * 60 * 1000;


const hex = (what: string) => cappedString(MAX_LENGTH.encoded).regex(/^[0-9a-fA-F]+$/, { message: `must be ${what} in hex` });
const base64url = (what: string) => cappedString(MAX_LENGTH.encoded).min(1).regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: `must be ${what} in base64url` });

/** A P-256 public key in hex: compressed (`02`/`03` + X, recommended) or uncompressed (`04` + X + Y, legacy). */
export const ClientPublicKey = cappedString(MAX_LENGTH.id)
  .regex(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, { message: 'must be a P-256 public key in hex (compressed 66 or uncompressed 130 characters)' })
  .refine((hex) => !/^0[234]/.test(hex) || !/^[0-9a-fA-F]+$/.test(hex) || isP256PublicKeyHex(hex.toLowerCase()), { message: 'is not a point on the P-256 curve' })
  .meta({ id: 'ClientPublicKey' });
/** An uncompressed P-256 public key in hex, as wallet export requires. */
export const UncompressedPublicKey = cappedString(MAX_LENGTH.id)
  .regex(/^04[0-9a-fA-F]{128}$/, { message: 'must be an uncompressed P-256 public key in hex (04 + 128 characters)' })
  .refine((hex) => !/^04[0-9a-fA-F]{128}$/.test(hex) || isP256PublicKeyHex(hex.toLowerCase()), { message: 'is not a point on the P-256 curve' });

/** Passkey labels: 1–100 letters, digits, spaces and `. _ - ' ( )`, trimmed. */
export const PasskeyNickname = cappedString(MAX_LENGTH.name)
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\p{L}\p{N} ._\-'()]+$/u, { message: "may contain only letters, digits, spaces and . _ - ' ( )" });


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


/** 200 of a PASSKEY `/challenge`: the credential plus the WebAuthn challenge (lowercase hex, used as UTF-8 text). */
export const PasskeyAuthChallenge = AuthMethod.extend({
  credentialId: z.string(),
  challenge: z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be 64 lowercase hex characters' }),
  requestId: RequestId,
  expiresAt: Timestamp,
}).meta({ id: 'PasskeyAuthChallenge' });
export type PasskeyAuthChallenge = z.infer<typeof PasskeyAuthChallenge>;


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
  .object({
    credentialId: base64url('the credential rawId'),
    clientDataJson: base64url('clientDataJSON'),
    attestationObject: base64url('the attestation object'),
    transports: z.array(WebAuthnTransport).optional(),
  })
  .meta({ id: 'PasskeyAttestation' });

/** Assertion of `navigator.credentials.get` (credential verify and SCA). */
export const PasskeyAssertion = z
  .object({
    credentialId: base64url('the credential rawId'),
    clientDataJson: base64url('clientDataJSON'),
    authenticatorData: base64url('authenticatorData'),
    signature: cappedString(MAX_LENGTH.encoded).min(1),
    userHandle: cappedString(MAX_LENGTH.encoded).optional(),
  })
  .meta({ id: 'PasskeyAssertion' });
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

// ---------------------------------------------------------------------------------------------------------------------
// Requests

const accountId = { accountId: InternalAccountId };
/** A JWT-shaped OIDC id token (three dot-separated base64url parts). */
const OidcToken = cappedString(MAX_LENGTH.encoded).regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, { message: 'must be a JWT' });

/** `POST /auth/credentials`: OTP types need only `type` and `accountId`. */
export const AuthCredentialCreateRequest = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('EMAIL_OTP'), ...accountId }),
    z.object({ type: z.literal('SMS_OTP'), ...accountId }),
    z.object({ type: z.literal('OAUTH'), ...accountId, oidcToken: OidcToken }),
    z.object({
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
  .object({ clientPublicKey: ClientPublicKey.optional() })
  .meta({ id: 'AuthCredentialChallengeRequest' });
export type AuthCredentialChallengeRequest = z.input<typeof AuthCredentialChallengeRequest>;

/** `POST /auth/credentials/{id}/verify`, by credential type. */
export const AuthCredentialVerifyRequest = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('EMAIL_OTP'), encryptedOtpBundle: cappedString(MAX_LENGTH.encoded).min(1) }),
    z.object({ type: z.literal('SMS_OTP'), encryptedOtpBundle: cappedString(MAX_LENGTH.encoded).min(1) }),
    z.object({ type: z.literal('OAUTH'), oidcToken: OidcToken, clientPublicKey: ClientPublicKey }),
    z.object({ type: z.literal('PASSKEY'), assertion: PasskeyAssertion }),
  ])
  .meta({ id: 'AuthCredentialVerifyRequest' });
export type AuthCredentialVerifyRequest = z.input<typeof AuthCredentialVerifyRequest>;

/** `POST /auth/sessions/{id}/refresh`: the same key on both legs. */
export const AuthSessionRefreshRequest = z.object({ clientPublicKey: ClientPublicKey }).meta({ id: 'AuthSessionRefreshRequest' });

/** `POST /internal-accounts/{id}/export`: a fresh uncompressed key per export, on both legs. */
export const WalletExportRequest = z.object({ clientPublicKey: UncompressedPublicKey }).meta({ id: 'WalletExportRequest' });

/** `GET /auth/credentials` and `GET /auth/sessions` query: `accountId` is required. */
export const AuthAccountQuery = z.object({ accountId: IdParam });

// ---------------------------------------------------------------------------------------------------------------------
// Serialized payloads inside strings (REFERENCE §7)

/** The `Service-Wallet-Signature` stamp before base64url encoding; keys in this order. */
export const WalletStamp = z.object({
  publicKey: cappedString(MAX_LENGTH.id).regex(/^0[23][0-9a-f]{64}$/, { message: 'must be a compressed P-256 public key in lowercase hex' }),
  scheme: z.literal(WALLET_STAMP_SCHEME),
  signature: hex('a DER ECDSA signature'),
});
export type WalletStamp = z.infer<typeof WalletStamp>;

/** A signed enclave bundle (`otpEncryptionTargetBundle`, `encryptedWalletCredentials`) once JSON-parsed. */
export const SignedEnclaveBundle = z.object({
  version: z.literal('v1.0.0'),
  data: hex('the bundle data'),
  dataSignature: cappedString(MAX_LENGTH.encoded),
  enclaveQuorumPublic: cappedString(MAX_LENGTH.encoded),
});
export type SignedEnclaveBundle = z.infer<typeof SignedEnclaveBundle>;

/** `encryptedOtpBundle` once JSON-parsed: HPKE encapsulated key and ciphertext‖tag. */
export const EncryptedOtpBundle = z.object({
  encappedPublic: cappedString(MAX_LENGTH.id).regex(/^04[0-9a-fA-F]{128}$/),
  ciphertext: hex('the ciphertext'),
});
export type EncryptedOtpBundle = z.infer<typeof EncryptedOtpBundle>;

/** The OTP plaintext sealed in `encryptedOtpBundle` (snake_case keys). */
export const OtpPlaintext = z.object({ otp_code: cappedString(MAX_LENGTH.id).min(1), public_key: ClientPublicKey });
export type OtpPlaintext = z.infer<typeof OtpPlaintext>;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints. Signed operations answer their first leg with 202 SignedRetryChallenge; the retry carries the
// `Service-Wallet-Signature` and `Request-Id` headers and gets the success response below (or 200 PROCESSING).

const tag = 'Embedded wallet authentication';
const credentialParams = z.object({ credentialId: IdParam });
const sessionParams = z.object({ sessionId: IdParam });
const accountParams = z.object({ accountId: IdParam });
const signed = (what: string) =>
  `${what} First leg: 202 with payloadToSign, requestId and expiresAt (5 minutes). Retry the identical request with ` +
  '`Service-Wallet-Signature` (the stamp of payloadToSign by an active session of the account) and `Request-Id`. ' +
  'Missing, malformed or wrong signatures: 401 WALLET_SIGNATURE_*; a used or unknown Request-Id: 401.';

export const authEndpoints = {
  createAuthCredential: defineEndpoint({
    operationId: 'createAuthCredential', method: 'POST', path: '/auth/credentials', tag, body: AuthCredentialCreateRequest,
    summary: 'Add a credential (passkey, OAuth, email or SMS code) to an embedded wallet',
    description: signed('The account already has a credential, so adding one is a signed action.') +
      ' One EMAIL_OTP and one SMS_OTP per account (400 *_CREDENTIAL_ALREADY_EXISTS); the same passkey twice: 400 PASSKEY_CREDENTIAL_ALREADY_EXISTS.',
    alsoResponds: signedLegs,
    response: { status: 201, description: 'The credential', schema: AuthMethod },
    errors: [401, 409],
  }),
  listAuthCredentials: defineEndpoint({
    operationId: 'listAuthCredentials', method: 'GET', path: '/auth/credentials', tag, query: AuthAccountQuery,
    summary: "An embedded wallet's credentials (not paged)",
    response: { status: 200, description: 'The credentials', schema: z.object({ data: z.array(AuthMethod) }) },
  }),
  challengeAuthCredential: defineEndpoint({
    operationId: 'challengeAuthCredential', method: 'POST', path: '/auth/credentials/{credentialId}/challenge', tag,
    params: credentialParams, body: AuthCredentialChallengeRequest, bodyOptional: true,
    summary: 'Start signing in with a credential: a one-time code (OTP) or a WebAuthn challenge (passkey)',
    description:
      'EMAIL_OTP / SMS_OTP: the credential with a fresh `otpEncryptionTargetBundle` (sandbox code 000000); re-issues are rate ' +
      'limited (429 with Retry-After). PASSKEY: `clientPublicKey` is bound into the session; returns the hex `challenge` and `requestId`.',
    response: { status: 200, description: 'The challenge', schema: z.union([PasskeyAuthChallenge, AuthMethod]) },
    errors: [429],
  }),
  verifyAuthCredential: defineEndpoint({
    operationId: 'verifyAuthCredential', method: 'POST', path: '/auth/credentials/{credentialId}/verify', tag,
    params: credentialParams, body: AuthCredentialVerifyRequest,
    summary: 'Finish signing in: a session',
    description:
      'OTP: the encrypted code; 202 signed retry stamped with the client key (the TEK), then the session. OAUTH: the OIDC token ' +
      'and clientPublicKey. PASSKEY: the assertion with the challenge\'s `Request-Id` header. A wrong code or failed check: 401.',
    alsoResponds: [signedLegs[0]],
    response: { status: 200, description: 'The session', schema: AuthSession },
    errors: [401, 429], secrets: { response: ['encryptedSessionSigningKey'] },
  }),
  deleteAuthCredential: defineEndpoint({
    operationId: 'deleteAuthCredential', method: 'DELETE', path: '/auth/credentials/{credentialId}', tag, params: credentialParams,
    summary: 'Remove a credential',
    description: signed('Signed by a session of another credential of the same account.') + ' The only credential: 400.',
    alsoResponds: signedLegs,
    response: { status: 204, description: 'Removed' },
    errors: [401],
  }),
  listAuthSessions: defineEndpoint({
    operationId: 'listAuthSessions', method: 'GET', path: '/auth/sessions', tag, query: AuthAccountQuery,
    summary: "An embedded wallet's active sessions (not paged, never key material)",
    response: { status: 200, description: 'The sessions', schema: z.object({ data: z.array(AuthSession) }) },
  }),
  deleteAuthSession: defineEndpoint({
    operationId: 'deleteAuthSession', method: 'DELETE', path: '/auth/sessions/{sessionId}', tag, params: sessionParams,
    summary: 'Revoke a session', description: signed('A session may sign its own revocation.'),
    alsoResponds: signedLegs,
    response: { status: 204, description: 'Revoked' },
    errors: [401],
  }),
  refreshAuthSession: defineEndpoint({
    operationId: 'refreshAuthSession', method: 'POST', path: '/auth/sessions/{sessionId}/refresh', tag, params: sessionParams,
    body: AuthSessionRefreshRequest,
    summary: 'A new session for the same credential', description: signed('The same clientPublicKey on both legs.'),
    alsoResponds: signedLegs,
    response: { status: 201, description: 'The new session', schema: AuthSession },
    errors: [401], secrets: { response: ['encryptedSessionSigningKey'] },
  }),
  exportWallet: defineEndpoint({
    operationId: 'exportWallet', method: 'POST', path: '/internal-accounts/{accountId}/export', tag, params: accountParams, body: WalletExportRequest,
    summary: 'Export the wallet credentials, sealed to a fresh client key (never stored by the service)',
    description: signed('A fresh uncompressed clientPublicKey, the same on both legs.'),
    alsoResponds: signedLegs,
    response: { status: 200, description: 'The sealed credentials', schema: WalletExport },
    errors: [401], secrets: { once: ['encryptedWalletCredentials'] },
  }),
  updateInternalAccount: defineEndpoint({
    operationId: 'updateInternalAccount', method: 'PATCH', path: '/internal-accounts/{accountId}', tag, params: accountParams,
    body: InternalAccountUpdateRequest,
    summary: "Change an embedded wallet's privacy", description: signed('Embedded wallets only.'),
    alsoResponds: signedLegs,
    response: { status: 200, description: 'The account', schema: InternalAccount },
    errors: [401],
  }),
} as const;
