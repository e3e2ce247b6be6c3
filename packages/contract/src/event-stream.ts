import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { cappedString, Timestamp } from './common.js';

/**
 * The control plane's event stream (DESIGN §3 `/_sandbox/`): a platform's events as they happen, as server-sent events,
 * for `railyard listen --forward-to`, the dashboard's live feed and anyone's `EventSource`. Each event is one message:
 * its `id:` is the event's id (so a reconnecting client's `Last-Event-ID` resumes right after it) and its `data:` is a
 * {@link SandboxStreamEvent}: the webhook delivery the sandbox would make, envelope and signature, ready to forward.
 */

/** The `Content-Type` of the stream. */
export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream';

/** The header a reconnecting client names the last event it got with (the SSE standard's). */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/** The types the stream may be narrowed to: the `type` query is a comma-separated list of them. */
export const StreamEventsQuery = z.object({
  /** Event types, comma-separated (`OUTGOING_PAYMENT.COMPLETED,CUSTOMER.KYC_APPROVED`); every type when absent. */
  type: cappedString(4_000).optional(),
  /**
   * Start right after this event, as the `Last-Event-ID` header does (which wins when both are sent): for a first
   * connection that resumes, where an `EventSource` cannot set headers. Without either, the stream starts with the
   * next event emitted. An id the platform does not have (a reset or a restore since) starts from its first event.
   */
  lastEventId: cappedString(200).optional(),
});
export type StreamEventsQuery = z.infer<typeof StreamEventsQuery>;

/** One message of the stream: an event, and the webhook the sandbox signs for it. */
export const SandboxStreamEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    timestamp: Timestamp,
    /** The event's place in the platform's emission order. */
    order: z.number().int().min(1),
    /** The webhook body exactly as the sandbox sends it (SPEC §6): forward these bytes unchanged. */
    body: z.string(),
    /** The `X-Service-Signature` value over `body`, made with the platform's webhook key (verify with `/_sandbox/webhook-key`). */
    signature: z.string(),
  })
  .meta({ id: 'SandboxStreamEvent' });
export type SandboxStreamEvent = z.infer<typeof SandboxStreamEvent>;

export const eventStreamEndpoints = {
  streamSandboxEvents: defineEndpoint({
    operationId: 'streamSandboxEvents', method: 'GET', path: '/_sandbox/events/stream', tag: 'Sandbox control plane', controlPlane: true,
    query: StreamEventsQuery,
    summary: "The platform's events as they happen, as server-sent events, each with its signed webhook body",
    description:
      'A `text/event-stream` that stays open: one message per event (`id:` the event id, `data:` a SandboxStreamEvent), ' +
      'and a comment every 15 seconds to keep proxies from closing it. Send `Last-Event-ID` (or `?lastEventId=`) to ' +
      'resume after an event: every event after it comes first, in order, then the new ones. Events are sent once ' +
      'they are stored, so a durable sandbox never streams a change it did not keep.',
    response: { status: 200, description: 'The stream (server-sent events)', contentType: EVENT_STREAM_CONTENT_TYPE },
  }),
  streamSandboxLogs: defineEndpoint({
    operationId: 'streamSandboxLogs', method: 'GET', path: '/_sandbox/logs/stream', tag: 'Sandbox control plane', controlPlane: true,
    summary: "The platform's requests and webhook delivery attempts as they happen, as server-sent events (`railyard logs --follow`)",
    description:
      'A `text/event-stream` that stays open: one message per request the platform\'s credentials made (once answered) and ' +
      'per webhook delivery attempt, `data:` the JSON line `railyard serve --log-format json` prints for it (`kind` ' +
      '`request` or `webhook`, `at`, then the entry). Paths show secret parameters by name; no body, query, signature ' +
      'or credential is ever in it. The log has no history: it starts with what happens next.',
    response: { status: 200, description: 'The stream (server-sent events)', contentType: EVENT_STREAM_CONTENT_TYPE },
  }),
} as const;
