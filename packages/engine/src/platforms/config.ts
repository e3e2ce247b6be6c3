import type { PlatformConfig } from '@railyard/contract';
import { CURRENCIES } from '../config/currencies.js';
import type { Platform } from './registry.js';

/** `GET /config`: the platform's configuration as the API shows it (REFERENCE §10). */
export function platformConfig(platform: Platform): PlatformConfig {
  return {
    id: platform.id,
    umaDomain: platform.umaDomain,
    proxyUmaSubdomain: platform.umaDomain,
    supportedCurrencies: platform.supportedCurrencies.map((code) => {
      const currency = CURRENCIES[code]!;
      return {
        currencyCode: code,
        minAmount: 1,
        maxAmount: currency.maxAmount,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
        // Omitted when empty (REFERENCE §10).
        ...(currency.providerRequiredCustomerFields.length > 0 ? { providerRequiredCustomerFields: [...currency.providerRequiredCustomerFields] } : {}),
      };
    }),
    isRegulatedFinancialInstitution: platform.regulated,
    feeConfigs: [],
    createdAt: platform.createdAt,
    updatedAt: platform.createdAt,
  };
}
