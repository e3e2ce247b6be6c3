import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_INFO_REQUEST_VARIANTS, ACCOUNT_INFO_RESPONSE_VARIANTS, ACCOUNT_INFO_TABLE, EXTERNAL_ACCOUNT_TYPES, ExternalAccount,
  ExternalAccountCreateRequest, ExternalAccountInfoRequest, OwnershipChallenge, OwnershipVerifyRequest,
  PlatformExternalAccountCreateRequest,
} from './external-accounts.js';

const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } as const;
const company = { beneficiaryType: 'BUSINESS', legalName: 'Analytical Engines Ltd' } as const;
const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.')).sort();

const create = (accountInfo: Record<string, unknown>, currency = 'USD') =>
  ExternalAccountCreateRequest.safeParse({ customerId: 'Customer:11111111-2222-4333-8444-555555555555', currency, accountInfo });

describe('accountInfo table', () => {
  it('has a request row for every accountType but the LIGHTNING_ACCOUNT alias, and a response variant for all', () => {
    expect(Object.keys(ACCOUNT_INFO_TABLE).sort()).toEqual(EXTERNAL_ACCOUNT_TYPES.filter((t) => t !== 'LIGHTNING_ACCOUNT').sort());
    expect(Object.keys(ACCOUNT_INFO_RESPONSE_VARIANTS).sort()).toEqual([...EXTERNAL_ACCOUNT_TYPES].sort());
    expect(EXTERNAL_ACCOUNT_TYPES).toHaveLength(48);
    expect(ExternalAccountInfoRequest.safeParse({ accountType: 'LIGHTNING_ACCOUNT', invoice: 'lnbc1' }).success).toBe(false);
  });

  it('lists the payment rails of REFERENCE §3', () => {
    expect(ACCOUNT_INFO_TABLE.USD_ACCOUNT.paymentRails).toEqual(['ACH', 'WIRE', 'RTP', 'FEDNOW']);
    expect(ACCOUNT_INFO_TABLE.INR_ACCOUNT.paymentRails).toEqual(['UPI', 'NEFT', 'RTGS']);
    expect(ACCOUNT_INFO_TABLE.SGD_ACCOUNT.paymentRails).toEqual(['PAYNOW', 'FAST', 'BANK_TRANSFER']);
    expect(ACCOUNT_INFO_TABLE.SOLANA_WALLET.paymentRails).toEqual([]);
  });
});

