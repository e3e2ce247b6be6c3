import type { AuthCredentialChallengeRequest, AuthCredentialCreateRequest, AuthCredentialVerifyRequest, AuthMethod, AuthSession, AuthSessionRefreshRequest, ChallengeAuthCredentialResult, ListAuthCredentialsQuery, ListAuthCredentialsResult, ListAuthSessionsQuery, ListAuthSessionsResult } from '@railyard/contract/routes';
import { authEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import { RailyardError } from '../core/errors.js';
import type {
  SignedRequestOptions, SignedResult, StampedRequestOptions, UnstampedRequestOptions,
} from '../core/signed-retry.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import { DelegatedKeys } from './delegated-keys.js';

/** A credential of an embedded wallet: `id`, `accountId`, `type`, `nickname`, `credentialId` (passkeys). */
export type { AuthMethod };
/**
 * Body of {@link AuthCredentials.create}, by `type`: `EMAIL_OTP` / `SMS_OTP` (`accountId` only), `OAUTH` (`oidcToken`),
 * `PASSKEY` (`challenge`, `attestation`, `nickname`: what `registerPasskey` of `@railyard/wallet` returns).
 */
export type AuthCredentialCreateParams = AuthCredentialCreateRequest;
/** Query of {@link AuthCredentials.list}: `{ accountId }` (the embedded wallet's internal account). */
export type AuthCredentialListParams = ListAuthCredentialsQuery;
/** The credentials of an embedded wallet: `{ data }`, not paginated. */
export type AuthCredentialList = ListAuthCredentialsResult;
/** Body of {@link AuthCredentials.challenge}: nothing for OTP credentials, `{ clientPublicKey }` for a passkey. */
export type AuthCredentialChallengeParams = AuthCredentialChallengeRequest;
/** What {@link AuthCredentials.challenge} resolves with: an OTP credential's challenge, or a passkey's. */
export type AuthCredentialChallenge = ChallengeAuthCredentialResult;
/** A passkey sign-in challenge: the credential plus the hex `challenge`, its `requestId` and `expiresAt`. */
export type PasskeyAuthChallenge = Extract<AuthCredentialChallenge, { challenge: string }>;
/** An OTP challenge: the credential with a fresh `otpEncryptionTargetBundle` to encrypt the code to. */
export type OtpAuthChallenge = Exclude<AuthCredentialChallenge, { challenge: string }>;
/** Body of {@link AuthCredentials.verify}, by `type`. */
export type AuthCredentialVerifyParams = AuthCredentialVerifyRequest;
/** `EMAIL_OTP` / `SMS_OTP` verify body: `{ type, encryptedOtpBundle }` (from `encryptOtp` of `@railyard/wallet`). */
export type OtpVerifyParams = Extract<AuthCredentialVerifyParams, { type: 'EMAIL_OTP' | 'SMS_OTP' }>;
/** `OAUTH` verify body: `{ type, oidcToken, clientPublicKey }` (the token's `nonce` is the SHA-256 hex of `clientPublicKey`). */
export type OauthVerifyParams = Extract<AuthCredentialVerifyParams, { type: 'OAUTH' }>;
/** `PASSKEY` verify body: `{ type, assertion }` (what `assertPasskey` of `@railyard/wallet` returns). */
export type PasskeyVerifyParams = Extract<AuthCredentialVerifyParams, { type: 'PASSKEY' }>;
/**
 * A session of a verified credential. PASSKEY and OAUTH sessions carry `encryptedSessionSigningKey`, a key
 * sealed to the `clientPublicKey` given; OTP sessions never do (the TEK is the session key).
 */
export type { AuthSession };
/** Query of {@link AuthSessions.list}: `{ accountId }`. */
export type AuthSessionListParams = ListAuthSessionsQuery;
/** The active sessions of an embedded wallet: `{ data }`, not paginated, never key material. */
export type AuthSessionList = ListAuthSessionsResult;
/** Body of {@link AuthSessions.refresh}: `{ clientPublicKey }`, the key of the new session. */
export type AuthSessionRefreshParams = AuthSessionRefreshRequest;

/** Options of a PASSKEY {@link AuthCredentials.verify}: the `requestId` of the passkey challenge (sent as `Request-Id`). */
export type PasskeyVerifyOptions = SignedRequestOptions & { requestId: string };

/**
 * Credentials of embedded wallets: add, list, challenge, verify (sign in), remove.
 *
 * Adding and removing are signed operations: pass a `stamper` (an active session's key, e.g. a `@railyard/wallet`
 * `SessionKey`) and the call runs 202 → stamp → retry → terminal result; without one it resolves with
 * `SIGNATURE_REQUIRED` to finish with {@link SignedRetry.complete}.
 *
 * ```ts
 * const sms = await client.auth.credentials.create({ type: 'SMS_OTP', accountId }, { stamper: session });
 * ```
 */
export class AuthCredentials extends APIResource {
  /**
   * Adds a credential to an embedded wallet. The wallet has one already (its EMAIL_OTP), so this is a signed operation:
   * stamped by an active session of the account. One EMAIL_OTP and one SMS_OTP per account (400
   * `EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS`, `SMS_OTP_CREDENTIAL_ALREADY_EXISTS`); the same passkey twice: 400
   * `PASSKEY_CREDENTIAL_ALREADY_EXISTS`. A 200 is never the result here (it means still processing: re-sent).
   */
  create(body: AuthCredentialCreateParams, options: StampedRequestOptions): Promise<AuthMethod>;
  create(body: AuthCredentialCreateParams, options?: UnstampedRequestOptions): Promise<SignedResult<'createAuthCredential'>>;
  create(body: AuthCredentialCreateParams, options?: SignedRequestOptions): Promise<AuthMethod | SignedResult<'createAuthCredential'>> {
    return this._client.signedRetry.signed('createAuthCredential', { body }, options);
  }

  /** The credentials of an embedded wallet (`GET /auth/credentials?accountId=`), not paginated. */
  list(query: AuthCredentialListParams, options?: RequestOptions): APIPromise<AuthCredentialList> {
    return this._client.call(authEndpoints.listAuthCredentials, { query }, options);
  }

  /**
   * Starts signing in with a credential. OTP credentials (no body): a fresh code is sent (sandbox: `000000`) and the
   * answer carries `otpEncryptionTargetBundle`, to encrypt the code to (`encryptOtp` of `@railyard/wallet`, with the
   * pinned enclave key). A new code at most every 30 s: sooner rejects with a {@link RateLimitError} (or waits, when
   * `maxRetries` allows and `Retry-After` is short). PASSKEY (`{ clientPublicKey }`, the key the session will have):
   * the hex `challenge` for `navigator.credentials.get` and the `requestId` to verify with. A 200 `PROCESSING` is re-sent.
   */
  challenge(credentialId: string, body: { clientPublicKey: string }, options?: SignedRequestOptions): Promise<PasskeyAuthChallenge>;
  challenge(credentialId: string, body?: undefined, options?: SignedRequestOptions): Promise<OtpAuthChallenge>;
  challenge(credentialId: string, body?: AuthCredentialChallengeParams, options?: SignedRequestOptions): Promise<AuthCredentialChallenge>;
  challenge(credentialId: string, body?: AuthCredentialChallengeParams, options?: SignedRequestOptions): Promise<AuthCredentialChallenge> {
    return this._client.signedRetry.runToResult('challengeAuthCredential', { params: { credentialId }, body }, options);
  }

  /**
   * Finishes signing in and resolves with the session.
   *
   * - `EMAIL_OTP` / `SMS_OTP`: `{ type, encryptedOtpBundle }`, a signed operation stamped by the TEK whose public key
   *   is in the bundle (it becomes the session key): pass it as `stamper`.
   * - `OAUTH`: `{ type, oidcToken, clientPublicKey }`; a fresh token each time.
   * - `PASSKEY`: `{ type, assertion }` with `options.requestId` from the challenge (sent as the `Request-Id` header).
   *
   * A wrong code or a failed OIDC or WebAuthn check rejects with an {@link AuthenticationError}; a 200 `PROCESSING`
   * is re-sent until the session comes.
   *
   * ```ts
   * const session = await client.auth.credentials.verify(id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: tek });
   * ```
   */
  verify(credentialId: string, body: OtpVerifyParams, options: StampedRequestOptions): Promise<AuthSession>;
  verify(credentialId: string, body: OtpVerifyParams, options?: UnstampedRequestOptions): Promise<SignedResult<'verifyAuthCredential'>>;
  verify(credentialId: string, body: PasskeyVerifyParams, options: PasskeyVerifyOptions): Promise<AuthSession>;
  verify(credentialId: string, body: OauthVerifyParams, options?: SignedRequestOptions): Promise<AuthSession>;
  verify(
    credentialId: string, body: AuthCredentialVerifyParams, options: SignedRequestOptions & { requestId?: string } = {},
  ): Promise<AuthSession | SignedResult<'verifyAuthCredential'>> {
    const { requestId, ...rest } = options;
    const args = { params: { credentialId }, body };
    if (body.type === 'EMAIL_OTP' || body.type === 'SMS_OTP') return this._client.signedRetry.signed('verifyAuthCredential', args, rest);
    if (body.type === 'PASSKEY') {
      if (typeof requestId !== 'string' || requestId === '') {
        return Promise.reject(new RailyardError('A PASSKEY verify needs options.requestId: the requestId of the passkey challenge.'));
      }
      return this._client.signedRetry.runToResult('verifyAuthCredential', args, { ...rest, headers: { ...rest.headers, 'Request-Id': requestId } });
    }
    return this._client.signedRetry.runToResult('verifyAuthCredential', args, rest);
  }

  /**
   * Removes a credential and ends its sessions: a signed operation, stamped by a session of another credential of the
   * same account (its own sessions may not: 401 `WALLET_SIGNATURE_INVALID`). The only credential cannot be removed
   * (400).
   */
  delete(credentialId: string, options: StampedRequestOptions): Promise<void>;
  delete(credentialId: string, options?: UnstampedRequestOptions): Promise<SignedResult<'deleteAuthCredential'>>;
  delete(credentialId: string, options?: SignedRequestOptions): Promise<void | SignedResult<'deleteAuthCredential'>> {
    return this._client.signedRetry.signed('deleteAuthCredential', { params: { credentialId } }, options);
  }
}

/**
 * Sessions of embedded wallets: list, revoke, refresh. Revoking and refreshing are signed operations.
 *
 * ```ts
 * const next = await SessionKey.generate();                                      // @railyard/wallet
 * const fresh = await client.auth.sessions.refresh(session.id, { clientPublicKey: next.publicKeyCompressedHex }, { stamper: current });
 * await client.auth.sessions.revoke(session.id, { stamper: next });
 * ```
 */
export class AuthSessions extends APIResource {
  /** The active sessions of an embedded wallet (`GET /auth/sessions?accountId=`): never key material. */
  list(query: AuthSessionListParams, options?: RequestOptions): APIPromise<AuthSessionList> {
    return this._client.call(authEndpoints.listAuthSessions, { query }, options);
  }

  /** Revokes a session: a signed operation, stamped by any active session of the account (this one included). */
  revoke(sessionId: string, options: StampedRequestOptions): Promise<void>;
  revoke(sessionId: string, options?: UnstampedRequestOptions): Promise<SignedResult<'deleteAuthSession'>>;
  revoke(sessionId: string, options?: SignedRequestOptions): Promise<void | SignedResult<'deleteAuthSession'>> {
    return this._client.signedRetry.signed('deleteAuthSession', { params: { sessionId } }, options);
  }

  /**
   * Opens a new session of the same credential for `clientPublicKey` (compressed: its private key signs for the new
   * session; uncompressed: legacy, only the key sealed in `encryptedSessionSigningKey` does, which PASSKEY and OAUTH
   * sessions always carry). A signed operation, stamped by an
   * active session of the account; the same key on both legs (the runner sends the identical body).
   */
  refresh(sessionId: string, body: AuthSessionRefreshParams, options: StampedRequestOptions): Promise<AuthSession>;
  refresh(sessionId: string, body: AuthSessionRefreshParams, options?: UnstampedRequestOptions): Promise<SignedResult<'refreshAuthSession'>>;
  refresh(sessionId: string, body: AuthSessionRefreshParams, options?: SignedRequestOptions): Promise<AuthSession | SignedResult<'refreshAuthSession'>> {
    return this._client.signedRetry.signed('refreshAuthSession', { params: { sessionId }, body }, options);
  }
}

/**
 * Embedded-wallet authentication: credentials, sessions and delegated keys. The device side (keys,
 * stamps, OTP encryption, passkeys) is `@railyard/wallet`; this client only ever sees stamps.
 */
export class Auth extends APIResource {
  /** Credentials: create, list, challenge, verify, delete. */
  readonly credentials: AuthCredentials;
  /** Sessions: list, revoke, refresh. */
  readonly sessions: AuthSessions;
  /** Delegated keys (card funding from the wallet): create (signed, two stamped legs), list, retrieve, revoke. */
  readonly delegatedKeys: DelegatedKeys;

  constructor(client: RailyardClient) {
    super(client);
    this.credentials = new AuthCredentials(client);
    this.sessions = new AuthSessions(client);
    this.delegatedKeys = new DelegatedKeys(client);
  }
}
