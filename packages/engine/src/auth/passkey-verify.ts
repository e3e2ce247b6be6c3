/**
 * WebAuthn checks shared by every place the sandbox accepts passkeys (embedded-wallet credentials, SCA factors): the
 * registration and assertion verifications of @simplewebauthn/server, loaded lazily, with the repo's field names.
 */
import { base64UrlDecode, base64UrlEncode } from '@railyard/contract';
import type { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';

/**
 * The WebAuthn verifier, loaded on the first passkey operation: it brings a large dependency tree (ASN.1, X.509)
 * whose loading would otherwise be most of the sandbox's start-up time.
 */
export const webauthn = () => import('@simplewebauthn/server');

/** The origin in a base64url clientDataJSON, when it has one. */
export function originOf(clientDataJson: string): string | undefined {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(base64UrlDecode(clientDataJson))) as { origin?: unknown };
    return typeof parsed.origin === 'string' && URL.canParse(parsed.origin) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** A registration as the API receives it (binary fields base64url). */
export interface PasskeyRegistration {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[] | undefined;
}

/** What is kept of a verified registration. */
export interface RegisteredPasskey {
  /**
   * The credential id the authenticator data carries (base64url), which the signature covers: key the passkey by this,
   * never by the client-sent id, which the verification only compares with itself.
   */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  rpId: string | undefined;
}

/**
 * Verifies a registration against the challenge it must sign, the origin it must come from and the RP IDs it may be
 * for. Throws an Error whose message says why it does not verify.
 */
export async function verifyPasskeyRegistration(
  registration: PasskeyRegistration, expected: { challenge: string; origin: string; rpIds: string[] },
): Promise<RegisteredPasskey> {
  const verification: Awaited<ReturnType<typeof verifyRegistrationResponse>> = await (await webauthn()).verifyRegistrationResponse({
    response: {
      id: registration.credentialId, rawId: registration.credentialId, type: 'public-key', clientExtensionResults: {},
      response: {
        clientDataJSON: registration.clientDataJson, attestationObject: registration.attestationObject,
        ...(registration.transports ? { transports: registration.transports as never } : {}),
      },
    },
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.origin,
    expectedRPID: expected.rpIds,
    requireUserVerification: false,
  });
  if (!verification.verified || !verification.registrationInfo) throw new Error('The passkey registration does not verify');
  const { credential, rpID } = verification.registrationInfo;
  return { credentialId: credential.id, publicKey: base64UrlEncode(credential.publicKey), counter: credential.counter, rpId: rpID };
}

/** An assertion as the API receives it (binary fields base64url). */
export interface PasskeyAssertionInput {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string | undefined;
}

/**
 * Verifies an assertion of a stored passkey against the challenge (base64url) it must sign. Returns the new signature
 * counter; throws an Error whose message says why it does not verify.
 */
export async function verifyPasskeyAssertion(
  assertion: PasskeyAssertionInput, stored: { credentialId: string; publicKey: string; counter: number },
  expected: { challenge: string; origin: string; rpId: string },
): Promise<number> {
  const verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>> = await (await webauthn()).verifyAuthenticationResponse({
    response: {
      id: assertion.credentialId, rawId: assertion.credentialId, type: 'public-key', clientExtensionResults: {},
      response: {
        clientDataJSON: assertion.clientDataJson, authenticatorData: assertion.authenticatorData, signature: assertion.signature,
        ...(assertion.userHandle === undefined ? {} : { userHandle: assertion.userHandle }),
      },
    },
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.origin,
    expectedRPID: expected.rpId,
    credential: { id: stored.credentialId, publicKey: base64UrlDecode(stored.publicKey), counter: stored.counter },
    requireUserVerification: false,
  });
  if (!verification.verified) throw new Error('Passkey assertion refused');
  return verification.authenticationInfo.newCounter;
}
