import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { LIVENESS_REVIEW_MS } from '../sandbox/magic-values.js';
import { callApi } from '../testing/requests.js';
import { FACTOR_RESETS, FactorResetRecord } from './resets.js';

// A factor reset's liveness access token is a bearer token: the start's answer carries it, the state keeps its hash.
type Json = Record<string, any>;
let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function euCustomer(): Promise<string> {
  const created = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
    email: 'marie@example.com', currencies: ['EUR'], phoneNumber: '+33612345678',
    address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

describe('liveness access tokens', () => {
  it('are in the start answer only: the state keeps their SHA-256, and a restored copy goes on as before', async () => {
    const id = await euCustomer();
    const q = `customerId=${encodeURIComponent(id)}`;
    const started = (await call('POST', `/sca/factors/reset?${q}`, { factor: 'TOTP' })).body;
    expect(started.livenessAccessToken).toMatch(/^[0-9a-f]{48}$/);
    const state = JSON.stringify(engine.sandbox().snapshot());
    expect(state).not.toContain(started.livenessAccessToken);
    const [stored] = engine.sandbox().snapshot().collections[FACTOR_RESETS] as Json[];
    expect(stored).toMatchObject({ id: started.resetId, livenessAccessTokenHash: sha256(started.livenessAccessToken) });
    expect(stored).not.toHaveProperty('livenessAccessToken');

    engine.sandbox().restore(JSON.parse(state));
    expect((await call('POST', `/sandbox/sca/factors/reset/${started.resetId}/liveness?${q}`, { result: 'PASSED' })).body.status).toBe('PENDING_REVIEW');
    engine.sandbox().advance(LIVENESS_REVIEW_MS);
    expect((await call('GET', `/sca/factors/reset/${started.resetId}?${q}`)).body.status).toBe('LIVENESS_PASSED');
  });

  it('a reset of an older snapshot, with its token in the clear, is restored with the token hashed', () => {
    const legacy = {
      id: 'TwoFactorReset:1', customerId: 'Customer:1', factor: 'TOTP', status: 'INITIATED', livenessAccessToken: 'f'.repeat(48),
      createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T01:00:00.000Z',
    };
    const { livenessAccessToken: _token, ...rest } = legacy;
    expect(FactorResetRecord.parse(legacy)).toEqual({ ...rest, livenessAccessTokenHash: sha256('f'.repeat(48)) });
    expect(FactorResetRecord.safeParse(rest).success).toBe(false);
  });
});

describe('completing a reset', () => {
  async function passedReset(customerId: string, factor: 'TOTP' | 'PASSKEY' | 'SMS_OTP'): Promise<string> {
    const q = `customerId=${encodeURIComponent(customerId)}`;
    const { resetId } = (await call('POST', `/sca/factors/reset?${q}`, { factor })).body;
    await call('POST', `/sandbox/sca/factors/reset/${resetId}/liveness?${q}`, { result: 'PASSED' });
    engine.sandbox().advance(LIVENESS_REVIEW_MS);
    return resetId;
  }

  it('takes no body: a TOTP or PASSKEY reset has nothing to send', async () => {
    const id = await euCustomer();
    const q = `customerId=${encodeURIComponent(id)}`;
    for (const factor of ['TOTP', 'PASSKEY'] as const) {
      const resetId = await passedReset(id, factor);
      const completed = await call('POST', `/sca/factors/reset/${resetId}/complete?${q}`);
      expect(completed.status, JSON.stringify(completed.body)).toBe(204);
      expect((await call('GET', `/sca/factors/reset/${resetId}?${q}`)).body).toMatchObject({ status: 'COMPLETED', factor });
    }
  });

  it('an SMS_OTP reset without a body (or with an empty one) is 400 on mobile, and stays LIVENESS_PASSED', async () => {
    const id = await euCustomer();
    const q = `customerId=${encodeURIComponent(id)}`;
    const resetId = await passedReset(id, 'SMS_OTP');
    for (const body of [undefined, {}]) {
      const refused = await call('POST', `/sca/factors/reset/${resetId}/complete?${q}`, body);
      expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'mobile', constraint: { required: true } }] } } });
    }
    expect((await call('GET', `/sca/factors/reset/${resetId}?${q}`)).body.status).toBe('LIVENESS_PASSED');
    const completed = await call('POST', `/sca/factors/reset/${resetId}/complete?${q}`, { mobile: { countryCode: '+33', number: '698765432' } });
    expect(completed.status, JSON.stringify(completed.body)).toBe(204);
    expect((await call('GET', `/customers/${id}`)).body.phoneNumber).toBe('+33698765432');
  });
});
