import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { engineTriggerApi, triggerSandbox } from '../testing/trigger-api.js';
import type { TriggerApi } from './api.js';
import { NEEDS_WEBHOOK_ENDPOINT, NOT_EMITTED, recipeOf, TRIGGER_RECIPES, TriggerRefused } from './recipes.js';

// Every recipe of `railyard trigger`, run through the public API of a fresh in-process engine, on a regulated and on
// an unregulated (the `railyard serve` default) platform.

const ENDPOINT = 'https://platform.example/hooks';

const sandbox = triggerSandbox;
const apiOf = engineTriggerApi;

/** The platform's configuration, as GET /config shows it. */
const configOf = (api: TriggerApi) => api.call('GET', '/config');

/** The events of `type` the platform recorded, newest first (the last 100), and how many there are. */
const eventsOf = (engine: Engine, type: string) => engine.sandbox().events({ type, limit: 100 }).data;
const countOf = (engine: Engine, type: string) => engine.sandbox().events({ type, limit: 1 }).totalCount;

/** Ids the engine mints (`Customer:<uuid>`), and invitation codes (8 hex). */
const ID = /^[A-Z][A-Za-z]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The resource type each name of what a recipe made stands for (the prefix of its id). */
const KIND_OF: Record<string, string> = {
  customer: 'Customer', payee: 'Customer', account: 'InternalAccount', externalAccount: 'ExternalAccount', quote: 'Quote', transaction: 'Transaction',
  card: 'Card', cardTransaction: 'CardTransaction', verification: 'Verification', beneficialOwner: 'BeneficialOwner', agent: 'Agent',
  agentAction: 'AgentAction', job: 'Job',
};

/** Runs the recipe of `type` on `engine` and checks the event fired and every id it reports is a record of the platform. */
async function fires(engine: Engine, type: WebhookEventType, api = apiOf(engine)) {
  const before = countOf(engine, type);
  const created = await recipeOf(type)!.run(api);
  await engine.webhooks.settled();
  expect(countOf(engine, type), `${type} was not emitted`).toBeGreaterThan(before);
  const emitted = eventsOf(engine, type).slice(0, countOf(engine, type) - before);
  const state = JSON.stringify(engine.sandbox().snapshot());
  for (const [name, id] of Object.entries(created)) {
    if (name === 'invitation') {
      expect(id).toMatch(/^[0-9a-f]{8}$/);
      expect((await api.call('GET', `/invitations/${id}`)).status).toBe('CLAIMED');
    } else {
      expect(KIND_OF[name], `an unknown name ${name}`).toBeDefined();
      expect(id).toMatch(ID);
      expect(id.startsWith(`${KIND_OF[name]}:`), `${name} ${id}`).toBe(true);
    }
    expect(state, `${name} ${id} is not in the platform's state`).toContain(id);
  }
  return { api, created, emitted };
}

const PLATFORMS = [{ name: 'regulated', regulated: true }, { name: 'unregulated', regulated: false }] as const;

