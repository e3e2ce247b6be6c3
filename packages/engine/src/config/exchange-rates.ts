import type { Currency } from '@railyard/contract';
import { CURRENCIES, sharedCurrency } from './currencies.js';

/**
 * The sandbox's market: every currency a payment can be sent or received in, with a fixed mid rate, so quotes are
 * deterministic (a test can compute the expected amounts by hand). `perUsd` is how many units of the currency one US
 * dollar buys, as a decimal string so the arithmetic stays exact.
 */
interface MarketCurrency extends Currency {
  readonly perUsd: string;
}

const market = (code: string, name: string, symbol: string, decimals: number, perUsd: string): MarketCurrency =>
  ({ code, name, symbol, decimals, perUsd });

/** By code. The platform's own currencies (config/currencies.ts) are all here too. */
export const MARKET: Readonly<Record<string, MarketCurrency>> = Object.fromEntries(
  [
    market('USD', 'US Dollar', '$', 2, '1'),
    market('EUR', 'Euro', '€', 2, '0.92'),
    market('GBP', 'Pound Sterling', '£', 2, '0.79'),
    market('MXN', 'Mexican Peso', '$', 2, '17.25'),
    market('BRL', 'Brazilian Real', 'R$', 2, '5.05'),
    market('CAD', 'Canadian Dollar', '$', 2, '1.36'),
    market('AED', 'UAE Dirham', 'د.إ', 2, '3.6725'),
    market('BDT', 'Bangladeshi Taka', '৳', 2, '117.5'),
    market('BWP', 'Botswana Pula', 'P', 2, '13.6'),
    market('CNY', 'Chinese Yuan', '¥', 2, '7.24'),
    market('COP', 'Colombian Peso', '$', 2, '3950'),
    market('DKK', 'Danish Krone', 'kr', 2, '6.86'),
    market('EGP', 'Egyptian Pound', 'E£', 2, '48.5'),
    market('GHS', 'Ghanaian Cedi', '₵', 2, '15.2'),
    market('GTQ', 'Guatemalan Quetzal', 'Q', 2, '7.75'),
    market('HKD', 'Hong Kong Dollar', 'HK$', 2, '7.8'),
    market('HTG', 'Haitian Gourde', 'G', 2, '131.5'),
    market('IDR', 'Indonesian Rupiah', 'Rp', 2, '15800'),
    market('ILS', 'Israeli New Shekel', '₪', 2, '3.7'),
    market('INR', 'Indian Rupee', '₹', 2, '83.2'),
    market('JMD', 'Jamaican Dollar', 'J$', 2, '156'),
    market('KES', 'Kenyan Shilling', 'KSh', 2, '129'),
    market('MWK', 'Malawian Kwacha', 'MK', 2, '1735'),
    market('MYR', 'Malaysian Ringgit', 'RM', 2, '4.7'),
    market('NGN', 'Nigerian Naira', '₦', 2, '1550'),
    market('PHP', 'Philippine Peso', '₱', 2, '56.5'),
    market('PKR', 'Pakistani Rupee', '₨', 2, '278'),
    market('RWF', 'Rwandan Franc', 'FRw', 0, '1300'),
    market('SGD', 'Singapore Dollar', 'S$', 2, '1.34'),
    market('THB', 'Thai Baht', '฿', 2, '35.8'),
    market('TZS', 'Tanzanian Shilling', 'TSh', 2, '2600'),
    market('UGX', 'Ugandan Shilling', 'USh', 0, '3750'),
    market('VND', 'Vietnamese Dong', '₫', 0, '25400'),
    market('XAF', 'Central African CFA Franc', 'FCFA', 0, '603'),
    market('XOF', 'West African CFA Franc', 'CFA', 0, '603'),
    market('ZAR', 'South African Rand', 'R', 2, '18.4'),
    market('ZMW', 'Zambian Kwacha', 'ZK', 2, '26.5'),
    market('USDC', 'USD Coin', 'USDC', 6, '1'),
    market('USDT', 'Tether USD', 'USDT', 6, '1'),
    market('USDB', 'USDB Stablecoin', 'USDB', 6, '1'),
    market('BTC', 'Bitcoin', '₿', 8, '0.00001'),
  ].map((c) => [c.code, c]),
);

for (const code of Object.keys(CURRENCIES)) {
  if (!MARKET[code]) throw new Error(`platform currency ${code} has no sandbox market rate`);
}

/** The Currency object of a market currency, or undefined when the sandbox has no market for it. */
export function marketCurrency(code: string): Currency | undefined {
  const found = MARKET[code];
  return found && sharedCurrency(found);
}

/** An exact positive rational number. */
export interface Ratio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** A decimal string such as `"17.25"` as an exact ratio. */
export function decimalRatio(text: string): Ratio {
  const [whole = '0', fraction = ''] = text.split('.');
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) };
}

/** Receiving major units bought by one sending major unit, at the sandbox mid rate. */
export function midRate(sending: string, receiving: string): Ratio {
  const from = decimalRatio(MARKET[sending]!.perUsd);
  const to = decimalRatio(MARKET[receiving]!.perUsd);
  return { numerator: to.numerator * from.denominator, denominator: to.denominator * from.numerator };
}

/** A ratio as a JavaScript number (for display fields such as `exchangeRate`), rounded to 10 significant digits. */
export const ratioToNumber = (ratio: Ratio): number => Number((Number(ratio.numerator) / Number(ratio.denominator)).toPrecision(10));

/**
 * `amount` minor units of `from` in minor units of `to` at the sandbox mid rate, rounded half up (the same amount when
 * the currencies are the same). Both must be in {@link MARKET}.
 */
export function convertMinorUnits(amount: number, from: string, to: string): number {
  if (from === to) return amount;
  const rate = midRate(from, to);
  const scale = 10n ** BigInt(MARKET[to]!.decimals) * rate.numerator;
  const divisor = 10n ** BigInt(MARKET[from]!.decimals) * rate.denominator;
  return Number((BigInt(amount) * scale * 2n + divisor) / (2n * divisor));
}
