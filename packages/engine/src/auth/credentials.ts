/**
 * Credentials of embedded wallets (SPEC §2.5, §4.2; REFERENCE §6, §7, §13): email and SMS one-time codes (HPKE-sealed
 * by the client to a target key the sandbox's enclave key signs), OAuth/OIDC tokens, and passkeys (WebAuthn checked
 * for real). Verifying one opens a session; adding or removing one is a signed action of the account.
 */
import type { AuthMethod, AuthSession, InternalAccount, PasskeyAuthChallenge } from '@railyard/contract';
import {
  AuthCredentialChallengeRequest, AuthCredentialCreateRequest, AuthCredentialVerifyRequest, base64UrlDecode, base64UrlEncode, createOtpTargetBundle, EMBEDDED_WALLET_CONFIG_DEFAULTS,
  generateP256KeyPairHex, oauthNonceMatches, openEncryptedOtpBundle, REQUEST_ID_HEADER, sha256Hex, SIGNED_RETRY_TTL_MS, utf8Encode,
} from '@railyard/contract';

import type { z } from 'zod';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound, rateLimited } from '../core/errors.js';
import { LEGACY_OIDC_TOKEN, LEGACY_PASSKEY_SIGNATURE, WALLET_OTP_CODE } from '../sandbox/magic-values.js';
import { findCustomer } from '../customers/customers.js';
import { settingsOf } from '../platforms/config.js';
import { enclaveSigner } from './enclave.js';
import { AuthCredentialRecord, credentials } from './records.js';
import { activeSessions, endSessionsOf, openSession, sessionsOf, signsFor } from './sessions.js';
import { signedAction, type SignedLegAnswer, type SignedRequest } from './signed-retry.js';
import { originWithinRpId, rpIdCandidates, secureOrigin } from './webauthn-binding.js';
import { originOf, verifyPasskeyAssertion, verifyPasskeyRegistration } from './passkey-verify.js';

/** OTP codes are re-issued at most this often (REFERENCE §6: 429 with Retry-After). */
export const OTP_REISSUE_INTERVAL_MS = 30_000;
/** OIDC issuers the sandbox accepts (REFERENCE §7: Google and Apple). */
export const OIDC_ISSUERS = ['https://accounts.google.com', 'https://appleid.apple.com'] as const;
/** An OIDC token's `iat` may be this old, plus {@link OIDC_CLOCK_SKEW_MS} (SPEC §8, §4.6). */
export const OIDC_MAX_AGE_MS = 60_000;
export const OIDC_CLOCK_SKEW_MS = 5_000;

/** The credential as the API shows it. */
export const credentialView = (record: AuthCredentialRecord): AuthMethod => ({
  id: record.id, accountId: record.accountId, type: record.type, nickname: record.nickname,
  ...(record.credentialId === undefined ? {} : { credentialId: record.credentialId }),
  createdAt: record.createdAt, updatedAt: record.updatedAt,
});

/** An embedded wallet: 404 for an unknown account, 400 for an account that is not an embedded wallet. */
export function findWallet(tenant: TenantContext, accountId: string): InternalAccount {
  const account = findInternalAccount(tenant, accountId);
  if (account.type !== 'EMBEDDED_WALLET') throw invalidField('accountId', `${accountId} is ${account.type}, not an EMBEDDED_WALLET: only embedded wallets have credentials`);
  return account;
}

/** A credential by id, or 404. */
export function findCredential(tenant: TenantContext, credentialId: string): AuthCredentialRecord {
  const record = credentials(tenant).get(credentialId);
  if (!record) throw notFound('Credential', credentialId);
  return record;
}

/** `GET /auth/credentials?accountId=`: not paged. */
export function listCredentials(tenant: TenantContext, accountId: string): { data: AuthMethod[] } {
  findWallet(tenant, accountId);
  return { data: credentials(tenant).findBy('accountId', accountId).map(credentialView) };
}

const unauthorized = (reason: string) => new ApiError(401, 'UNAUTHORIZED', reason, { reason });

// ---------------------------------------------------------------------------------------------------------------------
// Challenges

/**
 * `POST /auth/credentials/{id}/challenge`. OTP: a fresh target key, the bundle the enclave key signs, and (in the
 * sandbox) the code 000000; at most every {@link OTP_REISSUE_INTERVAL_MS} (429). PASSKEY: a WebAuthn challenge bound to
 * the `clientPublicKey` of the session it will open.
 */
