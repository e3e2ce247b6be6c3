import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { agentSandboxPlatform, runAgent } from './agent.js';

it('connects an agent, lets it pay on its own, has the platform approve one payment and its policy refuse another, in process', async () => {
  const engine = createEngine();
  const connection = { baseUrl: 'http://sandbox.in-process.test/2025-10-13', fetch: engine.fetch };
  const root = createClient({ ...connection, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runAgent(await agentSandboxPlatform(root), connection, () => undefined);
  expect(trace).toEqual([
    'Agent Budget bot connected: true',
    'Transfer of 20.00 USD: APPROVED, transaction PROCESSING',
    'Payment of 75.00 USD: PENDING_APPROVAL',
    'Waiting for the platform: 1',
    'After approval: APPROVED, transaction PROCESSING',
    'Transfer of 250.00 USD: refused (FORBIDDEN, spendingLimits.perTransactionLimit)',
    'Usage today: 2 payments, 95.00 USD',
    'Balance: 405.00 USD',
  ]);
});
