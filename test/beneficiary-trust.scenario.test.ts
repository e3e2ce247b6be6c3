import { ConflictError } from '@railyard/client';
import { expect, it } from 'vitest';
import { describeOverTransports } from './support/transports.js';

// Trusted beneficiaries through the typed client (REFERENCE §2.3, §9): an EU customer trusts a payee with an SMS code,
// cannot delete it while trusted, and untrusts it the same way.
const marie = {
  customerType: 'INDIVIDUAL' as const, platformCustomerId: 'marie', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
  email: 'marie@example.com', phoneNumber: '+33612345678', currencies: ['EUR'],
  address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
};
const pierre = {
  accountType: 'EUR_ACCOUNT' as const, iban: 'FR1420041010050500013M02606',
  beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Pierre Curie', countryOfResidence: 'FR' },
};

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
