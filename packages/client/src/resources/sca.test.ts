import { createEngine, DEFAULT_CREDENTIALS, type Engine } from '@railyard/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RailyardClient } from '../client.js';
import { BadRequestError, ConflictError, LockedError, RateLimitError } from '../core/errors.js';
import { setup } from '../test-support.js';

// Strong customer authentication through the client (SPEC §5 item 7; REFERENCE §9): SCA login, quote authorization and
// resending the code, against an in-process engine on a regulated platform; the wire details against a fake fetch.

const SCA_CODE = '123456'; // the sandbox's SMS code
const IP = '203.0.113.7';

let engine: Engine;
let client: RailyardClient;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
  client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
});

let count = 0;
/** A customer in an SCA region (EUR), with the data an EU provider requires, a funded EUR account and an IBAN to pay. */
async function euPayer() {
  count++;
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: `Marie Curie${count}x`, platformCustomerId: `marie-${count}`, birthDate: '1867-11-07', nationality: 'FR',
    email: `marie${count}@example.com`, phoneNumber: '+33612345678', address: { line1: '36 Quai de Béthune', postalCode: '75004', country: 'FR' }, currencies: ['EUR'],
  });
  const [eur] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'EUR' })).data;
  await client.sandbox.fundInternalAccount(eur!.id, 100_000);
  const iban = await client.externalAccounts.create({
    customerId: customer.id, currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pierre Curie', countryOfResidence: 'FR' } },
  });
  const quote = (amount = 5_000) => client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: eur!.id }, destination: { destinationType: 'ACCOUNT', accountId: iban.id },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
  });
  const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'EUR' })).data[0]!.balance.amount;
  return { customer, eur: eur!, quote, balance };
}

const login = async (customerId: string) => {
  const challenge = await client.sca.login.start(customerId, { factor: 'SMS_OTP' });
  return client.sca.login.complete(customerId, { factor: 'SMS_OTP', challengeId: challenge.challengeId, code: SCA_CODE, endUserIpAddress: IP });
};

