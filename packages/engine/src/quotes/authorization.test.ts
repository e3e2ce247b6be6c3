import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { SCA_CODE } from '../sandbox/magic-values.js';
import { SCA_SESSION_MS } from '../sca/login.js';
import { SCA_CHALLENGE_TTL_MS } from '../sca/sca.js';
import { callApi, type Json } from '../testing/requests.js';
import { SCA_AUTHORIZE_ATTEMPTS, SCA_AUTHORIZE_WINDOW_MS, SCA_RESEND_INTERVAL_MS } from './quotes.js';

// Strong customer authentication of payments (SPEC §3.5, §5 item 7; REFERENCE §4.1, §4.2, §9) through the public API.

let engine: Engine;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

let count = 0;
async function euCustomer(): Promise<{ id: string; eur: string }> {
  const created = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL', fullName: `Marie Curie${++count}x`, platformCustomerId: `marie-${count}`, birthDate: '1867-11-07', nationality: 'FR',
    email: `marie${count}@example.com`, phoneNumber: '+33612345678', address: { line1: '36 Quai de Béthune', postalCode: '75004', country: 'FR' }, currencies: ['EUR'],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const eur = (await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`)).body.data[0].id;
  return { id: created.body.id, eur };
}
async function payout(customer: { id: string; eur: string }, amount = 5_000): Promise<Json> {
  await call('POST', `/sandbox/internal-accounts/${customer.eur}/fund`, { amount: 100_000 });
  const account = await call('POST', '/customers/external-accounts', {
    customerId: customer.id, currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pierre Curie', countryOfResidence: 'FR' } },
  });
  const quote = await call('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: customer.eur }, destination: { destinationType: 'ACCOUNT', accountId: account.body.id },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  return quote.body;
}
const login = async (customerId: string) => {
  const started = await call('POST', `/sca/login/start?customerId=${customerId}`, { factor: 'SMS_OTP' });
  expect(started.status).toBe(200);
  return call('POST', `/sca/login/complete?customerId=${customerId}`, { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.7', challengeId: started.body.challengeId, code: SCA_CODE });
};
const balanceOf = async (accountId: string) =>
  (await call('GET', '/customers/internal-accounts?limit=100')).body.data.find((a: Json) => a.id === accountId).balance.amount;

describe('SCA login', () => {
  it('opens a session of 180 days; customers outside SCA regions get 409', async () => {
    const marie = await euCustomer();
    const completed = await login(marie.id);
    expect(completed).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
    expect(Date.parse(completed.body.sessionExpiresAt) - engine.clock.now()).toBe(SCA_SESSION_MS);
    const us = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ann Arbor', currencies: ['USD'] });
    expect((await call('POST', `/sca/login/start?customerId=${us.body.id}`, { factor: 'SMS_OTP' })).status).toBe(409);
    expect((await call('POST', `/sca/login/start?customerId=${marie.id}`, { factor: 'PASSKEY' })).status).toBe(409);
  });
});

describe('quote authorization', () => {
  it('an SCA payment that cannot be challenged (no phone on file) is refused at creation with nothing stored', async () => {
    const created = await call('POST', '/customers', {
      customerType: 'INDIVIDUAL', fullName: 'Lise Meitner', platformCustomerId: 'lise', email: 'lise@example.com', region: 'DE', currencies: ['EUR'],
    });
    const eur = (await call('GET', `/customers/internal-accounts?customerId=${created.body.id}`)).body.data[0].id;
    await call('POST', `/sandbox/internal-accounts/${eur}/fund`, { amount: 100_000 });
    const account = await call('POST', '/customers/external-accounts', {
      customerId: created.body.id, currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Otto Hahn', countryOfResidence: 'DE' } },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const before = engine.sandbox().events({ limit: 100 }).data.length;
    const destination = { destinationType: 'ACCOUNT', accountId: account.body.id };
    const immediate = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: eur }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, immediatelyExecute: true,
    });
    const realtime = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', customerId: created.body.id, currency: 'EUR' }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000,
    });
    for (const refused of [immediate, realtime]) expect(refused, JSON.stringify(refused.body)).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    expect((await call('GET', `/transactions?customerId=${created.body.id}`)).body.data.filter((t: Json) => t.type === 'OUTGOING')).toEqual([]);
    expect(engine.sandbox().events({ limit: 100 }).data.length).toBe(before);
    expect(await balanceOf(eur)).toBe(100_000);
  });

  it('execute → PENDING_AUTHORIZATION with a challenge; authorize → the payment is sent', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    const executed = await call('POST', `/quotes/${quote.id}/execute`);
    expect(executed).toMatchObject({ status: 200, body: { status: 'PENDING_AUTHORIZATION', transactionId: quote.transactionId, scaChallenge: { factor: 'SMS_OTP', purpose: 'PAYOUT' } } });
    expect(await balanceOf(marie.eur)).toBe(100_000);
    expect((await call('POST', `/quotes/${quote.id}/execute`)).status).toBe(409);

    expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).body.code).toBe('SCA_SESSION_REQUIRED');
    await login(marie.id);
    const wrong = await call('POST', `/quotes/${quote.id}/authorize`, { code: '000001' });
    expect(wrong.status).toBe(400);
    const authorized = await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE, endUserIpAddress: '203.0.113.7' });
    expect(authorized).toMatchObject({ status: 200, body: { status: 'PROCESSING' } });
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('COMPLETED');
    expect(authorized.body.scaChallenge).toBeUndefined();
    expect(await balanceOf(marie.eur)).toBe(95_000);
    const events = engine.sandbox().events({ limit: 50 }).data.filter((e) => (e.data as Json).id === quote.transactionId).map((e) => e.type).reverse();
    expect(events).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).status).toBe(409);
  });

  it('an expired login session is 409 SCA_SESSION_REQUIRED', async () => {
    const marie = await euCustomer();
    await login(marie.id);
    engine.sandbox().advance(SCA_SESSION_MS);
    const quote = await payout(marie);
    await call('POST', `/quotes/${quote.id}/execute`);
    expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).body).toMatchObject({ status: 409, code: 'SCA_SESSION_REQUIRED' });
  });

  it('an unanswered challenge fails the payment with SCA_NOT_COMPLETED and moves no money', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    await call('POST', `/quotes/${quote.id}/execute`);
    engine.sandbox().advance(SCA_CHALLENGE_TTL_MS);
    expect((await call('GET', `/transactions/${quote.transactionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED' });
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('FAILED');
    expect(await balanceOf(marie.eur)).toBe(100_000);
  });

  it('repeated wrong codes lock the customer: 423 ACCOUNT_LOCKED with the lock details', async () => {
    const marie = await euCustomer();
    await login(marie.id);
    const quote = await payout(marie);
    await call('POST', `/quotes/${quote.id}/execute`);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call('POST', `/quotes/${quote.id}/authorize`, { code: '999999' }));
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect(answers[4]).toMatchObject({ status: 423, body: { code: 'ACCOUNT_LOCKED', details: { failedAttempts: 5, suspended: false } } });
    expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).status).toBe(423);
  });

  it('authorize is rate limited per quote: 429 with Retry-After once the window is full, answered again after it', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    await call('POST', `/quotes/${quote.id}/execute`);
    // Without a login session every answer is 409 and counts nothing, towards neither the rate limit nor the lockout.
    for (let i = 0; i <= SCA_AUTHORIZE_ATTEMPTS; i++) expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).body.code).toBe('SCA_SESSION_REQUIRED');
    await login(marie.id);
    // A passkey assertion to an SMS challenge is 400 without counting towards the lockout: only the rate limit counts it.
    const passkey = { passkeyAssertion: { credentialId: 'Y3JlZA', clientDataJson: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' }, origin: 'https://example.com' };
    for (let i = 0; i < SCA_AUTHORIZE_ATTEMPTS; i++) expect((await call('POST', `/quotes/${quote.id}/authorize`, passkey)).body.details?.errors?.[0]?.field).toBe('passkeyAssertion');
    const limited = await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE });
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(limited.headers.get('retry-after')).toBe(String(SCA_AUTHORIZE_WINDOW_MS / 1000));
    engine.sandbox().advance(SCA_AUTHORIZE_WINDOW_MS);
    expect((await call('POST', `/quotes/${quote.id}/authorize`, { code: SCA_CODE })).body.status).toBe('PROCESSING');
  });

  it('a locked customer is answered 423 ACCOUNT_LOCKED, not 429, however many answers came within the window', async () => {
    const marie = await euCustomer();
    await login(marie.id);
    const quote = await payout(marie);
    await call('POST', `/quotes/${quote.id}/execute`);
    const answers = [];
    for (let i = 0; i < SCA_AUTHORIZE_ATTEMPTS + 2; i++) answers.push((await call('POST', `/quotes/${quote.id}/authorize`, { code: '999999' })).status);
    expect(answers).toEqual([400, 400, 400, 400, ...Array<number>(SCA_AUTHORIZE_ATTEMPTS - 2).fill(423)]);
  });

  it('resend is rate limited (429 with Retry-After) and 409 when nothing waits', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    expect((await call('POST', `/quotes/${quote.id}/authorize/resend`)).status).toBe(409);
    await call('POST', `/quotes/${quote.id}/execute`);
    const early = await call('POST', `/quotes/${quote.id}/authorize/resend`);
    expect(early).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(early.headers.get('retry-after')).toBe(String(SCA_RESEND_INTERVAL_MS / 1000));
    engine.sandbox().advance(SCA_RESEND_INTERVAL_MS);
    expect((await call('POST', `/quotes/${quote.id}/authorize/resend`)).status).toBe(204);
  });

  it('real-time funding in an SCA region: 202 without instructions, then instructions once authorized', async () => {
    const marie = await euCustomer();
    await login(marie.id);
    const created = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: marie.id }, destination: { destinationType: 'ACCOUNT', accountId: marie.eur },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_000,
    });
    expect(created).toMatchObject({ status: 202, body: { status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP', purpose: 'TRANSFER' } } });
    expect(created.body.paymentInstructions).toBeUndefined();
    expect((await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' })).status).toBe(409);
    const authorized = await call('POST', `/quotes/${created.body.id}/authorize`, { code: SCA_CODE });
    expect(authorized.body.status).toBe('PENDING');
    expect(authorized.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'EUR_ACCOUNT' });
    expect((await call('POST', '/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' })).body.status).toBe('PROCESSING');
    expect((await call('GET', `/quotes/${created.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balanceOf(marie.eur)).toBe(2_000);
  });

  it('customers outside SCA regions never wait: authorize is 409', async () => {
    const us = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ann Arbor', currencies: ['USD'] });
    const usd = (await call('GET', `/customers/internal-accounts?customerId=${us.body.id}`)).body.data[0].id;
    const payee = await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Bea Bank', currencies: ['USD'] });
    const payeeUsd = (await call('GET', `/customers/internal-accounts?customerId=${payee.body.id}`)).body.data[0].id;
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 100 });
    const quote = await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: payeeUsd }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 });
    expect((await call('POST', `/quotes/${quote.body.id}/authorize`, { code: SCA_CODE })).status).toBe(409);
    expect((await call('POST', `/quotes/${quote.body.id}/execute`)).body.status).toBe('PROCESSING');
  });
});

describe('trusted beneficiaries', () => {
  const trust = async (accountId: string, change: 'trust' | 'untrust' = 'trust') => {
    expect((await call('POST', `/customers/external-accounts/${accountId}/${change}`)).status).toBe(200);
    expect((await call('POST', `/customers/external-accounts/${accountId}/${change}/confirm`, { code: SCA_CODE })).body).toEqual({ trusted: change === 'trust' });
  };
  const accountIdOf = (quote: Json) => quote.destination.accountId as string;

  it('a payment to a trusted account is sent without a challenge, with no SCA login; untrusted, it is challenged again', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    await trust(accountIdOf(quote));
    const executed = await call('POST', `/quotes/${quote.id}/execute`);
    expect(executed).toMatchObject({ status: 200, body: { status: 'PROCESSING' } });
    expect(executed.body.scaChallenge).toBeUndefined();
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('COMPLETED');
    expect(await balanceOf(marie.eur)).toBe(100_000 - 5_000);
    const events = engine.sandbox().events({ limit: 50 }).data.filter((e) => (e.data as Json).id === quote.transactionId).map((e) => e.type).reverse();
    expect(events).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);

    const destination = { destinationType: 'ACCOUNT', accountId: accountIdOf(quote) };
    const immediate = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: marie.eur }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true,
    });
    expect(immediate).toMatchObject({ status: 201, body: { status: 'PROCESSING' } });
    const realtime = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: marie.id }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    expect(realtime).toMatchObject({ status: 201, body: { status: 'PENDING' } });
    expect(realtime.body.scaChallenge).toBeUndefined();
    expect(realtime.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'EUR_ACCOUNT' });

    // Trust is read when the payment is sent: a quote made while trusted and executed after untrust is challenged.
    const madeWhileTrusted = await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: marie.eur }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
    await trust(accountIdOf(quote), 'untrust');
    const challenged = await call('POST', `/quotes/${madeWhileTrusted.body.id}/execute`);
    expect(challenged).toMatchObject({ status: 200, body: { status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP', purpose: 'PAYOUT' } } });
  });

  it('a cross-currency payment to a trusted account needs no challenge either; another payee still does', async () => {
    const marie = await euCustomer();
    await call('POST', `/sandbox/internal-accounts/${marie.eur}/fund`, { amount: 100_000 });
    const gbp = await call('POST', '/customers/external-accounts', {
      customerId: marie.id, currency: 'GBP',
      accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Irène Curie' } },
    });
    expect(gbp.status, JSON.stringify(gbp.body)).toBe(201);
    const untrusted = await payout(marie);
    await trust(gbp.body.id);
    const converted = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: marie.eur }, destination: { destinationType: 'ACCOUNT', accountId: gbp.body.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000,
    });
    expect(converted.status, JSON.stringify(converted.body)).toBe(201);
    expect((await call('POST', `/quotes/${converted.body.id}/execute`)).body.status).toBe('PROCESSING');
    expect((await call('POST', `/quotes/${untrusted.id}/execute`)).body).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { purpose: 'PAYOUT' } });
  });

  it('trusting an account while a payment to it waits leaves that payment waiting for its challenge', async () => {
    const marie = await euCustomer();
    const quote = await payout(marie);
    expect((await call('POST', `/quotes/${quote.id}/execute`)).body.status).toBe('PENDING_AUTHORIZATION');
    await trust(accountIdOf(quote));
    expect((await call('GET', `/quotes/${quote.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await balanceOf(marie.eur)).toBe(100_000);
  });
});
