/**
 * Stablecoin issuance (SPEC §3.7; REFERENCE §10, §17.2): the platform links its account at a provider, registers a
 * token that exists there, and asks the operator to enable mints and burns of it.
 *
 * - A link's credentials are checked when it is made ({@link STABLECOIN_LINK_TRIGGERS}); the provider may later
 *   invalidate or revoke them (the control plane acts as the provider).
 * - A registered coin is PENDING_REVIEW, then PROVISIONING, then PROVISIONED (or REJECTED, or FAILED) on the engine
 *   clock ({@link STABLECOIN_ISSUANCE}).
 * - Enablement (SPEC §3.7): the platform may ask only from NOT_ENABLED, which moves to PENDING_APPROVAL (asking again
 *   while PENDING_APPROVAL succeeds); ENABLING, ENABLED and DISABLED are the operator's (the control plane acts as
 *   the operator). An ENABLED coin gets its `currency`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { Page, ServiceOperationsStatus, Stablecoin, StablecoinProviderAccount, StablecoinProviderAccountStatus } from '@railyard/contract';
import { bytesToHex, StablecoinListQuery, StablecoinProviderAccountLinkRequest, StablecoinProviderAccountListQuery, StablecoinRegisterRequest } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField, notFound } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { onField, type CollectionOptions } from '../core/store.js';
import { lookupSuffix, STABLECOIN_ISSUANCE, STABLECOIN_LINK_TRIGGERS, STABLECOIN_PROVISIONING_MS, STABLECOIN_REVIEW_MS, suffixOf } from '../sandbox/magic-values.js';

export const STABLECOIN_PROVIDER_ACCOUNTS = 'stablecoinProviderAccounts';
export const STABLECOINS = 'stablecoins';
/** Clock-job kind: a registered coin's review or provisioning ends. */
export const STABLECOIN_ISSUANCE_JOB = 'stablecoins.issuance';
/** The decimals of the sandbox provider's tokens. */
export const SANDBOX_TOKEN_DECIMALS = 6;

const providerAccounts = (tenant: TenantContext) => tenant.store.collection<StablecoinProviderAccount>(STABLECOIN_PROVIDER_ACCOUNTS, {
  indexes: { provider: onField('provider'), status: onField('status'), providerAccountId: onField('providerAccountId') },
  createdAt: (a) => Date.parse(a.createdAt),
});
export const stablecoins = (tenant: TenantContext) => tenant.store.collection<Stablecoin>(STABLECOINS, {
  indexes: {
    issuanceStatus: onField('issuanceStatus'), serviceOperationsStatus: onField('serviceOperationsStatus'), provider: onField('provider'),
    networkTokenIdentifier: onField('networkTokenIdentifier'),
  },
  createdAt: (c) => Date.parse(c.createdAt),
} as CollectionOptions<Stablecoin>);

// ---------------------------------------------------------------------------------------------------------------------
// Provider accounts

/** `POST /stablecoin-provider-accounts`: the sandbox provider checks the credentials ({@link STABLECOIN_LINK_TRIGGERS}). */
export function linkProviderAccount(tenant: TenantContext, request: z.output<typeof StablecoinProviderAccountLinkRequest>): StablecoinProviderAccount {
  const trigger = (STABLECOIN_LINK_TRIGGERS as Readonly<Record<string, string>>)[suffixOf(request.apiClientId)];
  if (trigger === 'CREDENTIALS_REFUSED') {
    throw new ApiError(400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID', `${request.provider} refused the credentials of apiClientId ${request.apiClientId}`, {
      errors: [{ field: 'apiClientSecret', message: 'the provider refused these credentials' }],
    });
  }
  if (trigger === 'SEVERAL_ACCOUNTS' && request.providerAccountId === undefined) {
    throw invalidField('providerAccountId', 'these credentials reach several provider accounts: name the one to link');
  }
  // The credentials reach one account, named after them, unless the request names another.
  const providerAccountId = request.providerAccountId ?? `brale_acct_${bytesToHex(sha256(new TextEncoder().encode(request.apiClientId))).slice(0, 12)}`;
  // An INVALID or REVOKED link may be replaced by a new one; an ACTIVE one may not be doubled.
  if (activeLinkTo(tenant, request.provider, providerAccountId) !== undefined) throw conflict(`${request.provider} account ${providerAccountId} is linked already`);
  const now = tenant.nowIso();
  const account: StablecoinProviderAccount = {
    id: tenant.ids('StablecoinProviderAccount'), provider: request.provider, providerAccountId, providerEnvironment: 'SANDBOX',
    status: 'ACTIVE', lastVerifiedAt: now, createdAt: now, updatedAt: now,
  };
  // The secret is checked, then forgotten: the sandbox keeps no credential.
  return providerAccounts(tenant).insert(account);
}


