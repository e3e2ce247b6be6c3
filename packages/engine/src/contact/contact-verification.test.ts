import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { contactRulesOf, missingContactFields, verifiedChannels } from './contact-verification.js';
import { EU_MEMBER_STATES } from '../config/regions.js';

// Contact verification through the public API (SPEC §2.6, §3.4, §4.3; REFERENCE §2.1, §13).

let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});

const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const path = (id: string, rest = '') => `/customers/${encodeURIComponent(id)}${rest}`;
const MINUTE = 60_000;

const euIndividual = {
  customerType: 'INDIVIDUAL',
  fullName: 'Marie Curie',
  birthDate: '1867-11-07',
  nationality: 'FR',
  address: { line1: '11 Rue Pierre et Marie Curie', city: 'Paris', postalCode: '75005', country: 'FR' },
  currencies: ['EUR'],
  email: 'marie@example.eu',
};
const usIndividual = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com', phoneNumber: '+14155550100' };

const create = async (body: Json) => {
  const created = await call('POST', '/customers', body);
  expect(created.status).toBe(201);
  return created.body;
};

describe('which channels a region requires', () => {
  it('is keyed on countries: every EU/EEA member state (and EU) requires email, and phone when on file; others none', () => {
    for (const region of [...EU_MEMBER_STATES, 'IS', 'LI', 'NO', 'EU', 'de']) {
      expect(contactRulesOf(region), region).toEqual({ email: 'required', phone: 'if-present' });
      expect(verifiedChannels({ region, email: 'a@b.eu' }), region).toEqual(['email']);
      expect(verifiedChannels({ region, email: 'a@b.eu', phoneNumber: '+33123456789' }), region).toEqual(['email', 'phone']);
    }
    for (const region of ['US', 'GB', 'CH', 'MX', undefined]) {
      expect(verifiedChannels({ region, email: 'a@b.com', phoneNumber: '+14155550100' }), region).toEqual([]);
    }
  });

  it('lists only channels with a contact on file; a missing required email is asked for by verification instead', () => {
    expect(verifiedChannels({ region: 'DE' })).toEqual([]);
    expect(missingContactFields({ region: 'DE' })).toEqual(['email']);
    expect(missingContactFields({ region: 'DE', email: 'a@b.de' })).toEqual([]);
    expect(missingContactFields({ region: 'US' })).toEqual([]);
  });

  it('a customer with region DE gets contactVerification and cannot get a kyc-link before verifying its email', async () => {
    const de = await create({ ...euIndividual, region: 'DE', nationality: 'DE' });
    expect(de.region).toBe('DE');
    expect(de.contactVerification).toEqual({ email: 'PENDING' });
    expect((await call('POST', path(de.id, '/kyc-link'), { redirectUri: 'https://app.example.com/done' })).status).toBe(409);
    await call('POST', path(de.id, '/verify-email'));
    await call('POST', path(de.id, '/verify-email/confirm'), { code: '123456' });
    expect((await call('POST', path(de.id, '/kyc-link'), { redirectUri: 'https://app.example.com/done' })).status).toBe(201);
  });

  it('a customer of an EU/EEA region without an email is not stuck: no channel to verify, and verification asks for the email', async () => {
    const { email: _none, currencies: _eur, ...withoutEmail } = euIndividual;
    const nl = await create({ ...withoutEmail, region: 'NL', currencies: ['USD'] });
    expect(nl).not.toHaveProperty('contactVerification');
    const send = await call('POST', path(nl.id, '/verify-email'));
    expect(send).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(send.body.message).toContain('has no email to verify; add email with PATCH');
    const submitted = await call('POST', '/verifications', { customerId: nl.id });
    expect(submitted.body.errors).toContainEqual(expect.objectContaining({ type: 'MISSING_FIELD', field: 'email' }));
    const patched = await call('PATCH', path(nl.id), { customerType: 'INDIVIDUAL', email: 'anne@example.nl' });
    expect(patched.body.contactVerification).toEqual({ email: 'PENDING' });
  });

  it('shows contactVerification only for a region that requires a channel, with only those channels, PENDING', async () => {
    const eu = await create(euIndividual);
    expect(eu.region).toBe('EU');
    expect(eu.contactVerification).toEqual({ email: 'PENDING' });
    const euWithPhone = await create({ ...euIndividual, phoneNumber: '+33123456789' });
    expect(euWithPhone.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const us = await create(usIndividual);
    expect(us).not.toHaveProperty('contactVerification');
    expect((await call('GET', path(eu.id))).body.contactVerification).toEqual({ email: 'PENDING' });
  });

  it('applies to businesses in the region too', async () => {
    const business = await create({
      customerType: 'BUSINESS', region: 'EU', email: 'ops@acme.eu',
      businessInfo: { legalName: 'Acme SARL', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30' },
    });
    expect(business.contactVerification).toEqual({ email: 'PENDING' });
  });
});

describe('POST /customers/{id}/verify-email and /confirm', () => {
  it('sends a code (204) and the sandbox code 123456 verifies the channel (200 Customer)', async () => {
    const eu = await create(euIndividual);
    const sent = await call('POST', path(eu.id, '/verify-email'));
    expect(sent.status).toBe(204);
    expect(sent.body).toBeUndefined();
    const confirmed = await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: eu.id, contactVerification: { email: 'VERIFIED' } });
    expect((await call('GET', path(eu.id))).body.contactVerification).toEqual({ email: 'VERIFIED' });
  });

  it('409 for a channel the provider does not require (US customer, EU customer without phone)', async () => {
    const us = await create(usIndividual);
    for (const suffix of ['/verify-email', '/verify-phone', '/verify-email/confirm', '/verify-phone/confirm']) {
      const res = await call('POST', path(us.id, suffix), suffix.endsWith('confirm') ? { code: '123456' } : undefined);
      expect(res.status, suffix).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
      expect(res.body.message).toMatch(/needs no (email|phone number) verification/);
    }
    const eu = await create(euIndividual);
    expect((await call('POST', path(eu.id, '/verify-phone'))).status).toBe(409);
  });

  it('409 once the channel is VERIFIED, for a new send and a new confirm', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' });
    const again = await call('POST', path(eu.id, '/verify-email'));
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already VERIFIED/);
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).status).toBe(409);
  });

  it('409 when the region requires email but the customer has none on file, until a PATCH adds one', async () => {
    const noEmail = await create({ customerType: 'INDIVIDUAL', fullName: 'Jean Valjean', region: 'FR' });
    expect(noEmail).not.toHaveProperty('contactVerification');
    const res = await call('POST', path(noEmail.id, '/verify-email'));
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/has no email to verify; add email with PATCH/);
    const patched = await call('PATCH', path(noEmail.id), { customerType: 'INDIVIDUAL', email: 'jean@example.eu' });
    expect(patched.body.contactVerification).toEqual({ email: 'PENDING' });
    expect((await call('POST', path(noEmail.id, '/verify-email'))).status).toBe(204);
  });

  it('404 USER_NOT_FOUND for an unknown customer', async () => {
    const unknown = 'Customer:00000000-0000-4000-8000-000000000000';
    for (const suffix of ['/verify-email', '/verify-phone']) {
      const res = await call('POST', path(unknown, suffix));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
    expect((await call('POST', path(unknown, '/verify-email/confirm'), { code: '123456' })).body.code).toBe('USER_NOT_FOUND');
  });

  it('410 CUSTOMER_DELETED for a deleted customer', async () => {
    const eu = await create(euIndividual);
    await call('DELETE', path(eu.id));
    const res = await call('POST', path(eu.id, '/verify-email'));
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('CUSTOMER_DELETED');
  });

  it('a wrong code is 400 INVALID_INPUT on `code` saying it is wrong, and nothing changes', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    const before = await call('GET', path(eu.id));
    const res = await call('POST', path(eu.id, '/verify-email/confirm'), { code: '000000' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors).toEqual([{ field: 'code', message: expect.stringMatching(/^is wrong/) }]);
    expect(res.body.message).toMatch(/wrong/);
    expect((await call('GET', path(eu.id))).body).toEqual(before.body);
    // The pending code still works after a failed attempt.
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).status).toBe(200);
  });

  it('confirming when no code was sent is 400 saying none was sent', async () => {
    const eu = await create(euIndividual);
    const res = await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors[0]).toMatchObject({ field: 'code', message: expect.stringMatching(/no code was sent/) });
    expect((await call('GET', path(eu.id))).body.contactVerification).toEqual({ email: 'PENDING' });
  });

  it('a code expires after 10 minutes of engine time: 400 saying it expired', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    engine.sandbox().advance(10 * MINUTE);
    const res = await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0]).toMatchObject({ field: 'code', message: expect.stringMatching(/expired at .*10 minutes/) });
    expect((await call('GET', path(eu.id))).body.contactVerification).toEqual({ email: 'PENDING' });
  });

  it('is still valid just before 10 minutes', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    engine.sandbox().advance(10 * MINUTE - 1);
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).status).toBe(200);
  });

  it('re-posting issues a new code that replaces the previous one (new expiry from the new send)', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    const first = engine.sandbox().snapshot().collections.contactVerificationCodes as Json[];
    engine.sandbox().advance(8 * MINUTE);
    expect((await call('POST', path(eu.id, '/verify-email'))).status).toBe(204);
    const second = engine.sandbox().snapshot().collections.contactVerificationCodes as Json[];
    expect(second).toHaveLength(1);
    expect(second[0]!.issuedAt).not.toBe(first[0]!.issuedAt);
    // 12 minutes after the first send, 4 after the second: only the new code counts, and it is still valid.
    engine.sandbox().advance(4 * MINUTE);
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).status).toBe(200);
    // A used code is gone.
    expect(engine.sandbox().snapshot().collections.contactVerificationCodes).toBeUndefined();
  });

  it('validates the body: a missing or empty code is 400 on `code`', async () => {
    const eu = await create(euIndividual);
    for (const body of [{}, { code: '' }, { code: 123456 }]) {
      const res = await call('POST', path(eu.id, '/verify-email/confirm'), body);
      expect(res.status).toBe(400);
      expect(res.body.details.errors.map((e: Json) => e.field)).toEqual(['code']);
    }
  });
});

