import { BeneficialOwner, Card, Customer, Stablecoin, StablecoinOperation, StablecoinProviderAccount, ExternalAccount, InternalAccount, SandboxEvent, Transaction, Verification } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import type { CredentialKind } from '../core/directory.js';
import { IdempotencyRecord } from '../core/idempotency.js';
import { JobRecord } from '../core/scheduler.js';
import { CONTACT_CODES, ContactCodeRecord } from '../contact/contact-verification.js';
import { KYC_LINKS, KycLinkRecord } from '../hosted/kyc-links.js';
import { DocumentRecordSchema } from '../documents/documents.js';
import { LedgerEntryRecord } from '../ledger/ledger.js';
import { OwnershipChallengeRecord } from '../ownership/challenges.js';
import { OWNERSHIP_CHALLENGES } from '../ownership/ownership.js';
import { SCA_CHALLENGES, SCA_LOCKS, ScaChallengeRecord, ScaLockRecord } from '../sca/sca.js';
import { TRUSTED_BENEFICIARIES, TrustedBeneficiaryRecord } from '../sca/trust.js';
import { SCA_SESSIONS, ScaSessionRecord } from '../sca/login.js';
import { SCA_ENROLLMENTS, SCA_FACTORS, ScaEnrollmentRecord, ScaFactorRecord } from '../sca/factors.js';
import { FACTOR_RESETS, FactorResetRecord } from '../sca/resets.js';
import { AUTH_CREDENTIALS, AuthCredentialRecord } from '../auth/records.js';
import { AUTH_SESSIONS, AuthSessionRecord } from '../auth/sessions.js';
import { SIGNED_REQUESTS, SignedRequestRecord } from '../auth/signed-retry.js';
import { PLATFORM_SETTINGS, PlatformSettingsRecord } from '../platforms/config.js';
import { QUOTES, QuoteRecord } from '../quotes/quotes.js';
import { SETTLEMENTS, SettlementRecord } from '../transactions/settlement.js';
import { TRANSACTIONS } from '../transactions/transactions.js';
import { UMA_LOOKUPS, UmaLookupRecord } from '../uma/uma.js';
import { CARD_REVEALS, CARDS, CardRevealRecord } from '../cards/cards.js';
import { CARD_SECRETS, CardSecretRecord } from '../cards/card-secrets.js';
import { WALLET_SECRETS, WalletSecretRecord } from '../auth/wallet-actions.js';
import { STABLECOIN_PROVIDER_ACCOUNTS, STABLECOINS } from '../stablecoins/stablecoins.js';
import { STABLECOIN_LEDGER_STATE, STABLECOIN_OPERATIONS, STABLECOIN_POSITIONS, StablecoinOperationState, StablecoinPosition } from '../stablecoins/operations.js';
import { API_TOKENS, ApiTokenRecord, tokenCredentialKeys } from '../tokens/tokens.js';
import { INVITATIONS, InvitationRecord, invitationCredentialKeys } from '../invitations/invitations.js';
import { AGENT_DEVICE_CODES, AGENTS, AgentDeviceCodeRecord, AgentRecord, agentCredentialKeys } from '../agents/agents.js';
import { AGENT_ACTIONS, AgentActionRecord } from '../agents/actions.js';
import { AGENT_QUOTES, AgentQuoteRecord } from '../agents/me.js';
import { CARD_FUNDING_SOURCES, CardFundingSourceRecord } from '../cards/funding-sources.js';
import { DELEGATED_KEY_DRAFTS, DELEGATED_KEYS, DelegatedKeyDraftRecord, DelegatedKeyRecord } from '../delegated-keys/delegated-keys.js';
import { BULK_IMPORT_JOBS, BulkImportJobRecord } from '../bulk-import/bulk-import.js';
import { CARD_ACTIVITY, CARD_SIMULATIONS, CardActivityRecord, CardSimulationRecord } from '../cards/network.js';

