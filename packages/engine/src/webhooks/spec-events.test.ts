import { TypedWebhookEvent, WEBHOOK_EVENT_TYPES } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { NEEDS_WEBHOOK_ENDPOINT, NOT_EMITTED, TRIGGER_RECIPES } from '../trigger/recipes.js';
import { engineTriggerApi, triggerSandbox } from '../testing/trigger-api.js';

// Every event type of SPEC §6 and REFERENCE §8 the engine emits, each through the flow `railyard trigger` runs for it
// (trigger/recipes.ts), and every event those flows emit has the shape its type promises. The types the engine never
// emits are named in NOT_EMITTED with the reason.

const sandbox = triggerSandbox;
const apiOf = (engine: Engine) => engineTriggerApi(engine);

describe('every event type of SPEC §6 is emitted', () => {
  it('every event type of the contract is either triggered or named with the reason it never is', () => {
    const triggered = TRIGGER_RECIPES.map((recipe) => recipe.type);
    expect(new Set(triggered).size).toBe(triggered.length);
    expect([...triggered, ...Object.keys(NOT_EMITTED)].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  describe.each([{ regulated: true }, { regulated: false }])('regulated: $regulated', ({ regulated }) => {
    it.each(TRIGGER_RECIPES.map((recipe) => [recipe.type, recipe.how, recipe] as const))('%s: %s', async (type, _how, recipe) => {
      const engine = sandbox(regulated);
      const api = apiOf(engine);
      if (NEEDS_WEBHOOK_ENDPOINT.has(type)) await api.call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/hooks' });
      await recipe.run(api);
      await engine.webhooks.settled();
      expect(engine.sandbox().events({ type, limit: 1 }).totalCount, `${type} was not emitted`).toBeGreaterThan(0);
      // Every event of the flow, not only the one it is for.
      const emitted = engine.sandbox().events({ limit: 100 });
      expect(emitted.hasMore).toBe(false);
      for (const event of emitted.data) {
        const parsed = TypedWebhookEvent.safeParse({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
        expect(parsed.success, `${event.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    });
  });
});
