import { z } from 'zod';
import { CountryCode, Currency, CurrencyCode, IdParam, MinorUnits, cappedString } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, QueryBoolean, SortOrder, pageOf } from './pagination.js';
import { CryptoNetwork, LookupId } from './quotes.js';
import { UmaReceiverCurrency, UmaReceiverLookupQuery } from './uma.js';
import { RequiredField } from './config.js';
import { LIGHTNING_INVOICE_MAX_LENGTH } from './account-checks.js';

// Lookups: what a platform reads before building accounts and payments. The bank directory (discoveries), the VASPs
// wallet accounts name, the UMA providers, the receiver behind an external account, and the fee of a crypto withdrawal.

// ---------------------------------------------------------------------------------------------------------------------
// Discoveries

/** A bank of the directory: put its `bankName` into an external account's `accountInfo.bankName`. */
export const Discovery = z
  .object({
    /** The name external accounts take as `bankName`. */
    bankName: z.string(),
    /** The name to show people. */
    displayName: z.string(),
    country: z.string(),
    currency: z.string(),
  })
  .meta({ id: 'Discovery' });
export type Discovery = z.infer<typeof Discovery>;

/** `GET /discoveries`: banks of a country and/or a currency; neither lists every bank. */
export const DiscoveryQuery = z.object({ country: CountryCode.optional(), currency: CurrencyCode.optional() });
export type DiscoveryQuery = z.input<typeof DiscoveryQuery>;

/** The answer of `GET /discoveries`: not paged. */
export const DiscoveryList = z.object({ data: z.array(Discovery).optional() }).meta({ id: 'DiscoveryList' });

// ---------------------------------------------------------------------------------------------------------------------
// VASPs and UMA providers

/** A virtual-asset service provider: its `vaspName` is what a custodial wallet account names as `vaspName`. */
export const Vasp = z.object({ vaspName: z.string(), url: z.string().optional() }).meta({ id: 'Vasp' });
export type Vasp = z.infer<typeof Vasp>;

/** A page of VASPs: the envelope of the other lists without `totalCount`. */
export const VaspPage = pageOf(Vasp).omit({ totalCount: true }).meta({ id: 'VaspList' });

/** A provider of UMA addresses (every field optional in the reference; the sandbox fills them all). */
export const UmaProvider = z
  .object({
    name: z.string().optional(),
    /** Countries (ISO 3166-1 alpha-2) whose residents it serves. */
    supportedRegions: z.array(z.string()).optional(),
    /** The domain of its UMA addresses. */
    domain: z.string().optional(),
    logoUrl: z.string().optional(),
    supportedCurrencies: z.array(Currency).optional(),
    /** Legal Entity Identifier (ISO 17442). */
    lei: z.string().optional(),
    /** Whether the provider is on the platform's allow list (its users can be paid); false for the blocked ones. */
    allowListStatus: z.boolean().optional(),
  })
  .meta({ id: 'UmaProvider' });
export type UmaProvider = z.infer<typeof UmaProvider>;

/**
 * `GET /uma-providers`: by country and currency served; providers not on the platform's allow list (blocked) are
 * included unless `hasBlockedProviders=false`.
 */
export const UmaProviderQuery = PageQuery.extend({
  countryCode: CountryCode.optional(),
  currencyCode: CurrencyCode.optional(),
  hasBlockedProviders: QueryBoolean.optional(),
  sortOrder: SortOrder.optional(),
});
export type UmaProviderQuery = z.input<typeof UmaProviderQuery>;

/** A page of UMA providers (every envelope field optional in the reference; the sandbox sends them all). */
export const UmaProviderPage = pageOf(UmaProvider).meta({ id: 'UmaProviderList' });

// ---------------------------------------------------------------------------------------------------------------------
// External-account receiver lookup

/** `GET /receiver/external-account/{accountId}`: what the account receives; quote a payment to it with `lookupId`. */
export const ExternalAccountReceiverLookup = z
  .object({
    lookupId: LookupId,
    accountId: z.string(),
    supportedCurrencies: z.array(UmaReceiverCurrency),
    requiredPayerDataFields: z.array(RequiredField).optional(),
  })
  .meta({ id: 'ExternalAccountReceiverLookup' });
export type ExternalAccountReceiverLookup = z.infer<typeof ExternalAccountReceiverLookup>;

// ---------------------------------------------------------------------------------------------------------------------
// Crypto withdrawal fee estimate

