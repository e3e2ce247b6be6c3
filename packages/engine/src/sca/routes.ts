import { beneficiaryTrustEndpoints as e, scaLoginEndpoints as login } from '@railyard/contract';
import { retrieveExternalAccount } from '../external-accounts/external-accounts.js';
import { bind } from '../http/app.js';
import { completeScaLogin, startScaLogin } from './login.js';
import { confirmTrustChange, startTrustChange } from './trust.js';

/** HTTP bindings of the trusted-beneficiary operations (REFERENCE §9). */
export const beneficiaryTrustRoutes = [
  bind(e.trustExternalAccount, ({ tenant, params }) => startTrustChange(tenant, 'trust', retrieveExternalAccount(tenant, params.externalAccountId))),
  bind(e.confirmTrustExternalAccount, ({ tenant, params, body }) => confirmTrustChange(tenant, 'trust', retrieveExternalAccount(tenant, params.externalAccountId), body)),
  bind(e.untrustExternalAccount, ({ tenant, params }) => startTrustChange(tenant, 'untrust', retrieveExternalAccount(tenant, params.externalAccountId))),
  bind(e.confirmUntrustExternalAccount, ({ tenant, params, body }) => confirmTrustChange(tenant, 'untrust', retrieveExternalAccount(tenant, params.externalAccountId), body)),
];

/** HTTP bindings of SCA login (REFERENCE §9). */
export const scaLoginRoutes = [
  bind(login.startScaLogin, ({ tenant, query, body }) => startScaLogin(tenant, query.customerId, body)),
  bind(login.completeScaLogin, ({ tenant, query, body }) => completeScaLogin(tenant, query.customerId, body)),
];
