import { ACCOUNT_INFO_TABLE } from '@railyard/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { BENEFICIARY_VERIFICATION_TRIGGERS } from '../sandbox/magic-values.js';

let engine: Engine;
beforeEach(() => {
  engine = createEngine();
});

const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
const fields = (body: Json) => (body.details.errors as { field: string }[]).map((e) => e.field).sort();

const alice = {
  customerType: 'INDIVIDUAL', platformCustomerId: 'alice-1', fullName: 'Alice Liddell', birthDate: '1990-04-01', nationality: 'US',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' }, idType: 'SSN', identifier: '123-45-6789',
};
const newCustomer = async () => (await call('POST', '/customers', alice)).body.id as string;

const beneficiary = {
  beneficiaryType: 'INDIVIDUAL', fullName: 'Alice Liddell', birthDate: '1990-04-01', nationality: 'US', countryOfResidence: 'US',
  phoneNumber: '+15555550100', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
};

/** Valid sample values by field name, with per-type overrides; wallets' addresses by chain. */
const SAMPLE: Record<string, unknown> = {
  accountNumber: '1234567890', routingNumber: '021000021', bankName: 'Sandbox Bank', swiftCode: 'DEUTDEFF', branchCode: '12345',
  bankCode: '123', phoneNumber: '+15555550100', provider: 'MTN', bankAccountType: 'CHECKING', sortCode: '601613',
  clabeNumber: '002010077777777771', pixKey: 'alice@example.com', pixKeyType: 'EMAIL', taxId: '12345678901', country: 'DE',
};
const OVERRIDES: Record<string, Record<string, unknown>> = {
  AED_ACCOUNT: { iban: 'AE070331234567890123456' }, DKK_ACCOUNT: { iban: 'DK5000400440116243' }, EUR_ACCOUNT: { iban: 'DE89370400440532013000' },
  EGP_ACCOUNT: { iban: 'EG380019000500000000263180002' }, ILS_ACCOUNT: { iban: 'IL620108000000099999999' },
  PKR_ACCOUNT: { iban: 'PK36SCBL0000001123456702' }, GBP_ACCOUNT: { accountNumber: '31926819' },
  IDR_ACCOUNT: { phoneNumber: '+62812345678' }, KES_ACCOUNT: { phoneNumber: '+254712345678' }, RWF_ACCOUNT: { phoneNumber: '+250712345678' },
  TZS_ACCOUNT: { phoneNumber: '+255712345678' }, ZMW_ACCOUNT: { phoneNumber: '+260712345678' }, XAF_ACCOUNT: { region: 'CM' },
  XOF_ACCOUNT: { region: 'SN' }, INR_ACCOUNT: { ifsc: 'HDFC0000001' },
  BASE_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' }, ETHEREUM_WALLET: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
  POLYGON_WALLET: { address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }, PLASMA_WALLET: { address: '0x52908400098527886e0f7030069857d2e4169ee7' },
  SOLANA_WALLET: { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }, TRON_WALLET: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  SPARK_WALLET: { address: 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc' },
  LIGHTNING: { lightningAddress: 'alice@getalby.com' },
};
/** A field of each type to break by its form (every platform refuses it), and the expected field. */
const BREAK: Record<string, [string, unknown]> = {
  USD_ACCOUNT: ['routingNumber', '02100002'], EUR_ACCOUNT: ['iban', 'DE8937'], MXN_ACCOUNT: ['clabeNumber', '00201007777777777'],
  AED_ACCOUNT: ['iban', 'AE07'], DKK_ACCOUNT: ['iban', 'DK50'], EGP_ACCOUNT: ['iban', 'EG38'], PKR_ACCOUNT: ['iban', 'PK36'], INR_ACCOUNT: ['ifsc', 'HDFC1000001'],
  BASE_WALLET: ['address', '0x1234'], ETHEREUM_WALLET: ['address', 'not-hex'], POLYGON_WALLET: ['address', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d35'],
  PLASMA_WALLET: ['address', 'nope'], SOLANA_WALLET: ['address', ''], TRON_WALLET: ['address', ''], SPARK_WALLET: ['address', 'bc1qxyz'],
  LIGHTNING: ['lightningAddress', 'not-an-address'],
};
/** A value of each type that is well formed but fails its checksum: accepted by default, refused by a strict platform. */
const BAD_CHECKSUM: Record<string, [string, string]> = {
  USD_ACCOUNT: ['routingNumber', '021000022'], EUR_ACCOUNT: ['iban', 'DE89370400440532013001'], MXN_ACCOUNT: ['clabeNumber', '002010077777777772'],
  AED_ACCOUNT: ['iban', 'AE070331234567890123457'], DKK_ACCOUNT: ['iban', 'DK5000400440116244'], EGP_ACCOUNT: ['iban', 'EG380019000500000000263180003'],
  ILS_ACCOUNT: ['iban', 'IL620108000000099999998'], PKR_ACCOUNT: ['iban', 'PK36SCBL0000001123456703'],
  BASE_WALLET: ['address', '0x52908400098527886E0F7030069857D2E4169Ee7'], ETHEREUM_WALLET: ['address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
  SOLANA_WALLET: ['address', '1111'], TRON_WALLET: ['address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
  SPARK_WALLET: ['address', 'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmd'],
};

function validInfo(accountType: keyof typeof ACCOUNT_INFO_TABLE): Json {
  const row = ACCOUNT_INFO_TABLE[accountType] as unknown as { required: Record<string, unknown>; beneficiary: unknown };
  const info: Json = { accountType };
  for (const field of Object.keys(row.required)) info[field] = SAMPLE[field];
  Object.assign(info, OVERRIDES[accountType] ?? {});
  if (row.beneficiary && !accountType.endsWith('_WALLET')) info.beneficiary = beneficiary;
  return info;
}

describe('one valid account per accountType, and a field-level rejection', () => {
  for (const accountType of Object.keys(ACCOUNT_INFO_TABLE) as (keyof typeof ACCOUNT_INFO_TABLE)[]) {
    it(accountType, async () => {
      const customerId = await newCustomer();
      const created = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: validInfo(accountType) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ customerId, status: 'ACTIVE', accountInfo: { accountType } });
      const rails = ACCOUNT_INFO_TABLE[accountType].paymentRails as readonly string[];
      if (rails.length > 0) expect(created.body.accountInfo.paymentRails).toEqual(rails);
      const [field, bad] = BREAK[accountType] ?? Object.keys(ACCOUNT_INFO_TABLE[accountType].required).length > 0
        ? BREAK[accountType] ?? [Object.keys(ACCOUNT_INFO_TABLE[accountType].required)[0]!, 12345]
        : ['beneficiary', 'x'];
      const rejected = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: { ...validInfo(accountType), [field]: bad } });
      expect(rejected.status).toBe(400);
      expect(fields(rejected.body)).toContain(`accountInfo.${field}`);
    });
  }
});

