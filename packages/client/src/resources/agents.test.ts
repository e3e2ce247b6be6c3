import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createAgentClient, redeemAgentDeviceCode } from '../agent-client.js';
import { createClient } from '../client.js';
import { AgentActionWaitTimeoutError, AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../core/errors.js';

// client.tokens, client.invitations, client.agents, and an agent's own client, against an in-process engine.

async function setup() {
  const engine = createEngine({ platform: { regulated: true } });
  const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sandbox: true, sleep: async () => undefined });
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] });
  const usd = (await client.internalAccounts.list({ customerId: customer.id })).data[0]!.id;
  await client.sandbox.fundInternalAccount(usd, 100_000);
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  });
  return { engine, client, customer, usd, bank: bank.id };
}

const policy = (mode: 'AUTO' | 'APPROVAL_REQUIRED') => ({
  permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'] as ('CREATE_QUOTES' | 'EXECUTE_QUOTES' | 'CREATE_TRANSFERS')[],
  defaultExecutionMode: mode, spendingLimits: { currency: 'USD', perTransactionLimit: 10_000 },
});

describe('client.tokens', () => {
  it('creates a token whose credentials make a client limited to its permissions, lists and deletes it', async () => {
    const { client } = await setup();
    const token = await client.tokens.create({ name: 'reporting', permissions: ['VIEW'] });
    const reporting = client.withOptions({ clientId: token.clientId, clientSecret: token.clientSecret });
    expect((await reporting.customers.list()).data).toHaveLength(1);
    const refused = await reporting.customers.create({ customerType: 'INDIVIDUAL', fullName: 'No One' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as PermissionDeniedError).details).toEqual({ requiredPermission: 'MANAGE' });
    const names: string[] = [];
    for await (const listed of client.tokens.list({ limit: 1 })) names.push(listed.name);
    expect(names).toEqual(['reporting']);
    expect(await client.tokens.retrieve(token.id)).not.toHaveProperty('clientSecret');
    await client.tokens.delete(token.id);
    await expect(reporting.customers.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('client.invitations', () => {
  it('creates, claims from another platform, and refuses a second claim with its code', async () => {
    const { client, engine } = await setup();
    const invitation = await client.invitations.create({ inviterUma: '$ada@example.com', amountToSend: 1_000 });
    expect(invitation).toMatchObject({ status: 'PENDING', amountToSend: { amount: 1_000 } });
    const other = engine.createPlatform({ name: 'provider' });
    const provider = client.withOptions({ clientId: other.clientId, clientSecret: other.clientSecret });
    expect((await provider.invitations.claim(invitation.code, '$grace@provider.example')).status).toBe('CLAIMED');
    const again = await provider.invitations.claim(invitation.code, '$x@provider.example').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BadRequestError);
    expect((again as BadRequestError).code).toBe('INVITATION_ALREADY_CLAIMED');
  });
});

describe('client.agents and the agent client', () => {
  it('connects an agent by its device code; the agent quotes and executes; the platform approves what waits', async () => {
    const { client, engine, customer, usd, bank } = await setup();
    const { agent, deviceCode } = await client.agents.create({ name: 'Budget bot', customerId: customer.id, policy: policy('APPROVAL_REQUIRED') });
    const { client: bot, redemption } = await redeemAgentDeviceCode(deviceCode.code, { fetch: engine.fetch, sleep: async () => undefined });
    expect(redemption.agentId).toBe(agent.id);
    expect((await client.agents.deviceCodeStatus(deviceCode.code)).redeemed).toBe(true);
    expect((await bot.me()).isConnected).toBe(true);
    const quote = await bot.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_000,
    });
    const waiting = await bot.quotes.execute(quote.id);
    expect(waiting.status).toBe('PENDING_APPROVAL');
    const timedOut = await bot.actions.waitFor(waiting.id, { timeout: 50, interval: 10 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(AgentActionWaitTimeoutError);
    const approvals = [];
    for await (const action of client.agents.listApprovals({ agentId: agent.id })) approvals.push(action.id);
    expect(approvals).toEqual([waiting.id]);
    expect((await client.agents.approveAction(agent.id, waiting.id)).status).toBe('APPROVED');
    expect(await bot.actions.waitFor(waiting.id)).toMatchObject({ status: 'APPROVED', transaction: { id: quote.transactionId } });
    expect((await bot.accounts.listInternal()).data.map((a) => a.id)).toEqual([usd]);
  });

  it('maps policy refusals to PermissionDeniedError with the rule; a deleted agent\'s client gets 401', async () => {
    const { client, engine, customer, usd, bank } = await setup();
    const { agent, deviceCode } = await client.agents.create({ name: 'bot', customerId: customer.id, policy: policy('AUTO') });
    const { redemption } = await redeemAgentDeviceCode(deviceCode.code, { fetch: engine.fetch });
    const bot = createAgentClient({ fetch: engine.fetch, accessToken: redemption.accessToken, maxRetries: 0 });
    const tooMuch = await bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount: 10_001 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(PermissionDeniedError);
    expect((tooMuch as PermissionDeniedError).details).toEqual({ rule: 'spendingLimits.perTransactionLimit' });
    expect((await bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount: 10_000 })).status).toBe('APPROVED');
    await client.agents.delete(agent.id);
    await expect(bot.me()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(redeemAgentDeviceCode(deviceCode.code, { fetch: engine.fetch })).rejects.toBeInstanceOf(NotFoundError);
  });
});