export async function challengeCredential(
  tenant: TenantContext, credentialId: string, body: z.output<typeof AuthCredentialChallengeRequest> | undefined,
): Promise<AuthMethod | PasskeyAuthChallenge> {
  const record = findCredential(tenant, credentialId);
  const now = tenant.clock.now();
  if (record.type === 'EMAIL_OTP' || record.type === 'SMS_OTP') {
    assertReissueAllowed(record, now);
    const target = await generateP256KeyPairHex();
    const bundle = await createOtpTargetBundle({ targetPublicKeyHex: target.publicKeyUncompressedHex, signer: enclaveSigner, organizationId: tenant.platform.id });
    // Checked again after the awaits, before the write: a concurrent challenge may have issued a code meanwhile, and
    // this one would replace its target key (leaving the bundle already sent dead) and pass the re-issue limit.
    const current = findCredential(tenant, credentialId);
    assertReissueAllowed(current, tenant.clock.now());
    const updated: AuthCredentialRecord = {
      ...current,
      otp: { targetPrivateKeyHex: target.privateKeyHex, targetPublicKeyHex: target.publicKeyUncompressedHex, issuedAt: new Date(now).toISOString() },
    };
    credentials(tenant).replace(updated);
    return { ...credentialView(updated), otpEncryptionTargetBundle: bundle };
  }
  if (record.type === 'PASSKEY') {
    const clientPublicKey = body?.clientPublicKey;
    if (clientPublicKey === undefined) throw invalidField('clientPublicKey', 'is required: the public key of the session this sign-in opens', { required: true });
    const requestId = tenant.ids('Request');
    const expiresAt = new Date(now + SIGNED_RETRY_TTL_MS).toISOString();
    // REFERENCE §7: the challenge is the hex SHA-256 of the canonical session-creation request.
    const challenge = await sha256Hex(JSON.stringify({
      organizationId: tenant.platform.id,
      parameters: { accountId: record.accountId, credentialId: record.id, clientPublicKey, requestId },
      timestampMs: String(now),
      type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION',
    }));
    // Read again after the await: the credential may have been removed (404, not a failed write) or changed meanwhile
    // (a sign-in's counter update must not be lost).
    const current = findCredential(tenant, credentialId);
    credentials(tenant).replace({ ...current, passkeyChallenge: { requestId, challenge, clientPublicKey, expiresAt } });
    return { ...credentialView(current), credentialId: current.credentialId!, challenge, requestId, expiresAt };
  }
  throw invalidField('credentialId', 'OAUTH credentials need no challenge: verify with a fresh OIDC token');
}

/** 429 while the credential's last code is younger than {@link OTP_REISSUE_INTERVAL_MS}. */
function assertReissueAllowed(record: AuthCredentialRecord, now: number): void {
  const wait = record.otp ? Date.parse(record.otp.issuedAt) + OTP_REISSUE_INTERVAL_MS - now : 0;
  if (wait > 0) throw rateLimited(`A code was sent less than ${OTP_REISSUE_INTERVAL_MS / 1000} s ago`, wait);
}

// ---------------------------------------------------------------------------------------------------------------------
// Verification

/**
 * `POST /auth/credentials/{id}/verify`. OTP: the sealed code opens with the target key and must be 000000, then a
 * signed retry stamped with the client's TEK gives the session (the TEK is its key). OAUTH and PASSKEY: the session at once.
 */
export async function verifyCredential(
  tenant: TenantContext, credentialId: string, body: z.output<typeof AuthCredentialVerifyRequest>, request: SignedRequest,
): Promise<AuthSession | SignedLegAnswer> {
  const record = findCredential(tenant, credentialId);
  if (body.type !== record.type) throw invalidField('type', `Credential ${credentialId} is ${record.type}`, { enum: [record.type] });
  if (body.type === 'EMAIL_OTP' || body.type === 'SMS_OTP') {
    if (!record.otp) throw unauthorized('No code was issued for this credential: call /challenge first');
    const lifetime = (settingsOf(tenant).embeddedWalletConfig?.expirationSeconds ?? EMBEDDED_WALLET_CONFIG_DEFAULTS.expirationSeconds) * 1000;
    if (Date.parse(record.otp.issuedAt) + lifetime <= tenant.clock.now()) throw unauthorized('The code expired: call /challenge for a new one');
    let opened: Awaited<ReturnType<typeof openEncryptedOtpBundle>>;
    try {
      opened = await openEncryptedOtpBundle(body.encryptedOtpBundle, record.otp.targetPrivateKeyHex, { targetPublicKeyHex: record.otp.targetPublicKeyHex });
    } catch {
      throw unauthorized('Invalid OTP code');
    }
    if (opened.otpCode !== WALLET_OTP_CODE) throw unauthorized('Invalid OTP code');
    const tek = opened.publicKeyCompressedHex;
    const leg = await signedAction(tenant, request, {
      accountId: record.accountId, activity: 'ACTIVITY_TYPE_OTP_LOGIN', type: record.type,
      parameters: { credentialId: record.id, publicKey: tek },
      signers: () => undefined,
      requiredSigner: { publicKeyHex: tek, signer: tek },
    });
    if (!('signer' in leg)) return leg;
    const { otp: _used, ...rest } = findCredential(tenant, credentialId);
    credentials(tenant).replace(rest);
    return openSession(tenant, record, tek);
  }
  if (body.type === 'OAUTH') {
    const claims = await checkOidcToken(tenant, body.oidcToken, body.clientPublicKey);
    const identity = record.oauth!;
    if (claims.iss !== identity.iss || claims.sub !== identity.sub || claims.aud !== identity.aud) {
      throw unauthorized('The OIDC token names another identity (iss, aud or sub) than this credential');
    }
    return openSession(tenant, record, body.clientPublicKey);
  }
  return verifyPasskey(tenant, record, body.assertion, request);
}

