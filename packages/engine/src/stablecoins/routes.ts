import { stablecoinControlEndpoints as control, stablecoinEndpoints as e } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { signedAnswer, signedRequestOf } from '../http/signed.js';
import { setStablecoinProviderAvailability } from '../platforms/config.js';
import { createBurn, createMint, expiryJob, findOperation, fundOperation, listOperations, STABLECOIN_EXPIRY_JOB, STABLECOIN_STEP_JOB, stepJob } from './operations.js';
import {
  findProviderAccount, findStablecoin, issuanceJob, linkProviderAccount, listProviderAccounts, listStablecoins, registerStablecoin,
  requestEnablement, setOperationsStatus, setProviderAccountStatus, STABLECOIN_ISSUANCE_JOB,
} from './stablecoins.js';

/** HTTP bindings of stablecoin issuance (REFERENCE §17) and the control-plane moves of its operator and provider. */
export const stablecoinRoutes: Binding[] = [
  bind(e.linkStablecoinProviderAccount, ({ tenant, body }) => linkProviderAccount(tenant, body)),
  bind(e.listStablecoinProviderAccounts, ({ tenant, query }) => listProviderAccounts(tenant, query)),
  bind(e.getStablecoinProviderAccount, ({ tenant, params }) => findProviderAccount(tenant, params.stablecoinProviderAccountId)),
  bind(e.registerStablecoin, ({ tenant, body }) => registerStablecoin(tenant, body)),
  bind(e.listStablecoins, ({ tenant, query }) => listStablecoins(tenant, query)),
  bind(e.getStablecoin, ({ tenant, params }) => findStablecoin(tenant, params.stablecoinId)),
  bind(e.requestStablecoinEnablement, ({ tenant, params }) => requestEnablement(tenant, params.stablecoinId)),
  bind(e.createStablecoinMint, ({ tenant, params, body }) => createMint(tenant, params.stablecoinId, body)),
  // A burn from an embedded wallet is the wallet's signed action: 202 challenge (never replayed), then the signed retry.
  bind(e.createStablecoinBurn, ({ tenant, params, body, request, signable }) => signedAnswer(createBurn(tenant, params.stablecoinId, body, signedRequestOf(request, signable)))),
  bind(e.listStablecoinOperations, ({ tenant, params, query }) => listOperations(tenant, params.stablecoinId, query)),
  bind(e.getStablecoinOperation, ({ tenant, params }) => findOperation(tenant, params.stablecoinOperationId)),
  bind(control.setStablecoinOperationsStatus, ({ tenant, params, body }) => setOperationsStatus(tenant, params.stablecoinId, body.serviceOperationsStatus)),
  bind(control.setStablecoinProviderAccountStatus, ({ tenant, params, body }) => setProviderAccountStatus(tenant, params.stablecoinProviderAccountId, body.status)),
  bind(control.setStablecoinProviderAvailability, ({ tenant, body }) => setStablecoinProviderAvailability(tenant, body.available)),
  bind(control.fundStablecoinOperation, ({ tenant, params, body }) => fundOperation(tenant, params.stablecoinOperationId, body?.amount)),
];

/** Timed jobs of stablecoins, by kind. */
export const stablecoinJobs = { [STABLECOIN_ISSUANCE_JOB]: issuanceJob, [STABLECOIN_STEP_JOB]: stepJob, [STABLECOIN_EXPIRY_JOB]: expiryJob };
