import { z } from 'zod';
import { CurrencyCode, IdParam, MAX_LENGTH, Timestamp, cappedString, resourceId } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, pageOf } from './pagination.js';
import { signedLegs } from './signed-retry.js';

// Stablecoin issuance (SPEC §3.7; REFERENCE §10, §17): provider accounts, registered stablecoins, their enablement,
// and the mints and burns of their tokens. Brand names as REFERENCE maps them: `serviceOperationsStatus`,
// `SERVICE_INTERNAL_ACCOUNT`. Every create takes an Idempotency-Key, and must.

export const StablecoinProviderAccountId = resourceId('StablecoinProviderAccount').meta({ id: 'StablecoinProviderAccountId' });
export const StablecoinId = resourceId('Stablecoin').meta({ id: 'StablecoinId' });
export const StablecoinOperationId = resourceId('StablecoinOperation').meta({ id: 'StablecoinOperationId' });

/** The issuing providers the service works with. */
export const StablecoinProvider = z.enum(['BRALE']).meta({ id: 'StablecoinProvider' });
/** The provider's environment: the sandbox is SANDBOX. */
export const ProviderEnvironment = z.enum(['SANDBOX', 'PRODUCTION']).meta({ id: 'ProviderEnvironment' });

// ---------------------------------------------------------------------------------------------------------------------
// Provider accounts (REFERENCE §17.2)

export const StablecoinProviderAccountStatus = z.enum(['ACTIVE', 'INVALID', 'REVOKED']).meta({ id: 'StablecoinProviderAccountStatus' });
export type StablecoinProviderAccountStatus = z.infer<typeof StablecoinProviderAccountStatus>;

/** The platform's link to its account at a provider; one link serves many stablecoins. The secret is never returned. */
export const StablecoinProviderAccount = z
  .object({
    id: StablecoinProviderAccountId,
    provider: StablecoinProvider,
    providerAccountId: z.string(),
    providerEnvironment: ProviderEnvironment,
    status: StablecoinProviderAccountStatus,
    /** The last successful check of the credentials. */
    lastVerifiedAt: Timestamp.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'StablecoinProviderAccount' });
export type StablecoinProviderAccount = z.infer<typeof StablecoinProviderAccount>;

/** `POST /stablecoin-provider-accounts`: the credentials are checked on link. */
export const StablecoinProviderAccountLinkRequest = z
  .object({
    provider: StablecoinProvider,
    apiClientId: cappedString(MAX_LENGTH.id).min(1),
    /** Write-only: kept encrypted by the provider link, never returned. */
    apiClientSecret: cappedString(1024).min(1),
    /** May be omitted when the credentials reach exactly one provider account. */
    providerAccountId: cappedString(MAX_LENGTH.id).min(1).optional(),
  })
  .meta({ id: 'StablecoinProviderAccountLinkRequest' });
export type StablecoinProviderAccountLinkRequest = z.input<typeof StablecoinProviderAccountLinkRequest>;

export const StablecoinProviderAccountListQuery = PageQuery.extend({
  provider: StablecoinProvider.optional(),
  status: StablecoinProviderAccountStatus.optional(),
});
export type StablecoinProviderAccountListQuery = z.input<typeof StablecoinProviderAccountListQuery>;

// ---------------------------------------------------------------------------------------------------------------------
// Stablecoins (REFERENCE §10, §17.2; SPEC §3.7)

export const StablecoinIssuanceStatus = z
  .enum(['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'])
  .meta({ id: 'StablecoinIssuanceStatus' });
export type StablecoinIssuanceStatus = z.infer<typeof StablecoinIssuanceStatus>;

/** A platform requests enablement from NOT_ENABLED; ENABLING, ENABLED and DISABLED are the operator's. */
export const ServiceOperationsStatus = z
  .enum(['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'])
  .meta({ id: 'ServiceOperationsStatus' });
export type ServiceOperationsStatus = z.infer<typeof ServiceOperationsStatus>;

