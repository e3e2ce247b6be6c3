import { internalAccountEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import { fundInternalAccount } from '../transactions/incoming.js';
import { listCustomerInternalAccounts, listPlatformInternalAccounts } from './internal-accounts.js';

/** HTTP bindings of the internal-account endpoints. */
export const accountRoutes = [
  bind(e.listCustomerInternalAccounts, ({ tenant, query }) => listCustomerInternalAccounts(tenant, query)),
  bind(e.fundSandboxInternalAccount, ({ tenant, params, body }) => fundInternalAccount(tenant, params.accountId, body.amount)),
  bind(e.listPlatformInternalAccounts, ({ tenant, query }) => listPlatformInternalAccounts(tenant, query)),
];
