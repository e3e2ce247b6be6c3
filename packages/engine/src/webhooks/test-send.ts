/**
 * `POST /sandbox/webhooks/test` (SPEC §4.6; REFERENCE §8): a signed TEST event (`data: {}`), sent once to the given URL
 * or the configured endpoint, with the receiver's answer in the response (its status only, in a public sandbox).
 */
import type { WebhookTestResult } from '@railyard/contract';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField } from '../core/errors.js';
import { settingsOf } from '../platforms/config.js';
import { MAX_SHOWN_ANSWER_CHARS, type WebhookDispatcher } from './delivery.js';

/** 400 WEBHOOK_ENDPOINT_NOT_SET: what to do about it, and (`orUrl`) the other way out where the call takes a URL. */
export const endpointNotSet = (orUrl = ''): ApiError =>
  new ApiError(400, 'WEBHOOK_ENDPOINT_NOT_SET', `No webhook endpoint: set one with PATCH /config {"webhookEndpoint": url}${orUrl}`);

export async function sendTestWebhook(tenant: TenantContext, dispatcher: WebhookDispatcher, url: string | undefined): Promise<WebhookTestResult> {
  const refusal = url === undefined ? undefined : dispatcher.endpointRefusal(url);
  if (refusal !== undefined) throw invalidField('url', refusal);
  const target = url ?? settingsOf(tenant).webhookEndpoint;
  if (target === undefined) {
    throw endpointNotSet(', or send {"url": ...}');
  }
  // The event is recorded only once the receiver took it: a refused test changes nothing.
  const event = tenant.draftEvent('TEST', {});
  // A receiver may take its time: the platform's other requests go on meanwhile.
  const result = await tenant.outsideUnit(() => dispatcher.send(tenant, event, target));
  // A public sandbox shows the status a receiver answered, never its body.
  const body = dispatcher.publicEndpointsOnly ? undefined : result.body?.slice(0, MAX_SHOWN_ANSWER_CHARS);
  if (result.status === undefined || result.status < 200 || result.status >= 300) {
    throw new ApiError(400, 'WEBHOOK_DELIVERY_ERROR',
      result.status === undefined ? `${target} could not be reached: ${result.error}` : `${target} answered ${result.status}, not 2xx`,
      { url: target, ...(result.status === undefined ? { error: result.error } : { response_status: result.status, ...(body === undefined ? {} : { response_body: body }) }) });
  }
  tenant.record({ ...event, deliveries: [result.attempt] }, { deliver: false });
  return { url: target, response_status: result.status, ...(body ? { response_body: body } : {}) };
}
