import { BeneficiaryTrustConfirmRequest, CustomerCreateRequest, endpoints, type Endpoint } from '@railyard/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEngine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';
import { compiledForValidInput, validCaseTwin } from './valid-case.js';

/** Both parsers answer alike: the same success, and on success the same output. */
function expectAlike(schema: z.ZodType, value: unknown) {
  const full = schema.safeParse(value);
  const fast = compiledForValidInput(schema).safeParse(value);
  expect({ value, success: fast.success }).toEqual({ value, success: full.success });
  if (full.success) expect(fast.data).toEqual(full.data);
}

const customerFields = {
  customerType: fc.constantFrom('INDIVIDUAL', 'BUSINESS', 'PERSON'),
  fullName: fc.constantFrom('Ada Lovelace', '', '   ', 7),
  birthDate: fc.constantFrom('1990-01-01', '1990-13-01', 'yesterday'),
  idType: fc.constantFrom('SSN', 'ITIN', 'PASSPORT'),
  identifier: fc.constantFrom('123-45-6789', '912-34-5678', '123456789', ''),
  countryOfIssuance: fc.constantFrom('US', 'MX', 'XX'),
  sourceOfFundsCategories: fc.constantFrom(['SALARY'], ['OTHER'], 'OTHER', []),
  sourceOfFundsOtherDescription: fc.constantFrom('inheritance', ''),
  address: fc.constantFrom({ line1: '1 Main St', postalCode: '10001', country: 'US' }, { line1: '1 Main St' }, null),
  businessInfo: fc.constantFrom(
    { legalName: 'Acme Inc', incorporatedOn: '2020-01-01', country: 'US', taxId: '12-3456789' },
    { legalName: 'Acme Inc', incorporatedOn: '2020-01-01', country: 'US', taxId: 'nope' },
    { legalName: 'Acme Inc' },
  ),
  currencies: fc.constantFrom(['USD'], ['USD', 'EUR'], 'USD'),
  extra: fc.constantFrom('ignored'),
};

describe('valid-case parsers', () => {
  it('compile every params, query and body schema of the contract, the refined ones through their twin', () => {
    const refined: string[] = [];
    for (const endpoint of Object.values(endpoints) as Endpoint[]) {
      for (const schema of [endpoint.params, endpoint.query, endpoint.body]) {
        if (!schema) continue;
        const fast = compiledForValidInput(schema);
        expect(fast, endpoint.operationId).not.toBe(schema);
        if (validCaseTwin(schema) !== schema) refined.push(endpoint.operationId);
      }
    }
    // The customer create and update, document and owner uploads, SCA answers, quotes, cards and UMA requests.
    expect(refined).toContain('createCustomer');
    expect(refined.length).toBeGreaterThanOrEqual(10);
  });

  it('leave the schema itself alone: it still reports a refinement beside an invalid field', () => {
    validCaseTwin(CustomerCreateRequest);
    const refused = CustomerCreateRequest.safeParse({ customerType: 'INDIVIDUAL', fullName: 7, idType: 'SSN', identifier: '123456789' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['fullName', 'identifier']);
  });

  it('accept exactly what the customer create schema accepts, with the same output', () => {
    fc.assert(fc.property(fc.record(customerFields, { requiredKeys: [] }), (body) => expectAlike(CustomerCreateRequest, body)), { numRuns: 600 });
  });

  it('accept exactly what an SCA answer accepts (one of code or passkey, origin with a passkey)', () => {
    const fields = {
      code: fc.constantFrom('123456', '', 42),
      passkeyAssertion: fc.constantFrom({ id: 'cred', rawId: 'cred', type: 'public-key', response: {} }, 'x'),
      origin: fc.constantFrom('https://wallet.example', 'not a url'),
      challengeId: fc.constantFrom('ScaChallenge:1', ''),
    };
    fc.assert(fc.property(fc.record(fields, { requiredKeys: [] }), (body) => expectAlike(BeneficiaryTrustConfirmRequest, body)), { numRuns: 300 });
    for (const value of [null, [], 'code', 7, {}]) expectAlike(BeneficiaryTrustConfirmRequest, value);
  });

  it('still list every invalid field once a body schema is compiled', async () => {
    const engine = createEngine();
    const body = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', idType: 'SSN', identifier: '123456789', birthDate: 'soon' };
    // Past the uses after which the HTTP layer compiles a schema.
    for (let i = 0; i < 20; i++) await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Person ${i}` }));
    const response = await engine.fetch(apiRequest('POST', '/customers', body));
    expect(response.status).toBe(400);
    const error = (await response.json()) as { code: string; details: { errors: { field: string }[] } };
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details.errors.map((e) => e.field).sort()).toEqual(['birthDate', 'identifier']);
  });
});