describe('one error per field', () => {
  it('a sort code the schema refuses is not reported again by the identifier check', async () => {
    const customerId = await newCustomer();
    const { status, body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'GBP', accountInfo: { ...validInfo('GBP_ACCOUNT'), sortCode: '0400' } });
    expect(status).toBe(400);
    expect(body.details.errors.map((e: { field: string }) => e.field)).toEqual(['accountInfo.sortCode']);
  });
});

describe('checksums: accepted by default (the reference\'s own examples fail several), refused by a strict platform', () => {
  const strict = { clientId: 'strict-accounts', clientSecret: 'strict-secret' };
  const onStrict = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body, undefined, strict);
  beforeEach(() => {
    engine.createPlatform({ ...strict, strict: true });
  });

  it.each(Object.entries(BAD_CHECKSUM))('%s', async (accountType, [field, value]) => {
    const info = { ...validInfo(accountType as keyof typeof ACCOUNT_INFO_TABLE), [field]: value };
    const lenient = await call('POST', '/customers/external-accounts', { customerId: await newCustomer(), currency: 'USD', accountInfo: info });
    expect(lenient.status, JSON.stringify(lenient.body)).toBe(201);
    const customerId = (await onStrict('POST', '/customers', alice)).body.id;
    const refused = await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: info });
    expect(refused.status).toBe(400);
    expect(fields(refused.body)).toEqual([`accountInfo.${field}`]);
    expect((await onStrict('GET', '/customers/external-accounts')).body.totalCount).toBe(0);
  });

  it('a 300 kB SOLANA_WALLET address is a 400 naming the field with its maxLength, on a strict platform as on a lenient one', async () => {
    // It used to reach the strict base58 decode, quadratic in the length: the request held the server for minutes.
    const info = { ...validInfo('SOLANA_WALLET'), address: 'z'.repeat(300_000) };
    const customerId = (await onStrict('POST', '/customers', alice)).body.id;
    const refused = await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: info });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(refused.body.details.errors).toEqual([{ field: 'accountInfo.address', message: 'must be at most 255 characters', constraint: { maxLength: 255 } }]);
    const lenient = await call('POST', '/customers/external-accounts', { customerId: await newCustomer(), currency: 'USDC', accountInfo: info });
    expect(lenient.status).toBe(400);
    expect(lenient.body.details.errors).toEqual(refused.body.details.errors);
    // Within the schema's cap but over a Solana address's: the strict check refuses it by its length.
    const long = await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: { ...info, address: 'z'.repeat(255) } });
    expect(long.status).toBe(400);
    expect(long.body.details.errors).toEqual([{ field: 'accountInfo.address', message: expect.stringContaining('Solana'), constraint: { maxLength: 44 } }]);
    expect((await onStrict('GET', '/customers/external-accounts')).body.totalCount).toBe(0);
  });

  it('a strict platform lists every invalid field at once', async () => {
    const customerId = (await onStrict('POST', '/customers', alice)).body.id;
    const info = { ...validInfo('USD_ACCOUNT'), routingNumber: '021000022', intermediaryRoutingNumber: '011000016' };
    const { status, body } = await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: info });
    expect(status).toBe(400);
    expect(fields(body)).toEqual(['accountInfo.intermediaryRoutingNumber', 'accountInfo.routingNumber']);
  });
});

