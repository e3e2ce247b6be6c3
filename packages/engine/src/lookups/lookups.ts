/**
 * Lookups: the bank directory, VASPs, UMA providers, the receiver behind an external account, and crypto withdrawal
 * fee estimates. Reads of the tables in ./directory.ts, except the external-account lookup, which stores a lookup a
 * quote can name (in the store of the UMA receiver lookups, sharing their `Lookup:` ids).
 */
import {
  checkAccountInfo, type CryptoWithdrawalFeeEstimate, type CryptoWithdrawalFeeRequest, type Discovery,
  type ExternalAccountReceiverLookup, type FieldError, type Page, type UmaProvider, type UmaProviderQuery, type Vasp,
} from '@railyard/contract';
import type { z } from 'zod';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import { decimalRatio, marketCurrency, MARKET } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField } from '../core/errors.js';
import { pageOfList } from '../core/pagination.js';
import { findExternalAccount } from '../external-accounts/external-accounts.js';
import { findLookup, lookupPartiesOf, receiverCurrencyTerms, storeLookup } from '../uma/uma.js';
import {
  BANK_DIRECTORY, NETWORK_ASSETS, UMA_PROVIDERS, VASPS, WITHDRAWAL_APPLICATION_FEE_BPS, WITHDRAWAL_NETWORKS, type UmaProviderRow,
} from './directory.js';

/** `GET /discoveries`: the banks of the country and/or currency asked (every bank when neither is). */
export function discoverBanks(query: { country?: string | undefined; currency?: string | undefined }): { data: Discovery[] } {
  const country = query.country?.toUpperCase();
  return {
    data: BANK_DIRECTORY.filter((bank) => (country === undefined || bank.country === country) && (query.currency === undefined || bank.currency === query.currency)),
  };
}

/** `GET /vasps`: a page of the VASP directory, in its order. */
export function listVasps(page: { limit: number; cursor?: string | undefined }): Omit<Page<Vasp>, 'totalCount'> {
  const { totalCount: _total, ...rest } = pageOfList(VASPS, page);
  return rest;
}

const providerView = (row: UmaProviderRow): UmaProvider => ({
  name: row.name,
  supportedRegions: [...row.supportedRegions],
  domain: row.domain,
  logoUrl: `https://${row.domain}/logo.png`,
  supportedCurrencies: row.supportedCurrencies.map((code) => marketCurrency(code)!),
  lei: row.lei,
  allowListStatus: row.allowListStatus,
});

/**
 * `GET /uma-providers`: those serving the country and the currency asked; those not on the allow list too unless
 * `hasBlockedProviders` is false. `desc` (the default) lists the last to join first.
 */
export function listUmaProviders(query: z.output<typeof UmaProviderQuery>): Page<UmaProvider> {
  const country = query.countryCode?.toUpperCase();
  const matching = UMA_PROVIDERS.filter((row) => (country === undefined || row.supportedRegions.includes(country))
    && (query.currencyCode === undefined || row.supportedCurrencies.includes(query.currencyCode))
    && (query.hasBlockedProviders !== false || row.allowListStatus));
  const ordered = query.sortOrder === 'asc' ? matching : [...matching].reverse();
  return pageOfList(ordered.map(providerView), query);
}

/**
 * `GET /receiver/external-account/{accountId}`: what the account receives (its currency), and a lookup a quote to it
 * names. The sender fields follow the UMA receiver lookup's rules; 404 for an account the platform does not have.
 */
export function lookupExternalAccount(
  tenant: TenantContext, accountId: string, query: { customerId?: string | undefined; senderUmaAddress?: string | undefined },
): ExternalAccountReceiverLookup {
  const parties = lookupPartiesOf(tenant, query);
  const account = findExternalAccount(tenant, accountId);
  // A currency the sandbox market does not pay out in cannot be quoted: the account receives nothing the lookup can offer.
  const currencies = marketCurrency(account.currency) ? [account.currency] : [];
  return { lookupId: storeLookup(tenant, { accountId: account.id }, parties), accountId: account.id, supportedCurrencies: currencies.map(receiverCurrencyTerms) };
}

/**
 * The check of a `lookupId` a quote to an external account carries: 404 LOOKUP_REQUEST_NOT_FOUND when unknown, 400 when
 * it was made for another receiver.
 */
export function assertLookupFor(tenant: TenantContext, lookupId: string, accountId: string): void {
  const lookup = findLookup(tenant, lookupId);
  if (lookup.accountId !== accountId) throw invalidField('lookupId', `This lookup is for ${lookup.accountId ?? lookup.receiverUmaAddress}, not ${accountId}`);
}

