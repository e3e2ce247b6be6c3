import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type {
  AttestationConveyancePreference,
  AuthenticationResponseJSON,
  AuthenticatorSelectionCriteria,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  UserVerificationRequirement,
} from '@simplewebauthn/browser';
import { base64UrlEncode, utf8Encode } from '@railyard/contract/wallet-crypto';

/**
 * What runs the WebAuthn ceremonies: `@simplewebauthn/browser` by default (`navigator.credentials`), or a
 * {@link SoftwarePasskeyAuthenticator} in Node tests. Same shapes as `@simplewebauthn/browser`'s functions.
 */
export interface WebAuthnDriver {
  /** Runs `navigator.credentials.create` for the options and returns the JSON-serialized registration. */
  startRegistration(options: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }): Promise<RegistrationResponseJSON>;
  /** Runs `navigator.credentials.get` for the options and returns the JSON-serialized assertion. */
  startAuthentication(options: { optionsJSON: PublicKeyCredentialRequestOptionsJSON }): Promise<AuthenticationResponseJSON>;
}

/** The browser driver: `@simplewebauthn/browser`. */
export const browserWebAuthn: WebAuthnDriver = { startRegistration, startAuthentication };

/** Transports the API accepts; others a browser may report are dropped. */
const API_TRANSPORTS = new Set(['usb', 'nfc', 'ble', 'internal', 'hybrid']);
/** A transport value the API accepts. */
export type PasskeyTransport = 'usb' | 'nfc' | 'ble' | 'internal' | 'hybrid';

