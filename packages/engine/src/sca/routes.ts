import { beneficiaryTrustEndpoints as e, scaFactorEndpoints as factors, scaLoginEndpoints as login, scaSandboxEndpoints as sandbox } from '@railyard/contract';
import { retrieveExternalAccount } from '../external-accounts/external-accounts.js';
import { bind } from '../http/app.js';
import { recordSecurityEvent } from './events.js';
import { confirmScaFactorEnrollment, deleteScaFactor, listScaFactors, startScaFactorEnrollment } from './factors.js';
import { completeScaLogin, startScaLogin } from './login.js';
import { completeTwoFactorReset, getTwoFactorResetStatus, startTwoFactorReset, submitSandboxLiveness } from './resets.js';
import { confirmTrustChange, startTrustChange } from './trust.js';

export { factorResetJobs } from './resets.js';

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

/** HTTP bindings of SCA factors, security events and factor resets (REFERENCE §22), and the sandbox liveness move. */
export const scaFactorRoutes = [
  bind(factors.listScaFactors, ({ tenant, query }) => listScaFactors(tenant, query.customerId)),
  bind(factors.startScaFactorEnrollment, ({ tenant, query, body }) => startScaFactorEnrollment(tenant, query.customerId, body.type)),
  bind(factors.confirmScaFactorEnrollment, ({ tenant, query, body }) => confirmScaFactorEnrollment(tenant, query.customerId, body)),
  bind(factors.deleteScaFactor, ({ tenant, query, params }) => deleteScaFactor(tenant, query.customerId, params.credentialId)),
  bind(factors.recordSecurityEvent, ({ tenant, query, body }) => recordSecurityEvent(tenant, query.customerId, body.eventType)),
  bind(factors.startTwoFactorReset, ({ tenant, query, body }) => startTwoFactorReset(tenant, query.customerId, body.factor)),
  bind(factors.getTwoFactorResetStatus, ({ tenant, query, params }) => getTwoFactorResetStatus(tenant, query.customerId, params.resetId)),
  bind(factors.completeTwoFactorReset, ({ tenant, query, params, body }) => completeTwoFactorReset(tenant, query.customerId, params.resetId, body)),
  bind(sandbox.submitSandboxLiveness, ({ tenant, query, params, body }) => submitSandboxLiveness(tenant, query.customerId, params.resetId, body.result)),
];
