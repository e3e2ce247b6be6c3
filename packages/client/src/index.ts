/**
 * @railyard/client: the typed Railyard SDK. Resources typed from `@railyard/contract`, typed errors, retries with
 * idempotency keys, cursor pagination, debug logging with redaction, payments (quotes, transactions and waiting for
 * them to settle), webhook verification, embedded-wallet authentication (credentials, sessions and the signed-retry
 * runner), cards, stablecoin issuance, API tokens, invitations, agents (and an agent's own client), and the sandbox control
 * plane with its card network and stablecoin provider.
 *
 * ```ts
 * import { createClient, ConflictError } from '@railyard/client';
 * const client = createClient({ clientId, clientSecret });
 * ```
 * @packageDocumentation
 */
export {
  RailyardClient, createClient, generateIdempotencyKey, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS,
  type ClientOptions, type Fetch,
} from './client.js';
export type { RequestOptions, APIRequest, RequestArgs } from './core/types.js';
export type { WireResponse } from './core/wire-response.js';
export { APIPromise, type ResponseInfo, type WithResponse, type RawAPIResponse } from './core/api-promise.js';
export { Page, PagePromise, type PageFetcher } from './core/pagination.js';
export {
  RailyardError, APIError, BadRequestError, AuthenticationError, PermissionDeniedError, NotFoundError, MethodNotAllowedError,
  ConflictError, GoneError, PreconditionFailedError, PayloadTooLargeError, UnprocessableEntityError, LockedError,
  FailedDependencyError, RateLimitError, InternalServerError, NotImplementedError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError,
  SandboxOnlyError, TransactionWaitTimeoutError, WaitTimeoutError, CardWaitTimeoutError, StablecoinWaitTimeoutError, BulkImportWaitTimeoutError, AgentActionWaitTimeoutError, WalletOperationTimeoutError, SignatureRequiredError, type APIErrorInit,
  type TransactionWaitTimeoutInit, type CardWaitTimeoutInit, type WalletOperationTimeoutInit,
} from './core/errors.js';
export type { DebugLogger, LevelLogger, LogLevel } from './core/logger.js';
export { CLIENT_VERSION } from './core/user-agent.js';
export type { CallArgs, ParamsArg, QueryArg, BodyArg, QueryParams, BodyParams, PathParams, ResultOf, PageItemOf, QueryValue } from './core/endpoint.js';
export {
  Customers, type Customer, type CustomerCreateParams, type CustomerUpdateParams, type CustomerListParams, type EndUserTerms,
  type KycLink, type KycLinkCreateParams,
} from './resources/customers.js';
export {
  CustomerBulkImports, type BulkImportJob, type BulkImportAccepted, type BulkImportError, type BulkImportCsv, type BulkImportWaitForOptions,
} from './resources/bulk-imports.js';
export { Config, type PlatformConfig, type PlatformConfigUpdateParams } from './resources/config.js';
export { Quotes, type Quote, type QuoteCreateParams, type QuoteExecuteParams, type QuoteAuthorizeParams, type QuoteListParams } from './resources/quotes.js';
export {
  Sca, ScaLogin, type ScaLoginStartParams, type ScaLoginChallenge, type ScaLoginCompleteParams, type ScaLoginSession,
  ScaFactors, ScaResets, SandboxSca, type ScaFactorList, type ScaFactorEntry, type ScaFactorEnrollmentParams, type ScaFactorEnrollment,
  type ScaFactorConfirmParams, type ScaFactorConfirmation, type SecurityEventParams, type SecurityEventResult, type TwoFactorResetParams,
  type TwoFactorResetStart, type TwoFactorResetStatus, type TwoFactorResetCompleteParams, type SandboxLivenessParams,
} from './resources/sca.js';
export { ExchangeRates, type ExchangeRate, type ExchangeRateList, type ExchangeRateListParams } from './resources/exchange-rates.js';
export { Transfers, type TransferInParams, type TransferOutParams } from './resources/transfers.js';
export {
  Webhooks, WebhookVerificationError, WebhookSignatureMissingError, WebhookSignatureMalformedError, WebhookUnsupportedVersionError,
  WebhookSignatureMismatchError, WebhookRawBodyError, WebhookKeyError, WebhookPayloadError, type WebhookVerificationReason,
  type WebhookRawBody, type WebhookHeaders, type WebhookTestHeaderOptions, type WebhookTestKeyPair, type TypedWebhookEvent,
  type WebhookEventType, type WebhookEventOf, type KnownWebhookEvent, type UnknownWebhookEvent, type UnknownWebhookEventType,
} from './resources/webhooks.js';
export {
  Transactions, type Transaction, type OutgoingTransaction, type IncomingTransaction, type TransactionListParams,
  type TransactionApproveParams, type TransactionRejectParams, type TransactionCancelParams, type TransactionConfirmParams,
} from './resources/transactions.js';
export {
  isTransactionSettled, DEFAULT_WAIT_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, DEFAULT_CLOCK_STEP_MS, type WaitForOptions,
} from './resources/wait-for-transaction.js';
export {
  Receivers, type ExternalAccountLookupParams, type ExternalAccountReceiverLookup, type UmaLookupParams, type UmaReceiverLookup,
} from './resources/receivers.js';
export {
  Crypto, Discoveries, UmaProviders, Vasps, type CryptoWithdrawalFeeEstimate, type CryptoWithdrawalFeeParams, type Discovery,
  type DiscoveryListParams, type UmaProvider, type UmaProviderListParams, type Vasp, type VaspListParams,
} from './resources/lookups.js';
export {
  InternalAccounts, type InternalAccount, type InternalAccountListParams, type InternalAccountUpdateParams, type WalletExportParams,
  type WalletExport,
} from './resources/internal-accounts.js';
export {
  Auth, AuthCredentials, AuthSessions, type AuthMethod, type AuthCredentialCreateParams, type AuthCredentialListParams,
  type AuthCredentialList, type AuthCredentialChallengeParams, type AuthCredentialChallenge, type PasskeyAuthChallenge,
  type OtpAuthChallenge, type AuthCredentialVerifyParams, type OtpVerifyParams, type OauthVerifyParams, type PasskeyVerifyParams,
  type PasskeyVerifyOptions, type AuthSession, type AuthSessionListParams, type AuthSessionList, type AuthSessionRefreshParams,
} from './resources/auth.js';
export { DelegatedKeys, type DelegatedKey, type DelegatedKeyCreateParams, type DelegatedKeyListParams, type DelegatedKeyList } from './resources/delegated-keys.js';
export {
  SignedRetry, DEFAULT_PROCESSING_TIMEOUT_MS, type WalletStamper, type SignedRequest, type SignatureRequired, type SignedCompleted,
  type SignedResult, type SignedRequestOptions, type StampedRequestOptions, type UnstampedRequestOptions, type SignedRetryOptions,
  type ProcessingOptions, type WalletOperationId, type SignedOperationId, type WalletOperationResult, type MultiLegOperationId, type Completion,
} from './core/signed-retry.js';
export {
  ExternalAccounts, PlatformExternalAccounts, type ExternalAccount, type ExternalAccountCreateParams, type ExternalAccountListParams,
  type PlatformExternalAccountCreateParams, type PlatformExternalAccountListParams, type BeneficiaryTrust, type BeneficiaryTrustChallenge,
  type BeneficiaryTrustConfirmParams,
} from './resources/external-accounts.js';
export {
  Sandbox, SandboxClockResource, SandboxEvents, SandboxPlatforms, SandboxLimitsResource, type SandboxClock, type SandboxSnapshot,
  type SandboxEvent, type SandboxEventListParams, type SandboxPlatformCreateParams, type SandboxPlatform, type OpenApiDocument,
  type ClockAdvanceParams, type SandboxWebhookKey, type SandboxEnclaveKey, type SandboxHealth, type SandboxWalletProcessingParams, type SandboxSendParams, type SandboxUmaReceiveParams, type SandboxLimitsParams, type SandboxLimits,
} from './resources/sandbox.js';
export {
  Cards, SandboxCards, type Card, type CardCreateParams, type CardUpdateParams, type CardListParams, type CardReveal, type CardTransaction,
  type CardAuthorizationSimulationParams, type CardBalanceInquirySimulationParams, type CardTransactionAmountSimulationParams,
  type CardReturnReversalSimulationParams, type CardSimulationAccepted, type CardSimulationResult, type CardWaitForOptions,
} from './resources/cards.js';
export {
  Stablecoins, StablecoinProviderAccounts, StablecoinOperations, SandboxStablecoins, type Stablecoin, type StablecoinRegisterParams,
  type StablecoinListParams, type StablecoinProviderAccount, type StablecoinProviderAccountLinkParams, type StablecoinProviderAccountListParams,
  type StablecoinMintParams, type StablecoinMintFundingSource, type StablecoinBurnParams, type StablecoinBurnSource, type StablecoinBurnSignatureRequired, type StablecoinOperation,
  type StablecoinOperationListParams, type StablecoinOperationWaitForOptions, type StablecoinWaitForOptions,
} from './resources/stablecoins.js';
export { Tokens, type ApiToken, type ApiTokenWithSecret, type TokenCreateParams, type TokenListParams } from './resources/tokens.js';
export { Invitations, type UmaInvitation, type InvitationCreateParams } from './resources/invitations.js';
export {
  Agents, AgentQuotes, AgentTransfers, AgentActions, AgentAccounts, type Agent, type AgentPolicy, type AgentCreated, type AgentDeviceCode,
  type AgentDeviceCodeRedemption, type AgentAction, type AgentCreateParams, type AgentUpdateParams, type AgentPolicyUpdateParams,
  type AgentListParams, type AgentApprovalListParams, type AgentQuoteCreateParams, type AgentQuote, type AgentTransferOutParams,
  type AgentTransferInParams, type AgentActionWaitForOptions,
} from './resources/agents.js';
export { AgentClient, createAgentClient, redeemAgentDeviceCode, type AgentClientOptions } from './agent-client.js';
export { APIResource } from './resources/resource.js';
export {
  Verifications, groupRequirements, type Verification, type VerificationListParams, type VerificationDecision,
  type OutstandingRequirements, type VerificationError, type VerificationErrorType,
} from './resources/verifications.js';
export {
  BeneficialOwners, type BeneficialOwner, type BeneficialOwnerCreateParams, type BeneficialOwnerUpdateParams,
  type BeneficialOwnerListParams,
} from './resources/beneficial-owners.js';
export {
  Documents, documentForm, type Document, type DocumentFile, type DocumentUploadParams, type DocumentReplaceParams,
  type DocumentListParams, type DocumentSide, type DocumentType,
} from './resources/documents.js';