describe('verify-phone', () => {
  const withPhone = { ...euIndividual, phoneNumber: '+33123456789' };

  it('verifies the phone channel on its own; email stays PENDING', async () => {
    const eu = await create(withPhone);
    expect((await call('POST', path(eu.id, '/verify-phone'))).status).toBe(204);
    const res = await call('POST', path(eu.id, '/verify-phone/confirm'), { code: '123456' });
    expect(res.status).toBe(200);
    expect(res.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
  });

  it('a code sent to email does not confirm the phone', async () => {
    const eu = await create(withPhone);
    await call('POST', path(eu.id, '/verify-email'));
    const res = await call('POST', path(eu.id, '/verify-phone/confirm'), { code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].message).toMatch(/no code was sent to this customer's phone number/);
  });
});

describe('PATCH and contact verification', () => {
  it('a changed email goes back to PENDING; an unchanged one stays VERIFIED', async () => {
    const eu = await create({ ...euIndividual, phoneNumber: '+33123456789' });
    for (const channel of ['email', 'phone']) {
      await call('POST', path(eu.id, `/verify-${channel}`));
      await call('POST', path(eu.id, `/verify-${channel}/confirm`), { code: '123456' });
    }
    const renamed = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', fullName: 'Marie Sklodowska Curie' });
    expect(renamed.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    const sameEmail = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', email: euIndividual.email });
    expect(sameEmail.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    const newEmail = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', email: 'marie@sorbonne.eu' });
    expect(newEmail.status).toBe(200);
    expect(newEmail.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
    const newPhone = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', phoneNumber: '+33199999999' });
    expect(newPhone.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  it('a code sent to the old email does not verify the new one', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', email: 'new@example.eu' });
    const res = await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].message).toMatch(/no code was sent to the current email/);
    await call('POST', path(eu.id, '/verify-email'));
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).body.contactVerification).toEqual({ email: 'VERIFIED' });
  });

  it('adding a phone number in the EU adds a PENDING phone channel', async () => {
    const eu = await create(euIndividual);
    const res = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', phoneNumber: '+33123456789' });
    expect(res.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  it('moving to a region without contact verification drops contactVerification', async () => {
    const eu = await create(euIndividual);
    const res = await call('PATCH', path(eu.id), { customerType: 'INDIVIDUAL', region: 'US' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('contactVerification');
  });
});

describe('snapshots', () => {
  it('pending codes survive a snapshot and restore, and a restore checks their shape', async () => {
    const eu = await create(euIndividual);
    await call('POST', path(eu.id, '/verify-email'));
    const snapshot = engine.sandbox().snapshot();
    engine.sandbox().reset();
    engine.sandbox().restore(snapshot);
    expect((await call('POST', path(eu.id, '/verify-email/confirm'), { code: '123456' })).status).toBe(200);

    const broken = structuredClone(snapshot) as Json;
    broken.collections.contactVerificationCodes[0].channel = 'fax';
    expect(() => engine.sandbox().restore(broken)).toThrow();
  });
});
