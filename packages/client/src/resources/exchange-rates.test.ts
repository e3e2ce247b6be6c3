import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { BadRequestError } from '../core/errors.js';
import { setup } from '../test-support.js';

// client.exchangeRates (REFERENCE §9): the query as the wire carries it, and rates from an in-process engine.

describe('client.exchangeRates.list', () => {
  it('repeats destinationCurrency for several destinations, and sends one or none as given', async () => {
    const { client, requests } = setup([{ body: { data: [] } }]);
    await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['GBP', 'MXN'], sendingAmount: 10_000 });
    await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: 'EUR' });
    await client.exchangeRates.list({ sourceCurrency: 'USD' });
    expect(requests.map((r) => `${r.method} ${r.path}?${r.search}`)).toEqual([
      'GET /2025-10-13/exchange-rates?sourceCurrency=USD&destinationCurrency=GBP&destinationCurrency=MXN&sendingAmount=10000',
      'GET /2025-10-13/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR',
      'GET /2025-10-13/exchange-rates?sourceCurrency=USD',
    ]);
  });

  it('prices each destination like a quote, from an in-process engine', async () => {
    const engine = createEngine();
    const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS });
    const { data } = await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['GBP', 'MXN'], sendingAmount: 10_000 });
    expect(data.map((rate) => rate.destinationCurrency.code).sort()).toEqual(['GBP', 'MXN']);
    // 10000 − 50 fixed = 9950; 0.2% → 20; 9930 × 0.79 = 7844.7 → 7844 (docs/payments.md, "Pricing").
    expect(data.find((rate) => rate.destinationCurrency.code === 'GBP')).toMatchObject({
      sourceCurrency: { code: 'USD' }, sendingAmount: 10_000, receivingAmount: 7_844, fees: { fixed: 50, total: 70 }, destinationPaymentRail: 'FASTER_PAYMENTS',
    });
    const one = await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: 'GBP' });
    expect(one.data).toHaveLength(1);
    expect(one.data[0]!.sendingAmount).toBe(10_000); // the default amount
    const all = await client.exchangeRates.list({ sourceCurrency: 'USD' });
    expect(all.data.length).toBeGreaterThan(2);
    const unknown = await client.exchangeRates.list({ sourceCurrency: 'USD', destinationCurrency: ['GBP', 'XYZ'] }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect((unknown as BadRequestError).code).toBe('INVALID_CURRENCY');
  });
});
