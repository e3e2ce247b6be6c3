/**
 * One event as the control plane shows it (`GET /_sandbox/events/{id}`: its attempts and the signed body a delivery
 * sends) and a redelivery of it (`POST /_sandbox/events/{id}/redeliver`): one more signed POST to the webhook endpoint,
 * recorded with its other attempts. A redelivery leaves the event's delivery state as it was.
 */
import type { SandboxEventDetail } from '@railyard/contract';
import { eventsOf, type OutboxEvent, type TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { settingsOf } from '../platforms/config.js';
import { envelopeOf, type WebhookDispatcher } from './delivery.js';
import { signatureHeader, type WebhookKey } from './signing.js';
import { endpointNotSet } from './test-send.js';

type KeyOf = (platformId: string) => Promise<WebhookKey>;

function eventOf(tenant: TenantContext, eventId: string): OutboxEvent {
  const event = eventsOf(tenant).get(eventId);
  if (event === undefined) throw notFound('Webhook', eventId);
  return event;
}

/** The event with its payload and that payload's signature, as a delivery carries them. */
async function detailOf(tenant: TenantContext, keyOf: KeyOf, event: OutboxEvent): Promise<SandboxEventDetail> {
  const payload = envelopeOf(event);
  return { ...event, payload, signature: await signatureHeader(await keyOf(tenant.platform.id), payload) };
}

/** `GET /_sandbox/events/{eventId}`. */
export const eventDetail = (tenant: TenantContext, keyOf: KeyOf, eventId: string): Promise<SandboxEventDetail> =>
  detailOf(tenant, keyOf, eventOf(tenant, eventId));

/** `POST /_sandbox/events/{eventId}/redeliver`: sends it now, and answers once the endpoint has (or could not be reached). */
export async function redeliverEvent(tenant: TenantContext, dispatcher: WebhookDispatcher, keyOf: KeyOf, eventId: string): Promise<SandboxEventDetail> {
  const event = eventOf(tenant, eventId);
  const url = settingsOf(tenant).webhookEndpoint;
  if (url === undefined) throw endpointNotSet();
  // A receiver may take its time: the platform's other requests go on meanwhile.
  await tenant.outsideUnit(() => dispatcher.send(tenant, event, url));
  return detailOf(tenant, keyOf, eventOf(tenant, eventId));
}
