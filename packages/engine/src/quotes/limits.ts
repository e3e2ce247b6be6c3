/**
 * Limits that stop money (SPEC §8; REFERENCE §10, §11): the platform's terms per sending currency (below `minAmount`:
 * 400 AMOUNT_OUT_OF_RANGE; above `maxAmount`, the single-transaction maximum: 400 TRANSACTION_SIZE_LIMIT_EXCEEDED) and
 * the daily volume per payer (429 DAILY_VOLUME_LIMIT_EXCEEDED, checked when money is sent). The day's volume is read
 * from the payer's payments quoted that UTC day that are under way or done, so it needs no state of its own (a quote
 * lives minutes, so the day it was made is the day it was sent, but for payments sent across midnight).
 */
import type { Currency, OutgoingTransaction } from '@railyard/contract';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { currencyTermsOf, settingsOf } from '../platforms/config.js';
import { transactionsOf } from '../transactions/transactions.js';

const SENT: ReadonlySet<string> = new Set(['PROCESSING', 'COMPLETED']);
const DAY_MS = 86_400_000;

/** What the payer (a customer, or the platform when undefined) has sent in `currency` since the start of today (UTC). */
export function sentToday(tenant: TenantContext, customerId: string | undefined, currency: string): number {
  const dayStart = Math.floor(tenant.clock.now() / DAY_MS) * DAY_MS;
  let total = 0;
  for (const t of transactionsOf(tenant, customerId ?? tenant.platform.id)) {
    if (t.type !== 'OUTGOING' || !SENT.has(t.status) || t.sentAmount.currency.code !== currency) continue;
    if (Date.parse((t as OutgoingTransaction).createdAt ?? '') >= dayStart) total += t.sentAmount.amount;
  }
  return total;
}

/** Checks a payment of `amount` against the terms of its currency and, with `daily`, the payer's daily volume. */
export function checkLimits(tenant: TenantContext, customerId: string | undefined, currency: Currency, amount: number, options: { daily: boolean }): void {
  const terms = currencyTermsOf(tenant, currency.code);
  if (terms && amount < terms.minAmount) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `${amount} ${currency.code} is below the platform's minimum of ${terms.minAmount}`, { minAmount: terms.minAmount, maxAmount: terms.maxAmount });
  }
  if (terms && amount > terms.maxAmount) {
    throw new ApiError(400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED', `${amount} ${currency.code} is above the single-transaction maximum of ${terms.maxAmount}`, { maxAmount: terms.maxAmount });
  }
  if (!options.daily) return;
  const volume = dailyVolumeOf(tenant, customerId, currency.code);
  if (volume !== undefined && volume.sent + amount > volume.limit) {
    const nextDay = (Math.floor(tenant.clock.now() / DAY_MS) + 1) * DAY_MS;
    // The limit holds until the next UTC day (Retry-After is hours): generated clients must not retry at once.
    throw new ApiError(429, 'DAILY_VOLUME_LIMIT_EXCEEDED', `This payment would take today's ${currency.code} volume to ${volume.sent + amount}, above the daily limit of ${volume.limit}`, {
      dailyLimit: volume.limit, sentToday: volume.sent, resetsAt: new Date(nextDay).toISOString(),
    }, { 'retry-after': String(Math.ceil((nextDay - tenant.clock.now()) / 1000)), 'x-should-retry': 'false' });
  }
}

/** The payer's daily volume limit in a currency and what it sent today; undefined when no limit is set. */
function dailyVolumeOf(tenant: TenantContext, customerId: string | undefined, currencyCode: string): { limit: number; sent: number } | undefined {
  const limit = settingsOf(tenant).dailyVolumeLimits?.[currencyCode];
  return limit === undefined ? undefined : { limit, sent: sentToday(tenant, customerId, currencyCode) };
}

/** Whether sending `amount` more today would take the payer (a customer, or the platform) past its daily volume limit. */
export function exceedsDailyVolume(tenant: TenantContext, customerId: string | undefined, currencyCode: string, amount: number): boolean {
  const volume = dailyVolumeOf(tenant, customerId, currencyCode);
  return volume !== undefined && volume.sent + amount > volume.limit;
}
