import { expect, it } from 'vitest';
import type { RailyardClient } from '@railyard/client';
import { rawCaller } from './support/raw-api.js';
import { MARIE, PIERRE_IBAN } from './support/eu-payee.js';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// SCA as the reference documents it (issue 33, items 4 and 5), over every transport:
// - completing a factor reset takes an optional body (REFERENCE §22: `optional {mobile}`, required for SMS_OTP only);
// - a payment to a beneficiary the customer trusts is sent without the per-payment challenge, and untrusting the
//   account brings the challenge back (REFERENCE §9: trust exists so payments to that account skip the ceremony).

const marie = MARIE;
const pierre = PIERRE_IBAN;

/** A fresh regulated platform: its customers are APPROVED at creation, so money moves at once. */
async function regulatedPlatform(scope: TransportScope): Promise<{ client: RailyardClient; credentials: { clientId: string; clientSecret: string } }> {
  const credentials = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'sca-fidelity', regulated: true });
  return { client: scope.transport.clientFor(credentials), credentials };
}

/** An EU customer with a funded EUR account and Pierre's IBAN on file. */
async function marieWithPayee(client: RailyardClient) {
  const customer = await client.customers.create(marie);
  const [eur] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'EUR' })).data;
  await client.sandbox.fundInternalAccount(eur!.id, 100_000);
  const payee = await client.externalAccounts.create({ customerId: customer.id, currency: 'EUR', accountInfo: pierre });
  return { customer, eur: eur!, payee };
}

const quoteTo = (client: RailyardClient, from: string, to: string, extra: { immediatelyExecute?: boolean } = {}) =>
  client.quotes.create({ source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000, ...extra });

describeOverTransports('SCA fidelity', (scope) => {
  it('completes a TOTP reset with no body (the body is optional); an SMS_OTP reset still needs its mobile', async () => {
    const { client, credentials } = await regulatedPlatform(scope);
    const raw = rawCaller(scope.transport, credentials);
    const customer = await client.customers.create(marie);
    const totp = await client.sca.factors.startEnrollment(customer.id, { type: 'TOTP' });
    if (totp.type !== 'TOTP') throw new Error('expected TOTP');
    await client.sca.factors.confirmEnrollment(customer.id, { type: 'TOTP', secret: totp.secret, code: '123456' });

    const passed = async (factor: 'TOTP' | 'SMS_OTP') => {
      const reset = await client.sca.resets.start(customer.id, { factor });
      await client.sandbox.sca.submitLiveness(customer.id, reset.resetId, { result: 'PASSED' });
      await client.sandbox.clock.advance(2_000);
      return reset.resetId;
    };

    const resetId = await passed('TOTP');
    // No body at all, no Content-Type: what the reference's optional body allows.
    const completed = await raw('POST', `/sca/factors/reset/${resetId}/complete?customerId=${customer.id}`);
    expect(completed.status, completed.text).toBe(204);
    expect(await client.sca.resets.retrieve(customer.id, resetId)).toMatchObject({ status: 'COMPLETED', factor: 'TOTP', enrollmentStatus: 'PENDING' });
    expect((await client.sca.factors.list(customer.id)).factors.map((f) => f.factor)).toEqual(['SMS_OTP']);

    // SMS_OTP: complete enrols the new number, so an omitted body names the missing `mobile`, and nothing changes.
    const smsReset = await passed('SMS_OTP');
    const refused = await raw('POST', `/sca/factors/reset/${smsReset}/complete?customerId=${customer.id}`);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'mobile' }] } });
    expect((await client.sca.resets.retrieve(customer.id, smsReset)).status).toBe('LIVENESS_PASSED');

    const doc = await client.sandbox.openapi() as { paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>> };
    expect(doc.paths['/sca/factors/reset/{resetId}/complete']!.post!.requestBody).toMatchObject({ required: false });
  });

  it('pays a trusted beneficiary without the per-payment challenge; after untrust the challenge is back', async () => {
    const { client } = await regulatedPlatform(scope);
    const { customer, eur, payee } = await marieWithPayee(client);
    const { scaChallenge } = await client.externalAccounts.trust(payee.id);
    expect(await client.externalAccounts.confirmTrust(payee.id, { challengeId: scaChallenge!.id, code: '123456' })).toEqual({ trusted: true });

    // Execute: sent at once, no challenge, no SCA login needed.
    const quote = await quoteTo(client, eur.id, payee.id);
    const executed = await client.quotes.execute(quote.id);
    expect(executed.status).toBe('PROCESSING');
    expect(executed.scaChallenge).toBeUndefined();
    expect(await client.transactions.waitFor(quote.transactionId, { advanceClock: true })).toMatchObject({ status: 'COMPLETED' });

    // immediatelyExecute: the same.
    const immediate = await quoteTo(client, eur.id, payee.id, { immediatelyExecute: true });
    expect(immediate.status).toBe('PROCESSING');
    expect(immediate.scaChallenge).toBeUndefined();

    // Real-time funding: the payer learns where to send the money at once (201 PENDING), with no challenge first.
    const { data: realtime, response } = await client.quotes.create({
      source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'EUR' }, destination: { destinationType: 'ACCOUNT', accountId: payee.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000,
    }).withResponse();
    expect(response.status).toBe(201);
    expect(realtime.status).toBe('PENDING');
    expect(realtime.scaChallenge).toBeUndefined();
    expect(realtime.paymentInstructions?.length).toBeGreaterThan(0);

    // Untrusted again: the challenge comes back, and a quote made while trusted is challenged when executed now.
    const waiting = await quoteTo(client, eur.id, payee.id);
    await client.externalAccounts.untrust(payee.id);
    expect(await client.externalAccounts.confirmUntrust(payee.id, { code: '123456' })).toEqual({ trusted: false });
    for (const id of [waiting.id, (await quoteTo(client, eur.id, payee.id)).id]) {
      const challenged = await client.quotes.execute(id);
      expect(challenged).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP', purpose: 'PAYOUT' } });
    }
  });
});
