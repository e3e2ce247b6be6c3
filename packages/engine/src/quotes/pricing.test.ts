import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketCurrency } from '../config/exchange-rates.js';
import { price, type Price } from './pricing.js';

// Quote arithmetic (REFERENCE §4.2), exact in minor units.
const USD = marketCurrency('USD')!;
const GBP = marketCurrency('GBP')!;
const BTC = marketCurrency('BTC')!;
const VND = marketCurrency('VND')!;
const none = { fixed: 0, variableBps: 0 };

describe('price', () => {
  it('same currency passes the amount through with no service fee', () => {
    expect(price({ sending: USD, receiving: USD, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1, platformFee: none }))
      .toMatchObject({ totalSendingAmount: 1, totalReceivingAmount: 1, feesIncluded: 0, exchangeRate: 1 });
  });

  it('rounds each fee component on its own, half up, and the conversion down', () => {
    // 10075 − 50 − 25 = 10000; service 0.2% = 20; platform 0.5% = 50; 9930 × 0.79 = 7844.7 → 7844.
    const priced = price({ sending: USD, receiving: GBP, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_075, platformFee: { fixed: 25, variableBps: 50 } }) as Price;
    expect(priced).toMatchObject({ totalReceivingAmount: 7_844, feesIncluded: 50 + 20 + 25 + 50, platformFeesIncluded: 75 });
    // 0.2% of 10001 = 20.002 → 20; of 10250 = 20.5 → 21.
    expect((price({ sending: USD, receiving: GBP, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_300, platformFee: none }) as Price).rateDetails.serviceApiVariableFeeAmount).toBe(21);
  });

  it('converts between currencies of different decimals (8-decimal BTC, 0-decimal VND)', () => {
    // 100000 cents − 50 = 99950; 0.2% → 200; 99750 cents = 997.50 USD = 0.009975 BTC = 997500 sats.
    expect(price({ sending: USD, receiving: BTC, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000, platformFee: none })).toMatchObject({ totalReceivingAmount: 997_500 });
    // 10000 cents − 50 = 9950; 0.2% → 20; 99.30 USD × 25400 = 2522220 dong.
    expect(price({ sending: USD, receiving: VND, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, platformFee: none })).toMatchObject({ totalReceivingAmount: 2_522_220 });
  });

  it('refuses an amount that does not cover the fees, and one beyond the largest amount', () => {
    expect(price({ sending: USD, receiving: GBP, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 50, platformFee: none })).toEqual({ failure: 'DOES_NOT_COVER_FEES' });
    expect(price({ sending: BTC, receiving: USD, lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 9_000_000_000_000_000, platformFee: none })).toEqual({ failure: 'TOO_LARGE' });
  });

  it('RECEIVING locked: the smallest sending amount that delivers at least the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(GBP, BTC, VND, USD), (amount, receiving) => {
        const priced = price({ sending: USD, receiving, lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: amount, platformFee: { fixed: 3, variableBps: 25 } });
        if ('failure' in priced) return;
        expect(priced.totalReceivingAmount).toBe(amount);
        const at = price({ sending: USD, receiving, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: priced.totalSendingAmount, platformFee: { fixed: 3, variableBps: 25 } }) as Price;
        expect(at.totalReceivingAmount).toBeGreaterThanOrEqual(amount);
        const below = price({ sending: USD, receiving, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: priced.totalSendingAmount - 1, platformFee: { fixed: 3, variableBps: 25 } });
        expect('failure' in below || below.totalReceivingAmount < amount).toBe(true);
      }),
      { numRuns: 300, seed: Number(process.env.FC_SEED ?? 20261124) },
    );
  });
});
