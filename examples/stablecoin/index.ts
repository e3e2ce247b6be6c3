// Issues a stablecoin and mints and burns it against a running sandbox with a virtual clock (a coin's review and
// provisioning take minutes of engine time): `pnpm serve --clock virtual`, then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { createClient } from '@railyard/client';
import { runStablecoin, stablecoinSandboxPlatform } from './stablecoin.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
await runStablecoin(await stablecoinSandboxPlatform(client));
