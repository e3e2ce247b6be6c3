import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { checkStamp } from './signed-retry.js';
import { readVectors, type VectorFile } from '../../../../test/support/vectors.js';

// The reference clients' own outputs (shared/vectors) through the engine's checks: every case accepted or refused as
// the vectors say (stamps.json, otp-bundles.json, oauth-nonce.json).

const vector = (name: VectorFile) => readVectors<Json>(name);

describe('reference stamps through the engine', () => {
  const stamps = vector('stamps.json');
  it.each((stamps.cases as Json[]).map((c) => [c.name as string, c] as const))('accepts %s', async (_name: string, c: Json) => {
    await expect(checkStamp(c.stamp, c.payload, (key) => (key === c.publicKeyCompressedHex ? 'session' : undefined))).resolves.toBe('session');
  });
  it.each((stamps.mustReject as Json[]).map((c) => [c.name as string, c] as const))('refuses %s', async (_name: string, c: Json) => {
    await expect(checkStamp(c.stamp, c.payload, (key) => (key === c.publicKeyCompressedHex ? 'session' : undefined))).rejects.toMatchObject({ status: 401 });
  });
});

describe('reference OTP bundles through the verify endpoint', () => {
  const bundles = vector('otp-bundles.json');
  /** An engine whose wallet credential has the vector's target key outstanding, as if /challenge had issued it. */
  async function withTarget(targetPrivateKeyHex: string, targetPublicKeyUncompressedHex: string) {
    const engine = createEngine({ platform: { regulated: true } });
    const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Vera Vector', email: 'vera@example.com', currencies: ['USDB'] })).body;
    const walletId = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    const credential = (await call('GET', `/auth/credentials?accountId=${walletId}`)).body.data[0];
    const snapshot = structuredClone(engine.sandbox().snapshot()); // frozen as taken: a copy to edit
    const record = (snapshot.collections.authCredentials as Json[]).find((c) => c.id === credential.id)!;
    record.otp = { targetPrivateKeyHex, targetPublicKeyHex: targetPublicKeyUncompressedHex, issuedAt: engine.sandbox().clock().now };
    engine.sandbox().restore(snapshot);
    return (encryptedOtpBundle: string) => call('POST', `/auth/credentials/${credential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle });
  }

  it.each((bundles.cases as Json[]).map((c) => [c.name as string, c] as const))('%s opens; only the sandbox code 000000 gets the signed retry', async (_name: string, c: Json) => {
    const verify = await withTarget(c.targetPrivateKeyHex, c.targetPublicKeyUncompressedHex);
    const answer = await verify(c.encryptedOtpBundle);
    if (JSON.parse(c.expectedPlaintext).otp_code === '000000') expect(answer.status).toBe(202);
    else expect(answer).toMatchObject({ status: 401, body: { details: { reason: 'Invalid OTP code' } } });
  });

  it.each((bundles.mustReject as Json[]).map((c) => [c.name as string, c] as const))('refuses %s with 401', async (_name: string, c: Json) => {
    const target = bundles.cases.find((k: Json) => k.name === c.appliesTo)!;
    const verify = await withTarget(target.targetPrivateKeyHex, target.targetPublicKeyUncompressedHex);
    expect((await verify(c.encryptedOtpBundle)).status).toBe(401);
  });
});
