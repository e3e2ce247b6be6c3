// Runs the SCA factors example against a running sandbox with a virtual clock: `pnpm serve --clock virtual`, then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { createClient } from '@railyard/client';
import { runScaFactors } from './sca-factors.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
const platform = await client.sandbox.platforms.create({ name: 'SCA factors example' });
await runScaFactors(client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret }));
