// Issues a card and runs a purchase through the sandbox card network against a running sandbox:
// `pnpm serve` (add `--clock virtual` to let waiting advance the clock), then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { createClient } from '@railyard/client';
import { cardSandboxPlatform, runCards } from './cards.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
await runCards(await cardSandboxPlatform(client));