async function verifyPasskey(
  tenant: TenantContext, record: AuthCredentialRecord, assertion: z.output<typeof AuthCredentialVerifyRequest> & { type: 'PASSKEY' } extends { assertion: infer A } ? A : never,
  request: SignedRequest,
): Promise<AuthSession> {
  const { requestId } = request;
  if (requestId === null) throw new ApiError(401, 'REQUEST_ID_MISSING', `Send the ${REQUEST_ID_HEADER} header: the requestId of the /challenge response`);
  const pending = record.passkeyChallenge;
  if (!pending || pending.requestId !== requestId) throw unauthorized(`Request-Id ${requestId} is not this credential's outstanding challenge: call /challenge again`);
  if (Date.parse(pending.expiresAt) <= tenant.clock.now()) throw unauthorized('The passkey challenge expired: call /challenge again');
  if (assertion.credentialId !== record.credentialId) throw unauthorized('The assertion is for another credential');
  // The challenge is used up before the (asynchronous) check, so a concurrent verify of the same assertion finds none.
  const { passkeyChallenge: _used, ...rest } = record;
  credentials(tenant).replace(rest);
  if (assertion.signature !== LEGACY_PASSKEY_SIGNATURE) {
    const origin = secureOrigin(originOf(assertion.clientDataJson));
    if (!origin) throw unauthorized('The assertion comes from no secure origin: clientDataJson.origin must be https (http only on localhost)');
    // The RP ID the credential was registered with; a record from before it was kept: the origin's own host.
    const rpId = record.passkey!.rpId ?? origin.hostname;
    if (!originWithinRpId(origin, rpId)) {
      throw unauthorized(`The assertion comes from ${origin.origin}, which may not use this passkey: it is registered for the RP ID ${rpId}`);
    }
    let newCounter: number;
    try {
      // The WebAuthn challenge is the UTF-8 text of the hex challenge (REFERENCE §7).
      newCounter = await verifyPasskeyAssertion(
        assertion, { credentialId: record.credentialId!, publicKey: record.passkey!.publicKey, counter: record.passkey!.counter },
        { challenge: base64UrlEncode(utf8Encode(pending.challenge)), origin: origin.origin, rpId },
      );
    } catch (error) {
      throw unauthorized(`Passkey assertion refused: ${(error as Error).message}`);
    }
    const current = findCredential(tenant, record.id);
    credentials(tenant).replace({ ...current, passkey: { ...current.passkey!, counter: newCounter } });
  }
  return openSession(tenant, record, pending.clientPublicKey);
}

interface OidcClaims { iss: string; sub: string; aud: string; email?: string }

/** A JWT's claims, or 400 INVALID_INPUT for a token that is not one (REFERENCE §6). */
function parseOidcToken(token: string): Record<string, unknown> {
  if (token === LEGACY_OIDC_TOKEN) throw invalidField('oidcToken', 'The legacy sandbox token is no longer accepted: send a JWT-shaped token');
  const [, payload] = token.split('.');
  try {
    const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload ?? ''))) as unknown;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new Error('not an object');
    return claims as Record<string, unknown>;
  } catch {
    throw invalidField('oidcToken', 'is not a JWT: its payload is not base64url JSON');
  }
}

