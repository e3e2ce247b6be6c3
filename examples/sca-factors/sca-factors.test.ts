import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import * as OTPAuth from 'otpauth';
import { expect, it } from 'vitest';
import { runScaFactors, totpCode } from './sca-factors.js';

it('computes the codes an authenticator app shows (checked against the otpauth library)', async () => {
  const secret = new OTPAuth.Secret({ size: 20 });
  for (const at of [0, 59_000, 1_111_111_109_000, Date.now()]) {
    expect(await totpCode(secret.base32, at)).toBe(new OTPAuth.TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at }));
  }
});

it('enrols a TOTP, logs in with it, is locked out and let back in, and resets the lost factor, in process', async () => {
  const engine = createEngine();
  const client = createClient({ baseUrl: 'http://sandbox.in-process.test/2025-10-13', fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runScaFactors(client, () => undefined);
  expect(trace).toEqual([
    'TOTP URI: otpauth://totp/Railyard%20sandbox:marie%40example.com',
    'Enrolled, 10 recovery codes',
    'Factors: SMS_OTP, TOTP',
    "Login with the app's code: SUCCESS",
    'After 5 failed logins: locked for 15 minutes',
    'Login while locked: 423 ACCOUNT_LOCKED',
    'Password reset: failedAttempts 0, lockedUntil null',
    'Reset: INITIATED',
    'Liveness submitted: PENDING_REVIEW',
    'After review: LIVENESS_PASSED',
    'Reset COMPLETED, replacement PENDING; factors: SMS_OTP',
  ]);
});