describe('beneficiary email, phoneNumber and countryOfResidence: plain strings, as the reference types them', () => {
  const strict = { clientId: 'strict-beneficiary', clientSecret: 'strict-secret' };
  const onStrict = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body, undefined, strict);
  const loose = { email: 'alice at example', phoneNumber: '555-0100 ext. 2', countryOfResidence: 'Wonderland' };
  const infoWith = (extra: Json, type = 'INDIVIDUAL') => ({
    ...validInfo('USD_ACCOUNT'), beneficiary: type === 'INDIVIDUAL' ? { ...beneficiary, ...extra } : { beneficiaryType: 'BUSINESS', legalName: 'Acme', ...extra },
  });

  it('any string within its cap on a lenient platform, for individuals, businesses and the wallet form; kept as sent', async () => {
    for (const type of ['INDIVIDUAL', 'BUSINESS']) {
      const created = await call('POST', '/customers/external-accounts', { customerId: await newCustomer(), currency: 'USD', accountInfo: infoWith(loose, type) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.accountInfo.beneficiary).toMatchObject(loose);
    }
    const wallet = { ...validInfo('SOLANA_WALLET'), beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Alice Liddell', countryOfResidence: 'Wonderland' } };
    expect((await call('POST', '/customers/external-accounts', { customerId: await newCustomer(), currency: 'USDC', accountInfo: wallet })).status).toBe(201);
    const long = await call('POST', '/customers/external-accounts', { customerId: await newCustomer(), currency: 'USD', accountInfo: infoWith({ email: 'a'.repeat(321) }) });
    expect(long.body.details.errors).toEqual([expect.objectContaining({ field: 'accountInfo.beneficiary.email', constraint: { maxLength: 320 } })]);
  });

  it('checked by their forms on a strict platform: every field at once, with the constraint; well-formed values pass', async () => {
    engine.createPlatform({ ...strict, strict: true });
    const customerId = (await onStrict('POST', '/customers', alice)).body.id;
    const refused = await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: infoWith(loose) });
    expect(refused.status).toBe(400);
    expect(refused.body.details.errors).toEqual([
      { field: 'accountInfo.beneficiary.email', message: 'must be an email address', constraint: { format: 'email' } },
      { field: 'accountInfo.beneficiary.phoneNumber', message: 'must be a phone number of the form +<digits>', constraint: { pattern: '^\\+[0-9]{6,14}$' } },
      { field: 'accountInfo.beneficiary.countryOfResidence', message: 'must be an ISO 3166-1 alpha-2 country code', constraint: { format: 'iso3166-1-alpha-2' } },
    ]);
    expect((await onStrict('GET', '/customers/external-accounts')).body.totalCount).toBe(0);
    const fine = { email: 'alice@example.com', phoneNumber: '+15555550100', countryOfResidence: 'GB' };
    expect((await onStrict('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: infoWith(fine, 'BUSINESS') })).status).toBe(201);
  });
});

describe('beneficiary name verification (1xx suffixes)', () => {
  const rows = Object.entries(BENEFICIARY_VERIFICATION_TRIGGERS).filter(([suffix]) => suffix !== '105');
  it.each(rows)('suffix %s', async (suffix, outcome) => {
    const customerId = await newCustomer();
    const accountNumber = `1234567${suffix === 'other' ? '001' : suffix}`;
    const { status, body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: { ...validInfo('USD_ACCOUNT'), accountNumber } });
    expect(status).toBe(201);
    expect(body.beneficiaryVerificationStatus).toBe((outcome as { status: string }).status);
    if (suffix === 'other') expect(body.beneficiaryVerifiedData).toEqual({ fullName: 'Alice Liddell' });
  });
  it('105 refuses the account and stores nothing', async () => {
    const customerId = await newCustomer();
    const { status, body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: { ...validInfo('USD_ACCOUNT'), accountNumber: '1234567105' } });
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_BANK_ACCOUNT');
    expect((await call('GET', '/customers/external-accounts')).body.data).toEqual([]);
  });
  it('reads the primary identifier: IBAN, and the part before @ of an email pix key', async () => {
    const customerId = await newCustomer();
    const brl = await call('POST', '/customers/external-accounts', { customerId, currency: 'BRL', accountInfo: { ...validInfo('BRL_ACCOUNT'), pixKey: 'alice102@example.com' } });
    expect(brl.body.beneficiaryVerificationStatus).toBe('NOT_MATCHED');
    const mxn = await call('POST', '/customers/external-accounts', { customerId, currency: 'MXN', accountInfo: validInfo('MXN_ACCOUNT') });
    expect(mxn.body.beneficiaryVerificationStatus).toBe('MATCHED');
  });
  it('wallets are UNSUPPORTED', async () => {
    const customerId = await newCustomer();
    const { body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: validInfo('BASE_WALLET') });
    expect(body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
  });
});

