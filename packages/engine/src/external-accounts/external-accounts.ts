/**
 * External accounts (SPEC §2.1–§2.3, §4.4, §4.6; REFERENCE §2.3, §3): bank accounts and wallets outside the service,
 * owned by a customer or (without `customerId`) the platform, in the `externalAccounts` collection.
 *
 * Rules:
 * - a customer account needs a customer of this platform that is not deleted (404 / 410);
 * - the same accountType + primary identifier twice for one owner is 409 CONFLICT;
 * - `defaultUmaDepositAccount`: at most one per customer; a second `true` is 409 CONFLICT (the old one must be deleted
 *   first), so an existing default never changes silently;
 * - `paymentRails` is set by the service from REFERENCE §3;
 * - beneficiary name verification from the 1xx suffix of the primary identifier (sandbox/magic-values.ts);
 * - self-custody (no vaspName) FIRST_PARTY wallets start PENDING_OWNERSHIP_VERIFICATION, everything else ACTIVE;
 *   later status changes go through {@link setExternalAccountStatus}, which emits EXTERNAL_ACCOUNT.STATUS_UPDATED.
 */
import {
  ACCOUNT_INFO_TABLE, checkAccountInfo, checkBeneficiaryFormats, isWalletAccountType, type BeneficiaryVerificationStatus, type ExternalAccount,
  type ExternalAccountCreateRequest, type ExternalAccountListQuery, type ExternalAccountStatus, type FieldError, type Page,
  type PlatformExternalAccountListQuery,
} from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { onField, type CollectionOptions } from '../core/store.js';
import { ApiError, conflict, invalidInput, notFound } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { findCustomer } from '../customers/customers.js';
import { isTrustedBeneficiary } from '../sca/trust.js';
import {
  BENEFICIARY_VERIFICATION_TRIGGERS, lookupSuffix, PRIMARY_IDENTIFIER_FIELDS, UNCHECKED_BENEFICIARY_TYPES,
} from '../sandbox/magic-values.js';

export const EXTERNAL_ACCOUNTS = 'externalAccounts';
/** Lookups by owner, and the filters of the account lists. */
const EXTERNAL_ACCOUNT_COLLECTION: CollectionOptions<ExternalAccount> = {
  indexes: {
    customerId: onField('customerId'),
    owner: { keys: (a) => (a.customerId == null ? 'platform' : 'customer'), reads: ['customerId'] },
    currency: onField('currency'),
  },
};
const accounts = (tenant: TenantContext) => tenant.store.collection<ExternalAccount>(EXTERNAL_ACCOUNTS, EXTERNAL_ACCOUNT_COLLECTION);

type CreateInput = z.output<typeof import('@railyard/contract').ExternalAccountCreateRequest>;
type Info = Record<string, unknown> & { accountType: string };

/** The primary identifier of an accountInfo (SPEC §4.6), the part before '@' for identifiers with a domain. */
export function primaryIdentifier(info: Info): string | undefined {
  const fields = PRIMARY_IDENTIFIER_FIELDS[info.accountType] ?? ['accountNumber'];
  const found = fields.map((field) => info[field]).find((value): value is string => typeof value === 'string');
  if (found !== undefined) return found.split('@')[0];
  for (const field of ['address', 'invoice', 'bolt12', 'lightningAddress']) {
    if (typeof info[field] === 'string') return (info[field] as string).split('@')[0];
  }
  return undefined;
}

/** Beneficiary verification of a new account, or the 400 of suffix 105. */
function beneficiaryVerification(info: Info): Pick<ExternalAccount, 'beneficiaryVerificationStatus' | 'beneficiaryVerifiedData'> {
  if ((UNCHECKED_BENEFICIARY_TYPES as readonly string[]).includes(info.accountType)) return { beneficiaryVerificationStatus: 'UNSUPPORTED' };
  const outcome = lookupSuffix(BENEFICIARY_VERIFICATION_TRIGGERS, primaryIdentifier(info));
  if ('reject' in outcome) {
    throw new ApiError(400, 'INVALID_BANK_ACCOUNT', 'The receiving bank reports that this account does not exist or cannot receive funds');
  }
  const status: BeneficiaryVerificationStatus = outcome.status;
  const beneficiary = info.beneficiary as { fullName?: string; legalName?: string } | undefined;
  const name = beneficiary?.fullName ?? beneficiary?.legalName;
  const fullName = name === undefined ? undefined
    : status === 'NOT_MATCHED' ? 'Sandbox Account Holder'
      : status === 'PARTIAL_MATCH' ? name.split(' ')[0]
        : status === 'MATCHED' ? name : undefined;
  return { beneficiaryVerificationStatus: status, ...(fullName === undefined ? {} : { beneficiaryVerifiedData: { fullName } }) };
}

/**
 * Domain checks for the binding's `check` hook: every invalid identifier field at once; on a platform in strict mode
 * checksums too, and the forms of the beneficiary's email, phone number and country of residence (plain strings in
 * the reference, so any string elsewhere).
 */
export function createChecks(tenant: TenantContext, body: unknown): FieldError[] {
  const info = (body as { accountInfo?: unknown } | null)?.accountInfo;
  if (typeof info !== 'object' || info === null) return [];
  const accountType = (info as { accountType?: unknown }).accountType;
  const strict = tenant.platform.strict;
  const identifiers = typeof accountType === 'string' ? checkAccountInfo(accountType, info as Record<string, unknown>, { strict }) : [];
  return strict ? [...identifiers, ...checkBeneficiaryFormats(info)] : identifiers;
}

const ownerOf = (account: ExternalAccount) => account.customerId ?? undefined;

