import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { runQuickstart } from './quickstart.js';

it('the quickstart runs against an in-process sandbox and prints its trace', async () => {
  const engine = createEngine();
  const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runQuickstart(client, () => undefined);
  expect(trace[0]).toBe('End-user terms V1: https://sandbox.railyard.dev/legal/end-user-terms/v1');
  expect(trace).toContain('Rejected a bad customer: 400 INVALID_INPUT, 3 invalid fields:');
  expect(trace).toContain('Rejected a duplicate platformCustomerId: 409 CONFLICT');
  expect(trace).toContain('Listed customers one per page: quickstart-acme, quickstart-ada');
  expect(trace.at(-1)).toMatch(/^Internal account InternalAccount:[0-9a-f-]{36}: 0 USD \(INTERNAL_FIAT, ACTIVE\)$/);
});