describe('status, ownership and defaults', () => {
  it('self-custody FIRST_PARTY wallets start PENDING_OWNERSHIP_VERIFICATION; custodial ones and THIRD_PARTY are ACTIVE', async () => {
    const customerId = await newCustomer();
    const self = await call('POST', '/customers/external-accounts', { customerId, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: validInfo('BASE_WALLET') });
    expect(self.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const custodial = await call('POST', '/customers/external-accounts', { customerId, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { ...validInfo('ETHEREUM_WALLET'), vaspName: 'Coinbase' } });
    expect(custodial.body.status).toBe('ACTIVE');
    const third = await call('POST', '/customers/external-accounts', { customerId, currency: 'USDC', ownershipType: 'THIRD_PARTY', accountInfo: validInfo('SOLANA_WALLET') });
    expect(third.body.status).toBe('ACTIVE');
  });
  it('defaultUmaDepositAccount defaults to false; a second true is 409', async () => {
    const customerId = await newCustomer();
    const first = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', defaultUmaDepositAccount: true, accountInfo: validInfo('USD_ACCOUNT') });
    expect(first.body.defaultUmaDepositAccount).toBe(true);
    const plain = await call('POST', '/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: validInfo('EUR_ACCOUNT') });
    expect(plain.body.defaultUmaDepositAccount).toBe(false);
    const second = await call('POST', '/customers/external-accounts', { customerId, currency: 'MXN', defaultUmaDepositAccount: true, accountInfo: validInfo('MXN_ACCOUNT') });
    expect(second.status).toBe(409);
  });
  it('a duplicate account for the same owner is 409; another customer may add it', async () => {
    const customerId = await newCustomer();
    const body = { customerId, currency: 'USD', accountInfo: validInfo('USD_ACCOUNT') };
    expect((await call('POST', '/customers/external-accounts', body)).status).toBe(201);
    expect((await call('POST', '/customers/external-accounts', body)).status).toBe(409);
    const other = (await call('POST', '/customers', { ...alice, platformCustomerId: 'alice-2' })).body.id;
    expect((await call('POST', '/customers/external-accounts', { ...body, customerId: other })).status).toBe(201);
  });
});

describe('404s, lists, platform accounts and delete', () => {
  it('404 for an unknown customer and an unknown account', async () => {
    const created = await call('POST', '/customers/external-accounts', { customerId: 'Customer:00000000-0000-0000-0000-000000000000', currency: 'USD', accountInfo: validInfo('USD_ACCOUNT') });
    expect(created.status).toBe(404);
    expect((await call('GET', '/customers/external-accounts/ExternalAccount:nope')).status).toBe(404);
    expect((await call('DELETE', '/platform/external-accounts/ExternalAccount:nope')).status).toBe(404);
  });
  it('platform accounts are separate from customer accounts', async () => {
    const customerId = await newCustomer();
    const mine = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: validInfo('USD_ACCOUNT') });
    const platform = await call('POST', '/platform/external-accounts', { currency: 'EUR', accountInfo: validInfo('EUR_ACCOUNT') });
    expect(platform.status).toBe(201);
    expect(platform.body.customerId).toBeNull(); // SPEC §2.1: null when the account is on behalf of the platform
    expect((await call('GET', '/platform/external-accounts')).body.data.map((a: Json) => a.id)).toEqual([platform.body.id]);
    expect((await call('GET', '/customers/external-accounts')).body.data.map((a: Json) => a.id)).toEqual([mine.body.id]);
    expect((await call('GET', `/customers/external-accounts/${platform.body.id}`)).status).toBe(404);
    expect((await call('GET', `/platform/external-accounts/${mine.body.id}`)).status).toBe(404);
    expect((await call('GET', '/customers/external-accounts?currency=EUR')).body.data).toEqual([]);
  });
  it('delete is 204 and the account is gone', async () => {
    const customerId = await newCustomer();
    const { body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'USD', accountInfo: validInfo('USD_ACCOUNT') });
    expect((await call('DELETE', `/customers/external-accounts/${body.id}`)).status).toBe(204);
    expect((await call('GET', `/customers/external-accounts/${body.id}`)).status).toBe(404);
  });
});

describe('EXTERNAL_ACCOUNT.STATUS_UPDATED', () => {
  it('is not emitted on creation, only by a later status change', async () => {
    const customerId = await newCustomer();
    const { body } = await call('POST', '/customers/external-accounts', { customerId, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: validInfo('BASE_WALLET') });
    expect(body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const events = (await call('GET', '/_sandbox/events?type=EXTERNAL_ACCOUNT.STATUS_UPDATED')).body;
    expect(events.data).toEqual([]);
  });
});
