import { LockedError, type RailyardClient } from '@railyard/client';

/**
 * What an authenticator app does (RFC 6238): HMAC-SHA-1 of the 30-second step number under the shared secret,
 * truncated to 6 digits. `secretBase32` is what the app scans from the `otpauth://` URI.
 */
export async function totpCode(secretBase32: string, atMs: number): Promise<string> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Uint8Array.from(bits.match(/.{8}/g) ?? [], (byte) => parseInt(byte, 2));
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(Math.floor(atMs / 30_000)));
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, counter));
  const offset = digest[19]! & 0x0f;
  const value = new DataView(digest.buffer).getUint32(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

/**
 * The SCA factors example, on a sandbox with a virtual clock: a French customer enrols a TOTP app (the code computed
 * here from the secret, on the sandbox's clock), logs in with it, is locked out by five failed logins the platform
 * reports, is let back in by a password reset, then resets the lost TOTP through the sandbox's liveness check.
 * Returns the trace it printed.
 */
export async function runScaFactors(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };
  const now = async () => Date.parse((await client.sandbox.clock.get()).now);
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR', email: 'marie@example.com', currencies: ['EUR'],
    phoneNumber: '+33612345678', address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
  });

  const enrolment = await client.sca.factors.startEnrollment(customer.id, { type: 'TOTP' });
  if (enrolment.type !== 'TOTP') throw new Error(`expected a TOTP enrolment, got ${enrolment.type}`);
  say(`TOTP URI: ${enrolment.totpUri.slice(0, enrolment.totpUri.indexOf('?'))}`);
  const confirmed = await client.sca.factors.confirmEnrollment(customer.id, {
    type: 'TOTP', secret: enrolment.secret, code: await totpCode(enrolment.secretBase32Encoded, await now()),
  });
  if (confirmed.type !== 'TOTP') throw new Error('expected TOTP');
  say(`Enrolled, ${confirmed.recoveryCodes.length} recovery codes`);
  say(`Factors: ${(await client.sca.factors.list(customer.id)).factors.map((f) => f.factor).join(', ')}`);

  await client.sandbox.clock.advance(60_000);
  const session = await client.sca.login.complete(customer.id, {
    factor: 'TOTP', code: await totpCode(enrolment.secretBase32Encoded, await now()), endUserIpAddress: '203.0.113.7',
  });
  say(`Login with the app's code: ${session.status}`);

  let last = await client.sca.recordEvent(customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
  for (let n = 1; n < 5; n++) last = await client.sca.recordEvent(customer.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
  say(`After ${last.failedAttempts} failed logins: locked for ${(Date.parse(last.lockedUntil!) - (await now())) / 60_000} minutes`);
  const refused = await client.sca.login.start(customer.id, { factor: 'SMS_OTP' }).catch((error: unknown) => error);
  say(`Login while locked: ${refused instanceof LockedError ? `${refused.status} ${refused.code}` : 'allowed'}`);
  const cleared = await client.sca.recordEvent(customer.id, { eventType: 'RESET_PASSWORD_COMPLETED' });
  say(`Password reset: failedAttempts ${cleared.failedAttempts}, lockedUntil ${cleared.lockedUntil}`);

  const reset = await client.sca.resets.start(customer.id, { factor: 'TOTP' });
  say(`Reset: ${(await client.sca.resets.retrieve(customer.id, reset.resetId)).status}`);
  say(`Liveness submitted: ${(await client.sandbox.sca.submitLiveness(customer.id, reset.resetId, { result: 'PASSED' })).status}`);
  await client.sandbox.clock.advance(2_000);
  say(`After review: ${(await client.sca.resets.retrieve(customer.id, reset.resetId)).status}`);
  await client.sca.resets.complete(customer.id, reset.resetId);
  const done = await client.sca.resets.retrieve(customer.id, reset.resetId);
  say(`Reset ${done.status}, replacement ${done.enrollmentStatus}; factors: ${(await client.sca.factors.list(customer.id)).factors.map((f) => f.factor).join(', ')}`);
  return trace;
}
