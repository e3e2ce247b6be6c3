import type { SandboxLivenessRequest, ScaFactorConfirmRequest, ScaFactorConfirmation, ScaFactorEnrollment, ScaFactorEnrollmentRequest, ScaFactorList, ScaLoginComplete, ScaLoginCompleteRequest, ScaLoginStart, ScaLoginStartRequest, SecurityEventRequest, SecurityEventResult, TwoFactorResetCompleteRequest, TwoFactorResetRequest, TwoFactorResetStart, TwoFactorResetStatus } from '@railyard/contract/routes';
import { scaFactorEndpoints, scaLoginEndpoints, scaSandboxEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** Body of {@link ScaLogin.start}: the `factor` to log in with: `SMS_OTP`, or a TOTP or passkey the customer enrolled ({@link ScaFactors}). */
export type ScaLoginStartParams = ScaLoginStartRequest;
/** The login challenge: `factor`, and for SMS the `challengeId` to answer and its `expiresAt`. */
export type ScaLoginChallenge = ScaLoginStart;
/**
 * Body of {@link ScaLogin.complete}: `factor`, `endUserIpAddress`, the `challengeId` of {@link ScaLogin.start} (SMS),
 * and the answer: the SMS `code`, or a `passkeyAssertion` with its `origin` (exactly one).
 */
export type ScaLoginCompleteParams = ScaLoginCompleteRequest;
/** An opened SCA login session: `status` `SUCCESS` and `sessionExpiresAt` (180 days later). */
export type ScaLoginSession = ScaLoginComplete;

/**
 * SCA login: opens the session of 180 days that a customer in an SCA region needs before
 * {@link Quotes.authorize} (without one it rejects with a {@link ConflictError}, `SCA_SESSION_REQUIRED`).
 *
 * ```ts
 * const challenge = await client.sca.login.start(customer.id, { factor: 'SMS_OTP' });
 * const session = await client.sca.login.complete(customer.id, {
 *   factor: 'SMS_OTP', challengeId: challenge.challengeId, code: '123456', endUserIpAddress: '203.0.113.7',
 * });
 * ```
 *
 * Customers outside SCA regions (and factors the customer has not enrolled) reject with a {@link ConflictError}; a
 * locked customer with a {@link LockedError} (`ACCOUNT_LOCKED`, `details.lockedUntil`, `failedAttempts`, `suspended`).
 */
export class ScaLogin extends APIResource {
  /**
   * Starts a login for the customer (`POST /sca/login/start?customerId=`): sends the SMS code (always `123456` in the
   * sandbox) and returns the challenge to answer with {@link ScaLogin.complete}.
   */
  start(customerId: string, body: ScaLoginStartParams, options?: RequestOptions): APIPromise<ScaLoginChallenge> {
    return this._client.call(scaLoginEndpoints.startScaLogin, { query: { customerId }, body }, options);
  }

  /**
   * Answers the login challenge (`POST /sca/login/complete?customerId=`) and opens a session until `sessionExpiresAt`.
   * A wrong code rejects with a {@link BadRequestError} and counts towards the lockout (5 failures lock for 15 minutes,
   * then longer; the 9th suspends).
   */
  complete(customerId: string, body: ScaLoginCompleteParams, options?: RequestOptions): APIPromise<ScaLoginSession> {
    return this._client.call(scaLoginEndpoints.completeScaLogin, { query: { customerId }, body }, options);
  }
}

/** A customer's factors: `{ factors: [{ factor, credentialId? (passkeys only), name }] }`. */
export type { ScaFactorList };
/** One factor of {@link ScaFactorList}. */
export type ScaFactorEntry = ScaFactorList['factors'][number];
/** Body of {@link ScaFactors.startEnrollment}: `{ type: 'TOTP' | 'PASSKEY' }`. */
export type ScaFactorEnrollmentParams = ScaFactorEnrollmentRequest;
/**
 * A started enrolment. TOTP: `secret`, `secretBase32Encoded` and `totpUri` (`otpauth://totp/…`, for a QR code).
 * PASSKEY: `options` for `navigator.credentials.create` (pass them unmodified), `allowedOrigins`, `relyingPartyId`.
 */
export type { ScaFactorEnrollment };
/**
 * Body of {@link ScaFactors.confirmEnrollment}: TOTP `{ type, secret (echoed), code }`; PASSKEY `{ type, origin, credential }`
 * where `credential` is the registration as JSON (`PublicKeyCredential.toJSON()`).
 */
export type ScaFactorConfirmParams = ScaFactorConfirmRequest;
/** A confirmed enrolment: TOTP `{ type, recoveryCodes }` (shown once); PASSKEY `{ type, factor }`. */
export type { ScaFactorConfirmation };
/** Body of {@link Sca.recordEvent}: `{ eventType: 'FAILED_LOGIN_ATTEMPT' | 'RESET_PASSWORD_COMPLETED' }`. */
export type SecurityEventParams = SecurityEventRequest;
/** The lockout after an event: `{ eventType, suspended, lockedUntil (null unless locked), failedAttempts }`. */
export type { SecurityEventResult };
/** Body of {@link ScaResets.start}: `{ factor }`, the factor the customer lost. */
export type TwoFactorResetParams = TwoFactorResetRequest;
/** A started reset: `resetId`, `livenessAccessToken`, `expiresAt`. */
export type { TwoFactorResetStart };
/** Where a reset stands: `status`, `factor`, `enrollmentStatus`, `expiresAt`, `completedAt`. */
export type { TwoFactorResetStatus };
/** Body of {@link ScaResets.complete}: `{ mobile: { countryCode: '+33', number } }` for SMS_OTP, nothing otherwise. */
export type TwoFactorResetCompleteParams = TwoFactorResetCompleteRequest;
/** Body of {@link SandboxSca.submitLiveness}: `{ result: 'PASSED' | 'FAILED' }`. */
export type SandboxLivenessParams = SandboxLivenessRequest;

/**
 * A customer's SCA factors: SMS_OTP is never enrolled and always listed (named by the masked phone on
 * file, when there is one); a TOTP app and one passkey can be enrolled. Only the passkey has a `credentialId`, so only it can be deleted.
 *
 * ```ts
 * const started = await client.sca.factors.startEnrollment(customer.id, { type: 'TOTP' });
 * // show started.totpUri as a QR code; the customer types the app's current code
 * const { recoveryCodes } = await client.sca.factors.confirmEnrollment(customer.id, { type: 'TOTP', secret: started.secret, code });
 * ```
 */
export class ScaFactors extends APIResource {
  /** The customer's factors (`GET /sca/factors?customerId=`). */
  list(customerId: string, options?: RequestOptions): APIPromise<ScaFactorList> {
    return this._client.call(scaFactorEndpoints.listScaFactors, { query: { customerId } }, options);
  }

  /**
   * Starts enrolling a TOTP app or a passkey (`POST /sca/factors`). A second passkey rejects with a
   * {@link ConflictError} `PASSKEY_ALREADY_ENROLLED`.
   */
  startEnrollment(customerId: string, body: ScaFactorEnrollmentParams, options?: RequestOptions): APIPromise<ScaFactorEnrollment> {
    return this._client.call(scaFactorEndpoints.startScaFactorEnrollment, { query: { customerId }, body }, options);
  }

  /** Confirms the enrolment (`POST /sca/factors/confirm`); a wrong proof rejects with a {@link BadRequestError}. */
  confirmEnrollment(customerId: string, body: ScaFactorConfirmParams, options?: RequestOptions): APIPromise<ScaFactorConfirmation> {
    return this._client.call(scaFactorEndpoints.confirmScaFactorEnrollment, { query: { customerId }, body }, options);
  }

  /** Deletes the customer's passkey (`DELETE /sca/factors/{credentialId}`). */
  delete(customerId: string, credentialId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(scaFactorEndpoints.deleteScaFactor, { params: { credentialId }, query: { customerId } }, options) as APIPromise<void>;
  }
}

/**
 * Resets of a lost factor, gated by a liveness check and followed by polling: INITIATED, PENDING_REVIEW,
 * LIVENESS_PASSED (then {@link ScaResets.complete}), COMPLETED; or REJECTED, or EXPIRED. At most 5 starts per customer
 * in 24 hours ({@link RateLimitError}). In the sandbox, {@link SandboxSca.submitLiveness} plays the customer's check.
 */
export class ScaResets extends APIResource {
  /** Starts a reset of `factor` (`POST /sca/factors/reset`). */
  start(customerId: string, body: TwoFactorResetParams, options?: RequestOptions): APIPromise<TwoFactorResetStart> {
    return this._client.call(scaFactorEndpoints.startTwoFactorReset, { query: { customerId }, body }, options);
  }

  /** Where the reset stands (`GET /sca/factors/reset/{resetId}`). */
  retrieve(customerId: string, resetId: string, options?: RequestOptions): APIPromise<TwoFactorResetStatus> {
    return this._client.call(scaFactorEndpoints.getTwoFactorResetStatus, { params: { resetId }, query: { customerId } }, options);
  }

  /**
   * Completes a reset whose liveness passed (`POST .../complete`): clears the lost factor; for SMS_OTP `mobile` is the
   * new number. Before LIVENESS_PASSED it rejects with a {@link BadRequestError}.
   */
  complete(customerId: string, resetId: string, body: TwoFactorResetCompleteParams = {}, options?: RequestOptions): APIPromise<void> {
    return this._client.call(scaFactorEndpoints.completeTwoFactorReset, { params: { resetId }, query: { customerId }, body }, options) as APIPromise<void>;
  }
}

/** Sandbox moves of SCA: the liveness check of a factor reset. */
export class SandboxSca extends APIResource {
  /**
   * Submits the liveness check of an INITIATED reset (`POST /sandbox/sca/factors/reset/{resetId}/liveness`): it is
   * PENDING_REVIEW for 2 seconds of engine time, then LIVENESS_PASSED or REJECTED as `result` says.
   */
  submitLiveness(customerId: string, resetId: string, body: SandboxLivenessParams, options?: RequestOptions): APIPromise<TwoFactorResetStatus> {
    return this._client.call(scaSandboxEndpoints.submitSandboxLiveness, { params: { resetId }, query: { customerId }, body }, options);
  }
}

/**
 * Strong customer authentication: the login session payments in SCA regions need, the customer's
 * factors, security events and factor resets.
 */
export class Sca extends APIResource {
  /** SCA login: start, then complete with the code. */
  readonly login: ScaLogin;
  /** Enrolled factors: TOTP and passkey. */
  readonly factors: ScaFactors;
  /** Resets of a lost factor. */
  readonly resets: ScaResets;

  constructor(client: RailyardClient) {
    super(client);
    this.login = new ScaLogin(client);
    this.factors = new ScaFactors(client);
    this.resets = new ScaResets(client);
  }

  /**
   * Reports a security event (`POST /sca/record-event`): `FAILED_LOGIN_ATTEMPT` counts towards the lockout (5 lock for
   * 15 minutes, 6 for 30, 7 for an hour, 8 for a day, 9 suspend; while locked a {@link LockedError}),
   * `RESET_PASSWORD_COMPLETED` ends the SCA sessions and clears the lockout and any suspension.
   */
  recordEvent(customerId: string, body: SecurityEventParams, options?: RequestOptions): APIPromise<SecurityEventResult> {
    return this._client.call(scaFactorEndpoints.recordSecurityEvent, { query: { customerId }, body }, options);
  }
}
