/**
 * Platform configuration, `GET /config` and `PATCH /config` (REFERENCE §10). What a platform changes lives in its
 * tenant store (so reset, snapshot and restore cover it); everything else comes from the sandbox's defaults.
 */
import type { FeeConfig, PlatformConfig, PlatformConfigUpdateRequest, SandboxLimits, SandboxLimitsInForce as LimitsInForce, SupportedCurrency } from '@railyard/contract';
import { CardTokenization2faConfig, EmbeddedWalletConfig, FeeConfig as FeeConfigSchema, SupportedCurrencyRequest } from '@railyard/contract';
import { z } from 'zod';
import { CURRENCIES } from '../config/currencies.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidInput } from '../core/errors.js';
import { deepFreeze } from '../core/freeze.js';

/** The platform's own settings (snapshot-safe); one record, id {@link SETTINGS_ID}. */
export const PlatformSettingsRecord = z.object({
  id: z.string(),
  umaDomain: z.string().optional(),
  webhookEndpoint: z.string().optional(),
  supportedCurrencies: z.array(SupportedCurrencyRequest),
  feeConfigs: z.array(FeeConfigSchema),
  embeddedWalletConfig: EmbeddedWalletConfig.optional(),
  cardTokenization2faConfig: CardTokenization2faConfig.optional(),
  /** Railyard: daily volume per payer and sending currency (set on the control plane, `PUT /_sandbox/limits`). */
  dailyVolumeLimits: z.record(z.string(), z.number()).optional(),
  /** Railyard: live cards the platform and each cardholder may hold (`PUT /_sandbox/limits {liveCards}`); null: no limit. */
  liveCardLimits: z.object({ perPlatform: z.number().int().min(0).nullable().optional(), perCardholder: z.number().int().min(0).nullable().optional() }).optional(),
  /** Railyard: how many more signed retries answer 200 PROCESSING before settling (`PUT /_sandbox/wallet-processing`). */
  walletProcessingRetries: z.number().int().min(0).optional(),
  /** Railyard: the stablecoin provider is down, so mints and burns answer 503 (`PUT /_sandbox/stablecoin-provider`). */
  stablecoinProviderDown: z.boolean().optional(),
  updatedAt: z.string().optional(),
});
export type PlatformSettingsRecord = z.infer<typeof PlatformSettingsRecord>;

export const PLATFORM_SETTINGS = 'platformSettings';
const SETTINGS_ID = 'settings';
const store = (tenant: TenantContext) => tenant.store.collection<PlatformSettingsRecord>(PLATFORM_SETTINGS);

/** The sandbox's default terms for a currency: any amount from one minor unit up to the currency's single-payment maximum. */
const defaultCurrency = (code: string): z.infer<typeof SupportedCurrencyRequest> => ({
  currencyCode: code, minAmount: 1, maxAmount: CURRENCIES[code]!.maxAmount, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
});

/**
 * The settings of a platform that changed none, by the currencies it offers: built once, frozen and shared (several
 * operations read them on every request).
 */
const defaultSettings = new WeakMap<readonly string[], PlatformSettingsRecord>();

/** The platform's settings with defaults filled in. */
export function settingsOf(tenant: TenantContext): PlatformSettingsRecord {
  const stored = store(tenant).get(SETTINGS_ID);
  if (stored !== undefined) return stored;
  const offered = tenant.platform.supportedCurrencies;
  let defaults = defaultSettings.get(offered);
  if (defaults === undefined) {
    defaults = deepFreeze({ id: SETTINGS_ID, supportedCurrencies: offered.map(defaultCurrency), feeConfigs: [] });
    defaultSettings.set(offered, defaults);
  }
  return defaults;
}

/** The UMA domain of the platform's customers. */
export const umaDomainOf = (tenant: TenantContext): string => settingsOf(tenant).umaDomain ?? tenant.platform.umaDomain;

/** The platform's terms for a currency it supports, or undefined for one it does not. */
export const currencyTermsOf = (tenant: TenantContext, code: string) => settingsOf(tenant).supportedCurrencies.find((c) => c.currencyCode === code);

