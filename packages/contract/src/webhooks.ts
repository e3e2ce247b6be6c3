import { z } from 'zod';
import { MAX_LENGTH, Timestamp, cappedString, resourceId } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { InternalAccount } from './accounts.js';
import { Customer, CustomerInfoFieldName } from './customers.js';
import { ExternalAccount } from './external-accounts.js';
import { Verification } from './onboarding.js';
import { CardTransaction, IncomingPaymentWebhookData, OutgoingTransaction } from './transactions.js';
import { Card } from './cards.js';
import { UmaInvitation } from './invitations.js';
import { AgentAction } from './agents.js';
import { BulkCustomerImportJob } from './bulk-import.js';

// Webhooks (SPEC §6, REFERENCE §8). Our spec wins over the reference: CARD_TRANSACTION.REFUNDED no longer exists.

/** Event names by group, as the API lists them. */
const EVENT_GROUPS = {
  OUTGOING_PAYMENT: [
    'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED', 'REFUND_PENDING', 'REFUND_COMPLETED', 'REFUND_FAILED',
  ],
  INCOMING_PAYMENT: ['PENDING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED', 'REFUND_FAILED'],
  CUSTOMER: ['KYC_APPROVED', 'KYC_REJECTED', 'KYC_PENDING', 'KYB_APPROVED', 'KYB_REJECTED', 'KYB_PENDING'],
  VERIFICATION: ['APPROVED', 'REJECTED', 'RESOLVE_ERRORS', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'READY_FOR_VERIFICATION'],
  EXTERNAL_ACCOUNT: ['STATUS_UPDATED'],
  INTERNAL_ACCOUNT: ['BALANCE_UPDATED', 'STATUS_UPDATED', 'FUNDING_INSTRUCTIONS_UPDATED'],
  INVITATION: ['CLAIMED'],
  BULK_UPLOAD: ['COMPLETED', 'FAILED'],
  AGENT_ACTION: ['PENDING_APPROVAL'],
  CARD: ['STATE_CHANGE', 'FUNDING_SOURCE_CHANGE'],
  CARD_TRANSACTION: ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'EXCEPTION'],
} as const;
type EventGroups = typeof EVENT_GROUPS;
export type WebhookEventGroup = keyof EventGroups | 'TEST';
type GroupedType = { [G in keyof EventGroups]: `${G}.${EventGroups[G][number]}` }[keyof EventGroups];

/** Every webhook event type, `TEST` included. */
export const WEBHOOK_EVENT_TYPES = [
  ...Object.entries(EVENT_GROUPS).flatMap(([group, names]) => names.map((name) => `${group}.${name}`)),
  'TEST',
] as unknown as [GroupedType | 'TEST', ...(GroupedType | 'TEST')[]];

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The group of an event type: `OUTGOING_PAYMENT.COMPLETED` → `OUTGOING_PAYMENT`. */
export const webhookEventGroup = (type: WebhookEventType): WebhookEventGroup => type.split('.')[0] as WebhookEventGroup;

/** What `data` carries, by group: the resource as its GET returns it; `TEST` carries `{}`. */
export const WEBHOOK_DATA_SCHEMAS = {
  OUTGOING_PAYMENT: OutgoingTransaction,
  INCOMING_PAYMENT: IncomingPaymentWebhookData,
  CUSTOMER: Customer,
  VERIFICATION: Verification,
  EXTERNAL_ACCOUNT: ExternalAccount,
  INTERNAL_ACCOUNT: InternalAccount,
  CARD_TRANSACTION: CardTransaction,
  CARD: Card,
  INVITATION: UmaInvitation,
  AGENT_ACTION: AgentAction,
  BULK_UPLOAD: BulkCustomerImportJob,
  TEST: z.object({}),
} as const satisfies Record<WebhookEventGroup, z.ZodType>;