/** A token issued at a provider and registered with the service. `currency` appears once the coin is enabled. */
export const Stablecoin = z
  .object({
    id: StablecoinId,
    name: z.string(),
    symbol: z.string(),
    /** The fiat currency backing the token. */
    baseCurrency: CurrencyCode,
    network: z.enum(['SPARK']),
    /** Digits after the point in the token's amounts (amounts are digit strings in these units). */
    decimals: z.number().int().min(0).max(18),
    issuanceStatus: StablecoinIssuanceStatus,
    serviceOperationsStatus: ServiceOperationsStatus,
    networkTokenIdentifier: z.string(),
    currency: CurrencyCode.optional(),
    provider: StablecoinProvider,
    stablecoinProviderAccountId: StablecoinProviderAccountId,
    providerEnvironment: ProviderEnvironment,
    providerTokenIdentifier: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Stablecoin' });
export type Stablecoin = z.infer<typeof Stablecoin>;

/** `POST /stablecoins`: links a token that already exists at the provider (it does not create one). */
export const StablecoinRegisterRequest = z
  .object({
    /** For BRALE, the provider's `value_type`. */
    providerTokenIdentifier: cappedString(MAX_LENGTH.id).min(1),
    /** The token on the network, e.g. `btkn1…`. */
    networkTokenIdentifier: cappedString(MAX_LENGTH.id).min(1),
    network: z.enum(['SPARK']),
    /** Optional when exactly one ACTIVE provider account is linked. */
    stablecoinProviderAccountId: StablecoinProviderAccountId.optional(),
  })
  .meta({ id: 'StablecoinRegisterRequest' });
export type StablecoinRegisterRequest = z.input<typeof StablecoinRegisterRequest>;

/** `GET /stablecoins` (no `sortOrder`). */
export const StablecoinListQuery = PageQuery.extend({
  issuanceStatus: StablecoinIssuanceStatus.optional(),
  serviceOperationsStatus: ServiceOperationsStatus.optional(),
  provider: StablecoinProvider.optional(),
});
export type StablecoinListQuery = z.input<typeof StablecoinListQuery>;

// ---------------------------------------------------------------------------------------------------------------------
// Mints, burns and their operations (REFERENCE §10, §17.3, §17.4)

/** A token amount: decimal digits in the token's smallest unit, converting to whole fiat cents. */
const TokenAmount = cappedString(30).regex(/^[0-9]{1,30}$/, { message: 'must be a whole number of the token\'s smallest unit, in digits' });
const Description = cappedString(MAX_LENGTH.description).optional();
const BankAccountRef = resourceId('ExternalAccount');

/** Where the fiat of a mint comes from. */
export const StablecoinMintFundingSource = z
  .discriminatedUnion('type', [
    /** Send a wire: the operation carries the funding instructions. */
    z.object({ type: z.literal('WIRE') }),
    /** The provider debits the bank account. */
    z.object({ type: z.literal('ACH_DEBIT'), externalAccountId: BankAccountRef }),
    z.object({ type: z.literal('SAME_DAY_ACH_DEBIT'), externalAccountId: BankAccountRef }),
    /** An internal account of the service, debited through the ledger. */
    z.object({ type: z.literal('SERVICE_INTERNAL_ACCOUNT'), accountId: resourceId('InternalAccount') }),
    /** A balance the provider holds in another token. */
    z.object({ type: z.literal('PROVIDER_INTERNAL_BALANCE'), sourceTokenIdentifier: cappedString(MAX_LENGTH.id).min(1), cryptoNetwork: cappedString(MAX_LENGTH.id).min(1) }),
  ])
  .meta({ id: 'StablecoinMintFundingSource' });
export type StablecoinMintFundingSource = z.input<typeof StablecoinMintFundingSource>;

/** `POST /stablecoins/{id}/mints`: the tokens go to `destination.accountId` (an internal or external account; its prefix decides). */
export const StablecoinMintRequest = z
  .object({
    amount: TokenAmount,
    fundingSource: StablecoinMintFundingSource,
    destination: z.object({ accountId: IdParam.regex(/^(InternalAccount|ExternalAccount):/, { message: 'must be an InternalAccount or ExternalAccount id' }) }),
    description: Description,
  })
  .meta({ id: 'StablecoinMintRequest' });
export type StablecoinMintRequest = z.input<typeof StablecoinMintRequest>;

/** Where the tokens of a burn come from. */
export const StablecoinBurnSource = z
  .discriminatedUnion('type', [
    /** Any wallet sends the tokens to the provider's deposit address (the operation's funding instructions). */
    z.object({ type: z.literal('EXTERNAL_ACCOUNT') }),
    /** An internal account of the service holding the tokens. */
    z.object({ type: z.literal('SERVICE_INTERNAL_ACCOUNT'), accountId: resourceId('InternalAccount') }),
    /** Tokens the provider holds for the platform. */
    z.object({ type: z.literal('PROVIDER_INTERNAL_BALANCE') }),
  ])
  .meta({ id: 'StablecoinBurnSource' });
export type StablecoinBurnSource = z.input<typeof StablecoinBurnSource>;

export const StablecoinRedemptionRail = z.enum(['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT']).meta({ id: 'StablecoinRedemptionRail' });

/**
 * `POST /stablecoins/{id}/burns`: the fiat goes to a bank account over `rail`. From an embedded wallet
 * (`SERVICE_INTERNAL_ACCOUNT`): a signed action of the wallet, paid out to a bank account of the wallet's owner.
 */
export const StablecoinBurnRequest = z
  .object({
    amount: TokenAmount,
    source: StablecoinBurnSource,
    destination: z.object({ type: z.literal('EXTERNAL_ACCOUNT'), externalAccountId: BankAccountRef, rail: StablecoinRedemptionRail }),
    description: Description,
  })
  .meta({ id: 'StablecoinBurnRequest' });
export type StablecoinBurnRequest = z.input<typeof StablecoinBurnRequest>;

export const StablecoinOperationType = z.enum(['MINT', 'BURN']).meta({ id: 'StablecoinOperationType' });
export const StablecoinOperationStatus = z
  .enum(['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'])
  .meta({ id: 'StablecoinOperationStatus' });
export type StablecoinOperationStatus = z.infer<typeof StablecoinOperationStatus>;

/** A mint or a burn as it moves through its statuses. */
export const StablecoinOperation = z
  .object({
    id: StablecoinOperationId,
    stablecoinId: StablecoinId,
    operationType: StablecoinOperationType,
    status: StablecoinOperationStatus,
    /** In the token's smallest unit, as digits. */
    amount: TokenAmount,
    provider: StablecoinProvider,
    providerEnvironment: ProviderEnvironment,
    stablecoinProviderAccountId: StablecoinProviderAccountId,
    /** The mint's funding source, or the burn's token source, flattened. */
    source: z
      .object({
        type: z.enum(['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'EXTERNAL_ACCOUNT', 'SERVICE_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE']),
        externalAccountId: z.string().optional(),
        accountId: z.string().optional(),
        sourceTokenIdentifier: z.string().optional(),
        cryptoNetwork: z.string().optional(),
      })
      .optional(),
    /** Where to send the money (a wire mint) or the tokens (a burn from an external wallet). */
    fundingInstructions: z
      .object({ rail: z.string().optional(), network: z.string().optional(), address: z.string().optional(), valueType: z.string().optional() })
      .catchall(z.unknown())
      .optional(),
    destination: z.object({ accountId: z.string(), rail: StablecoinRedemptionRail.optional() }).optional(),
    /** A burn's fiat redemption: guidance only. */
    estimatedDelivery: z.object({ rail: z.string(), amount: z.string(), currency: CurrencyCode, timing: z.string() }).optional(),
    /** The deadline for external funding. */
    expiresAt: Timestamp.optional(),
    providerStatus: z.string().optional(),
    failureReason: z.string().optional(),
    description: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'StablecoinOperation' });
export type StablecoinOperation = z.infer<typeof StablecoinOperation>;

/** `GET /stablecoins/{id}/operations`: newest first. */
export const StablecoinOperationListQuery = PageQuery.extend({ operationType: StablecoinOperationType.optional() });
export type StablecoinOperationListQuery = z.input<typeof StablecoinOperationListQuery>;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints

const tag = 'Stablecoins';
const providerAccountParams = z.object({ stablecoinProviderAccountId: IdParam });
const stablecoinParams = z.object({ stablecoinId: IdParam });
const required = 'required' as const;

export const stablecoinEndpoints = {
  linkStablecoinProviderAccount: defineEndpoint({
    operationId: 'linkStablecoinProviderAccount', method: 'POST', path: '/stablecoin-provider-accounts', tag, idempotencyKey: required,
    body: StablecoinProviderAccountLinkRequest,
    summary: "Link the platform's account at a stablecoin provider (its credentials are checked)",
    description: 'Idempotency-Key required (up to 255 characters): a replay returns the first result, another payload under the key is 409.',
    response: { status: 201, description: 'The linked provider account', schema: StablecoinProviderAccount },
    errors: [409],
  }),
  listStablecoinProviderAccounts: defineEndpoint({
    operationId: 'listStablecoinProviderAccounts', method: 'GET', path: '/stablecoin-provider-accounts', tag, query: StablecoinProviderAccountListQuery,
    summary: 'List the linked provider accounts, newest first',
    response: { status: 200, description: 'A page of provider accounts', schema: pageOf(StablecoinProviderAccount) },
  }),
  getStablecoinProviderAccount: defineEndpoint({
    operationId: 'getStablecoinProviderAccount', method: 'GET', path: '/stablecoin-provider-accounts/{stablecoinProviderAccountId}', tag,
    params: providerAccountParams, summary: 'Retrieve a linked provider account',
    response: { status: 200, description: 'The provider account', schema: StablecoinProviderAccount }, errors: [404],
  }),
  registerStablecoin: defineEndpoint({
    operationId: 'registerStablecoin', method: 'POST', path: '/stablecoins', tag, idempotencyKey: required, body: StablecoinRegisterRequest,
    summary: 'Register a token that exists at the provider: PENDING_REVIEW, then PROVISIONING and PROVISIONED',
    description:
      '400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, _REVOKED, or _SELECTION_REQUIRED (several ACTIVE links and none named); 404 ' +
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND; 409 for a token already registered.',
    response: { status: 201, description: 'The stablecoin', schema: Stablecoin },
    errors: [404, 409],
  }),
  listStablecoins: defineEndpoint({
    operationId: 'listStablecoins', method: 'GET', path: '/stablecoins', tag, query: StablecoinListQuery,
    summary: 'List registered stablecoins, newest first',
    response: { status: 200, description: 'A page of stablecoins', schema: pageOf(Stablecoin) },
  }),
  getStablecoin: defineEndpoint({
    operationId: 'getStablecoin', method: 'GET', path: '/stablecoins/{stablecoinId}', tag, params: stablecoinParams,
    summary: 'Retrieve a stablecoin', response: { status: 200, description: 'The stablecoin', schema: Stablecoin }, errors: [404],
  }),
  requestStablecoinEnablement: defineEndpoint({
    operationId: 'requestStablecoinEnablement', method: 'POST', path: '/stablecoins/{stablecoinId}/enablement', tag, params: stablecoinParams,
    summary: 'Ask the operator to enable mints and burns of a stablecoin (SPEC §3.7; Railyard names the call the reference does not show)',
    description:
      'From NOT_ENABLED to PENDING_APPROVAL; a repeat while PENDING_APPROVAL succeeds. ENABLING, ENABLED and DISABLED are set ' +
      'by the operator: 409 STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE.',
    response: { status: 200, description: 'The stablecoin', schema: Stablecoin },
    errors: [404, 409],
  }),
  createStablecoinMint: defineEndpoint({
    operationId: 'createStablecoinMint', method: 'POST', path: '/stablecoins/{stablecoinId}/mints', tag, params: stablecoinParams,
    idempotencyKey: required, body: StablecoinMintRequest,
    summary: 'Mint tokens against fiat funding',
    response: { status: 201, description: 'The mint operation', schema: StablecoinOperation },
    errors: [404, 409, 503],
  }),
  createStablecoinBurn: defineEndpoint({
    operationId: 'createStablecoinBurn', method: 'POST', path: '/stablecoins/{stablecoinId}/burns', tag, params: stablecoinParams,
    idempotencyKey: required, body: StablecoinBurnRequest,
    summary: 'Burn tokens and redeem their fiat to a bank account',
    description:
      'Idempotency-Key required. From an embedded wallet (source SERVICE_INTERNAL_ACCOUNT) the burn is a signed action of the ' +
      'wallet. First leg, without signature headers: 202 with payloadToSign, requestId and expiresAt (5 minutes); nothing is ' +
      'taken, and the 202 is not replayed under the Idempotency-Key. Retry the identical request with `Service-Wallet-Signature` ' +
      '(the stamp of payloadToSign by an active session of that wallet) and `Request-Id`: 201. Missing, malformed or wrong ' +
      'signatures, or a session of another account: 401 WALLET_SIGNATURE_*; a used or unknown Request-Id: 401. The fiat of a ' +
      "wallet's tokens goes to an ACTIVE bank account of the wallet's owner (the same customer; for a platform wallet, the " +
      "platform); EXTERNAL_ACCOUNT and PROVIDER_INTERNAL_BALANCE burns pay out to a bank account of the platform or of one of " +
      'its customers. Another destination: 400 INVALID_INPUT on destination.externalAccountId.',
    alsoResponds: signedLegs,
    response: { status: 201, description: 'The burn operation', schema: StablecoinOperation },
    errors: [401, 404, 409, 503],
  }),
  listStablecoinOperations: defineEndpoint({
    operationId: 'listStablecoinOperations', method: 'GET', path: '/stablecoins/{stablecoinId}/operations', tag, params: stablecoinParams,
    query: StablecoinOperationListQuery, summary: "A stablecoin's mints and burns, newest first",
    response: { status: 200, description: 'A page of operations', schema: pageOf(StablecoinOperation) }, errors: [404],
  }),
  getStablecoinOperation: defineEndpoint({
    operationId: 'getStablecoinOperation', method: 'GET', path: '/stablecoin-operations/{stablecoinOperationId}', tag,
    params: z.object({ stablecoinOperationId: IdParam }), summary: 'Retrieve a mint or burn',
    response: { status: 200, description: 'The operation', schema: StablecoinOperation }, errors: [404],
  }),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Railyard's control plane: what the operator and the provider do

/** `PUT /_sandbox/stablecoins/{id}/operations-status`: the operator's move (any status). */
export const StablecoinOperatorDecision = z.object({ serviceOperationsStatus: ServiceOperationsStatus }).meta({ id: 'StablecoinOperatorDecision' });
/** `PUT /_sandbox/stablecoin-provider-accounts/{id}/status`: the provider invalidates or revokes the credentials, or restores them. */
export const StablecoinProviderAccountStatusChange = z.object({ status: StablecoinProviderAccountStatus }).meta({ id: 'StablecoinProviderAccountStatusChange' });
/** `PUT /_sandbox/stablecoin-provider`: the provider is up or down (down: mints and burns are 503 SERVICE_UNAVAILABLE). */
export const StablecoinProviderAvailability = z.object({ available: z.boolean() }).meta({ id: 'StablecoinProviderAvailability' });
/**
 * `POST /_sandbox/stablecoin-operations/{id}/fund`: what a wire mint or an external-wallet burn waits for arrives
 * (the wire, or the tokens at the deposit address). `amount` defaults to the operation's; another amount fails it.
 */
export const StablecoinOperationFunding = z.object({ amount: TokenAmount.optional() }).meta({ id: 'StablecoinOperationFunding' });

const control = 'Sandbox control plane';
export const stablecoinControlEndpoints = {
  setStablecoinOperationsStatus: defineEndpoint({
    operationId: 'setStablecoinOperationsStatus', method: 'PUT', path: '/_sandbox/stablecoins/{stablecoinId}/operations-status', tag: control,
    controlPlane: true, params: stablecoinParams, body: StablecoinOperatorDecision,
    summary: "Act as the operator: set a stablecoin's serviceOperationsStatus (ENABLING, ENABLED, DISABLED, …)",
    response: { status: 200, description: 'The stablecoin', schema: Stablecoin }, errors: [404],
  }),
  setStablecoinProviderAccountStatus: defineEndpoint({
    operationId: 'setStablecoinProviderAccountStatus', method: 'PUT', path: '/_sandbox/stablecoin-provider-accounts/{stablecoinProviderAccountId}/status',
    tag: control, controlPlane: true, params: providerAccountParams, body: StablecoinProviderAccountStatusChange,
    summary: 'Act as the provider: invalidate, revoke or restore the credentials of a linked account',
    response: { status: 200, description: 'The provider account', schema: StablecoinProviderAccount }, errors: [404],
  }),
  setStablecoinProviderAvailability: defineEndpoint({
    operationId: 'setStablecoinProviderAvailability', method: 'PUT', path: '/_sandbox/stablecoin-provider', tag: control, controlPlane: true,
    body: StablecoinProviderAvailability, summary: 'Take the stablecoin provider down (mints and burns answer 503) or up again',
    response: { status: 200, description: 'The availability now', schema: StablecoinProviderAvailability },
  }),
  fundStablecoinOperation: defineEndpoint({
    operationId: 'fundStablecoinOperation', method: 'POST', path: '/_sandbox/stablecoin-operations/{stablecoinOperationId}/fund', tag: control,
    controlPlane: true, params: z.object({ stablecoinOperationId: IdParam }), body: StablecoinOperationFunding, bodyOptional: true,
    summary: 'Deliver what a wire mint or an external-wallet burn waits for (the wire, or the tokens)',
    response: { status: 200, description: 'The operation', schema: StablecoinOperation }, errors: [404, 409],
  }),
} as const;