describe('trigger recipes', () => {
  it('cover every event type of the contract exactly once, each type either triggered or named as never emitted', () => {
    const triggered = TRIGGER_RECIPES.map((recipe) => recipe.type);
    expect(new Set(triggered).size).toBe(triggered.length);
    expect(triggered.filter((type) => type in NOT_EMITTED)).toEqual([]);
    expect([...triggered, ...Object.keys(NOT_EMITTED)].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(42);
    expect(Object.keys(NOT_EMITTED).sort()).toEqual(['INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED', 'VERIFICATION.READY_FOR_VERIFICATION']);
    expect(TRIGGER_RECIPES.every((recipe) => recipe.how.length > 10 && recipeOf(recipe.type) === recipe)).toBe(true);
    expect([recipeOf('TEST')?.type, recipeOf('test'), recipeOf('INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED')]).toEqual(['TEST', undefined, undefined]);
    expect([...NEEDS_WEBHOOK_ENDPOINT].sort()).toEqual([
      'INCOMING_PAYMENT.FAILED', 'INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.REFUND_COMPLETED', 'INCOMING_PAYMENT.REFUND_FAILED', 'INCOMING_PAYMENT.REFUND_PENDING', 'TEST',
    ]);
  });

  it('name as never emitted only types the engine source emits nowhere (neither by name nor through a status)', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const sources = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('trigger'))
      .map((file) => readFileSync(join(root, file), 'utf8'));
    expect(sources.some((text) => text.includes("tenant.emit('TEST'"))).toBe(true);
    for (const type of Object.keys(NOT_EMITTED)) {
      const [group, what] = type.split('.') as [string, string];
      expect(sources.filter((text) => text.includes(type)), type).toEqual([]);
      // VERIFICATION.${status}: no verification is ever opened or moved in that status.
      expect(sources.filter((text) => text.includes(`'${what}'`) && text.includes(`${group}.\${`)), type).toEqual([]);
    }
  });

  describe.each(PLATFORMS)('on a $name platform', ({ regulated }) => {
    it.each(TRIGGER_RECIPES.map((recipe) => [recipe.type, recipe.how] as const))('%s: %s', async (type) => {
      const engine = sandbox(regulated);
      const api = apiOf(engine);
      // A platform with an endpoint for the recipes that need one: they change no configuration, whatever they need.
      if (NEEDS_WEBHOOK_ENDPOINT.has(type)) await api.call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
      const config = await configOf(api);
      const { emitted } = await fires(engine, type);
      expect(await configOf(api)).toEqual(config);
      expect(emitted.every((event) => event.type === type)).toBe(true);
    });
  });

  it('advance the clock only as long as the flow needs', async () => {
    const waits: Record<string, number[]> = {};
    for (const { regulated } of PLATFORMS) {
      for (const type of ['CUSTOMER.KYC_APPROVED', 'CUSTOMER.KYC_PENDING', 'OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.EXPIRED', 'BULK_UPLOAD.COMPLETED', 'VERIFICATION.IN_PROGRESS'] as const) {
        const engine = sandbox(regulated);
        const api = apiOf(engine);
        await recipeOf(type)!.run(api);
        waits[`${regulated ? 'regulated' : 'unregulated'} ${type}`] = api.advanced;
      }
    }
    expect(waits).toEqual({
      'regulated CUSTOMER.KYC_APPROVED': [],
      'regulated CUSTOMER.KYC_PENDING': [],
      'regulated OUTGOING_PAYMENT.COMPLETED': [],
      'regulated OUTGOING_PAYMENT.EXPIRED': [5 * 60_000],
      'regulated BULK_UPLOAD.COMPLETED': [1_000],
      'regulated VERIFICATION.IN_PROGRESS': [],
      // The packet's review.
      'unregulated CUSTOMER.KYC_APPROVED': [2_000],
      'unregulated CUSTOMER.KYC_PENDING': [],
      'unregulated OUTGOING_PAYMENT.COMPLETED': [2_000],
      'unregulated OUTGOING_PAYMENT.EXPIRED': [2_000, 5 * 60_000],
      'unregulated BULK_UPLOAD.COMPLETED': [1_000],
      'unregulated VERIFICATION.IN_PROGRESS': [],
    });
  });

  it('run again on the same platform: new records, new events', async () => {
    for (const { regulated } of PLATFORMS) {
      const engine = sandbox(regulated);
      await apiOf(engine).call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
      for (const recipe of TRIGGER_RECIPES) {
        const first = await fires(engine, recipe.type);
        const second = await fires(engine, recipe.type);
        const ids = (made: Record<string, string>) => Object.values(made);
        expect(ids(second.created).filter((id) => ids(first.created).includes(id)), recipe.type).toEqual([]);
      }
    }
  }, 60_000);

  it('make the real outcome: the payment, customer or card as the event type says', async () => {
    const engine = sandbox(false);
    const api = apiOf(engine);
    const completed = await recipeOf('OUTGOING_PAYMENT.COMPLETED')!.run(api);
    expect(await api.call('GET', `/transactions/${completed.transaction}`)).toMatchObject({ status: 'COMPLETED', sentAmount: { amount: 1_000 } });
    const refunded = await recipeOf('OUTGOING_PAYMENT.REFUND_COMPLETED')!.run(api);
    expect(await api.call('GET', `/transactions/${refunded.transaction}`)).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_INVALID', refund: { status: 'COMPLETED' } });
    const rejected = await recipeOf('CUSTOMER.KYC_REJECTED')!.run(api);
    expect(await api.call('GET', `/customers/${rejected.customer}`)).toMatchObject({ kycStatus: 'REJECTED', fullName: expect.stringMatching(/^Rex Rejected [a-z]{8}002$/) });
    const business = await recipeOf('CUSTOMER.KYB_PENDING')!.run(api);
    expect(await api.call('GET', `/verifications/${business.verification}`)).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', customerId: business.customer });
    const exception = await recipeOf('CARD_TRANSACTION.EXCEPTION')!.run(api);
    expect(await api.call('GET', `/transactions/${exception.cardTransaction}`)).toMatchObject({ status: 'EXCEPTION' });
    const wallet = await recipeOf('INTERNAL_ACCOUNT.STATUS_UPDATED')!.run(api);
    await engine.webhooks.settled();
    expect(eventsOf(engine, 'INTERNAL_ACCOUNT.STATUS_UPDATED')[0]!.data).toMatchObject({ id: wallet.account, type: 'EMBEDDED_WALLET', privateEnabled: true });
    const proven = await recipeOf('EXTERNAL_ACCOUNT.STATUS_UPDATED')!.run(api);
    expect(await api.call('GET', `/platform/external-accounts/${proven.externalAccount}`)).toMatchObject({ status: 'ACTIVE' });
    const job = await recipeOf('BULK_UPLOAD.FAILED')!.run(api);
    expect(await api.call('GET', `/customers/bulk/jobs/${job.job}`)).toMatchObject({ status: 'FAILED', progress: { total: 1, failed: 1 } });
  });

  it('refuse what needs a webhook endpoint on a platform without one, before making anything, and leave it without one', async () => {
    const engine = sandbox(false);
    const api = apiOf(engine);
    const config = await configOf(api);
    expect(config.webhookEndpoint).toBeUndefined();
    for (const type of NEEDS_WEBHOOK_ENDPOINT) {
      await expect(recipeOf(type)!.run(api), type).rejects.toThrow(TriggerRefused);
    }
    await expect(recipeOf('TEST')!.run(api)).rejects.toThrow(/PATCH \/config/);
    expect(await configOf(api)).toEqual(config);
    expect((await api.call('GET', '/customers')).data).toEqual([]);
    expect(engine.sandbox().events({ limit: 100 }).data).toEqual([]);
  });

  it('say so when the platform\'s endpoint approved an incoming payment first; go on when it rejected it', async () => {
    const approving = sandbox(true, 200);
    const api = apiOf(approving, true);
    await api.call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
    await expect(recipeOf('INCOMING_PAYMENT.FAILED')!.run(api)).rejects.toThrow(/decided incoming payment Transaction:\S+ first \(it is COMPLETED, not FAILED\)/);
    await expect(recipeOf('INCOMING_PAYMENT.REFUND_PENDING')!.run(api)).rejects.toThrow(/\(it is COMPLETED, not REJECTED\)/);
    const rejecting = sandbox(true, 403);
    await apiOf(rejecting).call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
    const { created } = await fires(rejecting, 'INCOMING_PAYMENT.REFUND_COMPLETED', apiOf(rejecting, true));
    expect(await apiOf(rejecting).call('GET', `/transactions/${created.transaction}`)).toMatchObject({ status: 'REJECTED', refund: { status: 'COMPLETED' } });
  });

  it('TEST goes to the endpoint as it is, and fails as the endpoint does', async () => {
    let answer = 200;
    const urls: string[] = [];
    const engine = createEngine({ webhooks: { fetch: async (url) => {
      urls.push(String(url));
      return new Response(null, { status: answer });
    } } });
    const api = apiOf(engine);
    await api.call('PATCH', '/config', { webhookEndpoint: ENDPOINT });
    await engine.webhooks.settled();
    const config = await configOf(api);
    await recipeOf('TEST')!.run(api);
    expect(eventsOf(engine, 'TEST')).toHaveLength(2);
    expect(urls).toEqual([ENDPOINT, ENDPOINT]);
    answer = 500;
    await expect(recipeOf('TEST')!.run(api)).rejects.toThrow(/WEBHOOK_DELIVERY_ERROR/);
    expect(eventsOf(engine, 'TEST')).toHaveLength(2);
    expect(await configOf(api)).toEqual(config);
  });
});