/** `POST /customers/external-accounts` and `POST /platform/external-accounts` (the latter without customerId). */
export function createExternalAccount(tenant: TenantContext, input: Partial<CreateInput> & Pick<CreateInput, 'currency' | 'accountInfo'>): ExternalAccount {
  const errors = createChecks(tenant, input);
  if (errors.length > 0) throw invalidInput(errors);
  const customerId = input.customerId;
  if (customerId !== undefined) {
    const customer = findCustomer(tenant, customerId);
    if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  }
  const info = input.accountInfo as unknown as Info;
  const identifier = primaryIdentifier(info);
  const owned = listExternalAccountsOf(tenant, customerId);
  if (owned.some((a) => a.accountInfo.accountType === info.accountType && primaryIdentifier(a.accountInfo as unknown as Info) === identifier
    && JSON.stringify(stripped(a.accountInfo)) === JSON.stringify(stripped(info)))) {
    throw conflict(`This ${info.accountType} is already an external account of this ${customerId ? 'customer' : 'platform'}`);
  }
  if (input.defaultUmaDepositAccount === true && customerId !== undefined && owned.some((a) => a.defaultUmaDepositAccount === true)) {
    throw conflict(`Customer ${customerId} already has a default UMA deposit account; delete it first`);
  }
  const verification = beneficiaryVerification(info);
  const row = ACCOUNT_INFO_TABLE[(info.accountType === 'LIGHTNING_ACCOUNT' ? 'LIGHTNING' : info.accountType) as keyof typeof ACCOUNT_INFO_TABLE];
  const selfCustody = isWalletAccountType(info.accountType) && info.vaspName === undefined;
  const status: ExternalAccountStatus = selfCustody && input.ownershipType === 'FIRST_PARTY' ? 'PENDING_OWNERSHIP_VERIFICATION' : 'ACTIVE';
  const account = {
    id: tenant.ids('ExternalAccount'),
    // SPEC §2.1: null when the account is on behalf of the platform.
    customerId: customerId ?? null,
    status,
    ...(input.platformAccountId === undefined ? {} : { platformAccountId: input.platformAccountId }),
    ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
    currency: input.currency,
    ...(customerId === undefined ? {} : { defaultUmaDepositAccount: input.defaultUmaDepositAccount ?? false }),
    ...verification,
    accountInfo: { ...info, ...(row && row.paymentRails.length > 0 ? { paymentRails: [...row.paymentRails] } : {}) },
  } as ExternalAccount;
  return accounts(tenant).insert(account);
}

const stripped = (info: object) => {
  const { beneficiary: _b, paymentRails: _p, ...rest } = info as Record<string, unknown>;
  return rest;
};

/** The external accounts of a customer, or of the platform when `customerId` is undefined. */
export const listExternalAccountsOf = (tenant: TenantContext, customerId: string | undefined): ExternalAccount[] =>
  accounts(tenant).findBy('customerId', customerId ?? null);

/** An external account by id (any owner), or 404. For the ownership module. */
export function findExternalAccount(tenant: TenantContext, id: string): ExternalAccount {
  const account = accounts(tenant).get(id);
  if (!account) throw notFound('External account', id);
  return account;
}

const findOwned = (tenant: TenantContext, id: string, platform: boolean): ExternalAccount => {
  const account = findExternalAccount(tenant, id);
  if ((ownerOf(account) === undefined) !== platform) throw notFound('External account', id);
  return account;
};

/** Moves an account to `status` and emits EXTERNAL_ACCOUNT.STATUS_UPDATED (nothing when unchanged). For the ownership module. */
export function setExternalAccountStatus(tenant: TenantContext, id: string, status: ExternalAccountStatus): ExternalAccount {
  const account = findExternalAccount(tenant, id);
  if (account.status === status) return account;
  const updated = { ...account, status };
  accounts(tenant).replace(updated);
  tenant.emit('EXTERNAL_ACCOUNT.STATUS_UPDATED', updated);
  return updated;
}

export const retrieveExternalAccount = (tenant: TenantContext, id: string) => findOwned(tenant, id, false);
export const retrievePlatformExternalAccount = (tenant: TenantContext, id: string) => findOwned(tenant, id, true);

/** DELETE; 409 BENEFICIARY_TRUSTED while the account is a trusted beneficiary (untrust it first). */
export function deleteExternalAccount(tenant: TenantContext, id: string, platform = false): undefined {
  findOwned(tenant, id, platform);
  if (isTrustedBeneficiary(tenant, id)) {
    throw conflict(`External account ${id} is a trusted beneficiary: untrust it (POST .../untrust and .../untrust/confirm) before deleting`, 'BENEFICIARY_TRUSTED');
  }
  accounts(tenant).delete(id);
  return undefined;
}

/** `GET /customers/external-accounts`: customers' accounts, newest first. */
export function listExternalAccounts(tenant: TenantContext, query: z.output<typeof import('@railyard/contract').ExternalAccountListQuery>): Page<ExternalAccount> {
  return listPage(accounts(tenant), query, {
    where: definedOnly({ owner: 'customer', customerId: query.customerId, currency: query.currency }),
  });
}

/** `GET /platform/external-accounts`. */
export function listPlatformExternalAccounts(tenant: TenantContext, query: z.output<typeof import('@railyard/contract').PlatformExternalAccountListQuery>): Page<ExternalAccount> {
  return listPage(accounts(tenant), query, { where: definedOnly({ owner: 'platform', currency: query.currency }) });
}

export type { ExternalAccountCreateRequest, ExternalAccountListQuery, PlatformExternalAccountListQuery };
