import fc from 'fast-check';
import { ApiErrorBody } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// Embedded-wallet requests with real ids and arbitrary bodies and signature headers around them: never a 5xx, always
// the §2.4 error shape.

describe('malformed wallet requests', () => {
  it('never produce a 5xx', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(engine, method, path, body, headers);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Fuzz Wallet', email: 'fuzz@example.com', currencies: ['USDB'] })).body;
    const walletId = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id as string;
    const credentialId = (await call('GET', `/auth/credentials?accountId=${walletId}`)).body.data[0].id as string;
    const first = (await call('PATCH', `/internal-accounts/${walletId}`, { privateEnabled: true })).body as Json;

    const ids = fc.constantFrom(walletId, credentialId, customer.id, first.requestId, 'Session:nope', '');
    const anyValue = fc.oneof(ids, fc.anything(), fc.string({ maxLength: 200 }), fc.constantFrom('EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY', 'a.b.c', `02${'f'.repeat(64)}`));
    const body = fc.oneof(
      anyValue,
      fc.record({ type: anyValue, accountId: ids, oidcToken: anyValue, encryptedOtpBundle: anyValue, clientPublicKey: anyValue, challenge: anyValue,
        attestation: fc.record({ credentialId: anyValue, clientDataJson: anyValue, attestationObject: anyValue }, { requiredKeys: [] }),
        assertion: fc.record({ credentialId: anyValue, clientDataJson: anyValue, authenticatorData: anyValue, signature: anyValue }, { requiredKeys: [] }),
        nickname: anyValue, privateEnabled: anyValue }, { requiredKeys: [] }),
    );
    const headers = fc.record({
      'Service-Wallet-Signature': fc.oneof(fc.string({ maxLength: 300 }).filter((v) => /^[\x21-\x7e]*$/.test(v)), fc.constant('sandbox-valid-signature'), fc.constant('eyJwdWJsaWNLZXkiOiIwMiJ9')),
      'Request-Id': fc.oneof(ids, fc.string({ maxLength: 60 }).filter((v) => /^[\x21-\x7e]*$/.test(v))),
    }, { requiredKeys: [] });
    const target = fc.constantFrom(
      ['POST', '/auth/credentials'], ['POST', `/auth/credentials/${credentialId}/challenge`], ['POST', `/auth/credentials/${credentialId}/verify`],
      ['DELETE', `/auth/credentials/${credentialId}`], ['POST', `/internal-accounts/${walletId}/export`], ['PATCH', `/internal-accounts/${walletId}`],
      ['POST', '/auth/sessions/Session:nope/refresh'], ['PATCH', `/customers/${customer.id}`],
    );
    await fc.assert(
      fc.asyncProperty(target, body, headers, async ([method, path], payload, extra) => {
        const response = await call(method!, path!, method === 'DELETE' ? undefined : payload, extra as Record<string, string>);
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        if (response.status >= 400) expect(ApiErrorBody.safeParse(response.body).success).toBe(true);
      }),
      { numRuns: 300, seed: Number(process.env.FC_SEED ?? 20261124) },
    );
  });
});