/** The ACTIVE link to a provider account, if there is one. */
const activeLinkTo = (tenant: TenantContext, provider: string, providerAccountId: string) =>
  providerAccounts(tenant).findBy('providerAccountId', providerAccountId).find((a) => a.provider === provider && a.status === 'ACTIVE');

export function listProviderAccounts(tenant: TenantContext, query: z.output<typeof StablecoinProviderAccountListQuery>): Page<StablecoinProviderAccount> {
  return listPage(providerAccounts(tenant), query, { where: definedOnly({ provider: query.provider, status: query.status }) });
}

/** A provider account by id, or 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND. */
export function findProviderAccount(tenant: TenantContext, id: string): StablecoinProviderAccount {
  const found = providerAccounts(tenant).get(id);
  if (!found) throw notFound('Stablecoin provider account', id, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
  return found;
}

/** `PUT /_sandbox/stablecoin-provider-accounts/{id}/status`: the provider invalidates, revokes or restores the credentials. */
export function setProviderAccountStatus(tenant: TenantContext, id: string, status: StablecoinProviderAccountStatus): StablecoinProviderAccount {
  const current = findProviderAccount(tenant, id);
  const other = status === 'ACTIVE' ? activeLinkTo(tenant, current.provider, current.providerAccountId) : undefined;
  if (other !== undefined && other.id !== id) throw conflict(`${other.id} is the ACTIVE link to ${current.provider} account ${current.providerAccountId} now`);
  const now = tenant.nowIso();
  const updated: StablecoinProviderAccount = { ...current, status, updatedAt: now, ...(status === 'ACTIVE' ? { lastVerifiedAt: now } : {}) };
  providerAccounts(tenant).replace(updated);
  return updated;
}

/**
 * The provider account an action uses: the one named (404 if unknown), or the only ACTIVE one (400
 * SELECTION_REQUIRED when there are several, 404 when there is none); 400 INVALID or REVOKED when it cannot be used.
 */
export function usableProviderAccount(tenant: TenantContext, id: string | undefined): StablecoinProviderAccount {
  let account: StablecoinProviderAccount;
  if (id !== undefined) account = findProviderAccount(tenant, id);
  else {
    const active = providerAccounts(tenant).findBy('status', 'ACTIVE');
    if (active.length > 1) {
      throw new ApiError(400, 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED', `${active.length} provider accounts are ACTIVE: name one in stablecoinProviderAccountId`, {
        errors: [{ field: 'stablecoinProviderAccountId', message: 'is required when several provider accounts are ACTIVE' }],
      });
    }
    if (active.length === 0) throw new ApiError(404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'No ACTIVE stablecoin provider account is linked: link one first (POST /stablecoin-provider-accounts)');
    account = active[0]!;
  }
  checkUsable(account);
  return account;
}

