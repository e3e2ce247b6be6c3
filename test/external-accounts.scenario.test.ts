import { expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports } from './support/transports.js';

// External accounts through the typed client, and isolation between platforms (SPEC §4.4), over every transport.

const ada = {
  customerType: 'INDIVIDUAL' as const, platformCustomerId: 'ada', fullName: 'Ada Lovelace', birthDate: '1815-12-10', nationality: 'GB',
  address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' }, idType: 'SSN' as const, identifier: '123-45-6789',
};
const usd = {
  accountType: 'USD_ACCOUNT' as const, accountNumber: '1234567890', routingNumber: '021000021',
  beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' },
};

describeOverTransports('external accounts', (scope) => {
  it('creates, lists, retrieves and deletes; other platforms cannot see the account', async () => {
    const customer = await scope.client.customers.create(ada);
    const account = await scope.client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usd });
    expect(account).toMatchObject({ status: 'ACTIVE', beneficiaryVerificationStatus: 'MATCHED', accountInfo: { accountType: 'USD_ACCOUNT', paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] } });
    expect((await scope.client.externalAccounts.list({ customerId: customer.id })).data.map((a) => a.id)).toEqual([account.id]);
    expect((await scope.client.externalAccounts.retrieve(account.id)).id).toBe(account.id);

    const otherPlatform = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'other' });
    const other = scope.transport.clientFor(otherPlatform);
    await expect(other.externalAccounts.retrieve(account.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await other.externalAccounts.list()).data).toEqual([]);
    await expect(other.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usd })).rejects.toBeInstanceOf(NotFoundError);

    await scope.client.externalAccounts.delete(account.id);
    await expect(scope.client.externalAccounts.retrieve(account.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('platform accounts, and checksum errors as field errors', async () => {
    const platformAccount = await scope.client.platformExternalAccounts.create({
      currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme GmbH' } as never },
    });
    expect((await scope.client.platformExternalAccounts.list()).data.map((a) => a.id)).toEqual([platformAccount.id]);
    const error = await scope.client.platformExternalAccounts
      .create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013001', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'X' } as never } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    await scope.client.platformExternalAccounts.delete(platformAccount.id);
    expect((await scope.client.platformExternalAccounts.list()).data).toEqual([]);
  });
});
