/**
 * Ownership verification service (SPEC §3.1, §4.1): challenge, verify and the LIVENESS clock job, over the
 * `ownershipChallenges` collection. External accounts are reached through an {@link AccountPort} so this area does not
 * depend on how they are stored: the routes pass `findExternalAccount` / `setExternalAccountStatus`.
 */
import { ApiError, conflict } from '../core/errors.js';
import type { TenantContext } from '../core/context.js';
import { randomHex } from '../core/ids.js';
import {
  challengeRefusal,
  evaluateVerify,
  LIVENESS_DELAY_MS,
  LIVENESS_JOB,
  outstandingWalletChallenge,
  startChallenge,
  type OwnedAccount,
  type OwnershipChallengeRecord,
} from './challenges.js';

/** Snapshot collection of ownership challenges. */
export const OWNERSHIP_CHALLENGES = 'ownershipChallenges';
const challenges = (tenant: TenantContext) => tenant.store.collection<OwnershipChallengeRecord>(OWNERSHIP_CHALLENGES);

/** How this area reads and moves external accounts; `find` throws the 404, `setStatus` emits STATUS_UPDATED on a change. */
export interface AccountPort<A extends OwnedAccount = OwnedAccount> {
  find(tenant: TenantContext, id: string): A;
  setStatus(tenant: TenantContext, id: string, status: 'ACTIVE' | 'UNVERIFIED'): A;
}

const randomNonce = (): string => randomHex(16);

/** `POST .../{id}/challenge`: 201 body, or 409 when the account cannot be challenged. */
export function createOwnershipChallenge(
  tenant: TenantContext,
  port: AccountPort,
  accountId: string,
  method: 'WALLET_SIGNATURE' | 'LIVENESS',
  livenessBaseUrl = 'https://sandbox.railyard.dev/hosted/liveness',
) {
  const account = port.find(tenant, accountId);
  const refusal = challengeRefusal(account, method);
  if (refusal) throw conflict(refusal, 'CONFLICT', { externalAccountId: accountId });
  // A new WALLET_SIGNATURE challenge supersedes any outstanding one.
  if (method === 'WALLET_SIGNATURE') {
    for (const old of challenges(tenant).findBy('externalAccountId', accountId)) {
      if (old.method === 'WALLET_SIGNATURE' && old.state === 'OUTSTANDING') challenges(tenant).replace({ ...old, state: 'CONSUMED' });
    }
  }
  const { record, response } = startChallenge({
    id: tenant.ids('OwnershipChallenge'), platformId: tenant.platform.id, account, method, nonce: randomNonce(),
    now: new Date(tenant.clock.now()), livenessBaseUrl,
  });
  challenges(tenant).insert(record);
  if (method === 'LIVENESS') tenant.schedule(LIVENESS_DELAY_MS, LIVENESS_JOB, { challengeId: record.id });
  return response;
}

/** `POST .../{id}/verify`: the ACTIVE account; 400 (account UNVERIFIED) when invalid or expired; 409 without a challenge. */
export async function verifyOwnership<A extends OwnedAccount>(
  tenant: TenantContext,
  port: AccountPort<A>,
  accountId: string,
  body: { signature: string; signatureScheme?: string | undefined },
): Promise<A> {
  // The verifiers load the elliptic-curve libraries: on first use, before anything is read, so the check and the
  // change of state below run without yielding.
  const { verifyWalletSignature } = await import('./signatures.js');
  const account = port.find(tenant, accountId);
  const challenge = outstandingWalletChallenge(challenges(tenant).findBy('externalAccountId', accountId), accountId);
  const outcome = evaluateVerify({ account, challenge, signature: body.signature, signatureScheme: body.signatureScheme, now: new Date(tenant.clock.now()), verify: verifyWalletSignature });
  if (outcome === 'NO_CHALLENGE') {
    throw conflict(`external account ${accountId} has no outstanding WALLET_SIGNATURE challenge; start one first`, 'CONFLICT');
  }
  challenges(tenant).replace({ ...challenge!, state: 'CONSUMED' });
  if (outcome === 'ACTIVE') return port.setStatus(tenant, accountId, 'ACTIVE');
  port.setStatus(tenant, accountId, 'UNVERIFIED');
  throw new ApiError(
    400,
    'INVALID_INPUT',
    outcome === 'EXPIRED'
      ? `the challenge expired at ${challenge!.expiresAt}; start a new challenge`
      : 'the signature does not verify for this account over the exact messageToSign; start a new challenge to retry',
  );
}

/** The LIVENESS clock job: the hosted check passes and the account becomes ACTIVE (if still awaiting verification). */
export const livenessJob = (port: AccountPort) => (tenant: TenantContext, payload: unknown): void => {
  const { challengeId } = payload as { challengeId: string };
  const record = challenges(tenant).get(challengeId);
  if (!record || record.state !== 'OUTSTANDING') return;
  challenges(tenant).replace({ ...record, state: 'CONSUMED' });
  let account: OwnedAccount;
  try {
    account = port.find(tenant, record.externalAccountId);
  } catch {
    return; // deleted meanwhile
  }
  if (account.status === 'PENDING_OWNERSHIP_VERIFICATION' || account.status === 'UNVERIFIED') port.setStatus(tenant, account.id, 'ACTIVE');
};
