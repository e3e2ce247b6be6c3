import { describe, expect, it } from 'vitest';
import { localCurrencyOf, regionPolicyOf } from './regions.js';

describe('region policies', () => {
  it('EU/EEA countries (any case) and EU verify contacts, authorize with SCA and prove addresses; GB proves addresses only', () => {
    for (const region of ['DE', 'fr', 'NO', 'EU']) {
      expect(regionPolicyOf(region), region).toMatchObject({ contactVerification: { email: 'required', phone: 'if-present' }, sca: true, proofOfAddress: true });
    }
    expect(regionPolicyOf('GB')).toMatchObject({ contactVerification: {}, sca: false, proofOfAddress: true });
    for (const region of ['US', 'CH', 'MX', undefined]) {
      expect(regionPolicyOf(region), String(region)).toMatchObject({ contactVerification: {}, sca: false, proofOfAddress: false });
    }
  });

  it('a region’s local currency is the fiat currency at home there; the eurozone’s is EUR', () => {
    expect(['US', 'gb', 'MX', 'BR', 'DE', 'EU', 'BG', 'SE', 'JP'].map(localCurrencyOf)).toEqual(['USD', 'GBP', 'MXN', 'BRL', 'EUR', 'EUR', 'EUR', undefined, undefined]);
  });
});
