import { ownershipEndpoints as e, type ExternalAccount } from '@railyard/contract';
import {
  findExternalAccount, retrieveExternalAccount, retrievePlatformExternalAccount, setExternalAccountStatus,
} from '../external-accounts/external-accounts.js';
import { bind } from '../http/app.js';
import { LIVENESS_JOB, type OwnedAccount } from './challenges.js';
import { createOwnershipChallenge, livenessJob, verifyOwnership, type AccountPort } from './ownership.js';

/**
 * HTTP bindings of the ownership endpoints (SPEC §4.1; REFERENCE §2.3), given the external-accounts area as the port
 * ({@link externalAccountPort}); the engine registers them with {@link ownershipJobs}.
 */
export const ownershipRoutes = (port: AccountPort<ExternalAccount & OwnedAccount>) => {
  // Each path reaches only its own accounts, as retrieve and delete do: a platform account is 404 under /customers/.
  const customers = { ...port, find: (tenant, id) => (retrieveExternalAccount(tenant, id), port.find(tenant, id)) } satisfies typeof port;
  const platform = { ...port, find: (tenant, id) => (retrievePlatformExternalAccount(tenant, id), port.find(tenant, id)) } satisfies typeof port;
  return [
    bind(e.createCustomerExternalAccountChallenge, ({ tenant, params, body }) => createOwnershipChallenge(tenant, customers, params.externalAccountId, body.method)),
    bind(e.createPlatformExternalAccountChallenge, ({ tenant, params, body }) => createOwnershipChallenge(tenant, platform, params.externalAccountId, body.method)),
    bind(e.verifyCustomerExternalAccountOwnership, ({ tenant, params, body }) => verifyOwnership(tenant, customers, params.externalAccountId, body)),
    bind(e.verifyPlatformExternalAccountOwnership, ({ tenant, params, body }) => verifyOwnership(tenant, platform, params.externalAccountId, body)),
  ];
};

/** Timed jobs of the ownership area, by kind. */
export const ownershipJobs = (port: AccountPort) => ({ [LIVENESS_JOB]: livenessJob(port) });

/** The external-accounts area as the ownership port. */
export const externalAccountPort: AccountPort<ExternalAccount & OwnedAccount> = {
  find: (tenant, id) => findExternalAccount(tenant, id) as ExternalAccount & OwnedAccount,
  setStatus: (tenant, id, status) => setExternalAccountStatus(tenant, id, status) as ExternalAccount & OwnedAccount,
};
