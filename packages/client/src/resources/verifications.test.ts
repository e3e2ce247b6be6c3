import { createEngine } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { BadRequestError } from '../core/errors.js';

// The onboarding resources against an in-process engine: owners, verifications and the outstanding-requirements helper.

function setup() {
  const engine = createEngine();
  const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  return { engine, client };
}

describe('verifications and beneficial owners', () => {
  it('groups what a business still needs by the fix, and clears the owners group after registering them', async () => {
    const { client } = setup();
    const business = await client.customers.create({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber: 'R-1', entityType: 'LLC' },
      address: { line1: '1 Market St', postalCode: '94105', country: 'US' },
    });
    expect((await client.verifications.outstanding(business.id)).verification).toBeUndefined();
    const verification = await client.verifications.create({ customerId: business.id });
    expect(verification.verificationStatus).toBe('RESOLVE_ERRORS');

    const needs = await client.verifications.outstanding(business.id);
    expect(needs.complete).toBe(false);
    expect(needs.fields).toEqual([]);
    expect(needs.owners.map((e) => e.type).sort()).toEqual(['MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON']);
    expect(needs.documents.map((e) => e.type).sort()).toEqual([
      'MISSING_CONTROL_STRUCTURE_DOCUMENT', 'MISSING_LEGAL_PRESENCE_DOCUMENT', 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);

    const owner = await client.beneficialOwners.create({
      customerId: business.id, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 100,
      personalInfo: {
        firstName: 'Olive', lastName: 'Owner', birthDate: '1980-01-01', nationality: 'US',
        address: { line1: '2 Side St', postalCode: '12345', country: 'US' }, idType: 'SSN', identifier: '987-65-4321',
      },
    });
    expect(owner.kycStatus).toBe('UNVERIFIED');
    const updated = await client.beneficialOwners.update(owner.id, { ownershipPercentage: 90 });
    expect(updated.ownershipPercentage).toBe(90);
    expect((await client.beneficialOwners.list({ customerId: business.id })).data.map((o) => o.id)).toEqual([owner.id]);

    await client.verifications.create({ customerId: business.id });
    const after = await client.verifications.outstanding(business.id);
    expect(after.owners).toEqual([]);
    expect(after.documents.some((e) => e.type === 'MISSING_IDENTITY_DOCUMENT' && e.resourceId === owner.id)).toBe(true);
  });

  it('funds an internal account through client.sandbox', async () => {
    const { client } = setup();
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Fay Funded' });
    const [account] = (await client.internalAccounts.list({ customerId: customer.id })).data;
    const funded = await client.sandbox.fundInternalAccount(account!.id, 5_000);
    expect(funded.balance).toMatchObject({ amount: 5_000, currency: { code: 'USD' } });
    const production = createClient({ baseUrl: 'https://api.example.com/2025-10-13', clientId: 'a', clientSecret: 'b' });
    await expect(production.sandbox.fundInternalAccount(account!.id, 1)).rejects.toThrow(/sandbox/);
  });

  it('lists and retrieves verifications, and refuses to resubmit a final status', async () => {
    const { client } = setup();
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Solo' });
    const rejected = await client.verifications.create({ customerId: customer.id });
    expect(rejected.errors.length).toBeGreaterThan(0);
    expect((await client.verifications.retrieve(rejected.id)).id).toBe(rejected.id);
    expect((await client.verifications.list({ customerId: customer.id })).totalCount).toBe(1);

    const regulated = await client.sandbox.platforms.create({ regulated: true });
    const other = client.withOptions({ clientId: regulated.clientId, clientSecret: regulated.clientSecret });
    const approved = await other.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Alice Approved' });
    const error = await other.verifications.create({ customerId: approved.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fieldErrors[0]?.field).toBe('customerId');
  });
});
