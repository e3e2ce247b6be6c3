import { scaLoginEndpoints } from '@railyard/contract';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** Body of {@link ScaLogin.start}: the `factor` to log in with (`SMS_OTP` in the sandbox). */
export type ScaLoginStartParams = BodyParams<typeof scaLoginEndpoints.startScaLogin>;
/** The login challenge: `factor`, and for SMS the `challengeId` to answer and its `expiresAt`. */
export type ScaLoginChallenge = ResultOf<typeof scaLoginEndpoints.startScaLogin>;
/**
 * Body of {@link ScaLogin.complete}: `factor`, `endUserIpAddress`, the `challengeId` of {@link ScaLogin.start} (SMS),
 * and the answer: the SMS `code`, or a `passkeyAssertion` with its `origin` (exactly one).
 */
export type ScaLoginCompleteParams = BodyParams<typeof scaLoginEndpoints.completeScaLogin>;
/** An opened SCA login session: `status` `SUCCESS` and `sessionExpiresAt` (180 days later). */
export type ScaLoginSession = ResultOf<typeof scaLoginEndpoints.completeScaLogin>;

/**
 * SCA login (REFERENCE §9): opens the session of 180 days that a customer in an SCA region needs before
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

/** Strong customer authentication (SPEC §5 item 7): the login session payments in SCA regions need. */
export class Sca extends APIResource {
  /** SCA login: start, then complete with the code. */
  readonly login: ScaLogin;

  constructor(client: RailyardClient) {
    super(client);
    this.login = new ScaLogin(client);
  }
}
