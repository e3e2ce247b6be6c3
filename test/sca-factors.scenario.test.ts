import { expect, it } from 'vitest';
import { BadRequestError, ConflictError, LockedError, NotFoundError, RateLimitError, type RailyardClient } from '@railyard/client';
import { SoftwarePasskeyAuthenticator } from '@railyard/wallet';
import * as OTPAuth from 'otpauth';
import { describeOverTransports } from './support/transports.js';

// SCA factors, security events and factor resets through the typed client, over every transport (REFERENCE §22): a TOTP
// enrolled with a code computed by an independent TOTP library on the sandbox's clock, a passkey from a software
// authenticator, the lockout ladder, and a reset gated by the sandbox's liveness move.

const MINUTE = 60_000;

async function euCustomer(client: RailyardClient, withPhone = true) {
  return client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR', email: 'marie@example.com', currencies: ['EUR'],
    address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' }, ...(withPhone ? { phoneNumber: '+33612345678' } : {}),
  });
}

/** What an authenticator app shows now, by the sandbox's clock. */
async function appCode(client: RailyardClient, secretBase32: string): Promise<string> {
  const now = Date.parse((await client.sandbox.clock.get()).now);
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: now });
}

const rejection = <T>(promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error as T);

describeOverTransports('SCA factors', (scope) => {
  it('enrols a TOTP with a real code, lists it, and logs in with the next code', async () => {
    const { client } = scope;
    const customer = await euCustomer(client);
    const started = await client.sca.factors.startEnrollment(customer.id, { type: 'TOTP' });
    if (started.type !== 'TOTP') throw new Error('expected a TOTP enrolment');
    expect(started.totpUri).toMatch(/^otpauth:\/\/totp\/Railyard%20sandbox:marie%40example\.com\?secret=/);
    expect((OTPAuth.URI.parse(started.totpUri) as OTPAuth.TOTP).secret.base32).toBe(started.secretBase32Encoded);

    const wrong = await rejection<BadRequestError>(client.sca.factors.confirmEnrollment(customer.id, { type: 'TOTP', secret: started.secret, code: '12345x' }));
    expect(wrong).toBeInstanceOf(BadRequestError);
    const confirmed = await client.sca.factors.confirmEnrollment(customer.id, { type: 'TOTP', secret: started.secret, code: await appCode(client, started.secretBase32Encoded) });
    if (confirmed.type !== 'TOTP') throw new Error('expected TOTP');
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    expect((await client.sca.factors.list(customer.id)).factors).toEqual([
      { factor: 'SMS_OTP', name: 'SMS to ••••••••5678' }, { factor: 'TOTP', name: 'Authenticator app' },
    ]);

    await client.sandbox.clock.advance(90_000);
    expect(await client.sca.login.start(customer.id, { factor: 'TOTP' })).toEqual({ factor: 'TOTP' });
    const session = await client.sca.login.complete(customer.id, { factor: 'TOTP', code: await appCode(client, started.secretBase32Encoded), endUserIpAddress: '203.0.113.7' });
    expect(session.status).toBe('SUCCESS');
  });

  it('enrols one passkey from a software authenticator, refuses a second, and deletes it by credentialId', async () => {
    const { client } = scope;
    const customer = await euCustomer(client, false);
    const started = await client.sca.factors.startEnrollment(customer.id, { type: 'PASSKEY' });
    if (started.type !== 'PASSKEY') throw new Error('expected a passkey enrolment');
    expect(started.relyingPartyId).toBe('localhost');
    const origin = started.allowedOrigins[0]!;
    const authenticator = new SoftwarePasskeyAuthenticator({ origin });
    const credential = await authenticator.startRegistration({ optionsJSON: started.options as never });
    const confirmed = await client.sca.factors.confirmEnrollment(customer.id, { type: 'PASSKEY', origin, credential });
    expect(confirmed).toEqual({ type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: credential.rawId, name: 'Passkey' } });
    // SMS_OTP is always listed (REFERENCE §22), under a generic name while there is no phone on file.
    const sms = { factor: 'SMS_OTP', name: 'SMS to the verified phone' };
    expect((await client.sca.factors.list(customer.id)).factors).toEqual([sms, { factor: 'PASSKEY', credentialId: credential.rawId, name: 'Passkey' }]);

    const second = await rejection<ConflictError>(client.sca.factors.startEnrollment(customer.id, { type: 'PASSKEY' }));
    expect(second).toBeInstanceOf(ConflictError);
    expect(second.code).toBe('PASSKEY_ALREADY_ENROLLED');

    await client.sca.factors.delete(customer.id, credential.rawId);
    expect((await client.sca.factors.list(customer.id)).factors).toEqual([sms]);
    const gone = await rejection<NotFoundError>(client.sca.factors.delete(customer.id, credential.rawId));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone.code).toBe('REFERENCE_NOT_FOUND');
    const unknown = await rejection<NotFoundError>(client.sca.factors.list('Customer:00000000-0000-4000-8000-000000000999'));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.code).toBe('USER_NOT_FOUND');
  });

  it('locks after 5 failed logins for 15 minutes, then 30 after the 6th, and a password reset clears it', async () => {
    const { client } = scope;
    const customer = await euCustomer(client);
    const fail = () => client.sca.recordEvent(customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    for (let n = 1; n <= 4; n++) expect(await fail()).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: null, failedAttempts: n });
    const fifth = await fail();
    const now = Date.parse((await client.sandbox.clock.get()).now);
    expect(fifth).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: new Date(now + 15 * MINUTE).toISOString(), failedAttempts: 5 });

    const locked = await rejection<LockedError>(fail());
    expect(locked).toBeInstanceOf(LockedError);
    expect(locked.code).toBe('ACCOUNT_LOCKED');
    expect(locked.details).toEqual({ lockedUntil: fifth.lockedUntil, failedAttempts: 5, suspended: false });
    expect(await rejection(client.sca.login.start(customer.id, { factor: 'SMS_OTP' }))).toBeInstanceOf(LockedError);

    await client.sandbox.clock.advance(15 * MINUTE);
    const sixth = await fail();
    expect(Date.parse(sixth.lockedUntil!) - Date.parse((await client.sandbox.clock.get()).now)).toBe(30 * MINUTE);

    expect(await client.sca.recordEvent(customer.id, { eventType: 'RESET_PASSWORD_COMPLETED' }))
      .toEqual({ eventType: 'RESET_PASSWORD_COMPLETED', suspended: false, lockedUntil: null, failedAttempts: 0 });
    expect((await client.sca.login.start(customer.id, { factor: 'SMS_OTP' })).factor).toBe('SMS_OTP');
  });

  it('resets a lost TOTP through liveness on the sandbox clock; a failed liveness is REJECTED; the 6th start in a day is 429', async () => {
    const { client } = scope;
    const customer = await euCustomer(client);
    const totp = await client.sca.factors.startEnrollment(customer.id, { type: 'TOTP' });
    if (totp.type !== 'TOTP') throw new Error('expected TOTP');
    await client.sca.factors.confirmEnrollment(customer.id, { type: 'TOTP', secret: totp.secret, code: '123456' });

    const reset = await client.sca.resets.start(customer.id, { factor: 'TOTP' });
    expect(reset.resetId).toMatch(/^TwoFactorReset:/);
    expect(await rejection(client.sca.resets.complete(customer.id, reset.resetId))).toBeInstanceOf(BadRequestError);
    expect((await client.sandbox.sca.submitLiveness(customer.id, reset.resetId, { result: 'PASSED' })).status).toBe('PENDING_REVIEW');
    await client.sandbox.clock.advance(2_000);
    expect((await client.sca.resets.retrieve(customer.id, reset.resetId)).status).toBe('LIVENESS_PASSED');
    await client.sca.resets.complete(customer.id, reset.resetId);
    const done = await client.sca.resets.retrieve(customer.id, reset.resetId);
    expect(done).toMatchObject({ status: 'COMPLETED', factor: 'TOTP', enrollmentStatus: 'PENDING', expiresAt: reset.expiresAt });
    expect((await client.sca.factors.list(customer.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP']);

    const failed = await client.sca.resets.start(customer.id, { factor: 'PASSKEY' });
    await client.sandbox.sca.submitLiveness(customer.id, failed.resetId, { result: 'FAILED' });
    await client.sandbox.clock.advance(2_000);
    expect((await client.sca.resets.retrieve(customer.id, failed.resetId)).status).toBe('REJECTED');

    for (let n = 0; n < 3; n++) await client.sca.resets.start(customer.id, { factor: 'SMS_OTP' });
    const limited = await rejection<RateLimitError>(client.withOptions({ maxRetries: 0 }).sca.resets.start(customer.id, { factor: 'SMS_OTP' }));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers?.get('retry-after'))).toBe(24 * 60 * 60 - 4);
  });
});
