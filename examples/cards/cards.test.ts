import { createClient } from '@railyard/client';
import { createEngine } from '@railyard/engine';
import { expect, it } from 'vitest';
import { cardSandboxPlatform, runCards } from './cards.js';

it('issues a card, authorizes, clears above the authorization, returns part of it and reads the ledger, in process', async () => {
  const engine = createEngine();
  const root = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  const trace = await runCards(await cardSandboxPlatform(root), () => undefined);
  expect(trace[0]).toMatch(/^Card grace-card-042: PROCESSING → ACTIVE, VISA •••• 0042, expires \d{1,2}\/\d{4}$/);
  expect(trace.slice(1, 4)).toEqual([
    'Authorized: AUTHORIZED authorized 12.50 USD, settled 0.00 USD, returned 0.00 USD, 1 pulls of 12.50 USD',
    'Cleared: SETTLED authorized 12.50 USD, settled 15.00 USD, returned 0.00 USD, 2 pulls of 15.00 USD',
    'Returned: SETTLED authorized 12.50 USD, settled 15.00 USD, returned 5.00 USD, 2 pulls of 15.00 USD',
  ]);
  expect(trace.slice(4)).toEqual([
    '  CARD_PULL        cardholder -12.50 USD, card-network:USD +12.50 USD',
    '  CARD_PULL        cardholder -2.50 USD, card-network:USD +2.50 USD',
    '  CARD_SETTLEMENT  card-network:USD -15.00 USD, world:USD +15.00 USD',
    '  CARD_RETURN      world:USD -5.00 USD, cardholder +5.00 USD',
    'Balance: 90.00 USD',
  ]);
});
