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
  });

  it('without sourceCurrency answers the rates from every currency the platform supports, each into the others', async () => {
    const engine = createEngine();
    const call = (path: string) => callApi(engine, 'GET', path);
    const all = (await call('/exchange-rates')).body.data as Json[];
    const supported = ((await call('/config')).body.supportedCurrencies as Json[]).map((c) => c.currencyCode);
    expect([...new Set(all.map((r) => r.sourceCurrency.code))]).toEqual(supported);
    expect(all.some((r) => r.sourceCurrency.code === r.destinationCurrency.code)).toBe(false);
    for (const source of supported) {
      const one = (await call(`/exchange-rates?sourceCurrency=${source}`)).body.data;
      expect(all.filter((r) => r.sourceCurrency.code === source), source).toEqual(one);
    }
    const toEur = (await call('/exchange-rates?destinationCurrency=EUR&sendingAmount=2500')).body.data as Json[];
    expect(toEur.map((r) => r.sourceCurrency.code)).toEqual(supported.filter((c) => c !== 'EUR'));
    expect(toEur.every((r) => r.destinationCurrency.code === 'EUR' && r.sendingAmount === 2_500)).toBe(true);
    expect((await call('/exchange-rates?destinationCurrency=XYZ')).body.code).toBe('INVALID_CURRENCY');
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
