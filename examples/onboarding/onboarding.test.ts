import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { runOnboarding } from './onboarding.js';

it('onboards an individual and a business end to end against an in-process sandbox', async () => {
  const engine = createEngine();
  const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runOnboarding(client, () => undefined);
  expect(trace[0]).toMatch(/^Individual Customer:\S+: RESOLVE_ERRORS, needs fields birthDate, nationality, address.line1, address.postalCode, address.country, idType, identifier and MISSING_IDENTITY_DOCUMENT$/);
  expect(trace).toContain('Resubmitted: IN_PROGRESS');
  expect(trace).toContain('After review: verification APPROVED, customer APPROVED');
  expect(trace).toContain('Submitted business: IN_PROGRESS');
  expect(trace.at(-1)).toBe('After review: business APPROVED, owners Somerville APPROVED, Babbage APPROVED');
});
