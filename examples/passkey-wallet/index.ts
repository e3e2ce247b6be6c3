// Runs the passkey wallet page against a sandbox over HTTP. Start one with `npx -y pnpm@10 serve` (or
// `node packages/engine/dist/cli.cjs serve`), then `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`
// and open the printed http://localhost:<port>/ in a browser with a passkey authenticator.
import { createClient } from '@railyard/client';
import { bundlePage } from './build.js';
import { provisionWallet, startPasskeyWalletServer } from './server.js';

const client = createClient({
  baseUrl: process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13',
  clientId: process.env.RAILYARD_CLIENT_ID ?? 'sandbox-client-id',
  clientSecret: process.env.RAILYARD_CLIENT_SECRET ?? 'sandbox-client-secret',
});
const wallet = await provisionWallet(client, { fullName: 'Wally Wallet', email: `wally+${Date.now()}@example.com` });
const server = await startPasskeyWalletServer({ client, wallet, script: await bundlePage(), port: Number(process.env.PORT ?? 0) });
console.log(`Wallet ${wallet.accountId}: open ${server.url} (the email code is 000000 in the sandbox)`);
