import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { regulatedSandboxPlatform, runPayout } from './payout.js';

it('funds a customer and pays a bank account and an UMA address against an in-process sandbox', async () => {
  const engine = createEngine();
  const root = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runPayout(await regulatedSandboxPlatform(root), () => undefined);
  expect(trace[0]).toMatch(/^Customer Customer:\S+ \(APPROVED\) with InternalAccount:\S+$/);
  expect(trace).toContain('Funded: balance 500.00 USD');
  expect(trace).toContainEqual(expect.stringMatching(/^Quote Quote:\S+: send 120.00 USD, receive 120.00 USD, fees 0.00 USD$/));
  expect(trace).toContainEqual(expect.stringMatching(/^Bank payout Transaction:\S+: COMPLETED$/));
  expect(trace).toContain('UMA receiver $success.usd@uma.sandbox.railyard.dev takes USD');
  expect(trace).toContainEqual(expect.stringMatching(/^UMA payment Transaction:\S+: COMPLETED$/));
  expect(trace.slice(-4)).toEqual([
    '  INCOMING   500.00 USD  COMPLETED',
    '  OUTGOING   120.00 USD  COMPLETED',
    '  OUTGOING    25.00 USD  COMPLETED',
    'Balance: 355.00 USD',
  ]);
});
