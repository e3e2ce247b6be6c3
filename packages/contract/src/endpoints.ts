import { internalAccountEndpoints } from './accounts.js';
import { externalAccountEndpoints } from './external-accounts.js';
import { configEndpoints } from './config.js';
import { ownershipEndpoints } from './ownership.js';
import { beneficiaryTrustEndpoints, scaFactorEndpoints, scaLoginEndpoints, scaSandboxEndpoints } from './sca.js';
import { controlPlaneEndpoints } from './control-plane.js';
import { customerEndpoints } from './customers.js';
import { documentEndpoints } from './onboarding.js';
import { onboardingLinkEndpoints } from './onboarding-links.js';
import { beneficialOwnerEndpoints, verificationEndpoints } from './onboarding-endpoints.js';
import { paymentEndpoints } from './payment-endpoints.js';
import { umaEndpoints } from './uma.js';
import { webhookEndpoints } from './webhooks.js';
import { authEndpoints } from './auth.js';
import { cardControlEndpoints, cardEndpoints } from './cards.js';
import { stablecoinControlEndpoints, stablecoinEndpoints } from './stablecoins.js';
import { tokenEndpoints } from './tokens.js';
import { invitationEndpoints } from './invitations.js';
import { agentEndpoints, agentSideEndpoints } from './agents.js';
import { delegatedKeyEndpoints } from './delegated-keys.js';
import { lookupEndpoints } from './lookups.js';
import { bulkImportEndpoints } from './bulk-import.js';
import { eventStreamEndpoints } from './event-stream.js';
import { dashboardEndpoints } from './dashboard.js';

/**
 * The type of {@link endpoints}, spelled as references so declaration files name the groups instead of inlining every
 * endpoint (an inlined type exceeds what the compiler will serialize).
 */
export type Endpoints = typeof customerEndpoints & typeof internalAccountEndpoints & typeof configEndpoints & typeof controlPlaneEndpoints
  & typeof documentEndpoints & typeof verificationEndpoints & typeof beneficialOwnerEndpoints & typeof onboardingLinkEndpoints
  & typeof externalAccountEndpoints & typeof ownershipEndpoints & typeof beneficiaryTrustEndpoints & typeof paymentEndpoints & typeof umaEndpoints & typeof scaLoginEndpoints & typeof webhookEndpoints & typeof authEndpoints
  & typeof cardEndpoints & typeof cardControlEndpoints & typeof stablecoinEndpoints & typeof stablecoinControlEndpoints & typeof tokenEndpoints & typeof invitationEndpoints
  & typeof agentEndpoints & typeof agentSideEndpoints
  & typeof delegatedKeyEndpoints & typeof lookupEndpoints & typeof scaFactorEndpoints & typeof scaSandboxEndpoints & typeof bulkImportEndpoints
  & typeof eventStreamEndpoints & typeof dashboardEndpoints;

/** Every operation of the API, by operationId: the engine serves these and the OpenAPI document describes them. */
export const endpoints: Endpoints = {
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
  ...paymentEndpoints,
  ...umaEndpoints,
  ...scaLoginEndpoints,
  ...webhookEndpoints,
  ...authEndpoints,
  ...cardEndpoints,
  ...cardControlEndpoints,
  ...stablecoinEndpoints,
  ...stablecoinControlEndpoints,
  ...tokenEndpoints,
  ...invitationEndpoints,
  ...agentEndpoints,
  ...agentSideEndpoints,
  ...delegatedKeyEndpoints,
  ...lookupEndpoints,
  ...scaFactorEndpoints,
  ...scaSandboxEndpoints,
  ...bulkImportEndpoints,
  ...eventStreamEndpoints,
  ...dashboardEndpoints,
};
