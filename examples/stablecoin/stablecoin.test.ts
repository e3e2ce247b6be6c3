import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { runStablecoin, stablecoinSandboxPlatform } from './stablecoin.js';

it("links, registers, enables, mints from an account and by wire, burns to the customer's bank by the wallet's signature, and reads the reserve, in process", async () => {
  const engine = createEngine();
  const root = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runStablecoin(await stablecoinSandboxPlatform(root), () => undefined);
  expect(trace[0]).toMatch(/^Link brale_acct_[0-9a-f]{12}: ACTIVE; coin USDX: PENDING_REVIEW → PROVISIONED$/);
  expect(trace[1]).toBe('Enablement: NOT_ENABLED → PENDING_APPROVAL → ENABLED (currency USDX)');
  expect(trace[2]).toBe('Mint 25 from the USD account: CREATED → COMPLETED');
  expect(trace[3]).toMatch(/^Wire 10\.00 USD to account \d{12} \(routing 021000021\), reference MINT-\d{8}$/);
  expect(trace.slice(4)).toEqual([
    'Mint 10 by wire: CREATED → COMPLETED',
    "Burn 30 without the wallet's signature: SIGNATURE_REQUIRED",
    'Burn 30 to the bank, signed by the wallet: estimated 30.00 USD within a minute',
    'Burn 30: CREATED → COMPLETED',
    'Reserve: 5.00 USD; tokens in the wallet: 5.00 USD worth',
    'USD account: 75.00 USD',
    'Operations, newest first: BURN COMPLETED, MINT COMPLETED, MINT COMPLETED',
  ]);
});
