import { z } from 'zod';
import { CurrencyCode, Email, MAX_LENGTH, MinorUnits, Timestamp, cappedString } from './common.js';
import { CustomerInfoFieldName } from './customers.js';
import { defineEndpoint } from './endpoint.js';

// Platform configuration, `GET /config` and `PATCH /config` (REFERENCE §10). Schemas only.

/** A counterparty field a currency asks the platform to provide. */
export const RequiredField = z
  .object({ name: CustomerInfoFieldName, mandatory: z.boolean() })
  .meta({ id: 'RequiredCounterpartyField' });

const supportedCurrencyWritable = {
  currencyCode: CurrencyCode,
  minAmount: MinorUnits,
  maxAmount: MinorUnits,
  requiredCounterpartyFields: z.array(RequiredField),
  enabledTransactionTypes: z.array(z.enum(['INCOMING', 'OUTGOING'])),
};
const minNotAboveMax = (value: { minAmount?: unknown; maxAmount?: unknown }, ctx: z.core.$RefinementCtx) => {
  if (typeof value.minAmount === 'number' && typeof value.maxAmount === 'number' && value.minAmount > value.maxAmount) {
    ctx.addIssue({ code: 'custom', path: ['minAmount'], message: 'minAmount must not exceed maxAmount' });
  }
};

/** A currency the platform transacts in; the provider's required fields are read-only and omitted when empty. */
export const SupportedCurrency = z
  .object({
    ...supportedCurrencyWritable,
    providerRequiredCustomerFields: z.array(CustomerInfoFieldName).optional(),
    providerRequiredCounterpartyCustomerFields: z.array(CustomerInfoFieldName).optional(),
  })
  .meta({ id: 'SupportedCurrency' });
export type SupportedCurrency = z.infer<typeof SupportedCurrency>;
/** A supportedCurrencies item as PATCH writes it. */
export const SupportedCurrencyRequest = z
  .object(supportedCurrencyWritable)
  .superRefine(minNotAboveMax)
  .meta({ id: 'SupportedCurrencyRequest' });

/**
 * A standing platform fee on cross-currency transactions. Only USD sources are implemented (others: 501
 * NOT_IMPLEMENTED, so the schema accepts any code). PATCH merges by (feeType, sourceCurrency); both fees zero deactivates.
 */
export const FeeConfig = z
  .object({
    feeType: z.literal('CROSS_CURRENCY_TRANSACTION'),
    sourceCurrency: CurrencyCode,
    variableFeeBps: z.number().int().min(0).max(10_000),
    fixedFee: z.object({ amount: MinorUnits, currency: CurrencyCode }),
  })
  .meta({ id: 'FeeConfig' });
export type FeeConfig = z.infer<typeof FeeConfig>;

const https = (max: number) => cappedString(max).url({ protocol: /^https$/, message: 'must be an https URL' });

const cardTokenizationFields = {
  displayName: cappedString(255).min(1),
  logoUrl: https(512),
  email: z.object({
    fromAddress: Email, fromName: cappedString(MAX_LENGTH.name).min(1), replyToAddress: Email, subject: cappedString(MAX_LENGTH.description).min(1),
    bodyText: cappedString(2000).min(1),
  }).partial(),
  sms: z.object({ templateSid: cappedString(64).min(1), bodyText: cappedString(480).min(1) }).partial(),
};
/** Branding of the card-tokenization second factor; partial update. */
export const CardTokenization2faConfig = z.object(cardTokenizationFields).partial().meta({ id: 'CardTokenization2faConfig' });
export type CardTokenization2faConfig = z.infer<typeof CardTokenization2faConfig>;

/** Defaults of the embedded-wallet OTP configuration. */
export const EMBEDDED_WALLET_CONFIG_DEFAULTS = {
  otpLength: 6,
  alphanumeric: false,
  expirationSeconds: 300,
  sendFromEmailSenderName: 'Notifications',
} as const;

const embeddedWalletFields = {
  appName: cappedString(MAX_LENGTH.name).min(1),
  otpLength: z.number().int().min(4).max(12),
  alphanumeric: z.boolean(),
  expirationSeconds: z.number().int().min(1).max(86_400),
  sendFromEmailAddress: Email,
  sendFromEmailSenderName: cappedString(MAX_LENGTH.name).min(1),
  replyToEmailAddress: Email,
  /** A 340×124 PNG. */
  logoUrl: cappedString(MAX_LENGTH.url).url(),
};
/** Embedded-wallet OTP email settings; partial update (defaults in EMBEDDED_WALLET_CONFIG_DEFAULTS). */
export const EmbeddedWalletConfig = z.object(embeddedWalletFields).partial().meta({ id: 'EmbeddedWalletConfig' });
export type EmbeddedWalletConfig = z.infer<typeof EmbeddedWalletConfig>;

/** The platform's configuration. */
export const PlatformConfig = z
  .object({
    id: z.string(),
    umaDomain: z.string().optional(),
    proxyUmaSubdomain: z.string().optional(),
    webhookEndpoint: z.string().optional(),
    supportedCurrencies: z.array(SupportedCurrency),
    /** Read-only. */
    isRegulatedFinancialInstitution: z.boolean(),
    embeddedWalletConfig: EmbeddedWalletConfig.optional(),
    cardTokenization2faConfig: CardTokenization2faConfig.optional(),
    feeConfigs: z.array(FeeConfig),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'PlatformConfig' });
export type PlatformConfig = z.infer<typeof PlatformConfig>;

/** `PATCH /config`: setting `webhookEndpoint` sends a TEST event. */
export const PlatformConfigUpdateRequest = z
  .object({
    umaDomain: cappedString(MAX_LENGTH.id).regex(/^[^\s/@$]+$/, { message: 'must be a host name, such as mycompany.com' }).optional(),
    webhookEndpoint: cappedString(MAX_LENGTH.url).url().optional(),
    supportedCurrencies: z.array(SupportedCurrencyRequest).optional(),
    embeddedWalletConfig: EmbeddedWalletConfig.optional(),
    cardTokenization2faConfig: CardTokenization2faConfig.optional(),
    feeConfigs: z.array(FeeConfig).optional(),
  })
  .meta({ id: 'PlatformConfigUpdateRequest' });
export type PlatformConfigUpdateRequest = z.input<typeof PlatformConfigUpdateRequest>;

const tag = 'Configuration';
export const configEndpoints = {
  getConfig: defineEndpoint({
    operationId: 'getConfig', method: 'GET', path: '/config', tag,
    summary: "The platform's configuration, including each currency's provider-required customer fields",
    response: { status: 200, description: 'The configuration', schema: PlatformConfig },
  }),
  updateConfig: defineEndpoint({
    operationId: 'updateConfig', method: 'PATCH', path: '/config', tag, body: PlatformConfigUpdateRequest,
    summary: 'Change the configuration: fees, currency limits, UMA domain, webhook endpoint, wallet and card branding',
    description:
      '`feeConfigs` merge by (feeType, sourceCurrency) and a fee with both parts zero is removed; only USD sources are ' +
      'implemented (others: 501 NOT_IMPLEMENTED). `supportedCurrencies` items replace the terms of their currency. The ' +
      'nested configs are partial updates.',
    response: { status: 200, description: 'The configuration now in force', schema: PlatformConfig },
    errors: [501],
  }),
} as const;
