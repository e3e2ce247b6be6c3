import type { Currency, CustomerInfoFieldName } from '@railyard/contract';

/** What the sandbox knows about a currency it offers. */
export interface CurrencyProfile extends Currency {
  /** Region a customer holding this currency belongs to when the request names none. */
  readonly region: string;
  /** Internal accounts in this currency are fiat, crypto, or an embedded wallet the customer holds the keys of. */
  readonly internalAccountType: 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';
  /** Customer fields the currency's provider requires (SPEC §2.6, REFERENCE §10). */
  readonly providerRequiredCustomerFields: readonly CustomerInfoFieldName[];
  /** Largest single payment, in minor units. */
  readonly maxAmount: number;
}

const profile = (
  code: string, name: string, symbol: string, decimals: number, region: string,
  internalAccountType: CurrencyProfile['internalAccountType'], providerRequiredCustomerFields: CustomerInfoFieldName[] = [],
): CurrencyProfile => ({
  code, name, symbol, decimals, region, internalAccountType, providerRequiredCustomerFields,
  // A million units of the currency: generous for tests, still a limit a quote can exceed.
  maxAmount: 1_000_000 * 10 ** decimals,
});

/**
 * The currencies a sandbox platform supports by default, and their provider requirements. The reference names the
 * mechanism (SPEC §2.6) but no values, so the sandbox requires only what it needs to work: a USDB customer's embedded
 * wallet signs in by email code, so USDB requires an email. What a provider asks for at verification time (birth date,
 * address, documents) is the verification packet's business, not a refusal at create.
 */
export const CURRENCIES: Readonly<Record<string, CurrencyProfile>> = Object.fromEntries(
  [
    profile('USD', 'US Dollar', '$', 2, 'US', 'INTERNAL_FIAT'),
    profile('EUR', 'Euro', '€', 2, 'EU', 'INTERNAL_FIAT'),
    profile('GBP', 'Pound Sterling', '£', 2, 'GB', 'INTERNAL_FIAT'),
    profile('MXN', 'Mexican Peso', '$', 2, 'MX', 'INTERNAL_FIAT'),
    profile('BRL', 'Brazilian Real', 'R$', 2, 'BR', 'INTERNAL_FIAT'),
    profile('USDC', 'USD Coin', 'USDC', 6, 'US', 'INTERNAL_CRYPTO'),
    profile('BTC', 'Bitcoin', '₿', 8, 'US', 'INTERNAL_CRYPTO'),
    // Embedded wallets are provisioned for customers holding USDB (REFERENCE §13); their first credential is an email code.
    profile('USDB', 'USDB Stablecoin', 'USDB', 6, 'US', 'EMBEDDED_WALLET', ['EMAIL']),
  ].map((c) => [c.code, c]),
);

/** Currencies a customer gets when the create request names none. */
export const DEFAULT_CUSTOMER_CURRENCIES = ['USD'] as const;

/** The Currency object of the API for a known code. */
export const currencyOf = (code: string): Currency => {
  const found = CURRENCIES[code];
  if (!found) throw new Error(`unknown currency ${code}`);
  return sharedCurrency(found);
};

/**
 * The one frozen Currency object of a code: every amount of every record refers to it instead of holding a copy (a
 * sandbox keeps millions of amounts).
 */
export function sharedCurrency(currency: Currency): Currency {
  let shared = currencyObjects.get(currency.code);
  if (!shared) {
    shared = Object.freeze({ code: currency.code, name: currency.name, symbol: currency.symbol, decimals: currency.decimals });
    currencyObjects.set(currency.code, shared);
  }
  return shared;
}
const currencyObjects = new Map<string, Currency>();

/** End-user terms versions the sandbox recognises; the first is current (REFERENCE §2.1). */
export const END_USER_TERMS = [
  { version: 'V1', url: 'https://sandbox.railyard.dev/legal/end-user-terms/v1' },
] as const;
