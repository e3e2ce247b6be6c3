import { BadRequestError, ConflictError, type RailyardClient } from '@railyard/client';

/**
 * The quickstart: onboard an individual and a business, see the sandbox's validation and conflict errors, page through
 * customers, and look at the internal accounts the sandbox opened. Returns the trace it printed.
 */
export async function runQuickstart(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };

  const terms = await client.customers.endUserTerms();
  say(`End-user terms ${terms.version}: ${terms.url}`);

  const ada = await client.customers.create({
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'quickstart-ada',
    fullName: 'Ada Lovelace',
    birthDate: '1815-12-10',
    address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
    idType: 'SSN',
    identifier: '123-45-6789',
    endUserTermsConsent: { acceptedAt: new Date().toISOString(), ipAddress: '203.0.113.10', termsVersion: terms.version, acceptanceMethod: 'CHECKBOX' },
  });
  say(`Created individual ${ada.id} (${ada.customerType}, kycStatus ${ada.customerType === 'INDIVIDUAL' ? ada.kycStatus : '-'})`);

  const acme = await client.customers.create({
    customerType: 'BUSINESS',
    platformCustomerId: 'quickstart-acme',
    businessInfo: { legalName: 'Analytical Engines Ltd', country: 'US', taxId: '12-3456789', incorporatedOn: '1843-07-01', entityType: 'LLC' },
  });
  say(`Created business ${acme.id} (kybStatus ${acme.customerType === 'BUSINESS' ? acme.kybStatus : '-'})`);

  try {
    await client.customers.create({ customerType: 'INDIVIDUAL', birthDate: '10/12/1815', nationality: 'England', idType: 'SSN', identifier: '123456789' });
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    say(`Rejected a bad customer: ${error.status} ${error.code}, ${error.fieldErrors.length} invalid fields:`);
    for (const field of error.fieldErrors) say(`  - ${field.field}: ${field.message}`);
  }

  try {
    await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'quickstart-ada', fullName: 'Ada Again' });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    say(`Rejected a duplicate platformCustomerId: ${error.status} ${error.code}`);
  }

  const renamed = await client.customers.update(ada.id, { customerType: 'INDIVIDUAL', fullName: 'Augusta Ada King' });
  say(`Renamed ${renamed.id} to ${renamed.customerType === 'INDIVIDUAL' ? renamed.fullName : ''}`);

  const names: string[] = [];
  for await (const customer of client.customers.list({ limit: 1 })) names.push(customer.platformCustomerId);
  say(`Listed customers one per page: ${names.join(', ')}`);

  const accounts = await client.internalAccounts.list({ customerId: ada.id });
  for (const account of accounts.data) {
    say(`Internal account ${account.id}: ${account.balance.amount} ${account.balance.currency.code} (${account.type}, ${account.status})`);
  }
  return trace;
}
