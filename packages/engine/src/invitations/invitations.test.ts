import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// UMA invitations (REFERENCE §18): create, get by code, claim (by any platform), cancel (by the creator), expiry.

let engine: Engine;
const call = (method: string, path: string, body?: unknown, credentials?: { clientId: string; clientSecret: string }) =>
  callApi(engine, method, path, body, undefined, credentials);
beforeEach(() => {
  engine = createEngine();
});

const invite = (extra: Json = {}, credentials?: { clientId: string; clientSecret: string }) =>
  call('POST', '/invitations', { inviterUma: '$ada@sandbox.example', ...extra }, credentials);
const events = () => engine.sandbox().events({ limit: 100, type: 'INVITATION.CLAIMED' }).data;

describe('invitations', () => {
  it('creates a PENDING invitation with an 8-hex code and a claim url; the amount in the inviter\'s currency', async () => {
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['EUR'] })).body;
    const created = await invite({ inviterUma: customer.umaAddress, firstName: 'Grace', amountToSend: 2_500 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: expect.stringMatching(/^[0-9a-f]{8}$/), status: 'PENDING', inviterUma: customer.umaAddress, firstName: 'Grace',
      amountToSend: { amount: 2_500, currency: { code: 'EUR' } }, createdAt: expect.any(String),
    });
    expect(created.body.url).toBe(`https://uma.me/i/${created.body.code}`);
    expect(created.body).not.toHaveProperty('expiresAt');
    expect((await call('GET', `/invitations/${created.body.code}`)).body).toEqual(created.body);
    // An inviter the platform does not know shows USD.
    expect((await invite({ amountToSend: 100 })).body.amountToSend).toMatchObject({ currency: { code: 'USD' } });
  });

  it('is claimed by another platform: CLAIMED with the invitee and claimedAt, and INVITATION.CLAIMED goes to the creator only', async () => {
    const code = (await invite()).body.code;
    const other = engine.createPlatform({ name: 'new provider' });
    expect((await call('GET', `/invitations/${code}`, undefined, other)).status).toBe(200);
    const claimed = await call('POST', `/invitations/${code}/claim`, { inviteeUma: '$grace@provider.example' }, other);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@provider.example', claimedAt: expect.any(String) });
    expect(events().map((e) => (e.data as Json).code)).toEqual([code]);
    expect(engine.sandbox(other.id).events({ limit: 10, type: 'INVITATION.CLAIMED' }).data).toEqual([]);
    const again = await call('POST', `/invitations/${code}/claim`, { inviteeUma: '$x@provider.example' });
    expect([again.status, again.body.code]).toEqual([400, 'INVITATION_ALREADY_CLAIMED']);
    expect((await call('POST', `/invitations/${code}/cancel`)).body.code).toBe('INVITATION_ALREADY_CLAIMED');
  });

  it('is cancelled by its creator only (403 for another platform); a cancelled one cannot be claimed', async () => {
    const code = (await invite()).body.code;
    const other = engine.createPlatform({ name: 'someone else' });
    const forbidden = await call('POST', `/invitations/${code}/cancel`, undefined, other);
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await call('POST', `/invitations/${code}/cancel`)).body.status).toBe('CANCELLED');
    const claim = await call('POST', `/invitations/${code}/claim`, { inviteeUma: '$x@provider.example' });
    expect([claim.status, claim.body.code]).toEqual([400, 'INVITATION_CANCELLED']);
    expect((await call('POST', `/invitations/${code}/cancel`)).body.code).toBe('INVITATION_CANCELLED');
  });

  it('expires at expiresAt on the clock: EXPIRED, and then neither claimed nor cancelled', async () => {
    const expiresAt = new Date(engine.clock.now() + 3_600_000).toISOString();
    const code = (await invite({ expiresAt })).body.code;
    engine.sandbox().advance(3_599_999);
    expect((await call('GET', `/invitations/${code}`)).body.status).toBe('PENDING');
    engine.sandbox().advance(1);
    expect((await call('GET', `/invitations/${code}`)).body).toMatchObject({ status: 'EXPIRED', expiresAt });
    const claim = await call('POST', `/invitations/${code}/claim`, { inviteeUma: '$x@provider.example' });
    expect([claim.status, claim.body.code, claim.body.details.errors[0].field]).toEqual([400, 'INVALID_INPUT', 'invitationCode']);
  });

  it('refuses: INVITATIONS_NOT_CONFIGURED, bad fields all listed, an unknown code 404 INVITATION_NOT_FOUND', async () => {
    const unbranded = engine.createPlatform({ name: 'no branding', invitations: false });
    const refused = await invite({}, unbranded);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVITATIONS_NOT_CONFIGURED']);
    const bad = await call('POST', '/invitations', { inviterUma: 'ada', amountToSend: -1, expiresAt: 'tomorrow' });
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['amountToSend', 'expiresAt', 'inviterUma']);
    const missing = await call('GET', '/invitations/0000beef');
    expect([missing.status, missing.body.code]).toEqual([404, 'INVITATION_NOT_FOUND']);
    expect((await call('POST', '/invitations/0000beef/claim', { inviteeUma: '$x@p.example' })).body.code).toBe('INVITATION_NOT_FOUND');
    expect((await call('POST', '/invitations/x/claim', { inviteeUma: 'nope' })).status).toBe(400);
  });
});