/** The identity of an OIDC token (400 for a malformed one or an unsupported issuer). */
function oidcIdentity(token: string): OidcClaims {
  const claims = parseOidcToken(token);
  const aud = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
  if (typeof claims.iss !== 'string' || !(OIDC_ISSUERS as readonly string[]).includes(claims.iss)) {
    throw invalidField('oidcToken', `iss must be a supported issuer: ${OIDC_ISSUERS.join(', ')}`);
  }
  if (typeof aud !== 'string' || aud.length === 0) throw invalidField('oidcToken', 'aud must be a non-empty string or a one-element array');
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw invalidField('oidcToken', 'sub must be a non-empty string');
  return { iss: claims.iss, sub: claims.sub, aud, ...(typeof claims.email === 'string' ? { email: claims.email } : {}) };
}

/** The token is fresh: `iat` at most 60 s old (5 s skew either way) and `exp` ahead (SPEC §4.6, §8). */
function assertFreshToken(tenant: TenantContext, token: string): void {
  const claims = parseOidcToken(token);
  const now = tenant.clock.now();
  if (typeof claims.iat !== 'number' || claims.iat * 1000 > now + OIDC_CLOCK_SKEW_MS || now - claims.iat * 1000 > OIDC_MAX_AGE_MS + OIDC_CLOCK_SKEW_MS) {
    throw unauthorized('The OIDC token is not fresh: iat must be within 60 seconds of the request; get a fresh token');
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) throw unauthorized('The OIDC token has expired (exp)');
}

/** Every claim rule of SPEC §4.6 for a verify: identity, freshness, and the nonce of the `clientPublicKey` sent. */
async function checkOidcToken(tenant: TenantContext, token: string, clientPublicKey: string): Promise<OidcClaims> {
  const identity = oidcIdentity(token);
  assertFreshToken(tenant, token);
  const claims = parseOidcToken(token);
  if (!(await oauthNonceMatches(claims.nonce, clientPublicKey))) {
    throw unauthorized('The OIDC token nonce is not the SHA-256 hex of the clientPublicKey sent');
  }
  return identity;
}

// ---------------------------------------------------------------------------------------------------------------------
// Adding and removing credentials (signed actions)

/**
 * `POST /auth/credentials`: one EMAIL_OTP and one SMS_OTP per account (400 *_CREDENTIAL_ALREADY_EXISTS), passkeys
 * distinct by credentialId (400 PASSKEY_CREDENTIAL_ALREADY_EXISTS), OAUTH one per provider identity. The account has a
 * credential already, so this is a signed action; every check runs on both legs.
 */
export async function createCredential(
  tenant: TenantContext, body: z.output<typeof AuthCredentialCreateRequest>, request: SignedRequest,
): Promise<AuthMethod | SignedLegAnswer> {
  const wallet = findWallet(tenant, body.accountId);
  const prepared = await prepareCredential(tenant, body, credentials(tenant).findBy('accountId', wallet.id));
  const leg = await signedAction(tenant, request, {
    accountId: wallet.id, activity: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS', type: body.type,
    parameters: { accountId: wallet.id, type: body.type, nickname: prepared.nickname, ...(prepared.credentialId ? { credentialId: prepared.credentialId } : {}) },
    signers: sessionsOf(tenant, wallet.id),
  });
  if (!('signer' in leg)) return leg;
  // The rules again, without yielding before the write: a concurrent add may have landed while this one was checked.
  assertUnique(tenant, prepared, credentials(tenant).findBy('accountId', wallet.id));
  const now = tenant.nowIso();
  return credentialView(credentials(tenant).insert({ id: tenant.ids('AuthMethod'), accountId: wallet.id, ...prepared, createdAt: now, updatedAt: now }));
}

type Prepared = Pick<AuthCredentialRecord, 'type' | 'nickname' | 'credentialId' | 'passkey' | 'oauth'>;

/** The credential rules of SPEC §4.2: one EMAIL_OTP, one SMS_OTP, distinct passkeys, one OAUTH per provider identity. */
function assertUnique(tenant: TenantContext, candidate: Prepared, existing: AuthCredentialRecord[]): void {
  if ((candidate.type === 'EMAIL_OTP' || candidate.type === 'SMS_OTP') && existing.some((c) => c.type === candidate.type)) {
    throw new ApiError(400, `${candidate.type}_CREDENTIAL_ALREADY_EXISTS`, `The account already has an ${candidate.type} credential; it may have one`);
  }
  const oauth = candidate.oauth;
  if (oauth && existing.some((c) => c.oauth?.iss === oauth.iss && c.oauth.sub === oauth.sub)) {
    throw invalidField('oidcToken', 'This provider identity is already a credential of the account');
  }
  if (candidate.credentialId !== undefined && credentials(tenant).findBy('credentialId', candidate.credentialId).length > 0) {
    throw new ApiError(400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'This passkey (WebAuthn credentialId) is already registered');
  }
}

