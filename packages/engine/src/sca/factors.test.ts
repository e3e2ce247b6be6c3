import { SoftwarePasskeyAuthenticator } from '@railyard/wallet';
import * as OTPAuth from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { LIVENESS_REVIEW_MS, SCA_CODE } from '../sandbox/magic-values.js';
import { callApi } from '../testing/requests.js';
import { SCA_PASSKEY_ALLOWED_ORIGINS, SMS_FACTOR_NAME } from './factors.js';
import { FACTOR_RESET_TTL_MS } from './resets.js';

// SCA factors, security events and factor resets (REFERENCE §22) through the public API, on the engine's virtual clock.
type Json = Record<string, any>;
let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const MINUTE = 60_000;

async function customer(overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
    email: 'marie@example.com', currencies: ['EUR'], phoneNumber: '+33612345678',
    address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' }, ...overrides,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}
const q = (customerId: string) => `customerId=${encodeURIComponent(customerId)}`;
/** The code an authenticator app shows for this enrolment at the engine's time (an independent TOTP implementation). */
const appCode = (enrollment: Json, atMs = engine.clock.now()) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrollment.secretBase32Encoded), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: atMs });

describe('TOTP enrolment', () => {
  it('hands out a secret an authenticator app reads, confirms with the app code, and returns recovery codes once', async () => {
    const id = await customer();
    const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'TOTP' });
    expect(started.status).toBe(200);
    const uri = OTPAuth.URI.parse(started.body.totpUri) as OTPAuth.TOTP;
    expect(uri).toBeInstanceOf(OTPAuth.TOTP);
    expect(uri.secret.base32).toBe(started.body.secretBase32Encoded);
    expect(new TextDecoder().decode(uri.secret.bytes)).toBe(started.body.secret);
    expect(uri).toMatchObject({ algorithm: 'SHA1', digits: 6, period: 30, issuer: 'Railyard sandbox' });

    const wrong = String((Number(appCode(started.body)) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: started.body.secret, code: wrong });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'code' }] } } });
    const otherSecret = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: 'not-the-secret', code: appCode(started.body) });
    expect(otherSecret.body.details.errors[0].field).toBe('secret');

    engine.sandbox().advance(10_000);
    const confirmed = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: started.body.secret, code: appCode(started.body) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.type).toBe('TOTP');
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect((await call('GET', `/sca/factors?${q(id)}`)).body.factors.map((f: Json) => f.factor)).toEqual(['SMS_OTP', 'TOTP']);

    // The enrolled TOTP logs the customer in: a code of the previous step still counts, one of 2 steps ago does not.
    // Each code is accepted once, and none of a step before it afterwards (RFC 6238 §5.2); the confirming one is used.
    expect((await call('POST', `/sca/login/start?${q(id)}`, { factor: 'TOTP' })).body).toEqual({ factor: 'TOTP' });
    const login = (code: string) => call('POST', `/sca/login/complete?${q(id)}`, { factor: 'TOTP', code, endUserIpAddress: '203.0.113.7' });
    expect((await login(appCode(started.body))).status).toBe(400);
    engine.sandbox().advance(60_000);
    expect((await login(appCode(started.body, engine.clock.now() - 60_000))).status).toBe(400);
    const previous = appCode(started.body, engine.clock.now() - 30_000);
    expect((await login(previous)).body.status).toBe('SUCCESS');
    expect((await login(previous)).status).toBe(400);
    const current = appCode(started.body);
    expect((await login(current)).body.status).toBe('SUCCESS');
    expect((await login(current)).status).toBe(400);
    expect((await login(previous)).status).toBe(400);
    // The sandbox code has no step: it is accepted again.
    expect((await login(SCA_CODE)).status).toBe(200);
    expect((await login(SCA_CODE)).status).toBe(200);
    // A recovery code works once.
    expect((await login(confirmed.body.recoveryCodes[0])).status).toBe(200);
    expect((await login(confirmed.body.recoveryCodes[0])).status).toBe(400);
  });

  it('ends the failure streak on a TOTP login, as an SMS or passkey login does', async () => {
    const id = await customer();
    const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'TOTP' });
    await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: started.body.secret, code: SCA_CODE });
    for (let n = 0; n < 3; n++) await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    const login = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'TOTP', code: appCode(started.body), endUserIpAddress: '203.0.113.7' });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect((await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' })).body.failedAttempts).toBe(1);
  });

  it('confirms with the sandbox code 123456 too; a TOTP has no credentialId and cannot be deleted', async () => {
    const id = await customer({ phoneNumber: undefined });
    const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'TOTP' });
    expect((await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: started.body.secret, code: SCA_CODE })).status).toBe(200);
    // SMS_OTP is always listed, under a generic name without a phone on file.
    expect((await call('GET', `/sca/factors?${q(id)}`)).body).toEqual({ factors: [{ factor: 'SMS_OTP', name: SMS_FACTOR_NAME }, { factor: 'TOTP', name: 'Authenticator app' }] });
    expect((await call('DELETE', `/sca/factors/${encodeURIComponent(`${id}/TOTP`)}?${q(id)}`)).status).toBe(404);
  });
});

