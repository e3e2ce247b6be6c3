import { describe, expect, it } from 'vitest';
import { Quote, QuoteAuthorizeRequest, QuoteRequest } from './quotes.js';
import { FailureReason, OutgoingFailureReason, Transaction, TransactionListQuery } from './transactions.js';

const internal = 'InternalAccount:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const external = 'ExternalAccount:11111111-2222-4333-8444-555555555555';
const customerId = 'Customer:11111111-2222-4333-8444-555555555555';
const usd = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
const paths = (result: { error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.')).sort();

describe('QuoteRequest', () => {
  const base = {
    source: { sourceType: 'ACCOUNT', accountId: internal },
    destination: { destinationType: 'ACCOUNT', accountId: external, paymentRail: 'ACH' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  };

  it('accepts an account-to-account quote and defaults immediatelyExecute to false', () => {
    expect(QuoteRequest.parse(base).immediatelyExecute).toBe(false);
  });

  it('bounds amounts and remittance information (REFERENCE §4.1, SPEC §8)', () => {
    expect(paths(QuoteRequest.safeParse({ ...base, lockedCurrencyAmount: 9_000_000_000_000_001, remittanceInformation: 'x'.repeat(81) })))
      .toEqual(['lockedCurrencyAmount', 'remittanceInformation']);
    expect(paths(QuoteRequest.safeParse({ ...base, lockedCurrencyAmount: 10.5 }))).toEqual(['lockedCurrencyAmount']);
  });

  it('requires lookupId for UMA destinations and rejects TOTP as the quote factor', () => {
    const uma = { ...base, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.example' }, scaFactor: 'TOTP' };
    expect(paths(QuoteRequest.safeParse(uma))).toEqual(['lookupId', 'scaFactor']);
    expect(QuoteRequest.safeParse({ ...uma, scaFactor: 'PASSKEY', lookupId: 'Lookup:11111111-2222-4333-8444-555555555555' }).success).toBe(true);
  });

  it('takes real-time funding with a currency and a platform fee override', () => {
    const realtime = { ...base, source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId, cryptoNetwork: 'SOLANA' } };
    expect(QuoteRequest.safeParse({ ...realtime, platformFeeOverride: { platformFixedFee: { amount: 50, currency: 'USD' }, platformVariableFeeBps: 25 } }).success).toBe(true);
    expect(paths(QuoteRequest.safeParse({ ...realtime, platformFeeOverride: { platformFixedFee: { amount: 50, currency: 'USD' }, platformVariableFeeBps: 10_001 } })))
      .toEqual(['platformFeeOverride.platformVariableFeeBps']);
  });

  it('authorizes with exactly one of code or passkeyAssertion (+origin)', () => {
    expect(QuoteAuthorizeRequest.safeParse({ code: '123456' }).success).toBe(true);
    expect(paths(QuoteAuthorizeRequest.safeParse({}))).toEqual(['code']);
    const passkeyAssertion = { credentialId: 'AQID', clientDataJson: 'e30', authenticatorData: 'AA', signature: 'MEUC' };
    expect(paths(QuoteAuthorizeRequest.safeParse({ passkeyAssertion }))).toEqual(['origin']);
  });
});

describe('Quote and Transaction', () => {
  const quote = {
    id: 'Quote:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', status: 'PENDING', createdAt: '2025-10-13T00:00:00Z', expiresAt: '2025-10-13T00:05:00Z',
    source: { sourceType: 'ACCOUNT', accountId: internal }, destination: { destinationType: 'ACCOUNT', accountId: external },
    sendingCurrency: usd, receivingCurrency: usd, totalSendingAmount: 10_000, totalReceivingAmount: 9_950, exchangeRate: 1, feesIncluded: 50,
    transactionId: 'Transaction:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
  };

  it('parses a same-currency quote', () => {
    expect(Quote.safeParse(quote).success).toBe(true);
    expect(paths(Quote.safeParse({ ...quote, status: 'EXECUTED' }))).toEqual(['status']);
  });

  it('discriminates transactions on type with the failure reasons of REFERENCE §4.3', () => {
    const outgoing = {
      id: quote.transactionId, type: 'OUTGOING', status: 'FAILED', direction: 'DEBIT', customerId, platformCustomerId: 'p-1',
      source: { sourceType: 'ACCOUNT', accountId: internal }, destination: { destinationType: 'ACCOUNT', accountId: external },
      sentAmount: { amount: 10_000, currency: usd }, failureReason: 'QUOTE_EXECUTION_FAILED',
      refund: { reference: 'RF-1', initiatedAt: '2025-10-13T00:01:00Z', status: 'PENDING', reason: 'TRANSACTION_FAILED' },
    };
    expect(Transaction.safeParse(outgoing).success).toBe(true);
    expect(paths(Transaction.safeParse({ ...outgoing, failureReason: 'SETTLEMENT_FAILED' }))).toEqual(['failureReason']);
    expect(paths(Transaction.safeParse({ ...outgoing, type: 'INCOMING', status: 'REFUNDED', failureReason: 'PAYOUT_RETURNED' }))).toEqual(['failureReason', 'receivedAmount']);
    expect(OutgoingFailureReason.options).not.toContain('TIMEOUT');
    expect(FailureReason.options).toEqual(expect.arrayContaining(['PAYOUT_RETURNED', 'COLLECTION_FAILED']));
  });

  it('filters lists by INCOMING or OUTGOING only, newest first by default', () => {
    expect(TransactionListQuery.parse({}).sortOrder).toBe('desc');
    expect(TransactionListQuery.safeParse({ type: 'CARD' }).success).toBe(false);
  });
});
