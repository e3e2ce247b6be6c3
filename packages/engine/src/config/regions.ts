import type { ContactChannel } from '@railyard/contract';
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

/**
 * How a region treats a contact channel. Either way a contact on file must be verified before a hosted link is issued
 * (SPEC §3.4: only present channels are listed). `required`: the customer must also have one (SPEC §2.6), which
 * verification asks for (MISSING_FIELD) while it is absent; `if-present`: verified only when on file.
 */
export type ChannelRule = 'required' | 'if-present';

/** What the rules of the sandbox ask of a customer because of its region. */
export interface RegionPolicy {
  /** Who the row is for, as a reader would say it. */
  readonly regions: string;
  readonly applies: (region: string | undefined) => boolean;
  /** Contact channels verified before a hosted link (SPEC §2.6, §3.4; REFERENCE §2.1). */
  readonly contactVerification: Readonly<Partial<Record<ContactChannel, ChannelRule>>>;
  /** Payments need strong customer authentication (SPEC §5 item 7; REFERENCE §9). */
  readonly sca: boolean;
  /** An individual's verification packet needs a proof of address. */
  readonly proofOfAddress: boolean;
}

/** The region rules, as data: the first row that applies wins; a region no row names gets {@link NO_REGION_RULES}. */
export const REGION_POLICIES: readonly RegionPolicy[] = [
  { regions: 'EU/EEA member states (and EU)', applies: isEeaRegion, contactVerification: { email: 'required', phone: 'if-present' }, sca: true, proofOfAddress: true },
  { regions: 'the United Kingdom', applies: (region) => region?.toUpperCase() === 'GB', contactVerification: {}, sca: false, proofOfAddress: true },
];

/** The rules of every other region: nothing beyond the common ones. */
export const NO_REGION_RULES: RegionPolicy = { regions: 'every other region', applies: () => true, contactVerification: {}, sca: false, proofOfAddress: false };

/** The rules of a customer's region. */
export const regionPolicyOf = (region: string | undefined): RegionPolicy => REGION_POLICIES.find((row) => row.applies(region)) ?? NO_REGION_RULES;

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