describe('client.sca.login', () => {
  it('starts and completes a login: a session of 180 days', async () => {
    const { customer } = await euPayer();
    const challenge = await client.sca.login.start(customer.id, { factor: 'SMS_OTP' });
    expect(challenge).toMatchObject({ factor: 'SMS_OTP' });
    expect(challenge.challengeId).toBeTruthy();
    expect(Date.parse(challenge.expiresAt!)).toBeGreaterThan(engine.clock.now());

    const wrong = await client.sca.login.complete(customer.id, { factor: 'SMS_OTP', challengeId: challenge.challengeId, code: '000001', endUserIpAddress: IP }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(BadRequestError);

    const session = await client.sca.login.complete(customer.id, { factor: 'SMS_OTP', challengeId: challenge.challengeId, code: SCA_CODE, endUserIpAddress: IP });
    expect(session.status).toBe('SUCCESS');
    expect(Date.parse(session.sessionExpiresAt!) - engine.clock.now()).toBe(180 * 24 * 3600 * 1000);
  });

  it('a customer outside an SCA region is a ConflictError', async () => {
    const us = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ann Arbor', currencies: ['USD'] });
    await expect(client.sca.login.start(us.id, { factor: 'SMS_OTP' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('sends customerId as a query parameter and the factor as the body', async () => {
    const { client: fake, requests } = setup([{ body: { factor: 'SMS_OTP', challengeId: 'c1' } }, { body: { status: 'SUCCESS' } }]);
    await fake.sca.login.start('Customer:1', { factor: 'SMS_OTP' });
    await fake.sca.login.complete('Customer:1', { factor: 'SMS_OTP', challengeId: 'c1', code: SCA_CODE, endUserIpAddress: IP });
    expect(requests.map((r) => [r.method, r.path, r.search.get('customerId')])).toEqual([
      ['POST', '/2025-10-13/sca/login/start', 'Customer:1'],
      ['POST', '/2025-10-13/sca/login/complete', 'Customer:1'],
    ]);
    expect(requests[0]!.body).toEqual({ factor: 'SMS_OTP' });
    expect(requests[1]!.body).toEqual({ factor: 'SMS_OTP', challengeId: 'c1', code: SCA_CODE, endUserIpAddress: IP });
  });
});

describe('client.quotes.authorize', () => {
  it('execute waits for authorization; authorize with a login session sends the payment', async () => {
    const { customer, quote, balance } = await euPayer();
    const created = await quote();
    const executed = await client.quotes.execute(created.id);
    expect(executed).toMatchObject({ status: 'PENDING_AUTHORIZATION', transactionId: created.transactionId, scaChallenge: { factor: 'SMS_OTP', purpose: 'PAYOUT' } });
    expect(await balance()).toBe(100_000);

    const noSession = await client.quotes.authorize(created.id, { code: SCA_CODE }).catch((e: unknown) => e);
    expect(noSession).toBeInstanceOf(ConflictError);
    expect((noSession as ConflictError).code).toBe('SCA_SESSION_REQUIRED');

    await login(customer.id);
    await expect(client.quotes.authorize(created.id, { code: '000001' })).rejects.toBeInstanceOf(BadRequestError);
    const authorized = await client.quotes.authorize(created.id, { code: SCA_CODE, endUserIpAddress: IP });
    expect(authorized).toMatchObject({ id: created.id, status: 'PROCESSING' });
    expect(authorized.scaChallenge).toBeUndefined();
    expect(await balance()).toBe(95_000);
    await expect(client.quotes.authorize(created.id, { code: SCA_CODE })).rejects.toBeInstanceOf(ConflictError);
  });

  it('repeated wrong codes lock the customer: a LockedError with the lock details', async () => {
    const { customer, quote } = await euPayer();
    await login(customer.id);
    const created = await quote();
    await client.quotes.execute(created.id);
    const errors: unknown[] = [];
    for (let i = 0; i < 5; i++) errors.push(await client.quotes.authorize(created.id, { code: '999999' }).catch((e: unknown) => e));
    expect(errors.slice(0, 4).every((e) => e instanceof BadRequestError)).toBe(true);
    expect(errors[4]).toBeInstanceOf(LockedError);
    expect((errors[4] as LockedError).code).toBe('ACCOUNT_LOCKED');
    expect((errors[4] as LockedError).details).toMatchObject({ failedAttempts: 5, suspended: false });
  });

  it('resendAuthorization resolves with nothing after 30 s, is a RateLimitError sooner, and a ConflictError with nothing to resend', async () => {
    const { quote } = await euPayer();
    const created = await quote();
    await expect(client.quotes.resendAuthorization(created.id)).rejects.toBeInstanceOf(ConflictError);
    await client.quotes.execute(created.id);

    const early = await client.quotes.resendAuthorization(created.id, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(RateLimitError);
    expect((early as RateLimitError).headers.get('retry-after')).toBe('30');

    engine.sandbox().advance(30_000);
    await expect(client.quotes.resendAuthorization(created.id)).resolves.toBeUndefined();
  });

  it('sends the answer to POST /quotes/{id}/authorize and nothing to /authorize/resend', async () => {
    const { client: fake, requests } = setup([{ body: { id: 'Quote:1', status: 'COMPLETED' } }, { status: 204 }]);
    await fake.quotes.authorize('Quote:1', { code: SCA_CODE, endUserIpAddress: IP });
    await fake.quotes.resendAuthorization('Quote:1');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /2025-10-13/quotes/Quote%3A1/authorize', 'POST /2025-10-13/quotes/Quote%3A1/authorize/resend']);
    expect(requests[0]!.body).toEqual({ code: SCA_CODE, endUserIpAddress: IP });
    expect(requests[1]!.rawBody).toBe('');
  });
});
