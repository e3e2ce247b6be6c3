import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { delegatedKeySandboxPlatform, runDelegatedKeys } from './delegated-keys.js';

it('a wallet funds the card only while its delegated key is ACTIVE, in process', async () => {
  const engine = createEngine();
  const root = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runDelegatedKeys(await delegatedKeySandboxPlatform(root), () => undefined);
  expect(trace.slice(1)).toEqual([
    'Coffee without a delegated key: DECLINED (NO_ACTIVE_DELEGATED_KEY)',
    'Delegated key "Coffee card": ACTIVE',
    'Coffee with the key: APPROVED, AUTHORIZED; the wallet holds 45.50 USDB',
    'After revoking (REVOKED): DECLINED (NO_ACTIVE_DELEGATED_KEY)',
  ]);
  expect(trace[0]).toMatch(/^Card •••• \d{4} funded by the wallet, which holds 50\.00 USDB$/);
  engine.close();
});
