import { TypedWebhookEvent, WEBHOOK_EVENT_TYPES } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// Every event the engine emits is one the contract names, with `data` of that type's resource (SPEC §6).

describe('emitted events', () => {
  it('validate against the typed envelope of their type, across onboarding, payouts, refunds and UMA', async () => {
    // Deliveries stay in process; the receiver neither approves nor rejects, so the UMA payment times out.
    const engine = createEngine({ platform: { regulated: true }, webhooks: { fetch: async () => new Response(null, { status: 202 }) } });
    const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Eve Events', currencies: ['USD'] })).body;
    const usd = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 });
    const bank = (suffix: string) => call('POST', '/customers/external-accounts', {
      customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `55500${suffix}`, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'E E' } },
    });
    for (const suffix of ['001', '002', '005']) {
      const account = (await bank(suffix)).body.id;
      await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: account }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true });
    }
    const expiring = (await bank('009')).body.id;
    await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: expiring }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
    await call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
    const pending = (await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$a@b.example', customerId: customer.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 5 })).body;
    await call('POST', `/transactions/${pending.id}/reject`);
    await call('POST', '/sandbox/uma/receive', { senderUmaAddress: '$a@b.example', customerId: customer.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 5 });
    engine.sandbox().advance(10 * 60_000);
    await engine.webhooks.settled();

    const events = engine.sandbox().events({ limit: 100 }).data;
    const types = new Set(events.map((e) => e.type));
    for (const expected of [
      'CUSTOMER.KYC_APPROVED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INCOMING_PAYMENT.COMPLETED', 'INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING',
      'OUTGOING_PAYMENT.REFUND_COMPLETED', 'OUTGOING_PAYMENT.EXPIRED', 'TEST',
    ]) expect(types, expected).toContain(expected);
    for (const event of events) {
      expect(WEBHOOK_EVENT_TYPES as readonly string[]).toContain(event.type);
      const parsed = TypedWebhookEvent.safeParse({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
      expect(parsed.success, `${event.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect((events.find((e) => e.type === 'INCOMING_PAYMENT.FAILED')!.data as Json).failureReason).toBe('PAYMENT_APPROVAL_TIMED_OUT');
  });
});
