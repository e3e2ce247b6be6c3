import type { CustomerInternalAccountListQuery, InternalAccount, Page, PlatformInternalAccountListQuery } from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { onField, type CollectionOptions } from '../core/store.js';
import { MAX_AMOUNT } from '@railyard/contract';
import { ApiError, conflict, notFound } from '../core/errors.js';
import { post, type Posting } from '../ledger/ledger.js';
import { CURRENCIES, currencyOf } from '../config/currencies.js';
import { settingsOf } from '../platforms/config.js';
import { fundingInstructionsFor } from './funding-instructions.js';

/** Lookups by owner, and the filters of the account lists. */
const ACCOUNT_COLLECTION: CollectionOptions<InternalAccount> = {
  indexes: {
    customerId: onField('customerId'),
    owner: { keys: (a) => (a.customerId === undefined ? 'platform' : 'customer'), reads: ['customerId'] },
    currency: { keys: (a) => a.balance.currency.code, reads: ['balance'] },
    type: onField('type'),
  },
};
const accounts = (tenant: TenantContext) => tenant.store.collection<InternalAccount>('internalAccounts', ACCOUNT_COLLECTION);

/**
 * The type of an account in `code`: the currency's, except that the platform holds no embedded wallet (nobody holds its
 * keys), so its account in a wallet currency is an ordinary crypto account.
 */
function accountTypeOf(code: string, customerId: string | undefined): InternalAccount['type'] {
  const type = CURRENCIES[code]!.internalAccountType;
  return customerId === undefined && type === 'EMBEDDED_WALLET' ? 'INTERNAL_CRYPTO' : type;
}

/** Opens one internal account per currency the owner does not hold yet (customer, or the platform when undefined). */
export function openInternalAccounts(tenant: TenantContext, customerId: string | undefined, currencies: readonly string[]): InternalAccount[] {
  const owned = accounts(tenant);
  const held = owned.findBy('customerId', customerId);
  const opened: InternalAccount[] = [];
  for (const code of currencies) {
    if (held.some((a) => a.balance.currency.code === code) || opened.some((a) => a.balance.currency.code === code)) continue;
    const id = tenant.ids('InternalAccount');
    const now = tenant.nowIso();
    const zero = { amount: 0, currency: currencyOf(code) };
    const type = accountTypeOf(code, customerId);
    // Built field by field rather than with conditional spreads: spreads cost far more on this path (every customer
    // create opens an account), and the fields stay in the order the API shows them.
    const account = { id } as { -readonly [K in keyof InternalAccount]: InternalAccount[K] };
    if (customerId !== undefined) account.customerId = customerId;
    account.type = type;
    account.status = 'ACTIVE';
    account.balance = zero;
    account.totalBalance = zero;
    account.fundingPaymentInstructions = fundingInstructionsFor(code, id, tenant.platform.name);
    if (type === 'EMBEDDED_WALLET') account.privateEnabled = false;
    account.createdAt = now;
    account.updatedAt = now;
    opened.push(owned.insert(account));
  }
  return opened;
}

/** `GET /customers/internal-accounts`: customers' accounts, newest first. */
export function listCustomerInternalAccounts(
  tenant: TenantContext,
  query: z.output<typeof CustomerInternalAccountListQuery>,
): Page<InternalAccount> {
  return listPage(accounts(tenant), query, {
    where: definedOnly({ owner: 'customer', customerId: query.customerId, currency: query.currency, type: query.type }),
  });
}

/**
 * Opens the platform's own internal accounts, one in every currency it supports that it holds none in yet, as the
 * reference makes them when a platform is configured. The engine calls it when it first serves the platform (not when
 * the platform is created: an engine may hold 100,000 platforms that never make a request) and after a reset or a
 * restore, so every request, reads included, finds them there and no read changes state.
 */
