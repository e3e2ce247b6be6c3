import { CURRENCIES } from './currencies.js';

// Regions as the rules of the sandbox read them. A customer's `region` is an ISO 3166-1 alpha-2 country code
// (REFERENCE §2.1); `EU`, the code ISO reserves for the European Union, names the union as a whole.

/** The member states of the European Union. */
export const EU_MEMBER_STATES = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
] as const;

/** The European Economic Area: the EU member states plus Iceland, Liechtenstein and Norway. */
export const EEA_COUNTRIES: ReadonlySet<string> = new Set([...EU_MEMBER_STATES, 'IS', 'LI', 'NO']);

/** True for a region in the European Economic Area: one of its countries, or `EU` itself. Case-insensitive. */
export const isEeaRegion = (region: string | undefined): boolean => {
  const code = region?.toUpperCase();
  return code === 'EU' || (code !== undefined && EEA_COUNTRIES.has(code));
};

/** The countries whose currency is the euro (Bulgaria since January 2026). */
export const EUROZONE: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'EE', 'FI', 'FR', 'DE', 'GR', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PT', 'SK', 'SI', 'ES',
]);

/**
 * The local currency of a region, for a customer created with a `region` and no `currencies` (the reference infers
 * them): the fiat currency of {@link CURRENCIES} whose home region it is, EUR in the eurozone. Undefined for a region
 * without one the sandbox offers.
 */
export function localCurrencyOf(region: string): string | undefined {
  const code = region.toUpperCase();
  const home = EUROZONE.has(code) ? 'EU' : code;
  return Object.values(CURRENCIES).find((c) => c.internalAccountType === 'INTERNAL_FIAT' && c.region === home)?.code;
}