/** Input of {@link registerPasskey}. */
export interface RegisterPasskeyInput {
  /** The internal account (embedded wallet) the passkey is added to. */
  accountId: string;
  /** The passkey label (1–100 letters, digits, spaces and `. _ - ' ( )`). */
  nickname: string;
  /**
   * The registration challenge issued by your own backend, base64url. It is the WebAuthn challenge and is sent again as the
   * request's top-level `challenge`.
   */
  challenge: string;
  /** The relying party: `id` defaults to the page's host (WebAuthn default). */
  rp: { id?: string; name: string };
  /** The WebAuthn user: `id` is base64url (the user handle). */
  user: { id: string; name: string; displayName?: string };
  /** Credential ids (base64url) already registered, so the authenticator refuses to create a duplicate. */
  excludeCredentialIds?: string[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  attestation?: AttestationConveyancePreference;
  timeout?: number;
}

/** The `attestation` object of `POST /auth/credentials` (the API's field names; binary fields base64url). */
export interface PasskeyAttestationBody {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: PasskeyTransport[];
}

/** The PASSKEY body of `POST /auth/credentials`. */
export interface PasskeyCredentialCreateBody {
  type: 'PASSKEY';
  accountId: string;
  nickname: string;
  challenge: string;
  attestation: PasskeyAttestationBody;
}

/** Maps a WebAuthn registration (as `@simplewebauthn/browser` returns it) to the API's `attestation` object. */
export function toPasskeyAttestation(registration: RegistrationResponseJSON): PasskeyAttestationBody {
  const transports = (registration.response.transports ?? []).filter((t): t is PasskeyTransport => API_TRANSPORTS.has(t));
  return {
    credentialId: registration.rawId,
    clientDataJson: registration.response.clientDataJSON,
    attestationObject: registration.response.attestationObject,
    ...(transports.length ? { transports } : {}),
  };
}

/**
 * Creates a passkey (ES256) with the platform authenticator and returns the body for `POST /auth/credentials`
 * (`{type: 'PASSKEY', accountId, nickname, challenge, attestation}`). The account already has a credential, so that call
 * answers 202: stamp its `payloadToSign` with an active session and retry (see {@link signedRetryHeaders}).
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { assertPasskey, registerPasskey, SoftwarePasskeyAuthenticator } from '@railyard/wallet';
 *
 * // In a browser the platform authenticator answers; in Node tests, a software one (omit `webauthn` in a browser).
 * const authenticator = new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example.test' });
 * const body = await registerPasskey({
 *   accountId: 'InternalAccount:0198a7c0-0000-7000-8000-000000000001', nickname: 'My laptop',
 *   challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',                  // from your backend, base64url
 *   rp: { id: 'wallet.example.test', name: 'Example Wallet' },
 *   user: { id: 'dXNlci00Mg', name: 'ada@example.com' },
 * }, { webauthn: authenticator });
 * assert.equal(body.type, 'PASSKEY');                               // POST it to /auth/credentials
 *
 * const assertion = await assertPasskey(
 *   { challenge: '9f86d081884c7d65', credentialId: body.attestation.credentialId, rpId: 'wallet.example.test' },
 *   { webauthn: authenticator },
 * );
 * assert.equal(assertion.type, 'PASSKEY');                          // the body of /auth/credentials/{id}/verify (challenge: its hex)
 * ```
 */
export async function registerPasskey(input: RegisterPasskeyInput, options: { webauthn?: WebAuthnDriver } = {}): Promise<PasskeyCredentialCreateBody> {
  const optionsJSON: PublicKeyCredentialCreationOptionsJSON = {
    rp: input.rp,
    user: { id: input.user.id, name: input.user.name, displayName: input.user.displayName ?? input.user.name },
    challenge: input.challenge,
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    authenticatorSelection: input.authenticatorSelection ?? { residentKey: 'preferred', userVerification: 'preferred' },
    attestation: input.attestation ?? 'none',
    ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
    ...(input.excludeCredentialIds?.length ? { excludeCredentials: input.excludeCredentialIds.map((id) => ({ id, type: 'public-key' as const })) } : {}),
  };
  const registration = await (options.webauthn ?? browserWebAuthn).startRegistration({ optionsJSON });
  return { type: 'PASSKEY', accountId: input.accountId, nickname: input.nickname, challenge: input.challenge, attestation: toPasskeyAttestation(registration) };
}

/** Input of {@link assertPasskey}: the fields of the PASSKEY `/challenge` response, plus WebAuthn options. */
export interface AssertPasskeyInput {
  /** `challenge` from `POST /auth/credentials/{id}/challenge`: lowercase hex whose UTF-8 bytes are the WebAuthn challenge. */
  challenge: string;
  /** The credential's `credentialId` (base64url rawId), placed in `allowCredentials`. */
  credentialId: string;
  /** Relying-party id; defaults to the page's host. */
  rpId?: string;
  userVerification?: UserVerificationRequirement;
  transports?: AuthenticatorTransport[];
  timeout?: number;
}

/** The `assertion` object of the PASSKEY `/verify` body (the API's field names; binary fields base64url). */
export interface PasskeyAssertionBody {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** The PASSKEY body of `POST /auth/credentials/{id}/verify` (send it with header `Request-Id` from the challenge). */
export interface PasskeyVerifyBody {
  type: 'PASSKEY';
  assertion: PasskeyAssertionBody;
}

/** The WebAuthn challenge (base64url) for an API passkey challenge: the UTF-8 bytes of the hex text, never hex-decoded. */
export function passkeyWebAuthnChallenge(challenge: string): string {
  return base64UrlEncode(utf8Encode(challenge));
}

/** Maps a WebAuthn assertion (as `@simplewebauthn/browser` returns it) to the API's `assertion` object. */
export function toPasskeyAssertion(authentication: AuthenticationResponseJSON): PasskeyAssertionBody {
  const { clientDataJSON, authenticatorData, signature, userHandle } = authentication.response;
  return { credentialId: authentication.rawId, clientDataJson: clientDataJSON, authenticatorData, signature, ...(userHandle ? { userHandle } : {}) };
}

/**
 * Signs a PASSKEY challenge with the passkey and returns the `/verify` body `{type: 'PASSKEY', assertion}`. Send it with the
 * header `Request-Id: <requestId of the challenge>`.
 */
export async function assertPasskey(input: AssertPasskeyInput, options: { webauthn?: WebAuthnDriver } = {}): Promise<PasskeyVerifyBody> {
  const optionsJSON: PublicKeyCredentialRequestOptionsJSON = {
    challenge: passkeyWebAuthnChallenge(input.challenge),
    allowCredentials: [{ id: input.credentialId, type: 'public-key', ...(input.transports ? { transports: input.transports } : {}) }],
    userVerification: input.userVerification ?? 'preferred',
    ...(input.rpId !== undefined ? { rpId: input.rpId } : {}),
    ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
  };
  const authentication = await (options.webauthn ?? browserWebAuthn).startAuthentication({ optionsJSON });
  return { type: 'PASSKEY', assertion: toPasskeyAssertion(authentication) };
}