/** `POST /crypto/estimate-withdrawal-fee`: a withdrawal from an internal account to an on-chain address. */
export const CryptoWithdrawalFeeRequest = z
  .object({
    internalAccountId: IdParam.min(1),
    currency: CurrencyCode,
    cryptoNetwork: CryptoNetwork,
    /** What leaves the account, in minor units of `currency`: the fees come out of it, the rest arrives. */
    amount: MinorUnits,
    /** An address of the network, or for Lightning an invoice or a lightning address (the longest of them). */
    destinationAddress: cappedString(LIGHTNING_INVOICE_MAX_LENGTH).min(1),
  })
  .meta({ id: 'CryptoWithdrawalFeeRequest' });
export type CryptoWithdrawalFeeRequest = z.input<typeof CryptoWithdrawalFeeRequest>;

/**
 * The fee of a withdrawal. `networkFee` is in units of `networkFeeAsset` (it cannot be added to the rest);
 * `applicationFee`, `totalFee` and `netAmount` are minor units of the withdrawal currency, and `totalFee` (the network
 * fee converted, plus the application fee) is charged on top of `netAmount`.
 */
export const CryptoWithdrawalFeeEstimate = z
  .object({
    networkFee: MinorUnits,
    networkFeeAsset: z.string(),
    applicationFee: MinorUnits,
    totalFee: MinorUnits,
    netAmount: MinorUnits,
  })
  .meta({ id: 'CryptoWithdrawalFeeEstimate' });
export type CryptoWithdrawalFeeEstimate = z.infer<typeof CryptoWithdrawalFeeEstimate>;

export const lookupEndpoints = {
  getDiscoveries: defineEndpoint({
    operationId: 'getDiscoveries', method: 'GET', path: '/discoveries', tag: 'Discoveries', query: DiscoveryQuery,
    summary: 'List the banks of a country and/or currency, to name in external accounts',
    description: 'Not paged. Without `country` and `currency` every bank of the directory is listed.',
    response: { status: 200, description: 'The matching banks', schema: DiscoveryList },
  }),
  listVasps: defineEndpoint({
    operationId: 'listVasps', method: 'GET', path: '/vasps', tag: 'VASPs', query: PageQuery,
    summary: 'List the VASPs a custodial wallet account can name as vaspName',
    response: { status: 200, description: 'A page of VASPs', schema: VaspPage },
  }),
  getAvailableUmaProviders: defineEndpoint({
    operationId: 'getAvailableUmaProviders', method: 'GET', path: '/uma-providers', tag: 'Available UMA Providers', query: UmaProviderQuery,
    summary: 'List the UMA providers whose users can be paid',
    description:
      'Filtered by a country and a currency they serve; providers not on the allow list (`allowListStatus: false`) are ' +
      'listed unless `hasBlockedProviders=false`.',
    response: { status: 200, description: 'A page of UMA providers', schema: UmaProviderPage },
  }),
  lookupExternalAccount: defineEndpoint({
    operationId: 'lookupExternalAccount', method: 'GET', path: '/receiver/external-account/{accountId}', tag: 'Quotes',
    params: z.object({ accountId: IdParam }), query: UmaReceiverLookupQuery,
    summary: 'Look up the receiver behind an external account before quoting a payment to it',
    description:
      'Quote the payment to the account with the returned `lookupId`. Needs `customerId` or `senderUmaAddress` ' +
      '(400 INVALID_INPUT naming both). Unknown account: 404 REFERENCE_NOT_FOUND.',
    response: { status: 200, description: 'What the account receives, and the lookupId to quote with', schema: ExternalAccountReceiverLookup },
    errors: [404],
  }),
  estimateCryptoWithdrawalFee: defineEndpoint({
    operationId: 'estimateCryptoWithdrawalFee', method: 'POST', path: '/crypto/estimate-withdrawal-fee', tag: 'Quotes', body: CryptoWithdrawalFeeRequest,
    summary: 'Estimate the fees of withdrawing crypto from an internal account to an on-chain address',
    description:
      'A network or currency the sandbox does not withdraw on, or an address not of that network: 400 INVALID_INPUT naming ' +
      'the field. An amount the fees would swallow: 400 AMOUNT_OUT_OF_RANGE. Unknown internal account: 404.',
    response: { status: 200, description: 'The fees and the net amount', schema: CryptoWithdrawalFeeEstimate },
    errors: [404],
  }),
} as const;
