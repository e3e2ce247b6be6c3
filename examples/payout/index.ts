// Pays out from a funded customer to a bank account and to an UMA address against a running sandbox:
// `pnpm serve` (add `--clock virtual` to let waiting advance the clock), then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { createClient } from '@railyard/client';
import { regulatedSandboxPlatform, runPayout } from './payout.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
await runPayout(await regulatedSandboxPlatform(client));
