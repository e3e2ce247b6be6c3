import { ConflictError } from '@railyard/client';
import { expect, it } from 'vitest';
import { MARIE, PIERRE_IBAN } from './support/eu-payee.js';
import { describeOverTransports } from './support/transports.js';

// Trusted beneficiaries through the typed client (REFERENCE §2.3, §9): an EU customer trusts a payee with an SMS code,
// cannot delete it while trusted, and untrusts it the same way.
const marie = MARIE;
const pierre = PIERRE_IBAN;

describeOverTransports('beneficiary trust', (scope) => {
  it('trusts with the SMS code, guards deletion, then untrusts', async () => {
    const customer = await scope.client.customers.create(marie);
    const account = await scope.client.externalAccounts.create({ customerId: customer.id, currency: 'EUR', accountInfo: pierre });

    const { scaChallenge } = await scope.client.externalAccounts.trust(account.id);
    expect(scaChallenge).toMatchObject({ factor: 'SMS_OTP', purpose: 'TRUST_BENEFICIARY' });
    expect(await scope.client.externalAccounts.confirmTrust(account.id, { challengeId: scaChallenge!.id, code: '123456' })).toEqual({ trusted: true });

    const refused = await scope.client.externalAccounts.delete(account.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ status: 409, code: 'BENEFICIARY_TRUSTED' });

    await scope.client.externalAccounts.untrust(account.id);
    expect(await scope.client.externalAccounts.confirmUntrust(account.id, { code: '123456' })).toEqual({ trusted: false });
    await scope.client.externalAccounts.delete(account.id);
    expect((await scope.client.externalAccounts.list({ customerId: customer.id })).data).toEqual([]);
  });
});
