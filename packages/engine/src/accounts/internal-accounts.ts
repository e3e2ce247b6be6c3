import type { CustomerInternalAccountListQuery, InternalAccount, Page, PlatformInternalAccountListQuery } from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { paginate } from '../core/pagination.js';
import { MAX_AMOUNT } from '@railyard/contract';
import { ApiError, conflict, notFound } from '../core/errors.js';
import { balanceOf, outsideWorld, transfer } from '../ledger/ledger.js';
import { CURRENCIES, currencyOf } from '../config/currencies.js';
import { fundingInstructionsFor } from './funding-instructions.js';

const accounts = (tenant: TenantContext) => tenant.store.collection<InternalAccount>('internalAccounts');

/** Opens one internal account per currency the owner does not hold yet (customer, or the platform when undefined). */
export function openInternalAccounts(tenant: TenantContext, customerId: string | undefined, currencies: readonly string[]): InternalAccount[] {
  const held = new Set(accounts(tenant).findBy('customerId', customerId).map((a) => a.balance.currency.code));
  const opened: InternalAccount[] = [];
  for (const code of currencies) {
    if (held.has(code)) continue;
    const id = tenant.ids('InternalAccount');
    const now = tenant.nowIso();
    const zero = { amount: 0, currency: currencyOf(code) };
    const account: InternalAccount = {
      id,
      ...(customerId === undefined ? {} : { customerId }),
      type: CURRENCIES[code]!.internalAccountType,
      status: 'ACTIVE',
      balance: zero,
      totalBalance: zero,
      fundingPaymentInstructions: fundingInstructionsFor(code, id),
      createdAt: now,
      updatedAt: now,
    };
    opened.push(accounts(tenant).insert(account));
    held.add(code);
  }
  return opened;
}

/** `GET /customers/internal-accounts`: customers' accounts, newest first. */
export function listCustomerInternalAccounts(
  tenant: TenantContext,
  query: z.output<typeof CustomerInternalAccountListQuery>,
): Page<InternalAccount> {
  const entries = accounts(tenant)
    .newestFirst()
    .filter(({ value }) =>
      value.customerId !== undefined &&
      (query.customerId === undefined || value.customerId === query.customerId) &&
      (query.currency === undefined || value.balance.currency.code === query.currency) &&
      (query.type === undefined || value.type === query.type));
  return paginate(entries, query);
}

/** `GET /platform/internal-accounts`: the platform's own accounts, not paged. */
export function listPlatformInternalAccounts(
  tenant: TenantContext,
  query: z.output<typeof PlatformInternalAccountListQuery>,
): { data: InternalAccount[] } {
  const data = [...accounts(tenant).values()].filter(
    (a) => a.customerId === undefined &&
      (query.currency === undefined || a.balance.currency.code === query.currency) &&
      (query.type === undefined || a.type === query.type),
  );
  return { data };
}

/** An internal account by id, or 404. */
export function findInternalAccount(tenant: TenantContext, accountId: string): InternalAccount {
  const account = accounts(tenant).get(accountId);
  if (!account) throw notFound('Internal account', accountId);
  return account;
}

/**
 * `POST /sandbox/internal-accounts/{id}/fund`: money arrives from outside at once (REFERENCE §13), as a ledger entry
 * from the outside world; the account's balances are read back from the ledger.
 */
export function fundInternalAccount(tenant: TenantContext, accountId: string, amount: number): InternalAccount {
  const account = findInternalAccount(tenant, accountId);
  if (account.status !== 'ACTIVE') throw conflict(`Internal account ${accountId} is ${account.status}; only ACTIVE accounts can be funded`, 'INVALID_STATE_TRANSITION');
  const currency = account.balance.currency.code;
  if (balanceOf(tenant, accountId) + amount > MAX_AMOUNT) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `Funding ${amount} would take the balance above ${MAX_AMOUNT}, the largest amount the service holds`);
  }
  transfer(tenant, 'SANDBOX_FUNDING', currency, outsideWorld(currency), accountId, amount);
  const balance = { amount: balanceOf(tenant, accountId), currency: account.balance.currency };
  const funded: InternalAccount = { ...account, balance, totalBalance: balance, updatedAt: tenant.nowIso() };
  accounts(tenant).replace(funded);
  tenant.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', funded);
  return funded;
}
