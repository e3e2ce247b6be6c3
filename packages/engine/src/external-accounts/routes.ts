import { externalAccountEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import * as accounts from './external-accounts.js';

/** HTTP bindings of the external-account endpoints (REFERENCE §2.3). */
export const externalAccountRoutes = [
  bind(e.createExternalAccount, ({ tenant, body }) => accounts.createExternalAccount(tenant, body), ({ tenant, body }) => accounts.createChecks(tenant, body)),
  bind(e.listExternalAccounts, ({ tenant, query }) => accounts.listExternalAccounts(tenant, query)),
  bind(e.getExternalAccount, ({ tenant, params }) => accounts.retrieveExternalAccount(tenant, params.externalAccountId)),
  bind(e.deleteExternalAccount, ({ tenant, params }) => accounts.deleteExternalAccount(tenant, params.externalAccountId)),
  bind(
    e.createPlatformExternalAccount,
    ({ tenant, body }) => accounts.createExternalAccount(tenant, { ...body, customerId: undefined }),
    ({ tenant, body }) => accounts.createChecks(tenant, body),
  ),
  bind(e.listPlatformExternalAccounts, ({ tenant, query }) => accounts.listPlatformExternalAccounts(tenant, query)),
  bind(e.getPlatformExternalAccount, ({ tenant, params }) => accounts.retrievePlatformExternalAccount(tenant, params.externalAccountId)),
  bind(e.deletePlatformExternalAccount, ({ tenant, params }) => accounts.deleteExternalAccount(tenant, params.externalAccountId, true)),
];
