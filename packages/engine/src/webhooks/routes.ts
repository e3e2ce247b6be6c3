import { controlPlaneEndpoints, webhookEndpoints } from '@railyard/contract';
import { bind } from '../http/app.js';
import type { WebhookDispatcher } from './delivery.js';
import type { WebhookKey } from './signing.js';
import { sendTestWebhook } from './test-send.js';

/** HTTP bindings of webhooks: the test send and the platform's public key on the control plane. */
export const webhookRoutes = (dispatcher: WebhookDispatcher, keyOf: (platformId: string) => Promise<WebhookKey>) => [
  bind(webhookEndpoints.sandboxWebhookTest, ({ tenant, body }) => sendTestWebhook(tenant, dispatcher, body?.url)),
  bind(controlPlaneEndpoints.getSandboxWebhookKey, async ({ tenant }) => ({ publicKeyPem: (await keyOf(tenant.platform.id)).publicKeyPem })),
];