async function prepareCredential(tenant: TenantContext, body: z.output<typeof AuthCredentialCreateRequest>, existing: AuthCredentialRecord[]): Promise<Prepared> {
  if (body.type === 'EMAIL_OTP' || body.type === 'SMS_OTP') {
    assertUnique(tenant, { type: body.type, nickname: '' }, existing);
    return { type: body.type, nickname: contactOf(tenant, body.accountId, body.type) };
  }
  if (body.type === 'OAUTH') {
    const identity = oidcIdentity(body.oidcToken);
    assertFreshToken(tenant, body.oidcToken);
    const candidate: Prepared = { type: 'OAUTH', nickname: identity.email ?? identity.sub, oauth: { iss: identity.iss, sub: identity.sub, aud: identity.aud } };
    assertUnique(tenant, candidate, existing);
    return candidate;
  }
  assertUnique(tenant, { type: 'PASSKEY', nickname: '', credentialId: body.attestation.credentialId }, existing);
  // WebAuthn's binding: a secure origin, and an RP ID that is its host or a registrable suffix of it (webauthn-binding.ts).
  const origin = secureOrigin(originOf(body.attestation.clientDataJson));
  if (!origin) throw invalidField('attestation.clientDataJson', 'names no secure origin: it must be https (http only on localhost)');
  const rpIds = rpIdCandidates(origin);
  if (rpIds.length === 0) throw invalidField('attestation.clientDataJson', `names ${origin.origin}, whose host cannot be an RP ID (use a domain name)`);
  let registered: Awaited<ReturnType<typeof verifyPasskeyRegistration>>;
  try {
    registered = await verifyPasskeyRegistration(body.attestation, { challenge: body.challenge, origin: origin.origin, rpIds });
  } catch (error) {
    const message = (error as Error).message;
    const hint = /RP ID/i.test(message) ? ` (the RP ID must be ${rpIds.join(' or ')}, the host of ${origin.origin} or a registrable parent of it)` : '';
    throw invalidField('attestation', `The passkey registration does not verify: ${message}${hint}`);
  }
  return {
    type: 'PASSKEY', nickname: body.nickname, credentialId: body.attestation.credentialId,
    passkey: {
      publicKey: registered.publicKey, counter: registered.counter, rpId: registered.rpId ?? origin.hostname,
      ...(body.attestation.transports ? { transports: body.attestation.transports } : {}),
    },
  };
}

/** The email or phone of the customer owning a wallet (the OTP credential's nickname); 400 when there is none. */
function contactOf(tenant: TenantContext, accountId: string, type: 'EMAIL_OTP' | 'SMS_OTP'): string {
  const { customerId } = findInternalAccount(tenant, accountId);
  const customer = customerId === undefined ? undefined : findCustomer(tenant, customerId);
  const contact = type === 'EMAIL_OTP' ? customer?.email : customer?.phoneNumber;
  if (contact === undefined) {
    throw invalidField('type', `The wallet's customer has no ${type === 'EMAIL_OTP' ? 'email' : 'phoneNumber'} to send codes to: add it with PATCH /customers/{id}`);
  }
  return contact;
}

/** At least one credential must remain (SPEC §8): 400 for the last one. */
function assertNotLast(tenant: TenantContext, record: AuthCredentialRecord): void {
  if (credentials(tenant).findBy('accountId', record.accountId).length === 1) {
    throw invalidField('credentialId', 'This is the account’s only credential: add another before removing it');
  }
}

/**
 * `DELETE /auth/credentials/{id}`: signed by a session of another credential of the same account; the only credential
 * cannot be removed (400). Its sessions end with it.
 */
export async function deleteCredential(tenant: TenantContext, credentialId: string, request: SignedRequest): Promise<undefined | SignedLegAnswer> {
  const record = findCredential(tenant, credentialId);
  assertNotLast(tenant, record);
  const leg = await signedAction(tenant, request, {
    accountId: record.accountId, activity: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', type: record.type,
    parameters: { credentialId },
    signers: (publicKey) => activeSessions(tenant, record.accountId).find((s) => s.credentialId !== credentialId && signsFor(s, publicKey)),
  });
  if (!('signer' in leg)) return leg;
  // Again without yielding before the write: a concurrent removal may have left this one the last (SPEC §8).
  assertNotLast(tenant, record);
  credentials(tenant).delete(credentialId);
  endSessionsOf(tenant, credentialId);
  return undefined;
}
