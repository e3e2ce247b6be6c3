/**
 * `GET /exchange-rates` (REFERENCE §9): indicative prices of a payment from one currency into others, made with the
 * same arithmetic as quotes (platform standing fees included), from a rate cached for five minutes of engine time.
 */
import type { ExchangeRate, PaymentRail } from '@railyard/contract';
import { ACCOUNT_INFO_TABLE, ExchangeRateQuery } from '@railyard/contract';
import type { z } from 'zod';
import { MARKET, marketCurrency } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { currencyTermsOf, settingsOf, standingFeeOf } from '../platforms/config.js';
import { NO_PLATFORM_FEE, price } from './pricing.js';

/** How long a published rate stands (REFERENCE §9: about 5 minutes). */
export const RATE_CACHE_MS = 5 * 60_000;

/** The rail a payout in `currency` takes by default: the first rail of its bank account type; none for crypto. */
function defaultRail(currency: string): PaymentRail | null {
  const row = (ACCOUNT_INFO_TABLE as Record<string, { paymentRails: readonly PaymentRail[] }>)[`${currency}_ACCOUNT`];
  return row?.paymentRails[0] ?? null;
}

const unknownCurrency = (code: string, field: string) =>
  new ApiError(400, 'INVALID_CURRENCY', `The sandbox quotes no ${code}`, { errors: [{ field, message: `${code} is not a currency the sandbox quotes` }] });

/**
 * The rates from `sourceCurrency` to each destination asked (every other currency the sandbox quotes when none is);
 * without `sourceCurrency`, from every currency the platform supports to each destination other than itself.
 */
export function listExchangeRates(tenant: TenantContext, query: z.output<typeof ExchangeRateQuery>): { data: ExchangeRate[] } {
  const unknown = query.destinationCurrency?.find((code) => !marketCurrency(code));
  if (query.sourceCurrency !== undefined) {
    const source = marketCurrency(query.sourceCurrency);
    if (!source || !currencyTermsOf(tenant, query.sourceCurrency)) throw unknownCurrency(query.sourceCurrency, 'sourceCurrency');
    if (unknown) throw unknownCurrency(unknown, 'destinationCurrency');
    return { data: ratesFrom(tenant, source.code, query.destinationCurrency ?? Object.keys(MARKET).filter((code) => code !== source.code), query.sendingAmount) };
  }
  if (unknown) throw unknownCurrency(unknown, 'destinationCurrency');
  // Every source the platform supports (the reference lists all rates); a currency into itself is no exchange.
  const data: ExchangeRate[] = [];
  for (const { currencyCode } of settingsOf(tenant).supportedCurrencies) {
    if (!marketCurrency(currencyCode)) continue;
    const targets = (query.destinationCurrency ?? Object.keys(MARKET)).filter((code) => code !== currencyCode);
    data.push(...ratesFrom(tenant, currencyCode, targets, query.sendingAmount));
  }
  return { data };
}

function ratesFrom(tenant: TenantContext, sourceCode: string, targets: readonly string[], sendingAmount: number): ExchangeRate[] {
  const source = marketCurrency(sourceCode)!;
  const terms = currencyTermsOf(tenant, sourceCode)!;
  const updatedAt = new Date(Math.floor(tenant.clock.now() / RATE_CACHE_MS) * RATE_CACHE_MS).toISOString();
  const data: ExchangeRate[] = [];
  for (const code of targets) {
    const receiving = marketCurrency(code)!;
    const standing = code !== source.code ? standingFeeOf(tenant, source.code) : undefined;
    const platformFee = standing ? { fixed: standing.fixedFee.amount, variableBps: standing.variableFeeBps } : NO_PLATFORM_FEE;
    const quoted = price({ sending: source, receiving, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: sendingAmount, platformFee });
    const smallest = price({ sending: source, receiving, lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 1, platformFee });
    if ('failure' in smallest) continue;
    data.push({
      sourceCurrency: source,
      destinationCurrency: receiving,
      destinationPaymentRail: defaultRail(code),
      sendingAmount,
      minSendingAmount: Math.max(smallest.totalSendingAmount, terms.minAmount),
      maxSendingAmount: terms.maxAmount,
      receivingAmount: 'failure' in quoted ? 0 : quoted.totalReceivingAmount,
      exchangeRate: smallest.exchangeRate,
      fees: 'failure' in quoted
        ? { fixed: 0, total: 0 }
        : { fixed: quoted.rateDetails.serviceApiFixedFee + platformFee.fixed, total: quoted.feesIncluded },
      updatedAt,
    });
  }
  return data;
}
