import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from './countries.js';

describe('country codes', () => {
  it('are the assigned ISO 3166-1 alpha-2 codes plus Kosovo (XK), in upper case only', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    for (const code of ['US', 'FR', 'XK', 'AX', 'SS']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['us', 'UK', 'ZZ', 'EU', 'USA', '']) expect(isCountryCode(code)).toBe(false);
  });
});
