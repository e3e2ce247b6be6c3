import { describe, expect, it } from 'vitest';
import {
  InternalAccount, InternalAccountType, InternalAccountUpdateRequest, internalAccountEndpoints, PaymentInstructions, SandboxFundRequest,
} from './accounts.js';

const usd = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
const account = {
  id: 'InternalAccount:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
  customerId: 'Customer:11111111-2222-4333-8444-555555555555',
  type: 'INTERNAL_FIAT',
  status: 'ACTIVE',
  balance: { amount: 1000, currency: usd },
  totalBalance: { amount: 1500, currency: usd },
  fundingPaymentInstructions: [
    {
      instructionsNotes: 'Quote the reference',
      accountOrWalletInfo: {
        accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', paymentRails: ['ACH', 'WIRE'],
        reference: 'RY-12345',
      },
    },
  ],
  createdAt: '2025-10-13T00:00:00Z',
  updatedAt: '2025-10-13T00:00:00Z',
};

describe('InternalAccount', () => {
  it('accepts a customer fiat account with bank funding instructions', () => {
    expect(InternalAccount.parse(account).balance.amount).toBe(1000);
  });

  it('accepts a platform account (no customerId)', () => {
    const { customerId: _omit, ...platform } = account;
    expect(InternalAccount.safeParse(platform).success).toBe(true);
  });

  it('requires an InternalAccount:<uuid> id and totalBalance', () => {
    const { totalBalance: _omit, ...rest } = account;
    const result = InternalAccount.safeParse({ ...rest, id: 'Customer:11111111-2222-4333-8444-555555555555' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['id', 'totalBalance']);
  });

  it('knows the three account types and wallet instructions', () => {
    expect(InternalAccountType.options).toEqual(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']);
    expect(PaymentInstructions.safeParse({ accountOrWalletInfo: { accountType: 'TRON_WALLET', address: 'T9yD', assetType: 'USDT' } }).success).toBe(true);
    expect(PaymentInstructions.safeParse({ accountOrWalletInfo: { accountType: 'TRON_WALLET', address: 'T9yD', assetType: 'USDC' } }).success).toBe(false);
    expect(PaymentInstructions.safeParse({ accountOrWalletInfo: { accountType: 'BITCOIN_L1', address: 'bc1q', network: 'BITCOIN' } }).success).toBe(true);
  });

  it('builds fiat instructions from the account details plus reference (REFERENCE §2.2)', () => {
    const info = (accountOrWalletInfo: object) => PaymentInstructions.safeParse({ accountOrWalletInfo });
    const gbp = { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: '12345678', paymentRails: ['FASTER_PAYMENTS'] };
    expect(info({ ...gbp, reference: 'RY-1' }).success).toBe(true);
    expect(info(gbp).error?.issues.map((i) => i.path.join('.'))).toEqual(['accountOrWalletInfo.reference']);
    expect(info({ ...gbp, reference: 'RY-1', paymentRails: ['SEPA'] }).success).toBe(false);
    expect(info({ accountType: 'INR_ACCOUNT', vpa: 'railyard@upi', paymentRails: ['UPI'] }).success).toBe(true);
    const swift = { accountType: 'SWIFT_ACCOUNT', country: 'GB', swiftCode: 'BARCGB22', bankName: 'Barclays', paymentRails: ['SWIFT'] };
    expect(info(swift).error?.issues.map((i) => i.path.join('.'))).toEqual(['accountOrWalletInfo.accountHolderName']);
    expect(info({ accountType: 'BRL_ACCOUNT', qrCode: '00020126580014br.gov.bcb.pix' }).success).toBe(true);
    expect(info({ accountType: 'SPARK_WALLET', address: 'sp1q' }).success).toBe(false);
  });

  it('lists customer accounts paged and platform accounts as {data}', () => {
    const { listCustomerInternalAccounts: c, listPlatformInternalAccounts: p } = internalAccountEndpoints;
    expect(c.query.parse({}).limit).toBe(20);
    expect(c.response.schema.safeParse({ data: [account], hasMore: false, totalCount: 1 }).success).toBe(true);
    expect(p.response.schema.safeParse({ data: [account] }).success).toBe(true);
    expect(p.path).toBe('/platform/internal-accounts');
  });

  it('takes wallet privacy updates and bounded sandbox funding', () => {
    expect(InternalAccountUpdateRequest.safeParse({ privateEnabled: true }).success).toBe(true);
    // A read-only field sent back is ignored (strict platforms are told: see unknown-fields.test.ts).
    expect(InternalAccountUpdateRequest.safeParse({ privateEnabled: true, status: 'FROZEN' }).data).toEqual({ privateEnabled: true });
    expect(SandboxFundRequest.safeParse({ amount: 100_000_000_000 }).success).toBe(true);
    expect(SandboxFundRequest.safeParse({ amount: 100_000_000_001 }).success).toBe(false);
  });
});
