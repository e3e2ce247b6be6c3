import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { APIError, type RailyardClient } from '@railyard/client';
import { describeOverTransports } from './support/transports.js';

// Onboarding as clients of the reference meet it (issue 33): an upload for a holder that does not exist is a 404, a
// business whose other shareholders each hold under 25% can be verified, and the 403 that stops an unverified
// customer's money says how the sandbox gets it approved.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const passportOf = (documentHolder: string) => ({
  file: PNG, fileName: 'passport.png', documentHolder, documentType: 'PASSPORT' as const, country: 'US',
  documentNumber: 'X1234567', issuingAuthority: 'US Department of State',
});
const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as APIError);

const person = (lastName: string) => ({
  firstName: 'Olive', lastName, birthDate: '1980-01-01', nationality: 'US' as const,
  address: { line1: '2 Side St', postalCode: '94105', country: 'US' as const }, idType: 'SSN' as const, identifier: '987-65-4321',
});

/** An LLC with every document it needs (no owners yet); `REG-100` is approved after review by the sandbox's table. */
async function businessWithDocuments(client: RailyardClient) {
  const business = await client.customers.create({
    customerType: 'BUSINESS',
    businessInfo: { legalName: 'Sixty Percent LLC', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber: 'REG-100', entityType: 'LLC' },
    address: { line1: '1 Market St', postalCode: '94105', country: 'US' },
  });
  const today = new Date((await client.sandbox.clock.get()).now).toISOString().slice(0, 10);
  for (const documentType of ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL'] as const) {
    await client.documents.upload({
      file: PNG, fileName: `${documentType.toLowerCase()}.png`, documentHolder: business.id, documentType, country: 'US',
      ...(documentType === 'UTILITY_BILL' ? { issuedOn: today } : {}),
    });
  }
  return business;
}

describeOverTransports('onboarding fidelity', (scope) => {
  it('answers 404 to an upload for a document holder that does not exist, and stores nothing', async () => {
    const { client } = scope;
    const noCustomer = await refusal(client.documents.upload(passportOf('Customer:00000000-0000-4000-8000-000000000000')));
    expect(noCustomer).toBeInstanceOf(APIError);
    expect(noCustomer).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    const noOwner = await refusal(client.documents.upload(passportOf('BeneficialOwner:00000000-0000-4000-8000-000000000000')));
    expect(noOwner).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await client.documents.list()).totalCount).toBe(0);

    // A request that is itself invalid is still the 400 that lists every field, holder or not.
    const invalid = await refusal(client.documents.upload({ ...passportOf('Customer:00000000-0000-4000-8000-000000000000'), documentNumber: undefined }));
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(invalid!.fieldErrors.map((f) => f.field)).toEqual(['documentNumber']);

    // A holder that exists still gets its document.
    const ada = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    expect((await client.documents.upload(passportOf(ada.id))).documentHolder).toBe(ada.id);
  });

  it('verifies a business with one owner at 60% and a control person', async () => {
    const { client } = scope;
    const business = await businessWithDocuments(client);
    const owner = await client.beneficialOwners.create({ customerId: business.id, roles: ['UBO'], ownershipPercentage: 60, personalInfo: person('Owner') });
    const director = await client.beneficialOwners.create({ customerId: business.id, roles: ['CONTROL_PERSON'], ownershipPercentage: 0, personalInfo: person('Control') });
    for (const holder of [owner, director]) await client.documents.upload(passportOf(holder.id));

    const submitted = await client.verifications.create({ customerId: business.id });
    expect(submitted).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    await client.sandbox.clock.advance(5_000);
    expect((await client.verifications.retrieve(submitted.id)).verificationStatus).toBe('APPROVED');
    const approved = await client.customers.retrieve(business.id);
    expect(approved.customerType === 'BUSINESS' && approved.kybStatus).toBe('APPROVED');
  });

  it('still asks for an owner when none is registered, and for a control person', async () => {
    const { client } = scope;
    const business = await businessWithDocuments(client);
    const types = (verification: { errors: { type: string }[] }) => verification.errors.map((e) => e.type).filter((t) => t.startsWith('MISSING_')).sort();
    expect(types(await client.verifications.create({ customerId: business.id }))).toEqual(['MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON']);
    const owner = await client.beneficialOwners.create({ customerId: business.id, roles: ['UBO'], ownershipPercentage: 60, personalInfo: person('Owner') });
    await client.documents.upload(passportOf(owner.id));
    expect(types(await client.verifications.create({ customerId: business.id }))).toEqual(['MISSING_CONTROL_PERSON']);
  });

  it('tells an unverified customer’s first quote how the sandbox approves it, with a link to the docs', async () => {
    const { client } = scope; // the default platform: unregulated, customers start UNVERIFIED
    const consent = { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: 'V1', acceptanceMethod: 'CHECKBOX' as const };
    const ada = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', endUserTermsConsent: consent });
    const [usd] = (await client.internalAccounts.list({ customerId: ada.id, currency: 'USD' })).data;
    const bank = await client.externalAccounts.create({
      customerId: ada.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    const error = await refusal(client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    }));
    expect(error).toMatchObject({ status: 403, code: 'USER_NOT_READY' });
    // The SPEC behaviour stays (money moves only for approved customers); the message names the ways out.
    expect(error!.serverMessage).toContain(`Customer ${ada.id} is UNVERIFIED`);
    expect(error!.serverMessage).toContain('POST /verifications');
    expect(error!.serverMessage).toMatch(/regulated: true/);
    expect(error!.serverMessage).toMatch(/skipPaperwork: true/);
    const docs = String(error!.details?.docs);
    expect(docs).toMatch(/\/docs\/onboarding\.md#approving-customers-in-the-sandbox$/);
    const onboarding = readFileSync(new URL('../docs/onboarding.md', import.meta.url), 'utf8');
    expect(onboarding).toMatch(/^## Approving customers in the sandbox$/m);
    expect((await client.quotes.list()).totalCount).toBe(0);
  });
});
