import { z } from 'zod';
import type { TenantContext } from '../core/context.js';

// The double-entry ledger (DESIGN §5): money moves only as balanced entries, so the sum over every account, the outside
// world included, is always zero. Balances are derived from the postings.

/** One side of an entry: an account and a signed amount in minor units (credit positive, debit negative). */
const Posting = z.object({ account: z.string().min(1), amount: z.number().int() });
export type Posting = z.infer<typeof Posting>;

/** A balanced set of postings in one currency; also checks the entries of a restored snapshot. */
export const LedgerEntryRecord = z
  .object({
    id: z.string(),
    /** What moved the money, e.g. `SANDBOX_FUNDING`. */
    kind: z.string(),
    currency: z.string(),
    postings: z.array(Posting).min(2),
    at: z.string(),
    /** The resource this entry belongs to (a transaction, a refund), when there is one. */
    reference: z.string().optional(),
  })
  .refine((entry) => entry.postings.reduce((sum, p) => sum + p.amount, 0) === 0, { message: 'postings must sum to zero', path: ['postings'] });
export type LedgerEntry = z.infer<typeof LedgerEntryRecord>;

const entries = (tenant: TenantContext) => tenant.store.collection<LedgerEntry>('ledger');

/** The account that stands for everything outside the service, per currency. */
export const outsideWorld = (currency: string): string => ledgerAccount('world', currency);

/** The name of a service-side ledger account of a currency (`in-flight:USD`), one shared string per name. */
export function ledgerAccount(kind: string, currency: string): string {
  const name = `${kind}:${currency}`;
  let shared = accountNames.get(name);
  if (shared === undefined) accountNames.set(name, (shared = name));
  return shared;
}
const accountNames = new Map<string, string>();

/** Records a balanced entry; an unbalanced one is a bug and is refused before anything is written. */
export function post(tenant: TenantContext, kind: string, currency: string, postings: Posting[], reference?: string): LedgerEntry {
  const total = postings.reduce((sum, p) => sum + p.amount, 0);
  if (total !== 0 || postings.some((p) => !Number.isSafeInteger(p.amount))) {
    throw new Error(`unbalanced ledger entry ${kind}: postings sum to ${total}`);
  }
  const entry: LedgerEntry = { id: tenant.ids('LedgerEntry'), kind, currency, postings, at: tenant.nowIso(), ...(reference ? { reference } : {}) };
  return entries(tenant).insert(entry);
}

/** Moves `amount` from one account to another. */
export const transfer = (tenant: TenantContext, kind: string, currency: string, from: string, to: string, amount: number, reference?: string) =>
  post(tenant, kind, currency, [{ account: from, amount: -amount }, { account: to, amount }], reference);

/** An account's balance: the sum of its postings. */
export function balanceOf(tenant: TenantContext, account: string): number {
  let sum = 0;
  for (const entry of entries(tenant).values()) for (const p of entry.postings) if (p.account === account) sum += p.amount;
  return sum;
}

/**
 * What `entries` post to each account in each currency, keyed `account currency`: the balances they back (a restored
 * snapshot's accounts are checked against them).
 */
export function postedTotals(entries: Iterable<LedgerEntry>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const entry of entries) {
    for (const { account, amount } of entry.postings) {
      const key = `${account} ${entry.currency}`;
      totals.set(key, (totals.get(key) ?? 0) + amount);
    }
  }
  return totals;
}

/** The sum over every account, the outside world included, per currency: zero in every currency, always. */
export function trialBalance(tenant: TenantContext): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const entry of entries(tenant).values()) {
    for (const p of entry.postings) sums[entry.currency] = (sums[entry.currency] ?? 0) + p.amount;
  }
  return sums;
}
