import { internalAccountEndpoints } from './accounts.js';
import { externalAccountEndpoints } from './external-accounts.js';
import { configEndpoints } from './config.js';
import { ownershipEndpoints } from './ownership.js';
import { beneficiaryTrustEndpoints } from './sca.js';
import { controlPlaneEndpoints } from './control-plane.js';
import { customerEndpoints } from './customers.js';
import { documentEndpoints } from './onboarding.js';
import { onboardingLinkEndpoints } from './onboarding-links.js';
import { beneficialOwnerEndpoints, verificationEndpoints } from './onboarding-endpoints.js';

/** Every operation of the API, by operationId: the engine serves these and the OpenAPI document describes them. */
export const endpoints = {
  ...customerEndpoints,
  ...internalAccountEndpoints,
  ...configEndpoints,
  ...controlPlaneEndpoints,
  ...documentEndpoints,
  ...verificationEndpoints,
  ...beneficialOwnerEndpoints,
  ...onboardingLinkEndpoints,
  ...externalAccountEndpoints,
  ...ownershipEndpoints,
  ...beneficiaryTrustEndpoints,
} as const;
export type Endpoints = typeof endpoints;