/** 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID or _REVOKED for a link that cannot be used. */
export function checkUsable(account: StablecoinProviderAccount): void {
  if (account.status === 'INVALID') {
    throw new ApiError(400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID', `Provider account ${account.id} is INVALID: its credentials no longer work; link it again`);
  }
  if (account.status === 'REVOKED') throw new ApiError(400, 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED', `Provider account ${account.id} was REVOKED`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Stablecoins

/** `POST /stablecoins`: PENDING_REVIEW; the review and provisioning follow on the clock. */
export function registerStablecoin(tenant: TenantContext, request: z.output<typeof StablecoinRegisterRequest>): Stablecoin {
  const link = usableProviderAccount(tenant, request.stablecoinProviderAccountId);
  // A coin REJECTED or FAILED does not hold its token: it may be registered again.
  if (stablecoins(tenant).findBy('networkTokenIdentifier', request.networkTokenIdentifier).some((c) => c.issuanceStatus !== 'REJECTED' && c.issuanceStatus !== 'FAILED')) {
    throw conflict(`The token ${request.networkTokenIdentifier} is registered already`);
  }
  const symbol = symbolOf(request.providerTokenIdentifier);
  const now = tenant.nowIso();
  const coin: Stablecoin = {
    id: tenant.ids('Stablecoin'), name: `${symbol} Stablecoin`, symbol, baseCurrency: 'USD', network: 'SPARK', decimals: SANDBOX_TOKEN_DECIMALS,
    issuanceStatus: 'PENDING_REVIEW', serviceOperationsStatus: 'NOT_ENABLED', networkTokenIdentifier: request.networkTokenIdentifier,
    currency: undefined, provider: link.provider, stablecoinProviderAccountId: link.id, providerEnvironment: link.providerEnvironment,
    providerTokenIdentifier: request.providerTokenIdentifier, createdAt: now, updatedAt: now,
  };
  stablecoins(tenant).insert(coin);
  tenant.schedule(STABLECOIN_REVIEW_MS, STABLECOIN_ISSUANCE_JOB, { stablecoinId: coin.id });
  return coin;
}

/** A coin's symbol from the provider's token: its letters and digits, upper case, 3 to 8 of them, starting with a letter (it becomes a currency code). */
function symbolOf(providerTokenIdentifier: string): string {
  const characters = providerTokenIdentifier.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return (/^[A-Z]/.test(characters) ? characters : `X${characters}`).slice(0, 8).padEnd(3, 'X');
}

/** The issuance job: the review ends (PROVISIONING or REJECTED), or the provisioning does (PROVISIONED or FAILED). */
export const issuanceJob = (tenant: TenantContext, payload: unknown): void => {
  const coin = stablecoins(tenant).get((payload as { stablecoinId: string }).stablecoinId);
  if (!coin) return;
  const outcome = lookupSuffix(STABLECOIN_ISSUANCE, coin.providerTokenIdentifier);
  if (coin.issuanceStatus === 'PENDING_REVIEW') {
    const next = outcome === 'REJECTED' ? 'REJECTED' : 'PROVISIONING';
    update(tenant, coin, { issuanceStatus: next });
    if (next === 'PROVISIONING') tenant.schedule(STABLECOIN_PROVISIONING_MS, STABLECOIN_ISSUANCE_JOB, { stablecoinId: coin.id });
  } else if (coin.issuanceStatus === 'PROVISIONING') {
    update(tenant, coin, { issuanceStatus: outcome === 'FAILED' ? 'FAILED' : 'PROVISIONED' });
  }
};

function update(tenant: TenantContext, coin: Stablecoin, changes: Partial<Stablecoin>): Stablecoin {
  const updated: Stablecoin = { ...coin, ...changes, updatedAt: tenant.nowIso() };
  stablecoins(tenant).replace(updated);
  return updated;
}

/** A stablecoin by id, or 404. */
export function findStablecoin(tenant: TenantContext, id: string): Stablecoin {
  const found = stablecoins(tenant).get(id);
  if (!found) throw notFound('Stablecoin', id);
  return found;
}

export function listStablecoins(tenant: TenantContext, query: z.output<typeof StablecoinListQuery>): Page<Stablecoin> {
  return listPage(stablecoins(tenant), query, {
    where: definedOnly({ issuanceStatus: query.issuanceStatus, serviceOperationsStatus: query.serviceOperationsStatus, provider: query.provider }),
  });
}

/** The statuses only the operator sets (SPEC §3.7). */
const OPERATOR_STATUSES: ReadonlySet<ServiceOperationsStatus> = new Set(['ENABLING', 'ENABLED', 'DISABLED']);

/** `POST /stablecoins/{id}/enablement` (SPEC §3.7). */
export function requestEnablement(tenant: TenantContext, stablecoinId: string): Stablecoin {
  const coin = findStablecoin(tenant, stablecoinId);
  if (OPERATOR_STATUSES.has(coin.serviceOperationsStatus)) {
    throw conflict(`Stablecoin ${stablecoinId} is ${coin.serviceOperationsStatus}: only NOT_ENABLED can be asked to be enabled`, 'STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE', {
      serviceOperationsStatus: coin.serviceOperationsStatus,
    });
  }
  return coin.serviceOperationsStatus === 'PENDING_APPROVAL' ? coin : update(tenant, coin, { serviceOperationsStatus: 'PENDING_APPROVAL' });
}

/** `PUT /_sandbox/stablecoins/{id}/operations-status`: the operator's move; an ENABLED coin gets its currency. */
export function setOperationsStatus(tenant: TenantContext, stablecoinId: string, status: ServiceOperationsStatus): Stablecoin {
  const coin = findStablecoin(tenant, stablecoinId);
  return update(tenant, coin, { serviceOperationsStatus: status, currency: status === 'ENABLED' || coin.currency !== undefined ? coin.symbol : undefined });
}