describe('account info validation', () => {
  it('reports a GBP account without sortCode at accountInfo.sortCode', () => {
    expect(paths(create({ accountType: 'GBP_ACCOUNT', accountNumber: '12345678', beneficiary: person }, 'GBP'))).toEqual(['accountInfo.sortCode']);
    expect(create({ accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', beneficiary: person }, 'GBP').success).toBe(true);
    expect(paths(create({ accountType: 'GBP_ACCOUNT', sortCode: '04-00-04', accountNumber: '1234567', beneficiary: person }, 'GBP')))
      .toEqual(['accountInfo.accountNumber', 'accountInfo.sortCode']);
  });

  it('checks the EUR IBAN pattern and requires countryOfResidence of individual EUR beneficiaries', () => {
    const eur = (iban: string, beneficiary: object) => create({ accountType: 'EUR_ACCOUNT', iban, beneficiary }, 'EUR');
    expect(eur('DE89370400440532013000', { ...person, countryOfResidence: 'DE' }).success).toBe(true);
    expect(paths(eur('DE8937', { ...person, countryOfResidence: 'DE' }))).toEqual(['accountInfo.iban']);
    expect(paths(eur('DE89370400440532013000', person))).toEqual(['accountInfo.beneficiary.countryOfResidence']);
    expect(eur('DE89370400440532013000', company).success).toBe(true);
  });

  it('requires a beneficiary on fiat accounts but not on wallets, whose individual form needs countryOfResidence', () => {
    expect(paths(create({ accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359719' }, 'MXN'))).toEqual(['accountInfo.beneficiary']);
    expect(create({ accountType: 'SOLANA_WALLET', address: '7xKX' }, 'USDC').success).toBe(true);
    expect(paths(create({ accountType: 'SOLANA_WALLET', address: '7xKX', beneficiary: person }, 'USDC')))
      .toEqual(['accountInfo.beneficiary.countryOfResidence']);
    // The wallet form has no email: it is ignored, not refused.
    const withEmail = create({ accountType: 'SOLANA_WALLET', address: '7xKX', beneficiary: { ...person, countryOfResidence: 'FR', email: 'a@b.co' } }, 'USDC');
    expect(withEmail.success && (withEmail.data.accountInfo as { beneficiary?: unknown }).beneficiary).toEqual({ ...person, countryOfResidence: 'FR' });
  });

  it('applies currency-specific beneficiary rules (JMD requires address and phone, COP allows documentType)', () => {
    const jmd = { accountType: 'JMD_ACCOUNT', accountNumber: '123', branchCode: '12345', bankAccountType: 'SAVINGS', bankName: 'NCB' };
    expect(paths(create({ ...jmd, beneficiary: person }, 'JMD'))).toEqual(['accountInfo.beneficiary.address', 'accountInfo.beneficiary.phoneNumber']);
    const cop = { accountType: 'COP_ACCOUNT', bankName: 'Bancolombia', beneficiary: { ...person, documentType: 'CC', documentNumber: '1020304050' } };
    expect(create(cop, 'COP').success).toBe(true);
    expect(create({ ...jmd, beneficiary: { ...person, documentType: 'CC' } }, 'JMD').success).toBe(false);
  });

  it('checks country-specific phone numbers and enumerations', () => {
    expect(create({ accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-Pesa', beneficiary: person }, 'KES').success).toBe(true);
    expect(paths(create({ accountType: 'KES_ACCOUNT', phoneNumber: '+255712345678', provider: 'M-Pesa', beneficiary: person }, 'KES')))
      .toEqual(['accountInfo.phoneNumber']);
    expect(paths(create({ accountType: 'XAF_ACCOUNT', phoneNumber: '+237650000000', provider: 'MTN', region: 'SN', beneficiary: person }, 'XAF')))
      .toEqual(['accountInfo.region']);
  });

  it('ignores paymentRails in a request (server-set, as a GET returns it) and defaults a USD account to CHECKING', () => {
    const usd = { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', beneficiary: company };
    const echoed = create({ ...usd, paymentRails: ['ACH'] });
    expect(echoed.success && echoed.data.accountInfo).not.toHaveProperty('paymentRails');
    const parsed = create(usd);
    expect(parsed.success && parsed.data.accountInfo.accountType === 'USD_ACCOUNT' && parsed.data.accountInfo.bankAccountType).toBe('CHECKING');
    expect(parsed.success && parsed.data.defaultUmaDepositAccount).toBe(false);
  });

  it('requires exactly one Lightning destination', () => {
    expect(create({ accountType: 'LIGHTNING', invoice: 'lnbc1' }, 'BTC').success).toBe(true);
    expect(paths(create({ accountType: 'LIGHTNING' }, 'BTC'))).toEqual(['accountInfo.invoice']);
    expect(paths(create({ accountType: 'LIGHTNING', invoice: 'lnbc1', lightningAddress: 'a@b.c' }, 'BTC'))).toEqual(['accountInfo.lightningAddress']);
  });
});

describe('ExternalAccount resource and requests', () => {
  const gbp = {
    accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', paymentRails: ['FASTER_PAYMENTS'], beneficiary: person,
  };
  const account = {
    id: 'ExternalAccount:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', status: 'ACTIVE', currency: 'GBP', accountInfo: gbp,
  };

  it('parses a platform account and requires response paymentRails from the type rails', () => {
    expect(ExternalAccount.safeParse(account).success).toBe(true);
    expect(ExternalAccount.safeParse({ ...account, customerId: null }).success).toBe(true);
    expect(paths(ExternalAccount.safeParse({ ...account, accountInfo: { ...gbp, paymentRails: ['SEPA'] } }))).toEqual(['accountInfo.paymentRails.0']);
    const { paymentRails: _omit, ...noRails } = gbp;
    expect(paths(ExternalAccount.safeParse({ ...account, accountInfo: noRails }))).toEqual(['accountInfo.paymentRails']);
    expect(ACCOUNT_INFO_RESPONSE_VARIANTS.LIGHTNING_ACCOUNT.safeParse({ accountType: 'LIGHTNING_ACCOUNT', bolt12: 'lno1' }).success).toBe(true);
    expect(ACCOUNT_INFO_REQUEST_VARIANTS.GBP_ACCOUNT.shape.sortCode).toBeDefined();
  });

  it('keeps customerId and defaultUmaDepositAccount out of platform requests', () => {
    const { paymentRails: _rails, ...requestInfo } = gbp;
    const body = { currency: 'GBP', accountInfo: requestInfo };
    expect(PlatformExternalAccountCreateRequest.safeParse(body).success).toBe(true);
    const withCustomer = PlatformExternalAccountCreateRequest.safeParse({ ...body, customerId: 'Customer:11111111-2222-4333-8444-555555555555' });
    expect(withCustomer.success && withCustomer.data).not.toHaveProperty('customerId');
  });

  it('describes ownership challenges and verification', () => {
    expect(OwnershipChallenge.safeParse({ method: 'WALLET_SIGNATURE', messageToSign: 'Sign me', expiresAt: '2025-10-13T00:05:00Z' }).success).toBe(true);
    expect(OwnershipChallenge.safeParse({ method: 'LIVENESS', messageToSign: 'x', expiresAt: '2025-10-13T00:05:00Z' }).success).toBe(false);
    expect(OwnershipVerifyRequest.safeParse({ signature: '0xabc', signatureScheme: 'electrum' }).success).toBe(true);
    expect(OwnershipVerifyRequest.safeParse({ signature: '0xabc', signatureScheme: 'bip322' }).success).toBe(false);
  });
});

describe('JSON Schema rendering', () => {
  it('names each variant and keeps the REFERENCE §3 patterns and requirements', () => {
    const { $defs } = z.toJSONSchema(ExternalAccount, { io: 'output', unrepresentable: 'any' }) as { $defs: Record<string, any> };
    expect($defs.GbpAccountInfo.required).toEqual(['accountType', 'sortCode', 'accountNumber', 'paymentRails', 'beneficiary']);
    expect($defs.GbpAccountInfo.properties.paymentRails.items.enum).toEqual(['FASTER_PAYMENTS']);
    expect($defs.DkkAccountInfo.properties.iban.pattern).toBe('^DK[0-9]{16}$');
    expect($defs.BaseWalletInfo.required).toEqual(['accountType', 'address']);
    const request = z.toJSONSchema(ExternalAccountCreateRequest, { io: 'input', unrepresentable: 'any' }) as { $defs: Record<string, any> };
    expect(request.$defs.UsdAccountInfoRequest.properties.paymentRails).toBeUndefined();
    // Like the reference's schemas, ours never forbid extra properties: clients of other versions send fields we do not know.
    expect(request.$defs.UsdAccountInfoRequest.additionalProperties).not.toBe(false);
  });
});
