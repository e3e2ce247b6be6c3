import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi, type Json } from '../testing/requests.js';
import { RATE_CACHE_MS } from './exchange-rates.js';

// `GET /exchange-rates` (REFERENCE §9) through the public API.

describe('exchange rates', () => {
  it('prices each destination like a quote would, platform fees included, from a rate cached for five minutes', async () => {
    const engine = createEngine();
    const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
    const rates = await call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=GBP&destinationCurrency=MXN&sendingAmount=10000');
    expect(rates.status).toBe(200);
    const byCode = Object.fromEntries(rates.body.data.map((r: Json) => [r.destinationCurrency.code, r]));
    // 10000 − 50 = 9950; 0.2% → 20; 9930 × 0.79 = 7844.7 → 7844 (the quote test computes the same).
    expect(byCode.GBP).toMatchObject({ sourceCurrency: { code: 'USD' }, destinationPaymentRail: 'FASTER_PAYMENTS', sendingAmount: 10_000, receivingAmount: 7_844, fees: { fixed: 50, total: 70 } });
    expect(byCode.MXN).toMatchObject({ destinationPaymentRail: 'SPEI', receivingAmount: 171_292 });
    expect(byCode.GBP.minSendingAmount).toBe(52);
    expect(Date.parse(byCode.GBP.updatedAt) % RATE_CACHE_MS).toBe(0);

    await call('PATCH', '/config', { feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 25, currency: 'USD' } }] });
    const withFees = (await call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=GBP')).body.data[0];
    expect(withFees).toMatchObject({ receivingAmount: 7_746, fees: { fixed: 75, total: 194 } });

    const all = (await call('GET', '/exchange-rates?sourceCurrency=USD')).body.data as Json[];
    expect(all.map((r) => r.destinationCurrency.code)).toContain('BTC');
    expect(all.find((r) => r.destinationCurrency.code === 'USDC')!.destinationPaymentRail).toBeNull();
    expect((await call('GET', '/exchange-rates?sourceCurrency=XYZ')).body.code).toBe('INVALID_CURRENCY');
    expect((await call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=XYZ')).body.code).toBe('INVALID_CURRENCY');
    expect((await call('GET', '/exchange-rates')).status).toBe(400);
  });

  it('takes several destination currencies repeated, comma-joined (as generated SDKs send them) or both', async () => {
    const engine = createEngine();
    const codes = async (query: string) =>
      ((await callApi(engine, 'GET', `/exchange-rates?sourceCurrency=USD&${query}`)).body.data as Json[]).map((r) => r.destinationCurrency.code).sort();
    expect(await codes('destinationCurrency=EUR&destinationCurrency=GBP')).toEqual(['EUR', 'GBP']);
    expect(await codes('destinationCurrency=EUR%2CGBP')).toEqual(['EUR', 'GBP']);
    expect(await codes('destinationCurrency=EUR,GBP&destinationCurrency=MXN')).toEqual(['EUR', 'GBP', 'MXN']);
    expect((await callApi(engine, 'GET', '/exchange-rates?sourceCurrency=USD&sendingAmount=0')).status).toBe(200);
  });
});
