import { lookupEndpoints as e } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { discoverBanks, estimateWithdrawalFee, listUmaProviders, listVasps, lookupExternalAccount, withdrawalChecks } from './lookups.js';

/** HTTP bindings of the lookups: bank directory, VASPs, UMA providers, external-account receivers, withdrawal fees. */
export const lookupRoutes: Binding[] = [
  bind(e.getDiscoveries, ({ query }) => discoverBanks(query)),
  bind(e.listVasps, ({ query }) => listVasps(query)),
  bind(e.getAvailableUmaProviders, ({ query }) => listUmaProviders(query)),
  bind(e.lookupExternalAccount, ({ tenant, params, query }) => lookupExternalAccount(tenant, params.accountId, query)),
  bind(e.estimateCryptoWithdrawalFee, ({ tenant, body }) => estimateWithdrawalFee(tenant, body), ({ tenant, body }) => withdrawalChecks(tenant, body)),
];
