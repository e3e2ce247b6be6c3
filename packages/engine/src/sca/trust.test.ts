import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi } from '../testing/requests.js';
import { SCA_CODE } from '../sandbox/magic-values.js';
import { LOCKOUT_LADDER, SCA_CHALLENGE_TTL_MS } from './sca.js';

// Trusted beneficiaries (REFERENCE §2.3, §9) through the public API: SCA challenge, confirm, untrust, and the delete guard.
let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

const person = (overrides: Record<string, unknown>) => ({
  customerType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR', email: 'marie@example.com',
  address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
  ...overrides,
});
const eurAccount = {
  accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000',
  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pierre Curie', countryOfResidence: 'FR' },
};

async function accountOf(customer: Record<string, unknown>): Promise<{ customerId: string; accountId: string }> {
  const created = await call('POST', '/customers', customer);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const account = await call('POST', '/customers/external-accounts', { customerId: created.body.id, currency: 'EUR', accountInfo: eurAccount });
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  return { customerId: created.body.id, accountId: account.body.id };
}
const euCustomer = (n = 1) => person({ platformCustomerId: `marie-${n}`, currencies: ['EUR'], phoneNumber: '+33612345678' });

describe('trusting a beneficiary', () => {
  it('issues an SMS challenge, and trusts the account once the code is confirmed', async () => {
    const { accountId } = await accountOf(euCustomer());
    const started = await call('POST', `/customers/external-accounts/${accountId}/trust`);
    expect(started.status).toBe(200);
    const challenge = started.body.scaChallenge;
    expect(challenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'TRUST_BENEFICIARY' });
    expect(challenge.id).toMatch(/^ScaChallenge:/);
    expect(Date.parse(challenge.expiresAt) - engine.clock.now()).toBe(SCA_CHALLENGE_TTL_MS);

    const confirmed = await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, { challengeId: challenge.id, code: SCA_CODE });
    expect(confirmed).toMatchObject({ status: 200, body: { trusted: true } });

    const deleted = await call('DELETE', `/customers/external-accounts/${accountId}`);
    expect(deleted).toMatchObject({ status: 409, body: { code: 'BENEFICIARY_TRUSTED' } });
    expect((await call('GET', `/customers/external-accounts/${accountId}`)).status).toBe(200);
  });

  it('untrusts through its own challenge, after which the account can be deleted', async () => {
    const { accountId } = await accountOf(euCustomer());
    await call('POST', `/customers/external-accounts/${accountId}/trust`);
    await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, { code: SCA_CODE });

    const started = await call('POST', `/customers/external-accounts/${accountId}/untrust`);
    expect(started.body.scaChallenge.purpose).toBe('UNTRUST_BENEFICIARY');
    expect((await call('DELETE', `/customers/external-accounts/${accountId}`)).status).toBe(409);
    expect((await call('POST', `/customers/external-accounts/${accountId}/untrust/confirm`, { code: SCA_CODE })).body).toEqual({ trusted: false });
    expect((await call('DELETE', `/customers/external-accounts/${accountId}`)).status).toBe(204);
  });

  it('refuses a trust challenge answer on the untrust step (a challenge authorizes only its own action)', async () => {
    const { accountId } = await accountOf(euCustomer());
    const trust = (await call('POST', `/customers/external-accounts/${accountId}/trust`)).body.scaChallenge;
    const wrongStep = await call('POST', `/customers/external-accounts/${accountId}/untrust/confirm`, { challengeId: trust.id, code: SCA_CODE });
    expect(wrongStep).toMatchObject({ status: 409, body: { code: 'INVALID_STATE_TRANSITION' } });
    const other = await accountOf(euCustomer(2));
    const crossAccount = await call('POST', `/customers/external-accounts/${other.accountId}/trust/confirm`, { challengeId: trust.id, code: SCA_CODE });
    expect(crossAccount).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
  });

  it('answers 409 for customers outside SCA regions, and for customers with no factor', async () => {
    const us = await accountOf(person({ platformCustomerId: 'us-1', nationality: 'US', currencies: ['USD'], phoneNumber: '+15555550100' }));
    const outside = await call('POST', `/customers/external-accounts/${us.accountId}/trust`);
    expect(outside).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(outside.body.message).toContain('only customers of an EU/EEA region use it');

    const noPhone = await accountOf(person({ platformCustomerId: 'eu-no-phone', currencies: ['EUR'] }));
    const noFactor = await call('POST', `/customers/external-accounts/${noPhone.accountId}/trust`);
    expect(noFactor).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(noFactor.body.message).toContain('phoneNumber');
  });

  it('answers 404 for unknown and platform accounts, and 409 for a second trust or an untrust of an untrusted account', async () => {
    expect((await call('POST', '/customers/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000/trust')).status).toBe(404);
    const platformAccount = await call('POST', '/platform/external-accounts', { currency: 'EUR', accountInfo: eurAccount });
    expect((await call('POST', `/customers/external-accounts/${platformAccount.body.id}/trust`)).status).toBe(404);

    const { accountId } = await accountOf(euCustomer());
    expect((await call('POST', `/customers/external-accounts/${accountId}/untrust`)).body.code).toBe('INVALID_STATE_TRANSITION');
    await call('POST', `/customers/external-accounts/${accountId}/trust`);
    await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, { code: SCA_CODE });
    expect((await call('POST', `/customers/external-accounts/${accountId}/trust`)).body.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('confirms nothing without a challenge, after it expired, or once it was used; a new challenge replaces the old', async () => {
    const { accountId } = await accountOf(euCustomer());
    const confirm = (body: Record<string, unknown> = { code: SCA_CODE }) => call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, body);
    expect((await confirm()).status).toBe(409);

    await call('POST', `/customers/external-accounts/${accountId}/trust`);
    engine.sandbox().advance(SCA_CHALLENGE_TTL_MS);
    expect((await confirm()).body.message).toContain('expired');

    const first = (await call('POST', `/customers/external-accounts/${accountId}/trust`)).body.scaChallenge;
    const second = (await call('POST', `/customers/external-accounts/${accountId}/trust`)).body.scaChallenge;
    expect((await confirm({ challengeId: first.id, code: SCA_CODE })).status).toBe(409);
    expect((await confirm({ challengeId: second.id, code: SCA_CODE })).body).toEqual({ trusted: true });
  });

  it('lists every invalid field of a malformed confirm, and a passkey answer to an SMS challenge is 400', async () => {
    const { accountId } = await accountOf(euCustomer());
    await call('POST', `/customers/external-accounts/${accountId}/trust`);
    const empty = await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, { challengeId: 7 });
    expect(empty.status).toBe(400);
    expect(empty.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['challengeId', 'code']);
    const passkey = await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, {
      passkeyAssertion: { credentialId: 'Y3JlZA', clientDataJson: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      origin: 'https://wallet.example',
    });
    expect(passkey.status).toBe(400);
    expect(passkey.body.details.errors[0].field).toBe('passkeyAssertion');
  });
});