/** The envelope POSTed to the platform's webhook endpoint. `id` is unique per delivery: de-duplicate on it. */
export const WebhookEvent = z
  .object({
    id: resourceId('Webhook'),
    type: WebhookEventType,
    timestamp: Timestamp,
    data: z.unknown(),
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

type DataOf<T extends WebhookEventType> = (typeof WEBHOOK_DATA_SCHEMAS)[T extends `${infer G}.${string}` ? G & WebhookEventGroup : 'TEST'];
type TypedEventSchema<T extends WebhookEventType> = z.ZodObject<{
  id: z.ZodString; type: z.ZodLiteral<T>; timestamp: typeof Timestamp; data: DataOf<T>;
}>;

/** The envelope with `data` checked against the resource of its type; narrows `data` by `type`. */
export const TypedWebhookEvent = z
  .discriminatedUnion(
    'type',
    WEBHOOK_EVENT_TYPES.map((type) =>
      WebhookEvent.extend({ type: z.literal(type), data: WEBHOOK_DATA_SCHEMAS[webhookEventGroup(type)] }),
    ) as unknown as [TypedEventSchema<WebhookEventType>, ...TypedEventSchema<WebhookEventType>[]],
  ) as unknown as z.ZodDiscriminatedUnion<{ [T in WebhookEventType]: TypedEventSchema<T> }[WebhookEventType][], 'type'>;
export type TypedWebhookEvent = z.infer<typeof TypedWebhookEvent>;

// ---------------------------------------------------------------------------------------------------------------------
// Signature and delivery (SPEC §5.6, REFERENCE §8)

/** Header signing every delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Signature';

/** `X-Service-Signature` once JSON-parsed: version `1` and the standard-base64 DER ECDSA P-256 signature of the raw body. */
export const WebhookSignature = z.object({
  v: z.literal('1'),
  s: cappedString(MAX_LENGTH.encoded).regex(/^[A-Za-z0-9+/]+={0,2}$/, { message: 'must be standard base64' }),
});
export type WebhookSignature = z.infer<typeof WebhookSignature>;

/** Retries: exponential backoff for up to 7 days, at most 30 minutes apart. */
export const WEBHOOK_RETRY_POLICY = {
  maxAgeMs: 7 * 24 * 3600 * 1000,
  maxIntervalMs: 30 * 60 * 1000,
  /** Answers that end delivery without retry, besides 2xx. */
  noRetryStatuses: [409],
  /** Types never retried. */
  noRetryTypes: ['TEST', 'INCOMING_PAYMENT.PENDING'] as const satisfies readonly WebhookEventType[],
  /** Receivers should answer within this time. */
  responseTimeoutMs: 5_000,
} as const;

/** `POST /sandbox/webhooks/test` body: the URL to deliver to, else the configured `webhookEndpoint`. */
export const WebhookTestRequest = z.object({ url: cappedString(MAX_LENGTH.url).url().optional() }).meta({ id: 'WebhookTestRequest' });
export type WebhookTestRequest = z.input<typeof WebhookTestRequest>;

/** 200 of the test delivery: what the receiver answered. */
export const WebhookTestResult = z
  .object({ url: z.string(), response_status: z.number().int(), response_body: z.string().optional() })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

/** A receiver's answers to INCOMING_PAYMENT.PENDING (UMA rails): 200 approves, 403 rejects, 422 asks for data. */
export const IncomingPaymentApproval = z.object({
  receiverCustomerInfo: z.partialRecord(CustomerInfoFieldName, z.unknown()).optional(),
});
export const IncomingPaymentRejection = z.object({
  code: z.string().optional(), message: z.string().optional(), details: z.unknown().optional(), reason: z.string().optional(),
});
export const IncomingPaymentDataRequest = z.object({
  code: z.string().optional(), message: z.string().optional(), details: z.unknown().optional(),
  requiredFields: z.array(CustomerInfoFieldName),
});

export const webhookEndpoints = {
  sandboxWebhookTest: defineEndpoint({
    operationId: 'sandboxWebhookTest', method: 'POST', path: '/sandbox/webhooks/test', tag: 'Sandbox', body: WebhookTestRequest, bodyOptional: true,
    summary: 'Send a signed TEST event to `url`, or to the configured webhookEndpoint, and report the answer',
    description:
      'Sent once, never retried. No `url` and no webhookEndpoint: 400 WEBHOOK_ENDPOINT_NOT_SET. A receiver that cannot be ' +
      'reached or answers other than 2xx: 400 WEBHOOK_DELIVERY_ERROR with what it answered in `details`.',
    response: { status: 200, description: 'What the receiver answered', schema: WebhookTestResult },
  }),
  // The path the latest published reference SDK still calls: served so that SDK works unchanged (issue 33).
  webhookTestLegacy: defineEndpoint({
    operationId: 'webhookTestLegacy', method: 'POST', path: '/webhooks/test', tag: 'Sandbox', body: WebhookTestRequest, bodyOptional: true,
    deprecated: true,
    summary: 'Deprecated: send a signed TEST event (use POST /sandbox/webhooks/test)',
    description: 'Answers as POST /sandbox/webhooks/test does.',
    response: { status: 200, description: 'What the receiver answered', schema: WebhookTestResult },
  }),
} as const;