/** Enrols a passkey from a software authenticator for the customer. */
async function enrolPasskey(id: string) {
  const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'PASSKEY' });
  const origin = SCA_PASSKEY_ALLOWED_ORIGINS[0]!;
  const authenticator = new SoftwarePasskeyAuthenticator({ origin });
  const credential = await authenticator.startRegistration({ optionsJSON: started.body.options });
  const confirmed = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'PASSKEY', origin, credential });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { authenticator, origin, credential };
}

describe('passkey enrolment', () => {
  it('refuses a code for a PASSKEY login challenge: 400 on code, no failure counted, the challenge still answerable', async () => {
    const id = await customer();
    const { authenticator, origin } = await enrolPasskey(id);
    const login = await call('POST', `/sca/login/start?${q(id)}`, { factor: 'PASSKEY' });
    const smsAnswer = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'SMS_OTP', challengeId: login.body.challengeId, code: SCA_CODE, endUserIpAddress: '203.0.113.7' });
    expect(smsAnswer).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'code' }] } } });
    expect((await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' })).body.failedAttempts).toBe(1);
    const answer = await authenticator.startAuthentication({ optionsJSON: login.body.passkeyOptions });
    const passkeyAssertion = {
      credentialId: answer.rawId, clientDataJson: answer.response.clientDataJSON, authenticatorData: answer.response.authenticatorData, signature: answer.response.signature,
    };
    const completed = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'PASSKEY', challengeId: login.body.challengeId, passkeyAssertion, origin, endUserIpAddress: '203.0.113.7' });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  });


  it('verifies a real registration, allows one passkey, logs in with it, and deletes it', async () => {
    const id = await customer();
    const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'PASSKEY' });
    expect(started.body).toMatchObject({ type: 'PASSKEY', relyingPartyId: 'localhost', allowedOrigins: SCA_PASSKEY_ALLOWED_ORIGINS });
    const origin = SCA_PASSKEY_ALLOWED_ORIGINS[1]!;
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const credential = await authenticator.startRegistration({ optionsJSON: started.body.options });

    const foreign = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'PASSKEY', origin: 'https://evil.example', credential });
    expect(foreign.body.details.errors[0].field).toBe('origin');
    const confirmed = await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'PASSKEY', origin, credential });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: credential.rawId, name: 'Passkey' } });

    const again = await call('POST', `/sca/factors?${q(id)}`, { type: 'PASSKEY' });
    expect(again).toMatchObject({ status: 409, body: { code: 'PASSKEY_ALREADY_ENROLLED' } });

    const login = await call('POST', `/sca/login/start?${q(id)}`, { factor: 'PASSKEY' });
    expect(login.body).toMatchObject({ factor: 'PASSKEY', relyingPartyId: 'localhost', allowedOrigins: SCA_PASSKEY_ALLOWED_ORIGINS });
    const answer = await authenticator.startAuthentication({ optionsJSON: login.body.passkeyOptions });
    const assertion = {
      credentialId: answer.rawId, clientDataJson: answer.response.clientDataJSON, authenticatorData: answer.response.authenticatorData,
      signature: answer.response.signature, ...(answer.response.userHandle ? { userHandle: answer.response.userHandle } : {}),
    };
    const completed = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'PASSKEY', challengeId: login.body.challengeId, passkeyAssertion: assertion, origin, endUserIpAddress: '203.0.113.7' });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    // The challenge is used up: the same assertion again finds none.
    const replay = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'PASSKEY', passkeyAssertion: assertion, origin, endUserIpAddress: '203.0.113.7' });
    expect(replay.status).toBe(409);

    expect((await call('DELETE', `/sca/factors/${credential.rawId}?${q(id)}`)).status).toBe(204);
    expect((await call('DELETE', `/sca/factors/${credential.rawId}?${q(id)}`)).status).toBe(404);
    expect((await call('GET', `/sca/factors?${q(id)}`)).body.factors).toEqual([{ factor: 'SMS_OTP', name: 'SMS to ••••••••5678' }]);
  });
});