/** The standing fee for cross-currency payments from `sourceCurrency`, when one is active. */
export const standingFeeOf = (tenant: TenantContext, sourceCurrency: string): FeeConfig | undefined =>
  settingsOf(tenant).feeConfigs.find((f) => f.feeType === 'CROSS_CURRENCY_TRANSACTION' && f.sourceCurrency === sourceCurrency);

/** `GET /config`: the platform's configuration as the API shows it. */
export function platformConfig(tenant: TenantContext): PlatformConfig {
  const settings = settingsOf(tenant);
  const { platform } = tenant;
  const umaDomain = umaDomainOf(tenant);
  return {
    id: platform.id,
    umaDomain,
    proxyUmaSubdomain: platform.umaDomain,
    ...(settings.webhookEndpoint === undefined ? {} : { webhookEndpoint: settings.webhookEndpoint }),
    supportedCurrencies: settings.supportedCurrencies.map((terms): SupportedCurrency => {
      const required = CURRENCIES[terms.currencyCode]!.providerRequiredCustomerFields;
      // Omitted when empty (REFERENCE §10).
      return { ...terms, ...(required.length > 0 ? { providerRequiredCustomerFields: [...required] } : {}) };
    }),
    isRegulatedFinancialInstitution: platform.regulated,
    ...(settings.embeddedWalletConfig === undefined ? {} : { embeddedWalletConfig: settings.embeddedWalletConfig }),
    ...(settings.cardTokenization2faConfig === undefined ? {} : { cardTokenization2faConfig: settings.cardTokenization2faConfig }),
    feeConfigs: settings.feeConfigs,
    createdAt: platform.createdAt,
    updatedAt: settings.updatedAt ?? platform.createdAt,
  };
}

/**
 * `PATCH /config`. Fee configs merge by (feeType, sourceCurrency), and one with both fees zero is removed; currencies
 * merge by code; the two nested configs are partial updates. Non-USD fees are 501 NOT_IMPLEMENTED. Nothing changes
 * unless everything is valid.
 */
export function updatePlatformConfig(tenant: TenantContext, request: z.output<typeof PlatformConfigUpdateRequest>): PlatformConfig {
  const current = settingsOf(tenant);
  const endpointRefusal = request.webhookEndpoint === undefined ? undefined : tenant.webhookEndpointRefusal(request.webhookEndpoint);
  const errors = [
    ...(request.supportedCurrencies ?? []).flatMap((c, i) => (CURRENCIES[c.currencyCode] && tenant.platform.supportedCurrencies.includes(c.currencyCode)
      ? [] : [{ field: `supportedCurrencies.${i}.currencyCode`, message: `the sandbox offers ${tenant.platform.supportedCurrencies.join(', ')}` }])),
    ...(request.feeConfigs ?? []).flatMap((f, i) => (f.fixedFee.currency === f.sourceCurrency
      ? [] : [{ field: `feeConfigs.${i}.fixedFee.currency`, message: `must be the sourceCurrency ${f.sourceCurrency}` }])),
    ...(endpointRefusal === undefined ? [] : [{ field: 'webhookEndpoint', message: endpointRefusal }]),
  ];
  if (errors.length > 0) throw invalidInput(errors);
  const foreign = (request.feeConfigs ?? []).find((f) => f.sourceCurrency !== 'USD');
  if (foreign) throw new ApiError(501, 'NOT_IMPLEMENTED', `Platform fees are implemented for USD sources only, not ${foreign.sourceCurrency}`);

  const feeConfigs = [...current.feeConfigs];
  for (const fee of request.feeConfigs ?? []) {
    const at = feeConfigs.findIndex((f) => f.feeType === fee.feeType && f.sourceCurrency === fee.sourceCurrency);
    if (at >= 0) feeConfigs.splice(at, 1);
    if (fee.variableFeeBps > 0 || fee.fixedFee.amount > 0) feeConfigs.push(fee);
  }
  const supportedCurrencies = current.supportedCurrencies.map((c) => request.supportedCurrencies?.find((u) => u.currencyCode === c.currencyCode) ?? c);
  const next: PlatformSettingsRecord = {
    ...current,
    ...(request.umaDomain === undefined ? {} : { umaDomain: request.umaDomain.toLowerCase() }),
    ...(request.webhookEndpoint === undefined ? {} : { webhookEndpoint: request.webhookEndpoint }),
    supportedCurrencies,
    feeConfigs,
    ...(request.embeddedWalletConfig === undefined ? {} : { embeddedWalletConfig: { ...current.embeddedWalletConfig, ...request.embeddedWalletConfig } }),
    ...(request.cardTokenization2faConfig === undefined ? {} : {
      cardTokenization2faConfig: mergeTokenization(current.cardTokenization2faConfig, request.cardTokenization2faConfig),
    }),
    updatedAt: tenant.nowIso(),
  };
  save(tenant, next);
  // Setting the endpoint sends it a TEST event (REFERENCE §8).
  if (request.webhookEndpoint !== undefined) tenant.emit('TEST', {});
  return platformConfig(tenant);
}

