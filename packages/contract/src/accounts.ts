import { z } from 'zod';
import { CurrencyAmount, CurrencyCode, Timestamp, resourceId } from './common.js';
import { CustomerId } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, listOf, pageOf } from './pagination.js';

// ---------------------------------------------------------------------------------------------------------------------
// Enumerations (REFERENCE §2.2)

/** Kind of an internal account (held at the service). */
export const InternalAccountType = z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).meta({ id: 'InternalAccountType' });
export type InternalAccountType = z.infer<typeof InternalAccountType>;

/** PENDING provisioning, ACTIVE, CLOSED, FROZEN (compliance hold), FAILED (provisioning failed). */
export const InternalAccountStatus = z
  .enum(['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'])
  .meta({ id: 'InternalAccountStatus' });
export type InternalAccountStatus = z.infer<typeof InternalAccountStatus>;

export const InternalAccountId = resourceId('InternalAccount').meta({ id: 'InternalAccountId' });

// ---------------------------------------------------------------------------------------------------------------------
// Payment instructions (REFERENCE §2.2): how to pay into an account or wallet.

/** Fiat account types whose instructions carry bank details plus a `reference`. */
const FIAT_INSTRUCTION_TYPES = [
  'AED_ACCOUNT', 'BDT_ACCOUNT', 'BWP_ACCOUNT', 'CAD_ACCOUNT', 'CNY_ACCOUNT', 'DKK_ACCOUNT', 'EGP_ACCOUNT', 'EUR_ACCOUNT',
  'GBP_ACCOUNT', 'GHS_ACCOUNT', 'GTQ_ACCOUNT', 'HKD_ACCOUNT', 'HTG_ACCOUNT', 'IDR_ACCOUNT', 'INR_ACCOUNT', 'JMD_ACCOUNT',
  'KES_ACCOUNT', 'MWK_ACCOUNT', 'MXN_ACCOUNT', 'MYR_ACCOUNT', 'NGN_ACCOUNT', 'PHP_ACCOUNT', 'PKR_ACCOUNT', 'RWF_ACCOUNT',
  'SGD_ACCOUNT', 'SLV_ACCOUNT', 'THB_ACCOUNT', 'TZS_ACCOUNT', 'UGX_ACCOUNT', 'USD_ACCOUNT', 'VND_ACCOUNT', 'XAF_ACCOUNT',
  'XOF_ACCOUNT', 'ZAR_ACCOUNT', 'ZMW_ACCOUNT', 'SWIFT_ACCOUNT', 'ILS_ACCOUNT',
] as const;

/** Fiat bank instructions: the account's details, its rails and the `reference` the payer must quote. */
const FiatInstructions = z
  .object({
    accountType: z.enum(FIAT_INSTRUCTION_TYPES),
    paymentRails: z.array(z.string()),
    reference: z.string().optional(),
  })
  .catchall(z.unknown());

/** Wallet instructions: an on-chain address and, where the chain carries several, the asset. */
const walletInstructions = <T extends string, A extends readonly [string, ...string[]]>(accountType: T, assets: A) =>
  z.object({ accountType: z.literal(accountType), address: z.string().min(1), assetType: z.enum(assets).optional() });

/** `accountOrWalletInfo` of a payment instruction, by `accountType`. */
export const AccountOrWalletInfo = z
  .discriminatedUnion('accountType', [
    FiatInstructions,
    z.object({ accountType: z.literal('BRL_ACCOUNT'), qrCode: z.string() }),
    z.object({ accountType: z.literal('COP_ACCOUNT'), paymentUrl: z.string() }),
    z.object({ accountType: z.literal('ARS_ACCOUNT'), accountNumber: z.string().regex(/^\d{22}$/) }),
    walletInstructions('BASE_WALLET', ['USDC']),
    walletInstructions('ETHEREUM_WALLET', ['USDC', 'USDT']),
    walletInstructions('POLYGON_WALLET', ['USDC']),
    walletInstructions('SOLANA_WALLET', ['USDC', 'USDT']),
    walletInstructions('TRON_WALLET', ['USDT']),
    walletInstructions('PLASMA_WALLET', ['USDT']),
    z.object({ accountType: z.literal('SPARK_WALLET'), address: z.string().min(1), assetType: z.string().min(1), invoice: z.string().optional() }),
    z.object({ accountType: z.literal('LIGHTNING'), invoice: z.string().min(1) }),
    z.object({ accountType: z.literal('BITCOIN_L1'), address: z.string().min(1), network: z.literal('BITCOIN') }),
    z.object({ accountType: z.literal('EMBEDDED_WALLET'), payloadToSign: z.string() }),
  ])
  .meta({ id: 'AccountOrWalletInfo' });
export type AccountOrWalletInfo = z.infer<typeof AccountOrWalletInfo>;

/** How to pay into an account: the account or wallet details, with optional notes. */
export const PaymentInstructions = z
  .object({
    accountOrWalletInfo: AccountOrWalletInfo,
    instructionsNotes: z.string().optional(),
    isPlatformAccount: z.boolean().optional(),
  })
  .meta({ id: 'PaymentInstructions' });
export type PaymentInstructions = z.infer<typeof PaymentInstructions>;

// ---------------------------------------------------------------------------------------------------------------------
// Resource (REFERENCE §2.2)

/** An account held at the service: a customer's (with `customerId`) or the platform's own (without). */
export const InternalAccount = z
  .object({
    id: InternalAccountId,
    customerId: CustomerId.optional(),
    type: InternalAccountType,
    status: InternalAccountStatus,
    /** Spendable balance. */
    balance: CurrencyAmount,
    /** Balance including pending and held funds. */
    totalBalance: CurrencyAmount,
    fundingPaymentInstructions: z.array(PaymentInstructions),
    /** Embedded wallets only. */
    privateEnabled: z.boolean().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'InternalAccount' });
export type InternalAccount = z.infer<typeof InternalAccount>;

/** `GET /customers/internal-accounts` query (REFERENCE §1). */
export const CustomerInternalAccountListQuery = PageQuery.extend({
  customerId: z.string().optional(),
  currency: CurrencyCode.optional(),
  type: InternalAccountType.optional(),
});
export type CustomerInternalAccountListQuery = z.input<typeof CustomerInternalAccountListQuery>;

/** `GET /platform/internal-accounts` query: not paged. */
export const PlatformInternalAccountListQuery = z.object({
  currency: CurrencyCode.optional(),
  type: InternalAccountType.optional(),
});
export type PlatformInternalAccountListQuery = z.input<typeof PlatformInternalAccountListQuery>;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints (SPEC §4.4, REFERENCE §1, §12)

const tag = 'Internal accounts';
export const internalAccountEndpoints = {
  listCustomerInternalAccounts: defineEndpoint({
    operationId: 'listCustomerInternalAccounts', method: 'GET', path: '/customers/internal-accounts', tag,
    summary: "List customers' internal accounts", query: CustomerInternalAccountListQuery,
    response: { status: 200, description: 'A page of internal accounts', schema: pageOf(InternalAccount) },
  }),
  listPlatformInternalAccounts: defineEndpoint({
    operationId: 'listPlatformInternalAccounts', method: 'GET', path: '/platform/internal-accounts', tag,
    summary: "List the platform's own internal accounts", query: PlatformInternalAccountListQuery,
    response: { status: 200, description: 'Every matching platform internal account', schema: listOf(InternalAccount) },
  }),
} as const;
