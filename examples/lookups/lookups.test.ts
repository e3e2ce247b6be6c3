import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { lookupsSandboxPlatform, runLookups } from './lookups.js';

it('names a bank from the directory, pays it with its lookup, opens a VASP wallet, lists UMA providers and prices a withdrawal, in process', async () => {
  const engine = createEngine();
  const root = createClient({ baseUrl: 'http://sandbox.in-process.test/2025-10-13', fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runLookups(await lookupsSandboxPlatform(root), () => undefined);
  expect(trace).toEqual([
    'Banks in Nigeria: Access Bank, Zenith Bank',
    'The account receives NGN at about 1550 per USD',
    // 10.00 USD less the service's 0.52 fee, at 1550 NGN per USD.
    'Quote: 10.00 USD sends 14694.00 NGN',
    'Executed: PROCESSING',
    '8 VASPs; a wallet at Coinbase is ACTIVE',
    'UMA providers in the US: Railyard Sandbox UMA, Northwind Pay',
    'Withdrawal fee: 5000 SOL network fee, 25750 USDC units in all, 24974250 arrive',
    'Withdrawing 700 units: refused (AMOUNT_OUT_OF_RANGE)',
  ]);
});
