import { z } from 'zod';
import { IdParam, MAX_AMOUNT, MAX_LENGTH, Timestamp, cappedString } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, pageOf } from './pagination.js';

// Railyard's own control plane under /_sandbox/ (DESIGN §3). Each call is scoped to the platform whose
// Basic credentials it carries, except the clock, which is shared by the whole engine.

export const ClockState = z.object({ now: Timestamp, mode: z.enum(['virtual', 'real']) }).meta({ id: 'SandboxClock' });
export type ClockState = z.infer<typeof ClockState>;

export const ClockAdvanceRequest = z.object({
  ms: z.number().int().min(0).max(10 * 365 * 24 * 3600 * 1000),
});

/** Largest snapshot `POST /_sandbox/restore` reads: a platform of some 100,000 customers with their accounts and events. */
export const SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * A platform's whole state as JSON, as `GET /_sandbox/snapshot` returns it and `POST /_sandbox/restore` takes it. The
 * format names its version (`@2` keeps quotes without the amounts their transaction holds); another version is refused.
 */
export const Snapshot = z
  .object({
    format: z.literal('railyard-snapshot@2'),
    takenAt: Timestamp,
    collections: z.record(z.string(), z.array(z.unknown())),
  })
  .meta({ id: 'SandboxSnapshot' });
export type Snapshot = z.infer<typeof Snapshot>;

