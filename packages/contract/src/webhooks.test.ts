import { describe, expect, it } from 'vitest';
import { EMBEDDED_WALLET_CONFIG_DEFAULTS, FeeConfig, PlatformConfigUpdateRequest, SupportedCurrency } from './config.js';
import { TypedWebhookEvent, WEBHOOK_EVENT_TYPES, WebhookEvent, WebhookSignature, webhookEventGroup } from './webhooks.js';

const id = 'Webhook:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const timestamp = '2025-10-13T00:00:00Z';

describe('webhook events', () => {
  it('lists every type of SPEC §6 and REFERENCE §8, TEST included, and not the removed CARD_TRANSACTION.REFUNDED', () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(42);
    expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining([
      'CUSTOMER.KYC_PENDING', 'CUSTOMER.KYB_APPROVED', 'VERIFICATION.RESOLVE_ERRORS', 'VERIFICATION.READY_FOR_VERIFICATION',
      'OUTGOING_PAYMENT.REFUND_FAILED', 'INCOMING_PAYMENT.REFUND_COMPLETED', 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      'INTERNAL_ACCOUNT.BALANCE_UPDATED', 'CARD_TRANSACTION.SETTLED', 'CARD.STATE_CHANGE', 'TEST',
    ]));
    expect(WEBHOOK_EVENT_TYPES).not.toContain('CARD_TRANSACTION.REFUNDED');
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(WEBHOOK_EVENT_TYPES.length);
    expect(webhookEventGroup('OUTGOING_PAYMENT.COMPLETED')).toBe('OUTGOING_PAYMENT');
  });

  it('checks the envelope and, typed, the data of each type', () => {
    expect(WebhookEvent.safeParse({ id, type: 'TEST', timestamp, data: {} }).success).toBe(true);
    expect(WebhookEvent.safeParse({ id: 'Event:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', type: 'TEST', timestamp, data: {} }).success).toBe(false);
    expect(WebhookEvent.safeParse({ id, type: 'CARD_TRANSACTION.REFUNDED', timestamp, data: {} }).success).toBe(false);
    expect(TypedWebhookEvent.safeParse({ id, type: 'TEST', timestamp, data: {} }).success).toBe(true);
    const customerEvent = TypedWebhookEvent.safeParse({ id, type: 'CUSTOMER.KYC_APPROVED', timestamp, data: { customerType: 'INDIVIDUAL' } });
    expect(customerEvent.success).toBe(false);
    expect(customerEvent.error?.issues[0]?.path[0]).toBe('data');
  });

  it('parses the X-Service-Signature header value', () => {
    expect(WebhookSignature.safeParse({ v: '1', s: 'MEUCIQDx+/Q=' }).success).toBe(true);
    expect(WebhookSignature.safeParse({ v: '2', s: 'MEUC' }).success).toBe(false);
  });
});

describe('platform configuration', () => {
  it('requires the supportedCurrencies fields and keeps provider fields read-only', () => {
    const usd = { currencyCode: 'USD', minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] };
    expect(SupportedCurrency.safeParse({ ...usd, providerRequiredCustomerFields: ['BIRTH_DATE'] }).success).toBe(true);
    // Read-only: a GET /config sent back as a PATCH keeps working, the read-only field is ignored.
    const echoed = PlatformConfigUpdateRequest.safeParse({ supportedCurrencies: [{ ...usd, providerRequiredCustomerFields: ['BIRTH_DATE'] }] });
    expect(echoed.success && echoed.data.supportedCurrencies?.[0]).not.toHaveProperty('providerRequiredCustomerFields');
    const inverted = PlatformConfigUpdateRequest.safeParse({ supportedCurrencies: [{ ...usd, minAmount: 10, maxAmount: 5 }] });
    expect(inverted.error?.issues.map((i) => i.path.join('.'))).toEqual(['supportedCurrencies.0.minAmount']);
  });

  it('bounds fee configs and embedded-wallet settings (REFERENCE §10)', () => {
    const fee = { feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 50, fixedFee: { amount: 25, currency: 'USD' } };
    expect(FeeConfig.safeParse(fee).success).toBe(true);
    expect(FeeConfig.safeParse({ ...fee, variableFeeBps: 10_001 }).success).toBe(false);
    expect(PlatformConfigUpdateRequest.safeParse({ embeddedWalletConfig: { otpLength: 13 } }).success).toBe(false);
    expect(PlatformConfigUpdateRequest.parse({ embeddedWalletConfig: { appName: 'Rail' } }).embeddedWalletConfig).toEqual({ appName: 'Rail' });
    expect(EMBEDDED_WALLET_CONFIG_DEFAULTS.expirationSeconds).toBe(300);
    expect(PlatformConfigUpdateRequest.safeParse({ cardTokenization2faConfig: { logoUrl: 'http://example.com/logo.png' } }).success).toBe(false);
  });
});
