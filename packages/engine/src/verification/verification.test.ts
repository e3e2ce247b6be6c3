import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { apiRequest, formRequest, SAMPLE_FILES } from '../testing/requests.js';

// Verification packets, the customer status machine and the sandbox tables of SPEC §4.6, through the public API.

type Json = Record<string, any>;
type Credentials = { clientId: string; clientSecret: string };
let engine: Engine;
let as: Credentials;

beforeEach(() => {
  engine = createEngine();
  as = { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' };
});

const call = async (method: string, path: string, body?: unknown) => {
  const response = await engine.fetch(apiRequest(method, path, body, {}, as));
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
};
const onPlatform = (options: { regulated?: boolean; skipPaperwork?: boolean }) => {
  as = engine.createPlatform(options);
};
const advance = (ms: number) => engine.sandbox(as.clientId).advance(ms);
const events = () => engine.sandbox(as.clientId).events({ limit: 100 }).data.map((e) => e.type).reverse();

async function upload(holder: string, documentType: string, extra: Record<string, string> = {}, fileName = 'scan.png') {
  const fields: Record<string, string> = { documentHolder: holder, documentType, country: 'US', ...extra };
  if (['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'].includes(documentType)) {
    fields.documentNumber ??= 'X1234567';
    fields.issuingAuthority ??= 'US Department of State';
  }
  if (['UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'BANK_STATEMENT', 'TAX_RETURN'].includes(documentType)) {
    fields.issuedOn ??= new Date(engine.clock.now()).toISOString().slice(0, 10);
  }
  const response = await engine.fetch(formRequest('POST', '/documents', fields, { name: fileName, bytes: SAMPLE_FILES.png, type: 'image/png' }, as));
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body as Json;
}

const completeIndividual = {
  customerType: 'INDIVIDUAL',
  birthDate: '1990-04-01',
  nationality: 'US',
  address: { line1: '1 Main St', postalCode: '12345', country: 'US' },
  idType: 'SSN',
  identifier: '123-45-6789',
};
const individual = async (fullName: string, extra: Json = {}) => (await call('POST', '/customers', { ...completeIndividual, fullName, ...extra })).body;
const submit = (customerId: string) => call('POST', '/verifications', { customerId });
const kinds = (verification: Json) => verification.errors.map((e: Json) => `${e.type}${e.field ? `:${e.field}` : ''}`).sort();

describe('individual packets', () => {
  it('lists every problem of an empty packet, then clears each by its remediation', async () => {
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada' })).body;
    const first = await submit(customer.id);
    expect(first.status).toBe(200); // the reference documents 200 for POST /verifications
    expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(kinds(first.body)).toEqual([
      'INVALID_FIELD:fullName', 'MISSING_FIELD:address.country', 'MISSING_FIELD:address.line1', 'MISSING_FIELD:address.postalCode',
      'MISSING_FIELD:birthDate', 'MISSING_FIELD:idType', 'MISSING_FIELD:identifier', 'MISSING_FIELD:nationality', 'MISSING_IDENTITY_DOCUMENT',
    ]);
    const missingId = first.body.errors.find((e: Json) => e.type === 'MISSING_IDENTITY_DOCUMENT');
    expect(missingId).toMatchObject({ resourceId: customer.id, acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');

    await call('PATCH', `/customers/${customer.id}`, { ...completeIndividual, fullName: 'Ada Lovelace' });
    await upload(customer.id, 'PASSPORT');
    const second = await submit(customer.id);
    expect(second.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('PENDING');

    advance(2_000);
    expect((await call('GET', `/verifications/${second.body.id}`)).body.verificationStatus).toBe('APPROVED');
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
    expect(events()).toEqual([
      'VERIFICATION.RESOLVE_ERRORS', 'CUSTOMER.KYC_PENDING', 'VERIFICATION.IN_PROGRESS', 'VERIFICATION.APPROVED', 'CUSTOMER.KYC_APPROVED',
    ]);
    const listed = await call('GET', `/verifications?customerId=${customer.id}`);
    expect(listed.body.data.map((v: Json) => v.verificationStatus)).toEqual(['APPROVED', 'RESOLVE_ERRORS']);

    const again = await submit(customer.id);
    expect(again.status).toBe(400);
    expect(again.body.message).toContain('final');
  });

  it('001 goes to manual review, decided by the operator (HOLD, then APPROVED)', async () => {
    const customer = await individual('Paula Pending001');
    await upload(customer.id, 'PASSPORT');
    const verification = (await submit(customer.id)).body;
    expect(verification.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('PENDING');
    // Submitting again while it is under review returns the same verification, unchanged, with no new event.
    const eventsBefore = events().length;
    expect(await submit(customer.id)).toMatchObject({ status: 200, body: { id: verification.id, verificationStatus: 'PENDING_MANUAL_REVIEW' } });
    expect(events()).toHaveLength(eventsBefore);
    await call('POST', `/_sandbox/verifications/${verification.id}/decide`, { decision: 'HOLD' });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('HOLD');
    const decided = await call('POST', `/_sandbox/verifications/${verification.id}/decide`, { decision: 'APPROVED' });
    expect(decided.body.verificationStatus).toBe('APPROVED');
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
    expect((await call('POST', `/_sandbox/verifications/${verification.id}/decide`, { decision: 'REJECTED' })).status).toBe(409);
  });

  it('003 is also cleared by uploading another identity document', async () => {
    const customer = await individual('Ned Newpass003');
    await upload(customer.id, 'PASSPORT');
    expect((await submit(customer.id)).body.errors[0].type).toBe('POOR_QUALITY_DOCUMENT');
    await upload(customer.id, 'NATIONAL_ID', { side: 'FRONT' });
    await upload(customer.id, 'NATIONAL_ID', { side: 'BACK' });
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
  });

  it('HOLD during the short review keeps the verification for a person to decide', async () => {
    const customer = await individual('Hal Held');
    await upload(customer.id, 'PASSPORT');
    const verification = (await submit(customer.id)).body;
    const held = (await call('POST', `/_sandbox/verifications/${verification.id}/decide`, { decision: 'HOLD' })).body;
    expect(held.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    advance(10_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('HOLD');
    expect((await call('GET', `/verifications/${verification.id}`)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    await call('POST', `/_sandbox/verifications/${verification.id}/decide`, { decision: 'APPROVED' });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
  });

  it('a submitted document can be replaced at any time (REFERENCE §5: PUT → 200) but no longer deleted (409)', async () => {
    const customer = await individual('Eve Evidence');
    const passport = await upload(customer.id, 'PASSPORT');
    await submit(customer.id);
    const deleted = await call('DELETE', `/documents/${passport.id}`);
    expect(deleted).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const replace = await engine.fetch(formRequest('PUT', `/documents/${passport.id}`, {
      documentType: 'PASSPORT', country: 'US', documentNumber: 'X1', issuingAuthority: 'State',
    }, { name: 'passport_rescan.png', bytes: SAMPLE_FILES.png, type: 'image/png' }, as));
    expect(replace.status).toBe(200);
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
  });

  it('a proof of address dated more than 3 months ago is EXPIRED_DOCUMENT, cleared by a current one', async () => {
    const european = await individual('Olga Old', { region: 'DE', email: 'olga@example.de', platformCustomerId: 'olga' });
    await upload(european.id, 'PASSPORT');
    const old = await upload(european.id, 'UTILITY_BILL', { issuedOn: '2020-01-31' });
    const first = (await submit(european.id)).body;
    expect(first.errors).toEqual([expect.objectContaining({ resourceId: old.id, type: 'EXPIRED_DOCUMENT' })]);
    expect(first.errors[0].reason).toContain('dated 2020-01-31, more than 3 months ago');
    const today = new Date(engine.clock.now()).toISOString().slice(0, 10);
    await engine.fetch(formRequest('PUT', `/documents/${old.id}`, { documentType: 'UTILITY_BILL', country: 'DE', issuedOn: today }, { name: 'bill.pdf', bytes: SAMPLE_FILES.pdf, type: 'application/pdf' }, as));
    expect((await submit(european.id)).body.verificationStatus).toBe('IN_PROGRESS');
  });

  it('002 is reviewed, then REJECTED; the status is final and renaming does not re-derive it', async () => {
    const customer = await individual('Rex Rejected002');
    await upload(customer.id, 'PASSPORT');
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    await call('PATCH', `/customers/${customer.id}`, { customerType: 'INDIVIDUAL', fullName: 'Rex Renamed' });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    expect((await submit(customer.id)).status).toBe(400);
  });

  it('003 reports a poor-quality identity document, cleared by uploading a replacement', async () => {
    const customer = await individual('Uma Unverified003');
    const passport = await upload(customer.id, 'PASSPORT');
    const first = (await submit(customer.id)).body;
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.errors).toEqual([expect.objectContaining({ resourceId: passport.id, type: 'POOR_QUALITY_DOCUMENT', acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] })]);
    expect((await submit(customer.id)).body.errors[0].type).toBe('POOR_QUALITY_DOCUMENT'); // not replaced yet
    const replaced = await engine.fetch(formRequest('PUT', `/documents/${passport.id}`, {
      documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State',
    }, { name: 'sharper.png', bytes: SAMPLE_FILES.png, type: 'image/png' }, as));
    expect(replaced.status).toBe(200);
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
  });

  it('asks for more where the rules say so: age, PEP source of wealth, EU proof of address, both sides of a licence', async () => {
    const young = await individual('Tim Young', { birthDate: new Date(engine.clock.now() - 10 * 365 * 86_400_000).toISOString().slice(0, 10) });
    await upload(young.id, 'PASSPORT');
    expect(kinds((await submit(young.id)).body)).toEqual(['INVALID_FIELD:birthDate']);

    const pep = await individual('Pat Politician', { pepStatus: 'FOREIGN', platformCustomerId: 'pep' });
    await upload(pep.id, 'PASSPORT');
    expect(kinds((await submit(pep.id)).body)).toEqual(['MISSING_FIELD:sourceOfWealthCategories']);

    const european = await individual('Eva Euro', { currencies: ['EUR'], email: 'eva@example.com', platformCustomerId: 'eva' });
    await upload(european.id, 'PASSPORT');
    const eu = (await submit(european.id)).body;
    expect(kinds(eu)).toEqual(['MISSING_PROOF_OF_ADDRESS_DOCUMENT']);
    await upload(european.id, 'UTILITY_BILL');
    expect((await submit(european.id)).body.verificationStatus).toBe('IN_PROGRESS');

    const driver = await individual('Dana Driver', { platformCustomerId: 'dana' });
    const front = await upload(driver.id, 'DRIVERS_LICENSE', { side: 'FRONT' });
    const incomplete = (await submit(driver.id)).body;
    expect(incomplete.errors).toEqual([expect.objectContaining({ resourceId: front.id, type: 'INCOMPLETE_DOCUMENT' })]);
    await upload(driver.id, 'DRIVERS_LICENSE', { side: 'BACK' });
    expect((await submit(driver.id)).body.verificationStatus).toBe('IN_PROGRESS');
  });

  it.each([
    ['000-00-0901', 'APPLICANT_SANCTIONED'],
    ['000-00-0902', 'APPLICANT_FRAUD'],
    ['000-00-0903', 'APPLICANT_CRIMINAL_RECORD'],
    ['000-00-0904', 'APPLICANT_REJECTED'],
  ])('the screening identifier %s rejects with %s, terminally', async (identifier, type) => {
    const customer = await individual('Sam Screened', { identifier });
    await upload(customer.id, 'PASSPORT');
    const verification = (await submit(customer.id)).body;
    expect(verification).toMatchObject({ verificationStatus: 'REJECTED', errors: [expect.objectContaining({ resourceId: customer.id, type })] });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    expect((await submit(customer.id)).status).toBe(400);
  });
});

describe('screening fires on whole documented identifiers only', () => {
  it('an ordinary SSN ending in 901–904 (1 in 250 random ones) is approved', async () => {
    for (const identifier of ['457-55-5903', '123-45-6901', '900-12-0904']) {
      const customer = await individual('Nora Neutral', { identifier, idType: identifier.startsWith('9') ? 'ITIN' : 'SSN', platformCustomerId: identifier });
      await upload(customer.id, 'PASSPORT');
      expect((await submit(customer.id)).body.verificationStatus, identifier).toBe('IN_PROGRESS');
    }
    advance(2_000);
    const statuses = (await call('GET', '/customers?limit=10')).body.data.map((c: Json) => c.kycStatus);
    expect(statuses).toEqual(['APPROVED', 'APPROVED', 'APPROVED']);
  });
});

describe('document outcomes (file-name markers of the documents area)', () => {
  it.each([
    ['_verify_invalid', 'INVALID_DOCUMENT'],
    ['_verify_expired', 'EXPIRED_DOCUMENT'],
    ['_verify_poor_quality', 'POOR_QUALITY_DOCUMENT'],
    ['_verify_unreadable', 'UNREADABLE_DOCUMENT'],
    ['_verify_incomplete', 'INCOMPLETE_DOCUMENT'],
    ['_verify_wrong_type', 'WRONG_DOCUMENT_TYPE'],
    ['_verify_fail', 'DOCUMENT_VERIFICATION_FAILED'],
  ])('%s is reported as %s and cleared by a replacement', async (marker, type) => {
    const customer = await individual('Doc Holder');
    const passport = await upload(customer.id, 'PASSPORT', {}, `passport${marker}.png`);
    const first = (await submit(customer.id)).body;
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.errors).toEqual([expect.objectContaining({ resourceId: passport.id, type, acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'] })]);
    await engine.fetch(formRequest('PUT', `/documents/${passport.id}`, {
      documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State',
    }, { name: 'passport.png', bytes: SAMPLE_FILES.png, type: 'image/png' }, as));
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
  });

  it('a suspected fraudulent document is terminal', async () => {
    const customer = await individual('Fay Forger');
    await upload(customer.id, 'PASSPORT', {}, 'passport_verify_fraud.png');
    const verification = (await submit(customer.id)).body;
    expect(verification).toMatchObject({ verificationStatus: 'REJECTED', errors: [expect.objectContaining({ type: 'SUSPECTED_FRAUD_DOCUMENT' })] });
    expect((await call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    expect((await submit(customer.id)).status).toBe(400);
  });

  it('a submitted document can no longer be deleted', async () => {
    const customer = await individual('Della Delete');
    const passport = await upload(customer.id, 'PASSPORT');
    await submit(customer.id);
    expect((await call('DELETE', `/documents/${passport.id}`)).status).toBe(409);
  });
});

describe('regulated and paperwork-skipping platforms (individuals)', () => {
  it.each([{ regulated: true }, { skipPaperwork: true }])('%o: only 001 and 003 can be submitted', async (mode) => {
    onPlatform(mode);
    const approved = await individual('Alice Approved');
    const rejected = await individual('Rex Rejected002', { platformCustomerId: 'r' });
    const pending = await individual('Paula Pending001', { platformCustomerId: 'p' });
    const unverified = await individual('Uma Unverified003', { platformCustomerId: 'u' });
    expect([approved, rejected, pending, unverified].map((c) => c.kycStatus)).toEqual(['APPROVED', 'REJECTED', 'PENDING', 'UNVERIFIED']);
    expect((await submit(approved.id)).status).toBe(400);
    expect((await submit(rejected.id)).status).toBe(400);
    await upload(pending.id, 'PASSPORT');
    expect((await submit(pending.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    await upload(unverified.id, 'PASSPORT');
    expect((await submit(unverified.id)).body.errors[0].type).toBe('POOR_QUALITY_DOCUMENT');
  });
});

const person = (lastName: string) => ({
  firstName: 'Olive', lastName, birthDate: '1980-01-01', nationality: 'US',
  address: { line1: '2 Side St', postalCode: '12345', country: 'US' }, idType: 'SSN', identifier: '987-65-4321',
});

async function business(registrationNumber: string, extra: Json = {}) {
  return (await call('POST', '/customers', {
    customerType: 'BUSINESS',
    businessInfo: { legalName: 'Acme Inc', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30', registrationNumber, entityType: 'LLC', ...extra },
    address: { line1: '1 Market St', postalCode: '94105', country: 'US' },
  })).body;
}

/** Everything an LLC needs: its four documents, an 80% owner, a director, and their passports. */
async function completeBusinessPacket(customerId: string, lastNames = ['Owner', 'Director']) {
  for (const type of ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL']) await upload(customerId, type);
  const owner = (await call('POST', '/beneficial-owners', { customerId, roles: ['UBO'], ownershipPercentage: 80, personalInfo: person(lastNames[0]!) })).body;
  const director = (await call('POST', '/beneficial-owners', { customerId, roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo: person(lastNames[1]!) })).body;
  await upload(owner.id, 'PASSPORT');
  await upload(director.id, 'PASSPORT');
  return [owner, director] as Json[];
}

describe('business packets', () => {
  it('lists every missing field, document, owner and control person', async () => {
    const customer = (await call('POST', '/customers', {
      customerType: 'BUSINESS', businessInfo: { legalName: 'Bare Corp', country: 'US', taxId: '12-3456789', incorporatedOn: '2015-06-30' },
    })).body;
    const verification = (await submit(customer.id)).body;
    expect(kinds(verification)).toEqual([
      'MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON', 'MISSING_CONTROL_STRUCTURE_DOCUMENT', 'MISSING_FIELD:address.country',
      'MISSING_FIELD:address.line1', 'MISSING_FIELD:address.postalCode', 'MISSING_FIELD:businessInfo.entityType',
      'MISSING_FIELD:businessInfo.registrationNumber', 'MISSING_LEGAL_PRESENCE_DOCUMENT', 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    const corporation = await business('REG-1', { entityType: 'CORPORATION' });
    expect(kinds((await submit(corporation.id)).body)).toContain('MISSING_GOOD_STANDING_DOCUMENT');
  });

  it('asks for each owner’s identity document and rejects more than 100% ownership', async () => {
    const customer = await business('REG-2');
    const [owner] = await completeBusinessPacket(customer.id);
    const extra = (await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['UBO'], ownershipPercentage: 30, personalInfo: person('Extra') })).body;
    const verification = (await submit(customer.id)).body;
    expect(verification.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ resourceId: extra.id, type: 'MISSING_IDENTITY_DOCUMENT' }),
      expect.objectContaining({ resourceId: extra.id, type: 'INVALID_FIELD', field: 'ownershipPercentage' }),
    ]));
    await call('PATCH', `/beneficial-owners/${owner!.id}`, { ownershipPercentage: 50 });
    await upload(extra.id, 'PASSPORT');
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
  });

  it('never infers missing owners from the percentages: one 60% owner and a control person verify', async () => {
    const customer = await business('REG-100');
    for (const type of ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL']) await upload(customer.id, type);
    const missing = (await submit(customer.id)).body.errors.filter((e: Json) => e.resourceId === customer.id);
    expect(missing.map((e: Json) => e.type).sort()).toEqual(['MISSING_BENEFICIAL_OWNER', 'MISSING_CONTROL_PERSON']);
    expect(missing.find((e: Json) => e.type === 'MISSING_BENEFICIAL_OWNER').reason).toBe('no beneficial owner is registered; register every person owning 25% or more of the business');
    const owner = (await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['UBO'], ownershipPercentage: 60, personalInfo: person('Owner') })).body;
    await upload(owner.id, 'PASSPORT');
    expect(kinds((await submit(customer.id)).body)).toEqual(['MISSING_CONTROL_PERSON']);
    const control = (await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['CONTROL_PERSON'], ownershipPercentage: 0, personalInfo: person('Control') })).body;
    await upload(control.id, 'PASSPORT');
    expect((await submit(customer.id)).body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('APPROVED');
  });

  it('other: approved after review; owners resolve by their last-name suffix', async () => {
    const customer = await business('REG-100');
    const [owner, director] = await completeBusinessPacket(customer.id, ['Owner001', 'Director002']);
    const third = (await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['COMPANY_OFFICER'], ownershipPercentage: 0, personalInfo: person('Officer') })).body;
    await upload(third.id, 'PASSPORT');
    expect((await submit(customer.id)).body.verificationStatus).toBe('IN_PROGRESS');
    expect((await call('GET', `/beneficial-owners/${owner!.id}`)).body.kycStatus).toBe('UNVERIFIED');
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('APPROVED');
    const statuses = (await call('GET', `/beneficial-owners?customerId=${customer.id}`)).body.data.map((o: Json) => [o.personalInfo.lastName, o.kycStatus]);
    expect(statuses).toEqual([['Officer', 'APPROVED'], ['Director002', 'REJECTED'], ['Owner001', 'PENDING']]);
    expect(director!.id).toMatch(/^BeneficialOwner:/);
    expect(events()).toEqual(['CUSTOMER.KYB_PENDING', 'VERIFICATION.IN_PROGRESS', 'VERIFICATION.APPROVED', 'CUSTOMER.KYB_APPROVED']);
    // Business responses and their events embed the owners, with their identifiers (REFERENCE §5).
    const fetched = (await call('GET', `/customers/${customer.id}`)).body;
    expect(fetched.beneficialOwners.map((o: Json) => o.personalInfo.lastName).sort()).toEqual(['Director002', 'Officer', 'Owner001']);
    expect(fetched.beneficialOwners[0].personalInfo.identifier).toMatch(/^\d{3}-\d{2}-\d{4}$/);
    const approvedEvent = engine.sandbox(as.clientId).events({ type: 'CUSTOMER.KYB_APPROVED' }).data[0]!;
    expect((approvedEvent.data as Json).beneficialOwners.map((o: Json) => o.kycStatus).sort()).toEqual(['APPROVED', 'PENDING', 'REJECTED']);
  });

  it.each(['001', '003'])('%s: a complete packet waits for a reviewer', async (suffix) => {
    const customer = await business(`REG-${suffix}`);
    expect(kinds((await submit(customer.id)).body)).toContain('MISSING_BENEFICIAL_OWNER');
    await completeBusinessPacket(customer.id);
    expect((await submit(customer.id)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('PENDING');
  });

  it('002: rejected after review', async () => {
    const customer = await business('REG-002');
    await completeBusinessPacket(customer.id);
    await submit(customer.id);
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('REJECTED');
  });

  it('an owner who fails screening is rejected with the business, whatever its name', async () => {
    const customer = await business('REG-7');
    const [owner] = await completeBusinessPacket(customer.id);
    await call('PATCH', `/beneficial-owners/${owner!.id}`, { personalInfo: { identifier: '000-00-0901' } });
    const verification = (await submit(customer.id)).body;
    expect(verification).toMatchObject({ verificationStatus: 'REJECTED', errors: [expect.objectContaining({ resourceId: owner!.id, type: 'APPLICANT_SANCTIONED' })] });
    expect((await call('GET', `/beneficial-owners/${owner!.id}`)).body.kycStatus).toBe('REJECTED');
  });

  it('owners can still be added and changed while the business is reviewed and once decided (REFERENCE §5)', async () => {
    const customer = await business('REG-8');
    const [owner] = await completeBusinessPacket(customer.id);
    await submit(customer.id);
    expect((await call('PATCH', `/beneficial-owners/${owner!.id}`, { ownershipPercentage: 24.5 })).body.ownershipPercentage).toBe(24.5);
    advance(2_000);
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('APPROVED');
    const late = await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['UBO'], ownershipPercentage: 5, personalInfo: person('Late') });
    expect(late).toMatchObject({ status: 201, body: { kycStatus: 'UNVERIFIED' } });
    expect((await call('GET', `/customers/${customer.id}`)).body.kybStatus).toBe('APPROVED');
  });

  it('a tax id screened 902 is a terminal APPLICANT_FRAUD', async () => {
    const customer = await business('REG-9', { taxId: '00-0000902' });
    await completeBusinessPacket(customer.id);
    const verification = (await submit(customer.id)).body;
    expect(verification).toMatchObject({ verificationStatus: 'REJECTED', errors: [expect.objectContaining({ type: 'APPLICANT_FRAUD', resourceId: customer.id })] });
  });
});

describe('regulated and paperwork-skipping platforms (businesses)', () => {
  it.each([{ regulated: true }, { skipPaperwork: true }])('%o: 002 and other resolve at the first submission without a packet', async (mode) => {
    onPlatform(mode);
    const approved = await business('REG-100');
    const rejected = await business('REG-002');
    const reviewed = await business('REG-001');
    expect(approved.kybStatus).toBe('UNVERIFIED');
    expect((await submit(approved.id)).body).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
    expect((await call('GET', `/customers/${approved.id}`)).body.kybStatus).toBe('APPROVED');
    expect((await submit(rejected.id)).body.verificationStatus).toBe('REJECTED');
    expect((await submit(reviewed.id)).body.verificationStatus).toBe('RESOLVE_ERRORS');
  });
});

describe('beneficial owners', () => {
  it('are only for businesses, validate every field and return what they were registered with, identifier included', async () => {
    const customer = await individual('Ivy Individual');
    const notBusiness = await call('POST', '/beneficial-owners', { customerId: customer.id, roles: ['UBO'], ownershipPercentage: 30, personalInfo: person('X') });
    expect(notBusiness.status).toBe(400);
    const biz = await business('REG-5');
    const bad = await call('POST', '/beneficial-owners', { customerId: biz.id, roles: ['KING'], ownershipPercentage: 101, personalInfo: { ...person('X'), identifier: '1' } });
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['ownershipPercentage', 'personalInfo.identifier', 'roles.0']);
    const owner = (await call('POST', '/beneficial-owners', { customerId: biz.id, roles: ['UBO'], ownershipPercentage: 30, personalInfo: person('Kept') })).body;
    expect(owner).toMatchObject({ customerId: biz.id, kycStatus: 'UNVERIFIED', personalInfo: { lastName: 'Kept', countryOfIssuance: 'US', identifier: person('Kept').identifier } });
    expect((await call('GET', `/beneficial-owners/${owner.id}`)).body.personalInfo.identifier).toBe(person('Kept').identifier);
    const foreign = (await call('POST', '/beneficial-owners', { customerId: biz.id, roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo: { ...person('Abroad'), idType: 'NON_US_TAX_ID', identifier: 'DE-12345' } })).body;
    expect(foreign.personalInfo).not.toHaveProperty('countryOfIssuance'); // US only for an SSN or ITIN
    const patched = (await call('PATCH', `/beneficial-owners/${owner.id}`, { personalInfo: { middleName: 'Q' } })).body;
    expect(patched.personalInfo).toMatchObject({ firstName: 'Olive', middleName: 'Q', lastName: 'Kept' });
    expect((await call('PATCH', `/beneficial-owners/${owner.id}`, { personalInfo: { identifier: '123-45-6789' } })).status).toBe(200);
    const retyped = await call('PATCH', `/beneficial-owners/${owner.id}`, { personalInfo: { idType: 'ITIN' } }); // 123-… is no ITIN
    expect(retyped.status).toBe(400);
    expect(retyped.body.details.errors[0].field).toBe('personalInfo.identifier');
    expect((await call('GET', '/beneficial-owners')).status).toBe(400);
    expect((await call('GET', '/beneficial-owners/BeneficialOwner:00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