function save(tenant: TenantContext, settings: PlatformSettingsRecord): void {
  if (store(tenant).has(SETTINGS_ID)) store(tenant).replace(settings);
  else store(tenant).insert(settings);
}

type SandboxLimitsUpdate = z.output<typeof SandboxLimits>;
type SandboxLimitsInForce = z.infer<typeof LimitsInForce>;

/** Live cards a platform may hold, and each cardholder (null: no limit), unless `PUT /_sandbox/limits` says otherwise. */
export const DEFAULT_LIVE_CARD_LIMITS = { perPlatform: 10_000, perCardholder: null } as const;

/** The live-card limits in force. */
export function liveCardLimitsOf(tenant: TenantContext): { perPlatform: number | null; perCardholder: number | null } {
  return { ...DEFAULT_LIVE_CARD_LIMITS, ...settingsOf(tenant).liveCardLimits };
}

/**
 * `PUT /_sandbox/limits`: merges daily volume limits by currency and the live-card limits by name; `null` removes a
 * limit. Answers every limit in force.
 */
export function setSandboxLimits(tenant: TenantContext, update: SandboxLimitsUpdate): SandboxLimitsInForce {
  const current = settingsOf(tenant);
  const dailyVolume = { ...current.dailyVolumeLimits };
  for (const [currency, limit] of Object.entries(update.dailyVolume ?? {})) {
    if (limit === null) delete dailyVolume[currency];
    else dailyVolume[currency] = limit;
  }
  const liveCardLimits = { ...current.liveCardLimits, ...update.liveCards };
  save(tenant, { ...current, dailyVolumeLimits: dailyVolume, liveCardLimits });
  return { dailyVolume, liveCards: liveCardLimitsOf(tenant) };
}

type Tokenization = z.infer<typeof CardTokenization2faConfig>;
const mergeTokenization = (current: Tokenization | undefined, update: Tokenization): Tokenization => ({
  ...current,
  ...update,
  ...(update.email ? { email: { ...current?.email, ...update.email } } : {}),
  ...(update.sms ? { sms: { ...current?.sms, ...update.sms } } : {}),
});

/** `PUT /_sandbox/wallet-processing`: the next `retries` signed retries answer 200 PROCESSING first. */
export function setWalletProcessing(tenant: TenantContext, retries: number): { retries: number } {
  save(tenant, { ...settingsOf(tenant), walletProcessingRetries: retries });
  return { retries };
}

/** Whether this signed retry answers PROCESSING (and counts it down). */
export function takeWalletProcessing(tenant: TenantContext): boolean {
  const settings = settingsOf(tenant);
  if (!settings.walletProcessingRetries) return false;
  save(tenant, { ...settings, walletProcessingRetries: settings.walletProcessingRetries - 1 });
  return true;
}

/** `PUT /_sandbox/stablecoin-provider`: the sandbox provider goes down (mints and burns answer 503) or comes back. */
export function setStablecoinProviderAvailability(tenant: TenantContext, available: boolean): { available: boolean } {
  save(tenant, { ...settingsOf(tenant), stablecoinProviderDown: !available });
  return { available };
}