describe('passkey credential id', () => {
  it('keys the passkey by the verified credential id: a crafted rawId is 400 on credential.rawId and cannot take a TOTP id', async () => {
    const a = await customer();
    const b = await customer();
    const started = await call('POST', `/sca/factors?${q(a)}`, { type: 'PASSKEY' });
    const origin = SCA_PASSKEY_ALLOWED_ORIGINS[0]!;
    const credential = await new SoftwarePasskeyAuthenticator({ origin }).startRegistration({ optionsJSON: started.body.options });
    const crafted = { ...credential, id: `${b}/TOTP`, rawId: `${b}/TOTP` };
    const refused = await call('POST', `/sca/factors/confirm?${q(a)}`, { type: 'PASSKEY', origin, credential: crafted });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'credential.rawId' }] } } });
    expect((await call('GET', `/sca/factors?${q(a)}`)).body.factors.map((f: Json) => f.factor)).toEqual(['SMS_OTP']);
    // The other customer's TOTP enrols: no record holds its id.
    const totp = await call('POST', `/sca/factors?${q(b)}`, { type: 'TOTP' });
    expect((await call('POST', `/sca/factors/confirm?${q(b)}`, { type: 'TOTP', secret: totp.body.secret, code: SCA_CODE })).status).toBe(200);
    // The genuine registration still confirms, under its verified id.
    const confirmed = await call('POST', `/sca/factors/confirm?${q(a)}`, { type: 'PASSKEY', origin, credential });
    expect(confirmed.body.factor.credentialId).toBe(credential.rawId);
  });

  it('refuses a confirm whose enrolment was replaced while its registration was being verified, enrolling nothing', async () => {
    const id = await customer();
    const started = await call('POST', `/sca/factors?${q(id)}`, { type: 'PASSKEY' });
    const origin = SCA_PASSKEY_ALLOWED_ORIGINS[0]!;
    const credential = await new SoftwarePasskeyAuthenticator({ origin }).startRegistration({ optionsJSON: started.body.options });
    const confirming = call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'PASSKEY', origin, credential });
    const restarted = await call('POST', `/sca/factors?${q(id)}`, { type: 'PASSKEY' });
    expect(restarted.status).toBe(200);
    const confirmed = await confirming;
    expect(confirmed).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'credential' }] } } });
    expect((await call('GET', `/sca/factors?${q(id)}`)).body.factors.map((f: Json) => f.factor)).toEqual(['SMS_OTP']);
  });
});

describe('scope', () => {
  it('answers 404 for an unknown customer and 409 outside SCA regions, on every operation', async () => {
    const us = await customer({ nationality: 'US', currencies: ['USD'], phoneNumber: '+15555550100', address: { line1: '1 Main St', city: 'Austin', postalCode: '73301', state: 'TX', country: 'US' } });
    const unknown = 'Customer:00000000-0000-4000-8000-000000000999';
    for (const [method, path, body] of [
      ['GET', '/sca/factors'], ['POST', '/sca/factors', { type: 'TOTP' }], ['POST', '/sca/record-event', { eventType: 'FAILED_LOGIN_ATTEMPT' }],
      ['POST', '/sca/factors/reset', { factor: 'TOTP' }], ['GET', '/sca/factors/reset/TwoFactorReset:x'], ['DELETE', '/sca/factors/abc'],
    ] as const) {
      expect((await call(method, `${path}?${q(us)}`, body)).status, `${method} ${path}`).toBe(409);
      expect((await call(method, `${path}?${q(unknown)}`, body)), `${method} ${path}`).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND' } });
    }
    // Any customerId is looked up: one that is not even shaped like a Customer id is unknown too (not 400).
    expect(await call('GET', '/sca/factors?customerId=abc')).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND' } });
    expect((await call('POST', '/sca/login/start?customerId=abc', { factor: 'SMS_OTP' })).status).toBe(404);
    // The customer's own factor or reset that does not exist is REFERENCE_NOT_FOUND.
    const eu = await customer();
    expect((await call('DELETE', `/sca/factors/abc?${q(eu)}`)).body.code).toBe('REFERENCE_NOT_FOUND');
    expect((await call('GET', `/sca/factors/reset/TwoFactorReset:x?${q(eu)}`)).body.code).toBe('REFERENCE_NOT_FOUND');
  });
});

