import type { RailyardClient } from '@railyard/client';

/** A few bytes that pass the sandbox's content check for a PNG image. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const passportOf = (documentHolder: string) => ({
  file: PNG, fileName: 'passport.png', documentHolder, documentType: 'PASSPORT' as const, country: 'US',
  documentNumber: 'X1234567', issuingAuthority: 'US Department of State',
});

/**
 * Onboards an individual and a business the way a platform would: submit, read what the verification asks for, fix
 * it, submit again, and let the sandbox's review run (the clock is advanced, so it works with a virtual clock).
 */
export async function runOnboarding(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };

  // An individual (KYC): a first submission lists everything missing.
  const ada = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'onboarding-ada', fullName: 'Ada Lovelace' });
  const first = await client.verifications.create({ customerId: ada.id });
  const needs = await client.verifications.outstanding(ada.id);
  say(`Individual ${ada.id}: ${first.verificationStatus}, needs fields ${needs.fields.map((e) => e.field).join(', ')} and ${needs.documents.map((e) => e.type).join(', ')}`);

  await client.customers.update(ada.id, {
    customerType: 'INDIVIDUAL', birthDate: '1990-12-10', nationality: 'US',
    address: { line1: '12 St James Square', city: 'New York', postalCode: '10001', country: 'US' },
    idType: 'SSN', identifier: '123-45-6789',
  });
  const passport = await client.documents.upload(passportOf(ada.id));
  say(`Uploaded ${passport.documentType} ${passport.id}`);
  const second = await client.verifications.create({ customerId: ada.id });
  say(`Resubmitted: ${second.verificationStatus}`);
  await client.sandbox.clock.advance(5_000);
  say(`After review: verification ${(await client.verifications.retrieve(second.id)).verificationStatus}, customer ${kyc(await client.customers.retrieve(ada.id))}`);

  // A business (KYB): documents, an owner above 25% and a director, and their identity documents.
  const acme = await client.customers.create({
    customerType: 'BUSINESS', platformCustomerId: 'onboarding-acme',
    businessInfo: { legalName: 'Analytical Engines LLC', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber: 'AE-2015-77', entityType: 'LLC' },
    address: { line1: '1 Market St', city: 'San Francisco', postalCode: '94105', country: 'US' },
  });
  const kybNeeds = await client.verifications.create({ customerId: acme.id }).then(() => client.verifications.outstanding(acme.id));
  say(`Business ${acme.id}: needs ${[...kybNeeds.documents, ...kybNeeds.owners].map((e) => e.type).join(', ')}`);

  for (const error of kybNeeds.documents) {
    const documentType = error.acceptedDocumentTypes![0]!;
    const issuedOn = documentType === 'UTILITY_BILL' ? { issuedOn: new Date((await client.sandbox.clock.get()).now).toISOString().slice(0, 10) } : {};
    await client.documents.upload({ file: PNG, fileName: `${documentType.toLowerCase()}.png`, documentHolder: acme.id, documentType, country: 'US', ...issuedOn });
  }
  const person = (firstName: string, lastName: string) => ({
    firstName, lastName, birthDate: '1980-01-01', nationality: 'US' as const,
    address: { line1: '2 Side St', postalCode: '94105', country: 'US' as const }, idType: 'SSN' as const, identifier: '987-65-4321',
  });
  const owner = await client.beneficialOwners.create({ customerId: acme.id, roles: ['UBO'], ownershipPercentage: 80, personalInfo: person('Charles', 'Babbage') });
  const director = await client.beneficialOwners.create({ customerId: acme.id, roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo: person('Mary', 'Somerville') });
  for (const holder of [owner, director]) await client.documents.upload(passportOf(holder.id));
  say(`Registered owner ${owner.personalInfo.lastName} (80%) and director ${director.personalInfo.lastName}, with passports`);

  const kyb = await client.verifications.create({ customerId: acme.id });
  say(`Submitted business: ${kyb.verificationStatus}`);
  await client.sandbox.clock.advance(5_000);
  const owners = await client.beneficialOwners.list({ customerId: acme.id });
  say(`After review: business ${kyc(await client.customers.retrieve(acme.id))}, owners ${owners.data.map((o) => `${o.personalInfo.lastName} ${o.kycStatus}`).join(', ')}`);
  return trace;
}

const kyc = (customer: { customerType: string; kycStatus?: string; kybStatus?: string }) =>
  customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;
