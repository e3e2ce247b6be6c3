// Connects an agent and lets it pay against a running sandbox: `pnpm serve`, then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { createClient } from '@railyard/client';
import { agentSandboxPlatform, runAgent } from './agent.js';

const baseUrl = process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13';
const client = createClient({
  baseUrl,
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
await runAgent(await agentSandboxPlatform(client), { baseUrl });
