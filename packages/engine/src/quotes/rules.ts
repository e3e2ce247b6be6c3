/**
 * The sandbox's payment rules as data (SPEC §4.5, §8; REFERENCE §4): how long quotes live, which external accounts can
 * be pulled from, which destinations need a purpose, the ownership-verification threshold, and typical rail timings.
 */
import type { PaymentRail } from '@railyard/contract';

/** Quote lifetime by source kind: account-funded quotes are executed at once; a real-time payer needs time to send. */
export const QUOTE_LIFETIME_MS = {
  ACCOUNT: 5 * 60_000,
  REALTIME_FUNDING: 15 * 60_000,
} as const;

/** External accounts the service can pull money from (an ACH debit); other external accounts only receive. */
export const PULLABLE_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['USD_ACCOUNT']);

/** Destination currencies whose payouts need `purposeOfPayment` (regulators there ask for a purpose code). */
export const PURPOSE_REQUIRED_CURRENCIES: ReadonlySet<string> = new Set(['INR', 'PKR', 'BDT', 'CNY']);

/**
 * Payments to an external account still PENDING_OWNERSHIP_VERIFICATION (or UNVERIFIED) are allowed below this value
 * in US cents (SPEC §3.1: "transfers below regulatory thresholds are still allowed"): the EU Travel Rule's €1,000 line.
 */
export const OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS = 100_000;

/** Typical time to settle on each rail (SPEC §8), in seconds: what `settlementTimelineSeconds` reports. */
export const RAIL_SETTLEMENT_SECONDS: Readonly<Record<PaymentRail, number>> = {
  RTP: 10, FEDNOW: 10, SEPA_INSTANT: 10, UPI: 10, SPEI: 10, PIX: 10, FASTER_PAYMENTS: 10, PAYNOW: 10, FAST: 10, INSTAPAY: 10,
  BRE_B: 10, MOBILE_MONEY: 10, UNIONPAY: 10,
  RTGS: 30 * 60,
  SEPA: 24 * 3600, WIRE: 24 * 3600, NEFT: 24 * 3600, PESONET: 24 * 3600, CIPS: 24 * 3600,
  ACH: 2 * 24 * 3600, BANK_TRANSFER: 2 * 24 * 3600, ACH_COLOMBIA: 2 * 24 * 3600,
  SWIFT: 3 * 24 * 3600,
};
