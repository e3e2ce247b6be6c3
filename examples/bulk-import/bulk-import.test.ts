import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { bulkImportSandboxPlatform, importCustomers } from './bulk-import.js';

it('imports a CSV in process: four customers created with their KYC outcomes, two rows refused with their codes', async () => {
  const engine = createEngine();
  const root = createClient({ baseUrl: 'http://sandbox.in-process.test/2025-10-13', fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await importCustomers(await bulkImportSandboxPlatform(root), () => undefined);
  expect(trace).toEqual([
    'Uploaded: job PENDING',
    'Job COMPLETED: 4 created, 2 refused of 6',
    'Refused user-4: INVALID_UMA_ADDRESS',
    'Refused user-1: CONFLICT',
    'user-1: INDIVIDUAL APPROVED',
    'user-2: INDIVIDUAL APPROVED',
    'user-3: INDIVIDUAL PENDING',
    'biz-1: BUSINESS UNVERIFIED',
  ]);
});
