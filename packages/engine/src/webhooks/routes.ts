import { controlPlaneEndpoints, WEBHOOK_SIGNATURE_HEADER, webhookEndpoints } from '@railyard/contract';
import { ApiError } from '../core/errors.js';
import { bind } from '../http/app.js';
import { bodyTextOf } from '../http/signed.js';
import type { WebhookDispatcher } from './delivery.js';
import { isValidSignatureHeader, type WebhookKey } from './signing.js';
import { eventDetail, redeliverEvent } from './redeliver.js';
import { sendTestWebhook } from './test-send.js';

/** HTTP bindings of webhooks: the test send, and the platform's public key and a signature check on the control plane. */
export const webhookRoutes = (dispatcher: WebhookDispatcher, keyOf: (platformId: string) => Promise<WebhookKey>) => [
  bind(webhookEndpoints.sandboxWebhookTest, ({ tenant, body }) => sendTestWebhook(tenant, dispatcher, body?.url)),
  bind(webhookEndpoints.webhookTestLegacy, ({ tenant, body }) => sendTestWebhook(tenant, dispatcher, body?.url)),
  bind(controlPlaneEndpoints.getSandboxEvent, ({ tenant, params }) => eventDetail(tenant, keyOf, params.eventId)),
  bind(controlPlaneEndpoints.redeliverSandboxEvent, ({ tenant, params }) => redeliverEvent(tenant, dispatcher, keyOf, params.eventId)),
  bind(controlPlaneEndpoints.getSandboxWebhookKey, async ({ tenant }) => ({ publicKeyPem: (await keyOf(tenant.platform.id)).publicKeyPem })),
  bind(controlPlaneEndpoints.verifySandboxWebhookSignature, async ({ tenant, request, signable }) => {
    const header = request.header(WEBHOOK_SIGNATURE_HEADER.toLowerCase());
    if (!(await isValidSignatureHeader(await keyOf(tenant.platform.id), bodyTextOf(signable), header))) {
      throw new ApiError(401, 'INVALID_SIGNATURE', header === null
        ? `Send the ${WEBHOOK_SIGNATURE_HEADER} header the delivery came with`
        : `${WEBHOOK_SIGNATURE_HEADER} is not this platform's signature over this exact body`);
    }
  }),
];
