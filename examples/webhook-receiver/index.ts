// Receives the sandbox's webhooks on 127.0.0.1, verifying each one: start a sandbox (`pnpm serve`), then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`, and act on the platform (create a customer, pay)
// to see the events arrive. Ctrl-C stops it. Against production, set RAILYARD_WEBHOOK_PUBLIC_KEY to the key from the
// dashboard and point the platform's webhookEndpoint at a public URL of this receiver.
import { createClient } from '@railyard/client';
import { startWebhookReceiver } from './receiver.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});

// The platform's signing key: each sandbox platform has its own, at GET /_sandbox/webhook-key.
const publicKeyPem = process.env.RAILYARD_WEBHOOK_PUBLIC_KEY ?? (await client.sandbox.webhookKey()).publicKeyPem;
const receiver = await startWebhookReceiver({
  client,
  publicKeyPem,
  port: Number(process.env.PORT ?? 4200),
  onEvent: (event) => {
    if (event.type === 'OUTGOING_PAYMENT.COMPLETED') console.log(`  paid ${event.data.sentAmount.amount} ${event.data.sentAmount.currency.code}`);
  },
});
console.log(`Receiving webhooks at ${receiver.url}`);

// Point the platform at the receiver; the sandbox sends it a TEST event at once.
if (!process.env.RAILYARD_WEBHOOK_PUBLIC_KEY) await client.config.update({ webhookEndpoint: receiver.url });

await new Promise<void>((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});
await receiver.close();
