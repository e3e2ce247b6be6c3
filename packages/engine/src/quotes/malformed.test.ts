import fc from 'fast-check';
import { ApiErrorBody } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';

// Payment requests with real account ids but arbitrary values around them: never a 5xx, always the §2.4 error shape,
// and a refused request moves no money.

describe('malformed payment requests', () => {
  it('never produce a 5xx and leave the ledger untouched when refused', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Fuzz Payer', currencies: ['USD'] })).body;
    const usd = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000 });
    const bank = (await call('POST', '/customers/external-accounts', {
      customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'F P' } },
    })).body.id;
    const lookupId = (await call('GET', `/receiver/uma/${encodeURIComponent('$success.usd@uma.sandbox.railyard.dev')}?customerId=${customer.id}`)).body.lookupId;
    const ids = fc.constantFrom(usd, bank, customer.id, lookupId, 'InternalAccount:nope', '', 'x'.repeat(300));
    const anyValue = fc.oneof(ids, fc.anything(), fc.integer(), fc.constantFrom('SENDING', 'RECEIVING', 'ACCOUNT', 'UMA_ADDRESS', 'REALTIME_FUNDING', 'USD', 'EUR'));
    const quoteBody = fc.record({
      source: fc.oneof(anyValue, fc.record({ sourceType: fc.constantFrom('ACCOUNT', 'REALTIME_FUNDING', 'X'), accountId: ids, currency: anyValue, customerId: ids, cryptoNetwork: anyValue }, { requiredKeys: ['sourceType'] })),
      destination: fc.oneof(anyValue, fc.record({ destinationType: fc.constantFrom('ACCOUNT', 'UMA_ADDRESS'), accountId: ids, umaAddress: fc.oneof(anyValue, fc.constant('$success.usd@uma.sandbox.railyard.dev')), paymentRail: anyValue, currency: anyValue }, { requiredKeys: ['destinationType'] })),
      lockedCurrencySide: anyValue,
      lockedCurrencyAmount: fc.oneof(fc.integer({ min: -5, max: 2_000_000 }), fc.constant(9_000_000_000_000_000), anyValue),
      lookupId: ids,
      immediatelyExecute: fc.oneof(fc.boolean(), anyValue),
      platformFeeOverride: anyValue,
      purposeOfPayment: anyValue,
    }, { requiredKeys: [] });
    const request = fc.oneof(
      quoteBody.map((body) => ['POST', '/quotes', body] as const),
      fc.tuple(ids, anyValue).map(([quoteId, body]) => ['POST', `/quotes/${encodeURIComponent(quoteId)}/execute`, body] as const),
      fc.record({ quoteId: ids, currencyCode: anyValue, currencyAmount: anyValue }, { requiredKeys: [] }).map((body) => ['POST', '/sandbox/send', body] as const),
      fc.record({ senderUmaAddress: anyValue, receiverUmaAddress: anyValue, customerId: ids, receivingCurrencyCode: anyValue, receivingCurrencyAmount: anyValue }, { requiredKeys: [] })
        .map((body) => ['POST', '/sandbox/uma/receive', body] as const),
      fc.tuple(fc.string({ maxLength: 70 }), ids).map(([address, id]) => ['GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${encodeURIComponent(id)}`, undefined] as const),
      fc.tuple(ids, fc.constantFrom('cancel', 'confirm', 'approve', 'reject'), anyValue).map(([id, verb, body]) => ['POST', `/transactions/${encodeURIComponent(id)}/${verb}`, body] as const),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([method, path, body]) => {
        const before = JSON.stringify(engine.sandbox().snapshot().collections.ledger);
        const response = await call(method, path, body);
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        if (response.status >= 400) {
          expect(ApiErrorBody.safeParse(response.body).success).toBe(true);
          expect(JSON.stringify(engine.sandbox().snapshot().collections.ledger)).toBe(before);
        }
      }),
      { numRuns: 400, seed: Number(process.env.FC_SEED ?? 20261124) },
    );
    const { data } = (await call('GET', '/customers/internal-accounts')).body as { data: Json[] };
    expect(data.every((a) => a.balance.amount >= 0)).toBe(true);
  });
});