/** One webhook delivery attempt of an emitted event: what the receiver answered, or why it could not be reached. */
export const DeliveryAttempt = z.object({
  attempt: z.number().int().min(1),
  url: z.string(),
  at: Timestamp,
  status: z.number().int().optional(),
  error: z.string().optional(),
  /** Wall-clock time the attempt took. */
  durationMs: z.number().min(0).optional(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/**
 * Where an event's delivery stands: QUEUED behind an earlier event of the same resource (order is kept per resource),
 * PENDING (being sent or waiting for a retry at `nextAttemptAt`), DELIVERED (a 2xx, or a 409: the receiver has it) or
 * FAILED (no retry for its type, or retries ran out after 7 days).
 */
export const DeliveryState = z.object({
  status: z.enum(['QUEUED', 'PENDING', 'DELIVERED', 'FAILED']),
  url: z.string(),
  nextAttemptAt: Timestamp.optional(),
});

/** An event in the outbox: the webhook envelope plus what happened to its deliveries. */
export const SandboxEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    timestamp: Timestamp,
    data: z.unknown(),
    /** The resource the event is about (`data.id`); deliveries of one resource keep their order. */
    resource: z.string().optional(),
    /** Emission order within the platform. */
    order: z.number().int().min(0).optional(),
    /** Absent when the platform had no webhook endpoint at emission. */
    delivery: DeliveryState.optional(),
    deliveries: z.array(DeliveryAttempt),
  })
  .meta({ id: 'SandboxEvent' });
export type SandboxEvent = z.infer<typeof SandboxEvent>;

export const SandboxEventQuery = PageQuery.extend({
  type: IdParam.optional(),
  /** Only the events about this record (their `resource`, the `data.id`): a payment's or a customer's history. */
  resource: IdParam.optional(),
});

/** One event with the webhook delivery it makes: the body byte for byte, and its signature header's value. */
export const SandboxEventDetail = SandboxEvent.extend({
  /** The JSON body every delivery of the event sends. */
  payload: z.string(),
  /** The `X-Service-Signature` value a delivery of `payload` carries, made with the platform's webhook key. */
  signature: z.string(),
}).meta({ id: 'SandboxEventDetail' });
export type SandboxEventDetail = z.infer<typeof SandboxEventDetail>;

export const SandboxEventPath = z.object({ eventId: IdParam });

/** A timed transition the sandbox will run when its clock reaches `runAt` (a quote expiring, a payment settling, a retry). */
export const SandboxJob = z
  .object({
    id: z.string(),
    /** What runs: the area and step (`quotes.expire`, `webhooks.retry`, …). */
    kind: z.string(),
    runAt: Timestamp,
    /** The record it acts on, when its job names one. */
    resource: z.string().optional(),
  })
  .meta({ id: 'SandboxJob' });
export type SandboxJob = z.infer<typeof SandboxJob>;

/** `GET /_sandbox/jobs`: the soonest first, up to `limit`; `dueBefore` keeps those due by then (what an advance runs). */
export const SandboxJobQuery = z.object({
  limit: PageQuery.shape.limit,
  dueBefore: Timestamp.optional(),
});

/** The platform's pending jobs: the first `limit` of them, with how many there are in all. */
export const SandboxJobList = z
  .object({ data: z.array(SandboxJob), hasMore: z.boolean(), totalCount: z.number().int().min(0) })
  .meta({ id: 'SandboxJobList' });

export const PlatformCreateRequest = z.object({
  name: cappedString(100).min(1).optional(),
  regulated: z.boolean().optional(),
  skipPaperwork: z.boolean().optional(),
  /**
   * Strict validation, off by default: requests naming fields the API does not know (or read-only fields of a resource)
   * are refused with each field listed, and account identifiers must pass their checksums (IBAN mod-97, ABA routing,
   * CLABE, EIP-55, base58check, bech32m). Catches typos in tests; the reference service is lenient, and so is the default.
   */
  strict: z.boolean().optional(),
  /** False: the platform has no card issuer, and every card operation answers 501 NOT_IMPLEMENTED. Default true. */
  cards: z.boolean().optional(),
  /** False: invitations are not configured for the platform (no branding), so creating one is 400 INVITATIONS_NOT_CONFIGURED. Default true. */
  invitations: z.boolean().optional(),
  clientId: cappedString(100).regex(/^[A-Za-z0-9_\-.]{3,100}$/).optional(),
  clientSecret: cappedString(200).min(8).optional(),
});
export type PlatformCreateRequest = z.input<typeof PlatformCreateRequest>;

export const PlatformCredentials = z
  .object({
    id: z.string(),
    name: z.string(),
    clientId: z.string(),
    clientSecret: z.string(),
    regulated: z.boolean(),
    skipPaperwork: z.boolean(),
    strict: z.boolean(),
    cards: z.boolean(),
    invitations: z.boolean(),
  })
  .meta({ id: 'SandboxPlatform' });
export type PlatformCredentials = z.infer<typeof PlatformCredentials>;

/** A live-card maximum: a count, or null for none. */
const CardCount = z.number().int().min(0).max(1_000_000).nullable();

/**
 * `PUT /_sandbox/limits`: the daily volume each payer (a customer, or the platform) may send per sending currency, in
 * minor units (`null` removes a currency's limit; 429 DAILY_VOLUME_LIMIT_EXCEEDED from the next payment on); and the
 * live cards (not CLOSED) the platform and each cardholder may hold (409 CARD_LIMIT_REACHED at the next issuance;
 * `null` removes a limit). Each part is merged into what is in force; send either or both.
 */
export const SandboxLimits = z
  .object({
    dailyVolume: z.record(z.string().regex(/^[A-Z][A-Z0-9]{2,7}$/), z.number().int().min(0).max(MAX_AMOUNT).nullable()).optional(),
    liveCards: z.object({ perPlatform: CardCount.optional(), perCardholder: CardCount.optional() }).optional(),
  })
  .meta({ id: 'SandboxLimits' });

/** The limits in force after a `PUT /_sandbox/limits`. */
export const SandboxLimitsInForce = z
  .object({
    dailyVolume: z.record(z.string(), z.number()),
    liveCards: z.object({ perPlatform: z.number().int().nullable(), perCardholder: z.number().int().nullable() }),
  })
  .meta({ id: 'SandboxLimitsInForce' });
export type SandboxLimits = z.input<typeof SandboxLimits>;

/**
 * `PUT /_sandbox/wallet-processing`: the next `retries` signed retries of the platform's embedded-wallet operations are
 * accepted but not settled (200 `{status: PROCESSING}`), as a busy service answers; re-sending the identical request
 * (same body, stamp and Request-Id) then settles it. Lets a client's back-off loop be tested against the sandbox.
 */
export const SandboxWalletProcessing = z
  .object({ retries: z.number().int().min(0).max(100) })
  .meta({ id: 'SandboxWalletProcessing' });

/** A webhook delivery's body as received, for `POST /_sandbox/webhook-key/verify` (checked byte for byte as sent). */
export const SandboxSignedWebhook = z.object({}).catchall(z.unknown()).meta({ id: 'SandboxSignedWebhook' });

/**
 * `GET /_sandbox/health`: the sandbox is up and serving. For container and load-balancer health checks: it takes no
 * credentials and tells nothing about any platform.
 */
export const SandboxHealth = z
  .object({
    status: z.literal('ok'),
    /** The engine package's version (`development` when run from source). */
    version: z.string(),
    /** The API version the sandbox serves, the first segment of every API path. */
    apiVersion: z.string(),
    /** Real time since the engine started, in whole seconds (a virtual clock does not move it). */
    uptimeSeconds: z.number().int().min(0),
  })
  .meta({ id: 'SandboxHealth' });
export type SandboxHealth = z.infer<typeof SandboxHealth>;

const tag = 'Sandbox control plane';
const controlPlane = true;
export const controlPlaneEndpoints = {
  getSandboxHealth: defineEndpoint({
    operationId: 'getSandboxHealth', method: 'GET', path: '/_sandbox/health', tag, controlPlane, auth: 'none',
    summary: 'Whether the sandbox is up: for container health checks, without credentials',
    description: 'Answers 200 while the sandbox serves requests. Takes no credentials and ignores any sent; reads no platform\'s data.',
    response: { status: 200, description: 'The sandbox is up', schema: SandboxHealth },
  }),
  getSandboxClock: defineEndpoint({
    operationId: 'getSandboxClock', method: 'GET', path: '/_sandbox/clock', tag, controlPlane,
    summary: 'Current engine time', response: { status: 200, description: 'The clock', schema: ClockState },
  }),
  advanceSandboxClock: defineEndpoint({
    operationId: 'advanceSandboxClock', method: 'POST', path: '/_sandbox/clock/advance', tag, controlPlane,
    summary: 'Advance the virtual clock, running due jobs in order', body: ClockAdvanceRequest,
    response: { status: 200, description: 'The clock after advancing', schema: ClockState }, errors: [409],
  }),
  resetSandbox: defineEndpoint({
    operationId: 'resetSandbox', method: 'POST', path: '/_sandbox/reset', tag, controlPlane,
    summary: "Erase the platform's data (customers, accounts, events, idempotency records)",
    response: { status: 204, description: 'Reset' },
  }),
  getSandboxSnapshot: defineEndpoint({
    operationId: 'getSandboxSnapshot', method: 'GET', path: '/_sandbox/snapshot', tag, controlPlane,
    summary: "The platform's state as JSON", response: { status: 200, description: 'Snapshot', schema: Snapshot },
  }),
  restoreSandbox: defineEndpoint({
    operationId: 'restoreSandbox', method: 'POST', path: '/_sandbox/restore', tag, controlPlane,
    summary: "Replace the platform's state with a snapshot", body: Snapshot, maxBodyBytes: SNAPSHOT_MAX_BYTES,
    response: { status: 204, description: 'Restored' },
  }),
  listSandboxEvents: defineEndpoint({
    operationId: 'listSandboxEvents', method: 'GET', path: '/_sandbox/events', tag, controlPlane,
    summary: 'Emitted events and their delivery attempts, newest first', query: SandboxEventQuery,
    response: { status: 200, description: 'A page of events', schema: pageOf(SandboxEvent) },
  }),
  getSandboxEvent: defineEndpoint({
    operationId: 'getSandboxEvent', method: 'GET', path: '/_sandbox/events/{eventId}', tag, controlPlane, params: SandboxEventPath,
    summary: 'One emitted event: its delivery attempts, and the signed body every delivery sends',
    response: { status: 200, description: 'The event', schema: SandboxEventDetail }, errors: [404],
  }),
  redeliverSandboxEvent: defineEndpoint({
    operationId: 'redeliverSandboxEvent', method: 'POST', path: '/_sandbox/events/{eventId}/redeliver', tag, controlPlane, params: SandboxEventPath,
    summary: 'Send an event again, now, to the webhook endpoint, signed as deliveries are',
    description:
      'The attempt is recorded with the event\'s others (the answer waits for it). The event\'s delivery state does not ' +
      'change: a redelivery is one more copy, as a receiver must expect. 400 WEBHOOK_ENDPOINT_NOT_SET without an endpoint.',
    response: { status: 200, description: 'The event, with the new attempt', schema: SandboxEventDetail }, errors: [404],
  }),
  listSandboxJobs: defineEndpoint({
    operationId: 'listSandboxJobs', method: 'GET', path: '/_sandbox/jobs', tag, controlPlane, query: SandboxJobQuery,
    summary: "The platform's pending timed jobs, soonest first: what advancing the clock will run",
    response: { status: 200, description: 'The jobs', schema: SandboxJobList },
  }),
  createSandboxPlatform: defineEndpoint({
    operationId: 'createSandboxPlatform', method: 'POST', path: '/_sandbox/platforms', tag, controlPlane,
    summary: 'Create a platform (tenant) with its own credentials and verification mode', body: PlatformCreateRequest, bodyOptional: true,
    response: { status: 201, description: 'The platform and its credentials', schema: PlatformCredentials }, errors: [409],
    secrets: { response: ['clientSecret'] },
  }),
  setSandboxLimits: defineEndpoint({
    operationId: 'setSandboxLimits', method: 'PUT', path: '/_sandbox/limits', tag, controlPlane, body: SandboxLimits,
    summary: "Set the platform's daily volume limits per sending currency and its live-card limits (merged; null removes one)",
    response: { status: 200, description: 'The limits now in force', schema: SandboxLimitsInForce },
  }),
  getSandboxWebhookKey: defineEndpoint({
    operationId: 'getSandboxWebhookKey', method: 'GET', path: '/_sandbox/webhook-key', tag, controlPlane,
    summary: "The platform's webhook signing public key (SPKI PEM): verify X-Service-Signature with it",
    response: { status: 200, description: 'The public key', schema: z.object({ publicKeyPem: z.string() }).meta({ id: 'SandboxWebhookKey' }) },
  }),
  verifySandboxWebhookSignature: defineEndpoint({
    operationId: 'verifySandboxWebhookSignature', method: 'POST', path: '/_sandbox/webhook-key/verify', tag, controlPlane, body: SandboxSignedWebhook,
    summary: "Check an X-Service-Signature against the body it came with, as a receiver does, with the platform's key",
    description:
      'Send a delivery exactly as it was received: the raw body and its `X-Service-Signature` header. 204 when the ' +
      "signature is the platform's over these bytes; 401 INVALID_SIGNATURE when the header is missing, malformed or does not match.",
    response: { status: 204, description: 'The signature is valid' },
  }),
  getSandboxEnclaveKey: defineEndpoint({
    operationId: 'getSandboxEnclaveKey', method: 'GET', path: '/_sandbox/enclave-key', tag, controlPlane,
    summary: 'The enclave signing public key (uncompressed hex) that signs OTP target and export bundles: pin it in a wallet',
    response: { status: 200, description: 'The key', schema: z.object({ publicKeyHex: z.string() }).meta({ id: 'SandboxEnclaveKey' }) },
  }),
  setSandboxWalletProcessing: defineEndpoint({
    operationId: 'setSandboxWalletProcessing', method: 'PUT', path: '/_sandbox/wallet-processing', tag, controlPlane, body: SandboxWalletProcessing,
    summary: 'Answer the next signed retries with 200 PROCESSING before settling them',
    response: { status: 200, description: 'The setting', schema: SandboxWalletProcessing },
  }),
  getOpenApiDocument: defineEndpoint({
    operationId: 'getOpenApiDocument', method: 'GET', path: '/_sandbox/openapi.json', tag, controlPlane,
    summary: 'This OpenAPI 3.1 document',
    response: { status: 200, description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) },
  }),
} as const;