export function openPlatformAccounts(tenant: TenantContext): void {
  const held = accounts(tenant).findBy('customerId', undefined);
  const supported = settingsOf(tenant).supportedCurrencies;
  if (supported.every((c) => held.some((a) => a.balance.currency.code === c.currencyCode))) return;
  openInternalAccounts(tenant, undefined, supported.map((c) => c.currencyCode).filter((code) => CURRENCIES[code] !== undefined));
}

/** The platform's own internal accounts, oldest first (see {@link openPlatformAccounts}). */
export const platformInternalAccounts = (tenant: TenantContext): InternalAccount[] => accounts(tenant).findBy('customerId', undefined);

/** `GET /platform/internal-accounts`: the platform's own accounts, not paged. */
export function listPlatformInternalAccounts(
  tenant: TenantContext,
  query: z.output<typeof PlatformInternalAccountListQuery>,
): { data: InternalAccount[] } {
  const data = platformInternalAccounts(tenant).filter(
    (a) => (query.currency === undefined || a.balance.currency.code === query.currency) && (query.type === undefined || a.type === query.type),
  );
  return { data };
}

/** The internal accounts of a customer, or of the platform when `customerId` is undefined, oldest first. */
export const accountsOf = (tenant: TenantContext, customerId: string | undefined): InternalAccount[] => accounts(tenant).findBy('customerId', customerId);

/** An internal account by id, or 404. */
export function findInternalAccount(tenant: TenantContext, accountId: string): InternalAccount {
  const account = accounts(tenant).get(accountId);
  if (!account) throw notFound('Internal account', accountId);
  return account;
}

/**
 * Records a balanced ledger entry and brings every internal account it touches up to date: the stored `balance` moves by
 * the posting (the ledger stays the source of truth; a property test checks they agree) and
 * INTERNAL_ACCOUNT.BALANCE_UPDATED announces it. Every movement of money goes through here.
 */
export function postToAccounts(tenant: TenantContext, kind: string, currency: string, postings: Posting[], reference?: string): void {
  post(tenant, kind, currency, postings, reference);
  for (const { account: id, amount } of postings) {
    const account = accounts(tenant).get(id);
    if (!account || amount === 0) continue;
    const balance = { amount: account.balance.amount + amount, currency: account.balance.currency };
    const updated: InternalAccount = { ...account, balance, totalBalance: balance, updatedAt: tenant.nowIso() };
    accounts(tenant).replace(updated);
    tenant.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', updated);
  }
}

/** Sets an embedded wallet's `privateEnabled` and announces it (INTERNAL_ACCOUNT.STATUS_UPDATED carries the account). */
export function setPrivacy(tenant: TenantContext, accountId: string, privateEnabled: boolean): InternalAccount {
  const updated: InternalAccount = { ...findInternalAccount(tenant, accountId), privateEnabled, updatedAt: tenant.nowIso() };
  accounts(tenant).replace(updated);
  tenant.emit('INTERNAL_ACCOUNT.STATUS_UPDATED', updated);
  return updated;
}

/** The platform's own internal account in `currency` (platform fees land here, REFERENCE §10). */
export function platformInternalAccount(tenant: TenantContext, currency: string): InternalAccount {
  const existing = platformInternalAccounts(tenant).find((a) => a.balance.currency.code === currency);
  // A currency the platform does not support (none reaches here today) still gets an account: a fee is never lost.
  return existing ?? openInternalAccounts(tenant, undefined, [currency])[0]!;
}

/**
 * Checks that `amount` may be paid into the account: it is ACTIVE and the balance stays within the largest amount the
 * service holds. Returns the account.
 */
export function assertCreditable(tenant: TenantContext, accountId: string, amount: number): InternalAccount {
  const account = findInternalAccount(tenant, accountId);
  if (account.status !== 'ACTIVE') throw conflict(`Internal account ${accountId} is ${account.status}; only ACTIVE accounts can be credited`, 'INVALID_STATE_TRANSITION');
  if (account.balance.amount + amount > MAX_AMOUNT) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `Crediting ${amount} would take the balance above ${MAX_AMOUNT}, the largest amount the service holds`);
  }
  return account;
}