describe('security events', () => {
  it('climbs the lockout ladder on the engine clock, answers 423 while locked, and clears on a password reset', async () => {
    const id = await customer();
    const fail = () => call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    for (let n = 1; n <= 4; n++) expect((await fail()).body).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: null, failedAttempts: n });
    const steps: [number, number][] = [[5, 15 * MINUTE], [6, 30 * MINUTE], [7, 60 * MINUTE], [8, 24 * 60 * MINUTE]];
    for (const [n, lockMs] of steps) {
      const locked = await fail();
      expect(locked.body).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: new Date(engine.clock.now() + lockMs).toISOString(), failedAttempts: n });
      const refused = await fail();
      expect(refused).toMatchObject({ status: 423, body: { code: 'ACCOUNT_LOCKED', details: { lockedUntil: locked.body.lockedUntil, failedAttempts: n, suspended: false } } });
      // The same lock stops the SCA login.
      expect((await call('POST', `/sca/login/start?${q(id)}`, { factor: 'SMS_OTP' })).status).toBe(423);
      engine.sandbox().advance(lockMs);
    }
    expect((await fail()).body).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: true, lockedUntil: null, failedAttempts: 9 });
    engine.sandbox().advance(7 * 24 * 60 * MINUTE);
    expect((await fail())).toMatchObject({ status: 423, body: { details: { suspended: true, failedAttempts: 9 } } });

    const reset = await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(reset.body).toEqual({ eventType: 'RESET_PASSWORD_COMPLETED', suspended: false, lockedUntil: null, failedAttempts: 0 });
    expect((await fail()).body.failedAttempts).toBe(1);
  });

  it('counts wrong SCA answers in the same streak, and a password reset ends the SCA login session', async () => {
    const id = await customer();
    for (let n = 0; n < 3; n++) await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    const challenge = (await call('POST', `/sca/login/start?${q(id)}`, { factor: 'SMS_OTP' })).body;
    const wrong = await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'SMS_OTP', challengeId: challenge.challengeId, code: '000001', endUserIpAddress: '203.0.113.7' });
    expect(wrong.status).toBe(400);
    expect((await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' })).body).toMatchObject({ failedAttempts: 5, lockedUntil: expect.any(String) });
    engine.sandbox().advance(15 * MINUTE);
    const again = (await call('POST', `/sca/login/start?${q(id)}`, { factor: 'SMS_OTP' })).body;
    expect((await call('POST', `/sca/login/complete?${q(id)}`, { factor: 'SMS_OTP', challengeId: again.challengeId, code: SCA_CODE, endUserIpAddress: '203.0.113.7' })).status).toBe(200);
    expect((await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' })).body.failedAttempts).toBe(1);
    const sessions = () => ((engine.sandbox().snapshot() as { collections: Record<string, { id: string }[] | undefined> }).collections.scaSessions ?? []).map((s) => s.id);
    expect(sessions()).toEqual([id]);
    await call('POST', `/sca/record-event?${q(id)}`, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(sessions()).toEqual([]);
  });
});

describe('factor reset', () => {
  const start = (id: string, factor: string) => call('POST', `/sca/factors/reset?${q(id)}`, { factor });
  const status = async (id: string, resetId: string) => (await call('GET', `/sca/factors/reset/${resetId}?${q(id)}`)).body;
  const liveness = (id: string, resetId: string, result: string) => call('POST', `/sandbox/sca/factors/reset/${resetId}/liveness?${q(id)}`, { result });

  it('goes INITIATED → PENDING_REVIEW → LIVENESS_PASSED → COMPLETED, clears the lost TOTP, and tracks the replacement', async () => {
    const id = await customer();
    const totp = (await call('POST', `/sca/factors?${q(id)}`, { type: 'TOTP' })).body;
    await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: totp.secret, code: appCode(totp) });

    const started = await start(id, 'TOTP');
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ resetId: expect.stringMatching(/^TwoFactorReset:/), livenessAccessToken: expect.any(String), expiresAt: new Date(engine.clock.now() + FACTOR_RESET_TTL_MS).toISOString() });
    const { resetId } = started.body;
    expect(await status(id, resetId)).toEqual({ status: 'INITIATED', factor: 'TOTP', enrollmentStatus: 'PENDING', expiresAt: started.body.expiresAt, completedAt: null });
    const early = await call('POST', `/sca/factors/reset/${resetId}/complete?${q(id)}`, {});
    expect(early).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });

    expect((await liveness(id, resetId, 'PASSED')).body.status).toBe('PENDING_REVIEW');
    expect((await liveness(id, resetId, 'PASSED')).status).toBe(409);
    engine.sandbox().advance(LIVENESS_REVIEW_MS);
    expect((await status(id, resetId)).status).toBe('LIVENESS_PASSED');

    // `mobile` is ignored outside SMS_OTP resets, so its format is not checked either.
    expect((await call('POST', `/sca/factors/reset/${resetId}/complete?${q(id)}`, { mobile: { countryCode: '33', number: 'abc' } })).status).toBe(204);
    expect(await status(id, resetId)).toMatchObject({ status: 'COMPLETED', enrollmentStatus: 'PENDING', completedAt: new Date(engine.clock.now()).toISOString() });
    expect((await call('GET', `/sca/factors?${q(id)}`)).body.factors.map((f: Json) => f.factor)).toEqual(['SMS_OTP']);

    const replacement = (await call('POST', `/sca/factors?${q(id)}`, { type: 'TOTP' })).body;
    await call('POST', `/sca/factors/confirm?${q(id)}`, { type: 'TOTP', secret: replacement.secret, code: appCode(replacement) });
    expect((await status(id, resetId)).enrollmentStatus).toBe('COMPLETED');
  });

  it('REJECTED when liveness fails, EXPIRED at expiresAt; SMS_OTP completes with the new mobile', async () => {
    const id = await customer();
    const rejected = (await start(id, 'PASSKEY')).body.resetId;
    await liveness(id, rejected, 'FAILED');
    engine.sandbox().advance(LIVENESS_REVIEW_MS);
    expect((await status(id, rejected)).status).toBe('REJECTED');

    const expiring = (await start(id, 'TOTP')).body.resetId;
    engine.sandbox().advance(FACTOR_RESET_TTL_MS);
    expect((await status(id, expiring)).status).toBe('EXPIRED');
    expect((await liveness(id, expiring, 'PASSED')).status).toBe(409);

    const sms = (await start(id, 'SMS_OTP')).body.resetId;
    await liveness(id, sms, 'PASSED');
    engine.sandbox().advance(LIVENESS_REVIEW_MS);
    const noMobile = await call('POST', `/sca/factors/reset/${sms}/complete?${q(id)}`, {});
    expect(noMobile.body.details.errors[0].field).toBe('mobile');
    const badMobile = await call('POST', `/sca/factors/reset/${sms}/complete?${q(id)}`, { mobile: { countryCode: '33', number: 'abc' } });
    expect(badMobile.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['mobile.countryCode', 'mobile.number']);
    expect((await call('POST', `/sca/factors/reset/${sms}/complete?${q(id)}`, { mobile: { countryCode: '+33', number: '698765432' } })).status).toBe(204);
    expect(await status(id, sms)).toMatchObject({ status: 'COMPLETED', factor: 'SMS_OTP', enrollmentStatus: null });
    expect((await call('GET', `/customers/${id}`)).body.phoneNumber).toBe('+33698765432');
  });

  it('allows 5 starts per customer in any 24 hours, then 429 RATE_LIMITED with Retry-After', async () => {
    const id = await customer();
    await start(id, 'TOTP');
    engine.sandbox().advance(60 * MINUTE);
    for (let n = 0; n < 4; n++) expect((await start(id, 'TOTP')).status).toBe(201);
    const limited = await start(id, 'TOTP');
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(limited.headers.get('retry-after')).toBe(String(23 * 60 * 60));
    expect((await start(await customer(), 'TOTP')).status).toBe(201);
    engine.sandbox().advance(23 * 60 * MINUTE);
    expect((await start(id, 'TOTP')).status).toBe(201);
  });
});
