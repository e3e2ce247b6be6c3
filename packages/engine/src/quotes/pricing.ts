/**
 * Quote arithmetic (SPEC §2.8; REFERENCE §4.2), exact in each currency's smallest unit: all fixed fees (the service's
 * and the platform's) come off the sending amount first, both variable rates apply to the rest, each component is
 * rounded on its own, and what is left converts at the mid rate, rounded down in the receiving currency.
 */
import type { Currency, RateDetails } from '@railyard/contract';
import { MAX_AMOUNT } from '@railyard/contract';
import { midRate, ratioToNumber, type Ratio } from '../config/exchange-rates.js';

/** What the service charges, by corridor kind. Fixed fees are in US cents, charged in the sending currency. */
export const SERVICE_FEES = {
  sameCurrency: { fixedUsdCents: 0, variableRate: '0' },
  crossCurrency: { fixedUsdCents: 50, variableRate: '0.002' },
} as const;

/** The platform's share: a standing fee config or a per-quote override (USD sending currency only). */
export interface PlatformFee {
  /** Sending minor units. */
  readonly fixed: number;
  /** Basis points, 0–10000. */
  readonly variableBps: number;
}

export const NO_PLATFORM_FEE: PlatformFee = { fixed: 0, variableBps: 0 };

export interface PriceRequest {
  readonly sending: Currency;
  readonly receiving: Currency;
  readonly lockedCurrencySide: 'SENDING' | 'RECEIVING';
  readonly lockedCurrencyAmount: number;
  readonly platformFee: PlatformFee;
}

export interface Price {
  readonly totalSendingAmount: number;
  readonly totalReceivingAmount: number;
  /** Every fee, platform fees included, in sending minor units. */
  readonly feesIncluded: number;
  readonly platformFeesIncluded: number;
  /** Sending units per receiving unit (REFERENCE §4.2). */
  readonly exchangeRate: number;
  readonly rateDetails: RateDetails;
}

/** Why a price cannot be made: the amount is too small to cover the fees, or too large for the service. */
export type PriceFailure = { readonly failure: 'DOES_NOT_COVER_FEES' | 'TOO_LARGE' };

/** Half-up rounding of `value × ratio`. */
const roundHalfUp = (value: bigint, ratio: Ratio): bigint => (2n * value * ratio.numerator + ratio.denominator) / (2n * ratio.denominator);
const ratio = (numerator: bigint, denominator: bigint): Ratio => ({ numerator, denominator });
const decimalRatio = (text: string): Ratio => {
  const [whole = '0', fraction = ''] = text.split('.');
  return ratio(BigInt(whole + fraction), 10n ** BigInt(fraction.length));
};

/** Converts minor units between currencies at the mid rate, rounding up (used for fees charged in another currency). */
function convertUp(amount: number, from: Currency, to: Currency): bigint {
  const rate = midRate(from.code, to.code);
  const numerator = BigInt(amount) * rate.numerator * 10n ** BigInt(to.decimals);
  const denominator = rate.denominator * 10n ** BigInt(from.decimals);
  return (numerator + denominator - 1n) / denominator;
}

/**
 * Prices a payment. With the SENDING side locked the sender pays exactly the amount; with RECEIVING locked the
 * recipient gets exactly the amount and the sender pays the smallest amount that delivers at least that much.
 */
export function price(request: PriceRequest): Price | PriceFailure {
  const { sending, receiving } = request;
  const same = sending.code === receiving.code;
  const schedule = same ? SERVICE_FEES.sameCurrency : SERVICE_FEES.crossCurrency;
  const serviceFixed = convertUp(schedule.fixedUsdCents, USD, sending);
  const serviceRate = decimalRatio(schedule.variableRate);
  const platformFixed = BigInt(request.platformFee.fixed);
  const platformRate = ratio(BigInt(request.platformFee.variableBps), 10_000n);
  const mid = same ? ratio(1n, 1n) : midRate(sending.code, receiving.code);
  // Receiving minor units per sending minor unit.
  const perMinor = ratio(mid.numerator * 10n ** BigInt(receiving.decimals), mid.denominator * 10n ** BigInt(sending.decimals));

  const breakdown = (total: bigint) => {
    const rest = total - serviceFixed - platformFixed;
    if (rest <= 0n) return undefined;
    const serviceVariable = roundHalfUp(rest, serviceRate);
    const platformVariable = roundHalfUp(rest, platformRate);
    const net = rest - serviceVariable - platformVariable;
    const received = (net * perMinor.numerator) / perMinor.denominator;
    return received <= 0n ? undefined : { serviceVariable, platformVariable, received };
  };

  let total: bigint;
  let received: bigint;
  if (request.lockedCurrencySide === 'SENDING') {
    total = BigInt(request.lockedCurrencyAmount);
    const parts = breakdown(total);
    if (!parts) return { failure: 'DOES_NOT_COVER_FEES' };
    received = parts.received;
  } else {
    received = BigInt(request.lockedCurrencyAmount);
    // The smallest total that delivers `received`: binary search over a function that grows with the total.
    let low = 1n;
    let high = BigInt(MAX_AMOUNT);
    if ((breakdown(high)?.received ?? 0n) < received) return { failure: 'TOO_LARGE' };
    while (low < high) {
      const middle = (low + high) / 2n;
      if ((breakdown(middle)?.received ?? 0n) >= received) high = middle;
      else low = middle + 1n;
    }
    total = low;
  }
  if (total > BigInt(MAX_AMOUNT) || received > BigInt(MAX_AMOUNT)) return { failure: 'TOO_LARGE' };
  const parts = breakdown(total)!;
  const platformFees = platformFixed + parts.platformVariable;
  const fees = serviceFixed + parts.serviceVariable + platformFees;
  return {
    totalSendingAmount: Number(total),
    totalReceivingAmount: Number(received),
    feesIncluded: Number(fees),
    platformFeesIncluded: Number(platformFees),
    exchangeRate: same ? 1 : ratioToNumber(ratio(mid.denominator, mid.numerator)),
    rateDetails: {
      counterpartyMultiplier: same ? 1 : ratioToNumber(mid),
      counterpartyFixedFee: 0,
      serviceApiMultiplier: 1,
      serviceApiFixedFee: Number(serviceFixed),
      serviceApiVariableFeeRate: Number(schedule.variableRate),
      serviceApiVariableFeeAmount: Number(parts.serviceVariable),
    },
  };
}

const USD: Currency = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 };