describe('SCA lockout', () => {
  it('locks the customer on the 5th wrong code for 15 minutes, then longer, and suspends on the 9th', async () => {
    const { accountId } = await accountOf(euCustomer());
    const path = `/customers/external-accounts/${accountId}/trust`;
    const wrong = async () => {
      await call('POST', path);
      return call('POST', `${path}/confirm`, { code: '000000' });
    };
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await wrong();
      expect(response).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'code' }] } } });
    }
    const locking = await wrong();
    expect(locking).toMatchObject({ status: 423, body: { code: 'ACCOUNT_LOCKED', details: { failedAttempts: 5, suspended: false } } });
    expect(Date.parse(locking.body.details.lockedUntil) - engine.clock.now()).toBe(LOCKOUT_LADDER[0]!.lockMs);
    expect((await call('POST', path)).status).toBe(423);

    // Each later failure after the lock lifts climbs one rung.
    for (const rung of LOCKOUT_LADDER.slice(1)) {
      engine.sandbox().advance(24 * 60 * 60 * 1000);
      const response = await wrong();
      expect(response.status).toBe(423);
      expect(response.body.details.failedAttempts).toBe(rung.failures);
      if (rung.lockMs === 'SUSPENDED') expect(response.body.details).toEqual({ failedAttempts: 9, suspended: true });
      else expect(Date.parse(response.body.details.lockedUntil) - engine.clock.now()).toBe(rung.lockMs);
    }
    engine.sandbox().advance(365 * 24 * 60 * 60 * 1000);
    expect((await call('POST', path)).body.code).toBe('ACCOUNT_LOCKED');
  });

  it('a right code clears the failure streak', async () => {
    const { accountId } = await accountOf(euCustomer());
    const path = `/customers/external-accounts/${accountId}/trust`;
    for (let attempt = 0; attempt < 4; attempt++) {
      await call('POST', path);
      await call('POST', `${path}/confirm`, { code: '999999' });
    }
    await call('POST', path);
    expect((await call('POST', `${path}/confirm`, { code: SCA_CODE })).body).toEqual({ trusted: true });
    await call('POST', `${path.replace('/trust', '/untrust')}`);
    expect((await call('POST', `${path.replace('/trust', '/untrust')}/confirm`, { code: '111111' })).status).toBe(400);
  });
});
