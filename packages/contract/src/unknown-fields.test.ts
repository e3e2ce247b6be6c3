import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlatformConfigUpdateRequest } from './config.js';
import { CustomerCreateRequest } from './customers.js';
import { ExternalAccountCreateRequest } from './external-accounts.js';
import { splitUnknownFields } from './unknown-fields.js';

describe('splitUnknownFields', () => {
  it('finds unknown fields at every depth of a request and returns the value without them', () => {
    const body = {
      customerId: 'Customer:11111111-2222-4333-8444-555555555555', currency: 'USD', nickname: 'mine',
      accountInfo: {
        accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '123456789', platformAccountId: 'ext_acc_123456',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', favouriteColour: 'blue' },
      },
    };
    const { known, paths } = splitUnknownFields(ExternalAccountCreateRequest, body);
    expect(paths).toEqual(['nickname', 'accountInfo.platformAccountId', 'accountInfo.beneficiary.favouriteColour']);
    expect(known).toEqual({
      customerId: body.customerId, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '12345678901', routingNumber: '123456789', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe' } },
    });
    expect(body.accountInfo).toHaveProperty('platformAccountId'); // the input is never changed
  });

  it('keeps a record entry or an open object field named __proto__ as an own field when it removes something inside it', () => {
    const value = JSON.parse('{"__proto__":{"a":"x","b":1},"constructor":{"a":"y","c":2}}');
    const inRecord = splitUnknownFields(z.record(z.string(), z.object({ a: z.string() })), value);
    expect(inRecord.paths).toEqual(['__proto__.b', 'constructor.c']);
    expect(Object.getPrototypeOf(inRecord.known)).toBe(Object.prototype);
    expect(Object.entries(inRecord.known as object)).toEqual([['__proto__', { a: 'x' }], ['constructor', { a: 'y' }]]);
    const inOpenObject = splitUnknownFields(z.object({}).catchall(z.object({ a: z.string() })), value);
    expect(Object.entries(inOpenObject.known as object)).toEqual([['__proto__', { a: 'x' }], ['constructor', { a: 'y' }]]);
  });

  it('follows a discriminated union by its discriminator, and arrays by index', () => {
    const business = { customerType: 'BUSINESS', kybStatus: 'APPROVED', businessInfo: { legalName: 'Acme', country: 'US', taxId: '47-1234567', incorporatedOn: '2018-03-14', founded: 1999 } };
    expect(splitUnknownFields(CustomerCreateRequest, business).paths).toEqual(['kybStatus', 'businessInfo.founded']);
    const individual = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', kycStatus: 'APPROVED' };
    expect(splitUnknownFields(CustomerCreateRequest, individual).paths).toEqual(['kycStatus']);
    const config = { supportedCurrencies: [{ currencyCode: 'USD', providerRequiredCustomerFields: ['EMAIL'] }], isRegulatedFinancialInstitution: true };
    expect(splitUnknownFields(PlatformConfigUpdateRequest, config).paths).toEqual(['supportedCurrencies.0.providerRequiredCustomerFields', 'isRegulatedFinancialInstitution']);
  });

  it('leaves values the schema refuses for other reasons alone, and open objects and records open', () => {
    const schema = z.object({ a: z.object({ b: z.string() }).optional(), meta: z.record(z.string(), z.unknown()), loose: z.looseObject({}) });
    expect(splitUnknownFields(schema, { a: 'not an object', meta: { anything: 1 }, loose: { anything: 2 } }).paths).toEqual([]);
    expect(splitUnknownFields(schema, null)).toEqual({ known: null, paths: [] });
    expect(splitUnknownFields(CustomerCreateRequest, { customerType: 'NOBODY', x: 1 }).paths).toEqual([]);
  });

  it('sees own keys only: a field named after an Object.prototype member is unknown too', () => {
    const { paths, known } = splitUnknownFields(z.object({ a: z.number() }), JSON.parse('{"a":1,"constructor":2,"__proto__":3}'));
    expect(paths).toEqual(['constructor', '__proto__']);
    expect(Object.keys(known as object)).toEqual(['a']);
  });
});
