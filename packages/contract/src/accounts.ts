import { z } from 'zod';
import { CurrencyAmount, CurrencyCode, IdParam, MAX_LENGTH, Timestamp, cappedString, idPattern, resourceId } from './common.js';
import { CustomerId } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { accountDetails, FIAT_ACCOUNT_TYPES, type FiatAccountType } from './external-accounts.js';
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

/** An id of any of the given resource types, e.g. `anyResourceId('InternalAccount', 'ExternalAccount')`. */
export const anyResourceId = (...types: [string, ...string[]]) =>
  cappedString(MAX_LENGTH.id).regex(new RegExp(`^(?:${types.map((type) => idPattern(type).source.slice(1, -1)).join('|')})$`), {
    message: `must be an id of the form ${types.join(' or ')}:<uuid>`,
  });

// ---------------------------------------------------------------------------------------------------------------------
// Payment instructions (REFERENCE §2.2): how to pay into an account or wallet.

const reference = z.string().min(1).max(255);
/** Who holds the receiving bank account: the name a payer's bank asks for (required on SWIFT). */
const accountHolderName = z.string().min(1);
/** What a payer adds to a fiat account's details; most types quote the `reference` and name the account holder. */
const INSTRUCTION_EXTRAS = {
  INR_ACCOUNT: { accountHolderName: accountHolderName.optional() },
  USD_ACCOUNT: { reference, accountHolderName: accountHolderName.optional(), bankAddress: z.string().min(1).max(255).optional() },
  SWIFT_ACCOUNT: { accountHolderName, bankAddress: z.string().max(1024).optional(), reference: reference.optional() },
} as const;
const DEFAULT_EXTRAS = { reference, accountHolderName: accountHolderName.optional() };
/** BRL and COP instructions are a PIX payload and a payment link instead of account details. */
type DetailInstructionType = Exclude<FiatAccountType, 'BRL_ACCOUNT' | 'COP_ACCOUNT'>;
type ExtrasOf<K> = K extends keyof typeof INSTRUCTION_EXTRAS ? (typeof INSTRUCTION_EXTRAS)[K] : typeof DEFAULT_EXTRAS;

/** Fiat instructions: the external-account response details (with `paymentRails`, without beneficiary) plus the per-type extras. */
const fiatInstructions = <K extends DetailInstructionType>(accountType: K) =>
  accountDetails(accountType, true).extend(
    ((INSTRUCTION_EXTRAS as Record<string, z.core.$ZodLooseShape>)[accountType] ?? DEFAULT_EXTRAS) as ExtrasOf<K>,
  );
type FiatInstructionsMap = { [K in DetailInstructionType]: ReturnType<typeof fiatInstructions<K>> };
const FIAT_INSTRUCTIONS = Object.fromEntries(
  FIAT_ACCOUNT_TYPES.filter((type) => type !== 'BRL_ACCOUNT' && type !== 'COP_ACCOUNT').map((type) => [type, fiatInstructions(type)]),
) as unknown as FiatInstructionsMap;

/** Wallet instructions: an on-chain address and, where the chain carries several, the asset. */
const walletInstructions = <T extends string, A extends readonly [string, ...string[]]>(accountType: T, assets: A) =>
  z.object({ accountType: z.literal(accountType), address: z.string().min(1), assetType: z.enum(assets).optional() });

/** `accountOrWalletInfo` of a payment instruction, by `accountType`. */
export const AccountOrWalletInfo = z
  .discriminatedUnion('accountType', [
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
    ...(Object.values(FIAT_INSTRUCTIONS) as FiatInstructionsMap[DetailInstructionType][]),
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

/** `PATCH /internal-accounts/{id}` (signed retry, embedded wallets): wallet privacy. */
export const InternalAccountUpdateRequest = z
  .object({ privateEnabled: z.boolean() })
  .meta({ id: 'InternalAccountUpdateRequest' });
export type InternalAccountUpdateRequest = z.input<typeof InternalAccountUpdateRequest>;

/** Largest single sandbox funding. */
export const SANDBOX_FUND_MAX = 100_000_000_000;
/** `POST /sandbox/internal-accounts/{accountId}/fund`: credits at once and emits INCOMING_PAYMENT. */
export const SandboxFundRequest = z
  .object({ amount: z.number().int().min(1).max(SANDBOX_FUND_MAX) })
  .meta({ id: 'SandboxFundRequest' });
export type SandboxFundRequest = z.input<typeof SandboxFundRequest>;

/** `GET /customers/internal-accounts` query. */
export const CustomerInternalAccountListQuery = PageQuery.extend({
  customerId: IdParam.optional(),
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
  fundSandboxInternalAccount: defineEndpoint({
    operationId: 'fundSandboxInternalAccount', method: 'POST', path: '/sandbox/internal-accounts/{accountId}/fund', tag: 'Sandbox',
    summary: 'Credit an internal account from the outside world, at once (sandbox)',
    params: z.object({ accountId: IdParam }), body: SandboxFundRequest,
    response: { status: 200, description: 'The funded account', schema: InternalAccount },
  }),
  listPlatformInternalAccounts: defineEndpoint({
    operationId: 'listPlatformInternalAccounts', method: 'GET', path: '/platform/internal-accounts', tag,
    summary: "List the platform's own internal accounts", query: PlatformInternalAccountListQuery,
    response: { status: 200, description: 'Every matching platform internal account', schema: listOf(InternalAccount) },
  }),
} as const;
