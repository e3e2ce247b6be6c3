import { z } from 'zod';
import { IdParam } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { ExternalAccount, OwnershipChallenge, OwnershipChallengeRequest, OwnershipVerifyRequest } from './external-accounts.js';

// Ownership verification of self-custody wallets (SPEC §2.2, §2.3, §3.1, §4.1; REFERENCE §2.3).

const tag = 'External accounts';
const params = z.object({ externalAccountId: IdParam });

const challenge = (operationId: string, path: string) =>
  defineEndpoint({
    operationId, method: 'POST', path, tag, params, body: OwnershipChallengeRequest,
    summary: 'Start an ownership challenge (wallet signature or hosted liveness check)',
    description:
      'Only for a FIRST_PARTY self-custody wallet in PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED (409 otherwise). ' +
      'WALLET_SIGNATURE returns the exact `messageToSign` and its `expiresAt`; LIVENESS completes asynchronously and ' +
      'announces the outcome in EXTERNAL_ACCOUNT.STATUS_UPDATED.',
    response: { status: 201, description: 'The challenge', schema: OwnershipChallenge },
    errors: [409], secrets: { response: ['verificationLink', 'token'] },
  });

const verify = (operationId: string, path: string) =>
  defineEndpoint({
    operationId, method: 'POST', path, tag, params, body: OwnershipVerifyRequest,
    summary: 'Verify external-account ownership by wallet signature',
    description:
      'The signature must be over the exact `messageToSign` and arrive before `expiresAt`. Invalid or expired: 400 and the ' +
      'account moves to UNVERIFIED. No outstanding WALLET_SIGNATURE challenge: 409. A verify attempt consumes the challenge.',
    response: { status: 200, description: 'The account, now ACTIVE', schema: ExternalAccount },
    errors: [409],
  });

/** The four ownership operations, under `/customers/...` and `/platform/...`. */
export const ownershipEndpoints = {
  createCustomerExternalAccountChallenge: challenge('createCustomerExternalAccountChallenge', '/customers/external-accounts/{externalAccountId}/challenge'),
  createPlatformExternalAccountChallenge: challenge('createPlatformExternalAccountChallenge', '/platform/external-accounts/{externalAccountId}/challenge'),
  verifyCustomerExternalAccountOwnership: verify('verifyCustomerExternalAccountOwnership', '/customers/external-accounts/{externalAccountId}/verify'),
  verifyPlatformExternalAccountOwnership: verify('verifyPlatformExternalAccountOwnership', '/platform/external-accounts/{externalAccountId}/verify'),
} as const;