/** The snapshot key of the platform's pending jobs. */
export const JOBS = 'jobs';

/**
 * Every collection a snapshot may hold, with the schema its records must match, so a restored state is one the
 * engine could have produced. Each area adds its collections here.
 */
export const SNAPSHOT_COLLECTIONS: Readonly<Record<string, z.ZodType>> = {
  customers: z.intersection(Customer, z.object({ identifier: z.string().optional() })),
  internalAccounts: InternalAccount,
  events: SandboxEvent,
  idempotency: IdempotencyRecord,
  [JOBS]: JobRecord,
  ledger: LedgerEntryRecord,
  beneficialOwners: BeneficialOwner,
  verifications: Verification.extend({
    poorQuality: z.object({ documentId: z.string(), version: z.string(), identityDocumentIds: z.array(z.string()) }).optional(),
  }),
  [CONTACT_CODES]: ContactCodeRecord,
  [KYC_LINKS]: KycLinkRecord,
  documents: DocumentRecordSchema,
  [OWNERSHIP_CHALLENGES]: OwnershipChallengeRecord,
  externalAccounts: ExternalAccount,
  [SCA_CHALLENGES]: ScaChallengeRecord,
  [SCA_LOCKS]: ScaLockRecord,
  [TRUSTED_BENEFICIARIES]: TrustedBeneficiaryRecord,
  [SCA_FACTORS]: ScaFactorRecord,
  [SCA_ENROLLMENTS]: ScaEnrollmentRecord,
  [FACTOR_RESETS]: FactorResetRecord,
  [PLATFORM_SETTINGS]: PlatformSettingsRecord,
  [QUOTES]: QuoteRecord,
  [TRANSACTIONS]: Transaction,
  [SETTLEMENTS]: SettlementRecord,
  [UMA_LOOKUPS]: UmaLookupRecord,
  [SCA_SESSIONS]: ScaSessionRecord,
  [AUTH_CREDENTIALS]: AuthCredentialRecord,
  [AUTH_SESSIONS]: AuthSessionRecord,
  [SIGNED_REQUESTS]: SignedRequestRecord,
  [CARDS]: Card,
  [CARD_REVEALS]: CardRevealRecord,
  [CARD_SECRETS]: CardSecretRecord,
  [WALLET_SECRETS]: WalletSecretRecord,
  [CARD_ACTIVITY]: CardActivityRecord,
  [CARD_SIMULATIONS]: CardSimulationRecord,
  [STABLECOIN_PROVIDER_ACCOUNTS]: StablecoinProviderAccount,
  [STABLECOINS]: Stablecoin,
  [STABLECOIN_OPERATIONS]: StablecoinOperation,
  [STABLECOIN_LEDGER_STATE]: StablecoinOperationState,
  [STABLECOIN_POSITIONS]: StablecoinPosition,
  [API_TOKENS]: ApiTokenRecord,
  [INVITATIONS]: InvitationRecord,
  [AGENTS]: AgentRecord,
  [AGENT_DEVICE_CODES]: AgentDeviceCodeRecord,
  [AGENT_ACTIONS]: AgentActionRecord,
  [AGENT_QUOTES]: AgentQuoteRecord,
  [CARD_FUNDING_SOURCES]: CardFundingSourceRecord,
  [DELEGATED_KEYS]: DelegatedKeyRecord,
  [DELEGATED_KEY_DRAFTS]: DelegatedKeyDraftRecord,
  [BULK_IMPORT_JOBS]: BulkImportJobRecord,
};

/**
 * Every area's credentials that the engine's credential directory finds without their platform (API tokens, agents'
 * access tokens and device codes, invitations), those the platform issued itself: a restore claims them, so they work
 * again in a server that did not know them (core/directory.ts).
 */
export function credentialKeysOf(tenant: TenantContext): (readonly [CredentialKind, string])[] {
  return [...tokenCredentialKeys(tenant), ...agentCredentialKeys(tenant), ...invitationCredentialKeys(tenant)];
}