/** Whether `address` is a destination on `network`: the address checks of the network's wallet accounts. */
function addressErrors(tenant: TenantContext, network: string, address: string): FieldError[] {
  const { walletAccountType } = WITHDRAWAL_NETWORKS[network]!;
  const strict = { strict: tenant.platform.strict };
  // A Lightning destination is an invoice or a lightning address: either form passes.
  const candidates = walletAccountType === 'LIGHTNING'
    ? [checkAccountInfo(walletAccountType, { invoice: address }, strict), checkAccountInfo(walletAccountType, { lightningAddress: address }, strict)]
    : [checkAccountInfo(walletAccountType, { address }, strict)];
  if (candidates.some((errors) => errors.length === 0)) return [];
  const { message, constraint } = candidates[0]![0]!;
  return [{ field: 'destinationAddress', message: `is not a ${network} address: ${message ?? 'malformed'}`, ...(constraint ? { constraint } : {}) }];
}

/**
 * The domain checks of a fee estimate, on the raw body (every invalid field at once, with the schema's): a network the
 * sandbox withdraws on, a currency that network carries, an address of that network.
 */
export function withdrawalChecks(tenant: TenantContext, body: unknown): FieldError[] {
  const { cryptoNetwork, currency, destinationAddress } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof cryptoNetwork !== 'string') return [];
  const network = WITHDRAWAL_NETWORKS[cryptoNetwork];
  if (!network) {
    return [{ field: 'cryptoNetwork', message: `withdrawals leave on ${Object.keys(WITHDRAWAL_NETWORKS).join(', ')}`, constraint: { enum: Object.keys(WITHDRAWAL_NETWORKS) } }];
  }
  const errors: FieldError[] = [];
  if (typeof currency === 'string' && !network.currencies.includes(currency)) {
    errors.push({ field: 'currency', message: `${cryptoNetwork} carries ${network.currencies.join(', ')}`, constraint: { enum: [...network.currencies] } });
  }
  if (typeof destinationAddress === 'string') errors.push(...addressErrors(tenant, cryptoNetwork, destinationAddress));
  return errors;
}

/** `amount × numerator / denominator`, rounded up: a fee is never rounded in the payer's favour. */
const ceilDiv = (numerator: bigint, denominator: bigint): number => Number((numerator + denominator - 1n) / denominator);

/** A network fee in minor units of the withdrawal currency, at the sandbox prices, rounded up. */
function networkFeeIn(currency: string, networkFee: number, asset: keyof typeof NETWORK_ASSETS): number {
  const { decimals, usdPrice } = NETWORK_ASSETS[asset]!;
  const price = decimalRatio(usdPrice);
  const perUsd = decimalRatio(MARKET[currency]!.perUsd);
  return ceilDiv(
    BigInt(networkFee) * price.numerator * perUsd.numerator * 10n ** BigInt(MARKET[currency]!.decimals),
    10n ** BigInt(decimals) * price.denominator * perUsd.denominator,
  );
}

/**
 * `POST /crypto/estimate-withdrawal-fee`: the network fee (in its asset), the application fee
 * ({@link WITHDRAWAL_APPLICATION_FEE_BPS} of the amount), their total in the withdrawal currency, and what arrives once
 * they are taken from the amount. 404 for an unknown internal account; 400 AMOUNT_OUT_OF_RANGE when the fees take it all.
 */
export function estimateWithdrawalFee(tenant: TenantContext, request: z.output<typeof CryptoWithdrawalFeeRequest>): CryptoWithdrawalFeeEstimate {
  findInternalAccount(tenant, request.internalAccountId);
  const network = WITHDRAWAL_NETWORKS[request.cryptoNetwork]!;
  const applicationFee = ceilDiv(BigInt(request.amount) * BigInt(WITHDRAWAL_APPLICATION_FEE_BPS), 10_000n);
  const totalFee = networkFeeIn(request.currency, network.networkFee, network.feeAsset) + applicationFee;
  if (request.amount <= totalFee) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `amount ${request.amount} does not cover the fees of ${totalFee}: withdraw more than that`, {
      errors: [{ field: 'amount', message: `must be more than the fees, ${totalFee} ${request.currency} minor units` }],
      minimumAmount: totalFee + 1,
    });
  }
  return { networkFee: network.networkFee, networkFeeAsset: network.feeAsset, applicationFee, totalFee, netAmount: request.amount - totalFee };
}
